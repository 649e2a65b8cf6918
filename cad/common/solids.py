"""CadQuery helpers every game's parts are built with: prisms from outline loops, fusing,
sections, and watertight meshes of solids."""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

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


def face(loops: Sequence[Sequence[Point]]) -> cq.Face:
    """A flat region at z = 0: the outer loop first, then the holes."""
    w = wires(loops)
    return cq.Face.makeFromWires(w[0], w[1:])


def disc(x: float, y: float, r: float) -> cq.Face:
    """A flat disc at z = 0."""
    return cq.Face.makeFromWires(cq.Wire.makeCircle(r, cq.Vector(x, y, 0), cq.Vector(0, 0, 1)))


def relief(faces: Sequence[cq.Face], height: float, z: float = 0.0) -> cq.Shape:
    """The union of flat regions (``face``, ``disc``) extruded ``height`` up from ``z``:
    the regions are united in the plane first and extruded once, a fraction of the work of
    fusing one prism per region (the text and marks cut into a part are hundreds of them)."""
    flat = faces[0] if len(faces) == 1 else faces[0].fuse(*faces[1:]).clean()
    solids = [cq.Solid.extrudeLinear(f, cq.Vector(0, 0, height)) for f in flat.Faces()]
    shape: cq.Shape = solids[0] if len(solids) == 1 else cq.Compound.makeCompound(solids)
    return shape.translate(cq.Vector(0, 0, z)) if z else shape


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


def gem(width: float, height: float, foot: float = 0.0) -> cq.Shape:
    """A hexagonal crystal ``width`` across its corners, standing on its base with a
    pointed top, its base's bounding box from the origin; ``foot``: its base's edges
    chamfered that much (so the first layers' squash, the elephant's foot, stays within its
    outline and it drops into a pocket)."""
    work = cq.Workplane().polygon(6, width).extrude(height).faces(">Z").edges().chamfer(width * 0.3)
    if foot > 0:
        work = work.faces("<Z").edges().chamfer(foot)
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


#: One triangle of a binary STL: its normal, its three corners, an attribute word.
STL_TRIANGLE = np.dtype([("normal", "<f4", 3), ("corners", "<f4", (3, 3)), ("attribute", "<u2")])


def mesh(shape: cq.Shape, tolerance: float = 0.02, angular: float = 0.2) -> Mesh:
    """A watertight triangle mesh of a solid (faces tessellated, shared vertices welded).

    OpenCASCADE tessellates the faces and writes them as a binary STL, which numpy reads in
    one go: the same triangles ``Shape.tessellate`` gives (in single precision, as every
    STL and slicer holds them), without a Python object per vertex, which took most of a
    kit's meshing time."""
    from OCP.BRepMesh import BRepMesh_IncrementalMesh
    from OCP.StlAPI import StlAPI_Writer

    BRepMesh_IncrementalMesh(shape.wrapped, tolerance, True, angular)
    writer = StlAPI_Writer()
    writer.ASCIIMode = False
    with tempfile.TemporaryDirectory(prefix="templeforge-mesh-") as folder:
        path = os.path.join(folder, "part.stl")
        if not writer.Write(shape.wrapped, path):
            raise RuntimeError("OpenCASCADE could not tessellate a part")
        data = Path(path).read_bytes()
    count = int.from_bytes(data[80:84], "little")
    corners = np.frombuffer(data, dtype=STL_TRIANGLE, count=count, offset=84)["corners"]
    return Mesh(corners.reshape(-1, 3).astype(np.float64), np.arange(3 * count).reshape(-1, 3)).welded()


def png(image: object) -> bytes:
    """A Pillow image as PNG bytes."""
    buf = io.BytesIO()
    image.save(buf, format="PNG")  # type: ignore[attr-defined]
    return buf.getvalue()
