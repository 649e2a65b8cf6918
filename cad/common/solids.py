"""CadQuery helpers every game's parts are built with: prisms from outline loops, fusing,
sections, and watertight meshes of solids."""

from __future__ import annotations

import io
from collections.abc import Sequence

import cadquery as cq
import numpy as np

from cad.common.meshes import Mesh

Point = tuple[float, float]


def wires(loops: Sequence[Sequence[Point]]) -> list[cq.Wire]:
    """Closed polygons at z = 0: the outer loop first, then the holes."""
    return [cq.Wire.makePolygon([cq.Vector(x, y, 0) for x, y in loop], close=True) for loop in loops]


def prism(loops: Sequence[Sequence[Point]], height: float, z: float = 0.0) -> cq.Solid:
    """The region (outer loop, holes) extruded ``height`` up from ``z``."""
    w = wires(loops)
    solid = cq.Solid.extrudeLinear(w[0], w[1:], cq.Vector(0, 0, height))
    return solid.translate(cq.Vector(0, 0, z)) if z else solid


def fuse(solids: Sequence[cq.Shape]) -> cq.Shape:
    """One shape of several (touching or overlapping) solids."""
    if len(solids) == 1:
        return solids[0]
    return solids[0].fuse(*solids[1:]).clean()


def lead_in(shape: cq.Shape, z: float, region: tuple[float, float, float, float], size: float) -> cq.Shape:
    """``shape`` with a 45-degree chamfer ``size`` mm wide on every edge that lies at height
    ``z`` inside ``region`` (x0, y0, x1, y1): the rims of the pockets and holes cut down from
    that face, so a piece finds its way in. Unchanged where ``size`` is 0 or no edge is there."""
    x0, y0, x1, y1 = region

    def rim(edge: cq.Edge) -> bool:
        points = [edge.startPoint(), edge.endPoint(), edge.Center()]
        return all(abs(p.z - z) < 1e-6 and x0 < p.x < x1 and y0 < p.y < y1 for p in points)

    edges = [e for e in shape.Edges() if rim(e)]
    if size <= 0 or not edges:
        return shape
    return val(cq.Workplane().add(shape).newObject(edges).chamfer(size))


def gem(width: float, height: float) -> cq.Shape:
    """A hexagonal crystal ``width`` across its corners, standing on its base with a
    pointed top, its base's bounding box from the origin."""
    work = cq.Workplane().polygon(6, width).extrude(height).faces(">Z").edges().chamfer(width * 0.3)
    return val(work).translate(cq.Vector(width / 2, width / 2, 0))


def section(shape: cq.Shape, z: float) -> cq.Shape:
    """The shape cut by the plane at height ``z``: faces."""
    return val(cq.Workplane().add(shape).section(z))


def val(work: cq.Workplane) -> cq.Shape:
    """The one shape a workplane holds (``Workplane.val`` is typed as any of its kinds)."""
    shape = work.val()
    if not isinstance(shape, cq.Shape):
        raise TypeError(f"expected a shape, got {type(shape).__name__}")
    return shape


def mesh(shape: cq.Shape, tolerance: float = 0.02, angular: float = 0.2) -> Mesh:
    """A watertight triangle mesh of a solid (faces tessellated, shared vertices welded)."""
    vertices, triangles = shape.tessellate(tolerance, angular)
    return Mesh(np.array([(v.x, v.y, v.z) for v in vertices]), np.array(triangles)).welded()


def png(image: object) -> bytes:
    """A Pillow image as PNG bytes."""
    buf = io.BytesIO()
    image.save(buf, format="PNG")  # type: ignore[attr-defined]
    return buf.getvalue()
