"""Triangle meshes as values, their checks, and binary STL.

A ``Mesh`` is vertices (n x 3, mm) and triangles (m x 3 vertex indices, counter-clockwise
seen from outside). ``watertight`` holds when every edge is shared by exactly two triangles
that run it in opposite directions (a closed, consistently oriented surface); ``volume`` is
the enclosed volume by the divergence theorem (positive for outward-facing triangles).
STL bytes are deterministic: a fixed header, triangles in the mesh's order.
"""

from __future__ import annotations

import struct
from collections import Counter
from dataclasses import dataclass

import numpy as np

HEADER = b"templeforge binary STL".ljust(80, b" ")


@dataclass(frozen=True, eq=False)
class Mesh:
    vertices: np.ndarray   # (n, 3) float64, mm
    triangles: np.ndarray  # (m, 3) int64

    def __post_init__(self) -> None:
        v = np.asarray(self.vertices, dtype=np.float64).reshape(-1, 3)
        t = np.asarray(self.triangles, dtype=np.int64).reshape(-1, 3)
        if len(t) and (t.min() < 0 or t.max() >= len(v)):
            raise ValueError("a triangle names a vertex the mesh does not have")
        object.__setattr__(self, "vertices", v)
        object.__setattr__(self, "triangles", t)

    @property
    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        return self.vertices.min(axis=0), self.vertices.max(axis=0)

    @property
    def size(self) -> tuple[float, float, float]:
        lo, hi = self.bounds
        return tuple(float(v) for v in hi - lo)  # type: ignore[return-value]

    def volume(self) -> float:
        """The enclosed volume in mm3 (meaningful for a watertight mesh)."""
        a, b, c = (self.vertices[self.triangles[:, i]] for i in range(3))
        return float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6.0)

    def volume_between(self, low: float, high: float) -> float:
        """The volume (mm3) between the heights ``low`` and ``high``: each triangle's signed
        area seen from above times the height of its centre clamped to the band (exact for
        prisms, whose walls are vertical and faces flat; close for chamfers that cross a
        bound)."""
        a, b, c = (self.vertices[self.triangles[:, i]] for i in range(3))
        area = ((b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (c[:, 0] - a[:, 0]) * (b[:, 1] - a[:, 1])) / 2
        z = np.clip((a[:, 2] + b[:, 2] + c[:, 2]) / 3, low, high) - low
        return float((area * z).sum())

    def watertight(self) -> bool:
        """Every directed edge appears once and its reverse once: closed and oriented."""
        if not len(self.triangles):
            return False
        t = self.triangles
        edges: Counter[tuple[int, int]] = Counter()
        for i, j in ((0, 1), (1, 2), (2, 0)):
            edges.update(zip(t[:, i].tolist(), t[:, j].tolist()))
        return all(n == 1 and edges.get((b, a)) == 1 for (a, b), n in edges.items())

    def welded(self, places: int = 6) -> Mesh:
        """Vertices that coincide (to ``places`` decimals of a mm) made one, and triangles that
        collapse dropped: a tessellation made face by face becomes one closed surface."""
        keys = np.round(self.vertices, places)
        unique, index = np.unique(keys, axis=0, return_inverse=True)
        t = index.reshape(-1)[self.triangles]
        keep = (t[:, 0] != t[:, 1]) & (t[:, 1] != t[:, 2]) & (t[:, 2] != t[:, 0])
        return Mesh(unique, t[keep])

    def translated(self, dx: float, dy: float, dz: float) -> Mesh:
        return Mesh(self.vertices + np.array([dx, dy, dz]), self.triangles)

    def rotated_z(self, quarter_turns: int) -> Mesh:
        """Turned by quarter turns about the z axis (through the origin)."""
        k = quarter_turns % 4
        x, y = self.vertices[:, 0].copy(), self.vertices[:, 1].copy()
        for _ in range(k):
            x, y = -y, x
        return Mesh(np.column_stack([x, y, self.vertices[:, 2]]), self.triangles)

    def turned_over(self, width: float, height: float) -> Mesh:
        """Turned upside down about the y axis, as a page is turned, within a ``width`` wide,
        ``height`` tall frame: x becomes ``width - x`` and z ``height - z`` (the triangles
        keep facing outwards)."""
        v = self.vertices
        return Mesh(np.column_stack([width - v[:, 0], v[:, 1], height - v[:, 2]]), self.triangles)

    def on_bed(self) -> Mesh:
        """Moved so that its bounding box starts at the origin (lying on the bed)."""
        lo, _ = self.bounds
        return self.translated(*(-lo))

    def stl(self) -> bytes:
        """Binary STL."""
        a, b, c = (self.vertices[self.triangles[:, i]] for i in range(3))
        normals = np.cross(b - a, c - a)
        lengths = np.linalg.norm(normals, axis=1, keepdims=True)
        normals = np.divide(normals, lengths, out=np.zeros_like(normals), where=lengths > 0)
        rows = np.zeros(len(self.triangles), dtype=np.dtype([("n", "<f4", 3), ("v", "<f4", (3, 3)), ("a", "<u2")]))
        rows["n"] = normals
        rows["v"] = np.stack([a, b, c], axis=1)
        return HEADER + struct.pack("<I", len(self.triangles)) + rows.tobytes()


def merge(meshes: list[Mesh]) -> Mesh:
    """One mesh holding all of ``meshes`` (as separate shells)."""
    vertices, triangles, offset = [], [], 0
    for m in meshes:
        vertices.append(m.vertices)
        triangles.append(m.triangles + offset)
        offset += len(m.vertices)
    return Mesh(np.concatenate(vertices), np.concatenate(triangles))


def box(width: float, depth: float, height: float) -> Mesh:
    """An axis-aligned box with a corner at the origin."""
    x, y, z = width, depth, height
    v = [(0, 0, 0), (x, 0, 0), (x, y, 0), (0, y, 0), (0, 0, z), (x, 0, z), (x, y, z), (0, y, z)]
    t = [(0, 2, 1), (0, 3, 2), (4, 5, 6), (4, 6, 7), (0, 1, 5), (0, 5, 4), (1, 2, 6), (1, 6, 5),
         (2, 3, 7), (2, 7, 6), (3, 0, 4), (3, 4, 7)]
    return Mesh(np.array(v, dtype=float), np.array(t))
