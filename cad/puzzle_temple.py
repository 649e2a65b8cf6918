"""Puzzle Temple in 3D: blocks and lock cards as CadQuery solids, and the proof that every
stored solution fits its card's pocket.

Measures come from ``cad.common.profile.Physical``. A block is its cells at the pitch,
shrunk by half the clearance on every side (two blocks side by side leave one clearance
between them), extruded to the block height, its bottom edges chamfered against elephant
foot and its top edges softened. A lock pocket is the lock's cells at the pitch grown by the
clearance on every side, cut ``pocket_depth`` into the card plate. So a block lies at least
one clearance from its neighbours and one and a half from a pocket wall.

This slice builds the blocks, the card plate with its pocket and the assembled solutions;
the die rows, icons, card ids, board, jewels, pawns and coupon come next.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import cadquery as cq
import numpy as np

from cad.common.meshes import Mesh
from cad.common.outline import offset
from cad.common.profile import Physical
from generators.puzzle_temple.deck import Card, Deck, Face

Cell = tuple[int, int]

#: Plate around the lock pocket, mm (the die rows join it in the next slice).
RIM = 6.0


def _wires(loops: Sequence[Sequence[tuple[float, float]]]) -> list[cq.Wire]:
    """Closed polygons at z = 0: the outer loop first, then the holes."""
    return [cq.Wire.makePolygon([cq.Vector(x, y, 0) for x, y in loop], close=True) for loop in loops]


def _prism(loops: Sequence[Sequence[tuple[float, float]]], height: float) -> cq.Solid:
    wires = _wires(loops)
    return cq.Solid.extrudeLinear(wires[0], wires[1:], cq.Vector(0, 0, height))


@lru_cache(maxsize=512)
def block_solid(cells: tuple[Cell, ...], ph: Physical) -> cq.Shape:
    """A block: ``cells`` (row, column) at the pitch, shrunk by half the clearance, with a
    chamfered bottom and a softened top. Cached: each shape is built once."""
    solid = _prism(offset(cells, ph.pitch, -ph.clearance / 2), ph.block_height)
    work = cq.Workplane().add(solid)
    if ph.bottom_chamfer > 0:
        work = work.faces("<Z").edges().chamfer(ph.bottom_chamfer)
    if ph.top_fillet > 0:
        work = work.faces(">Z").edges().fillet(ph.top_fillet)
    return work.val()


def pocket_loops(lock: Iterable[Cell], ph: Physical) -> list[list[tuple[float, float]]]:
    """The pocket's outline: the lock's cells at the pitch grown by the clearance."""
    return offset(lock, ph.pitch, ph.clearance)


def card_solid(card: Card, ph: Physical) -> cq.Shape:
    """The card plate with the lock pocket cut into its top."""
    loops = pocket_loops(card.lock.cells, ph)
    xs = [x for loop in loops for x, _ in loop]
    ys = [y for loop in loops for _, y in loop]
    x0, x1, y0, y1 = min(xs) - RIM, max(xs) + RIM, min(ys) - RIM, max(ys) + RIM
    plate = _prism([[(x0, y0), (x1, y0), (x1, y1), (x0, y1)]], ph.card_thickness)
    floor = ph.card_thickness - ph.pocket_depth
    pocket = _prism(loops, ph.pocket_depth + 1.0).translate(cq.Vector(0, 0, floor))
    return plate.cut(pocket).clean()


@dataclass(frozen=True)
class Fit:
    """How a face's stored solution sits in its pocket: the least gap between two blocks,
    the least gap between a block and a pocket wall, and the overlapping volume (mm3)."""

    block_gap: float
    wall_gap: float
    overlap: float


def assembled(card: Card, face: Face, ph: Physical) -> list[tuple[str, cq.Shape]]:
    """The face's blocks as solids lying in the pocket as its stored solution places them."""
    if face.solution is None:
        raise ValueError(f"card {card.id}, face {face.die}: no stored solution to assemble")
    floor = ph.card_thickness - ph.pocket_depth
    out = []
    for p in face.solution.placements:
        r0 = min(r for r, _ in p.cells)
        c0 = min(c for _, c in p.cells)
        local = tuple(sorted((r - r0, c - c0) for r, c in p.cells))
        solid = block_solid(local, ph).translate(cq.Vector(c0 * ph.pitch, -r0 * ph.pitch, floor))
        out.append((p.piece, solid))
    return out


def fit(card: Card, face: Face, ph: Physical) -> Fit:
    """Measure a face's assembly with OCCT: the solids' distances, taken on a section
    through the pocket at half its depth, and the volume the blocks share with the card."""
    plate = card_solid(card, ph)
    blocks = assembled(card, face, ph)
    z = ph.card_thickness - ph.pocket_depth / 2
    wall = _section(plate, z)
    cuts = [_section(s, z) for _, s in blocks]
    block_gap = min((a.distance(b) for i, a in enumerate(cuts) for b in cuts[i + 1:]), default=float("inf"))
    wall_gap = min(c.distance(wall) for c in cuts)
    overlap = sum(plate.intersect(s).Volume() for _, s in blocks)
    for i, (_, a) in enumerate(blocks):
        for _, b in blocks[i + 1:]:
            overlap += a.intersect(b).Volume()
    return Fit(block_gap, wall_gap, overlap)


def _section(shape: cq.Shape, z: float) -> cq.Shape:
    return cq.Workplane().add(shape).section(z).val()


def mesh(shape: cq.Shape, tolerance: float = 0.02, angular: float = 0.2) -> Mesh:
    """A watertight triangle mesh of a solid (faces tessellated, shared vertices welded)."""
    vertices, triangles = shape.tessellate(tolerance, angular)
    return Mesh(np.array([(v.x, v.y, v.z) for v in vertices]), np.array(triangles)).welded()


def block_shapes(deck: Deck) -> dict[str, tuple[Cell, ...]]:
    """Each block of the deck's set as cells in its stored orientation."""
    return {b.name: tuple(sorted(b.shape.normalized().cells)) for b in deck.blocks}
