"""A Monolyth structure in isometric view, as geometry: the board's plate and each cube's
three visible faces (top, south, east), back to front (the painter's order), north at the
back. The printed structure card (``print.monolyth``) draws it with its pen, the studio
(``generators.monolyth.studio``) as an SVG picture; both place the points the same way.

Points are in cube edges: ``flat(x, y, z)`` gives ``(u, w)``, ``u`` to the right and ``w``
up, from the plate's north corner.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

COS = math.cos(math.radians(30))
SIN = 0.5

Point = tuple[float, float, float]
Cube = tuple[int, int, int]


def flat(x: float, y: float, z: float) -> tuple[float, float]:
    """A point of the board (x east, y south, z up) in the picture, in cube edges."""
    return (x - y) * COS, z - (x + y) * SIN


def extent(side: int, height: int) -> tuple[float, float]:
    """The picture's width and height, in cube edges, for a ``side`` x ``side`` board and
    cubes up to ``height``."""
    return 2 * side * COS, 2 * side * SIN + height


def plate(side: int) -> list[Point]:
    """The board's plate, at the floor."""
    return [(0, 0, 0), (side, 0, 0), (side, side, 0), (0, side, 0)]


def faces(cube: Cube) -> tuple[list[Point], list[Point], list[Point]]:
    """A cube's top, south and east faces (the three a viewer from the south-east sees)."""
    x, y, z = cube
    top: list[Point] = [(x, y, z + 1), (x + 1, y, z + 1), (x + 1, y + 1, z + 1), (x, y + 1, z + 1)]
    south: list[Point] = [(x, y + 1, z), (x + 1, y + 1, z), (x + 1, y + 1, z + 1), (x, y + 1, z + 1)]
    east: list[Point] = [(x + 1, y, z), (x + 1, y + 1, z), (x + 1, y + 1, z + 1), (x + 1, y, z + 1)]
    return top, south, east


def ordered(cubes: Iterable[Cube]) -> list[Cube]:
    """Cubes back to front: each drawn after every cube it may hide."""
    return sorted(cubes, key=lambda c: (c[0] + c[1] + c[2], c[2]))


def columns(heights: Sequence[int | None], side: int) -> list[Cube]:
    """Every cube of a height map (row by row from the north, ``None`` a free column)."""
    return [(x, y, z) for y in range(side) for x in range(side) for z in range(heights[y * side + x] or 0)]
