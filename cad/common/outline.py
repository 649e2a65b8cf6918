"""The outline of a set of grid cells as closed polygons, grown or shrunk with sharp corners.

Cells are (row, column) with row 0 at the top; a cell is ``pitch`` mm square, column c from
x = c * pitch, row r from y = -r * pitch down. ``loops`` walks the unshared cell edges into
closed loops, each with the region on its left (the outer loop anticlockwise, holes
clockwise); ``offset`` moves every edge along its outward normal, which for a polygon of
right angles is exact: each corner moves by d along both its edges' normals.
"""

from __future__ import annotations

from collections.abc import Iterable

Cell = tuple[int, int]
Point = tuple[float, float]

# the four sides of a cell: (grid corner from, grid corner to) run with the cell on the left,
# and the outward normal; grid corners are (x, y) in cell units, y up
_SIDES = {
    "bottom": ((0, -1), (1, -1), (0, -1)),
    "right": ((1, -1), (1, 0), (1, 0)),
    "top": ((1, 0), (0, 0), (0, 1)),
    "left": ((0, 0), (0, -1), (-1, 0)),
}
_NEIGHBOUR = {"bottom": (1, 0), "right": (0, 1), "top": (-1, 0), "left": (0, -1)}


def loops(cells: Iterable[Cell]) -> list[list[tuple[tuple[int, int], tuple[int, int]]]]:
    """The boundary as loops of grid corners ``(corner, normal)`` in walking order; corners
    are (x, y) in cell units, y up; the normal is that of the edge leaving the corner."""
    have = set(cells)
    edges: dict[tuple[int, int], list[tuple[tuple[int, int], tuple[int, int]]]] = {}
    for r, c in have:
        for side, (a, b, normal) in _SIDES.items():
            dr, dc = _NEIGHBOUR[side]
            if (r + dr, c + dc) in have:
                continue
            start = (c + a[0], -r + a[1])
            end = (c + b[0], -r + b[1])
            edges.setdefault(start, []).append((end, normal))
    out = []
    while edges:
        start = min(edges)
        loop: list[tuple[tuple[int, int], tuple[int, int]]] = []
        here, came = start, None
        while True:
            options = edges[here]
            if len(options) > 1 and came is not None:
                # where two cells meet only at a corner, turn left: each loop stays simple
                turned_from = came
                options.sort(key=lambda e: _turn(turned_from, e[1]))
            end, normal = options.pop(0)
            if not options:
                del edges[here]
            loop.append((here, normal))
            came, here = normal, end
            if here == start:
                break
        out.append(_merged(loop))
    return out


def _turn(came: tuple[int, int], normal: tuple[int, int]) -> int:
    """Preference at a corner where two cells touch diagonally: left turn, straight, right.
    Walking with the region on the left, an edge's normal points to the walker's right, so
    the direction of travel is (-normal_y, normal_x) and a left turn's normal is the old
    direction."""
    direction = (-came[1], came[0])
    if normal == direction:
        return 0
    if normal == came:
        return 1
    return 2


def _merged(loop: list[tuple[tuple[int, int], tuple[int, int]]]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Drop corners between two edges with the same normal (straight runs)."""
    out = []
    n = len(loop)
    for i, (corner, normal) in enumerate(loop):
        if loop[i - 1][1] != normal or n == 1:
            out.append((corner, normal))
    return out


def offset(cells: Iterable[Cell], pitch: float, d: float) -> list[list[Point]]:
    """The outline's loops in mm, every edge moved ``d`` mm outwards (inwards for d < 0)."""
    out = []
    for loop in loops(cells):
        points = []
        for i, (corner, normal) in enumerate(loop):
            before = loop[i - 1][1]
            x = corner[0] * pitch + d * (normal[0] + before[0])
            y = corner[1] * pitch + d * (normal[1] + before[1])
            points.append((round(x, 9), round(y, 9)))
        out.append(points)
    return out


def area(points: list[Point]) -> float:
    """Signed area (positive anticlockwise)."""
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1])) / 2
