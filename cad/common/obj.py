"""A piece as a Wavefront OBJ mesh for virtual tables, coloured by a palette texture.

Virtual tables (Tabletop Simulator's custom models) take one mesh and one texture an
object: each part of a piece (a token's body, the ink in its deboss) keeps its colour by
mapping all its faces to that colour's square on a small palette image. The mesh is in
inches (the table's unit), Y up as OBJ has it (a rotation of the kit's Z-up frame, never
a mirror: an L piece stays an L), centred over the origin and resting on y = 0.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import numpy as np

from cad.common.meshes import Mesh

INCH = 25.4
SQUARE = 8  #: a colour's square on the palette, in px (the texture filter stays inside it)


def obj(parts: Sequence[tuple[Mesh, str]], name: str) -> tuple[bytes, bytes]:
    """The OBJ text of ``parts`` ((mesh in mm, colour ``#RRGGBB``) each) and its palette PNG."""
    from PIL import Image

    colours = list(dict.fromkeys(colour.upper() for _, colour in parts))
    every = np.concatenate([m.vertices for m, _ in parts])
    lo, hi = every.min(axis=0), every.max(axis=0)
    centre = np.array([(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, lo[2]])
    out = io.StringIO()
    out.write(f"# {name}: {len(parts)} part(s), inches, Y up\no {name}\n")
    for k in range(len(colours)):
        out.write(f"vt {(k + 0.5) / len(colours):.6f} 0.500000\n")
    base = 0
    for mesh, colour in parts:
        v = (mesh.vertices - centre) / INCH
        for x, y, z in v:  # (x, y, z) Z up -> (x, z, -y) Y up: a quarter turn about x
            out.write(f"v {x:.5f} {z:.5f} {-y:.5f}\n")
        t = colours.index(colour.upper()) + 1
        for a, b, c in mesh.triangles + base + 1:
            out.write(f"f {a}/{t} {b}/{t} {c}/{t}\n")
        base += len(mesh.vertices)
    palette = Image.new("RGB", (SQUARE * len(colours), SQUARE))
    for k, colour in enumerate(colours):
        palette.paste(tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5)), (k * SQUARE, 0, (k + 1) * SQUARE, SQUARE))
    png = io.BytesIO()
    palette.save(png, format="PNG")
    return out.getvalue().encode(), png.getvalue()


def vertices(parts: Sequence[tuple[Mesh, str]]) -> int:
    return sum(len(m.vertices) for m, _ in parts)
