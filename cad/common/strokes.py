"""A stroke font for labels cut into printed parts: digits, capitals, a dash and a point.

Each glyph is polylines on a grid 4 units wide and 6 high; a label is drawn as rectangles
along those lines, ``stroke`` mm wide, their ends carried half a stroke on so that corners
close. The strokes are exactly as wide as asked, so a label meets the printer's minimum
stroke by construction (a TrueType outline's thinnest part depends on the font), and no font
file is needed on the machine that builds the kit.
"""

from __future__ import annotations

import math

from generators.common.errors import RequestError

Point = tuple[float, float]

GLYPHS: dict[str, tuple[tuple[Point, ...], ...]] = {
    "0": (((0, 0), (4, 0), (4, 6), (0, 6), (0, 0)), ((0, 0), (4, 6))),
    "1": (((1, 5), (2, 6), (2, 0)), ((1, 0), (3, 0))),
    "2": (((0, 6), (4, 6), (4, 3), (0, 3), (0, 0), (4, 0)),),
    "3": (((0, 6), (4, 6), (4, 0), (0, 0)), ((1, 3), (4, 3))),
    "4": (((0, 6), (0, 3), (4, 3)), ((3, 6), (3, 0))),
    "5": (((4, 6), (0, 6), (0, 3), (4, 3), (4, 0), (0, 0)),),
    "6": (((4, 6), (0, 6), (0, 0), (4, 0), (4, 3), (0, 3)),),
    "7": (((0, 6), (4, 6), (2, 0)),),
    "8": (((0, 0), (4, 0), (4, 6), (0, 6), (0, 0)), ((0, 3), (4, 3))),
    "9": (((4, 3), (0, 3), (0, 6), (4, 6), (4, 0), (0, 0)),),
    "A": (((0, 0), (0, 6), (4, 6), (4, 0)), ((0, 3), (4, 3))),
    "B": (((0, 0), (0, 6), (3, 6), (4, 5), (4, 4), (3, 3), (0, 3)), ((3, 3), (4, 2), (4, 1), (3, 0), (0, 0))),
    "C": (((4, 6), (0, 6), (0, 0), (4, 0)),),
    "D": (((0, 0), (0, 6), (3, 6), (4, 5), (4, 1), (3, 0), (0, 0)),),
    "E": (((4, 6), (0, 6), (0, 0), (4, 0)), ((0, 3), (3, 3))),
    "F": (((4, 6), (0, 6), (0, 0)), ((0, 3), (3, 3))),
    "G": (((4, 6), (0, 6), (0, 0), (4, 0), (4, 3), (2, 3)),),
    "H": (((0, 0), (0, 6)), ((4, 0), (4, 6)), ((0, 3), (4, 3))),
    "I": (((1, 6), (3, 6)), ((2, 6), (2, 0)), ((1, 0), (3, 0))),
    "J": (((4, 6), (4, 0), (0, 0), (0, 2)),),
    "K": (((0, 0), (0, 6)), ((4, 6), (0, 3), (4, 0))),
    "L": (((0, 6), (0, 0), (4, 0)),),
    "M": (((0, 0), (0, 6), (2, 3), (4, 6), (4, 0)),),
    "N": (((0, 0), (0, 6), (4, 0), (4, 6)),),
    "O": (((0, 0), (4, 0), (4, 6), (0, 6), (0, 0)),),
    "P": (((0, 0), (0, 6), (4, 6), (4, 3), (0, 3)),),
    "Q": (((0, 0), (4, 0), (4, 6), (0, 6), (0, 0)), ((2, 2), (4, 0))),
    "R": (((0, 0), (0, 6), (4, 6), (4, 3), (0, 3)), ((1, 3), (4, 0))),
    "S": (((4, 5), (3, 6), (1, 6), (0, 5), (0, 4), (1, 3), (3, 3), (4, 2), (4, 1), (3, 0), (1, 0), (0, 1)),),
    "T": (((0, 6), (4, 6)), ((2, 6), (2, 0))),
    "U": (((0, 6), (0, 0), (4, 0), (4, 6)),),
    "V": (((0, 6), (2, 0), (4, 6)),),
    "W": (((0, 6), (0, 0), (2, 3), (4, 0), (4, 6)),),
    "X": (((0, 0), (4, 6)), ((0, 6), (4, 0))),
    "Y": (((0, 6), (2, 3), (4, 6)), ((2, 3), (2, 0))),
    "Z": (((0, 6), (4, 6), (0, 0), (4, 0)),),
    "-": (((1, 3), (3, 3)),),
    ".": (((1.6, 0), (2.4, 0)),),
}

WIDTH, HEIGHT, SPACE = 4, 6, 2  #: a glyph's grid, and the space between glyphs, in units


def check(text: str, field: str = "label") -> str:
    """The text as it will be cut (capitals), or RequestError naming what the font lacks."""
    upper = text.upper()
    missing = sorted({ch for ch in upper if ch not in GLYPHS})
    if missing:
        raise RequestError(f"{field}: {text!r} has characters the 3D label font cannot cut: "
                           f"{' '.join(repr(m) for m in missing)} (it has 0-9, A-Z, - and .)")
    return upper


def width(text: str, height: float, space: float | None = None) -> float:
    """The width in mm of ``text`` set ``height`` mm tall (stroke centres), its glyphs
    ``space`` mm apart (stroke centre to stroke centre; the font's own by default)."""
    unit = height / HEIGHT
    gap = SPACE * unit if space is None else space
    return unit * len(text) * WIDTH + max(0, len(text) - 1) * gap


def strokes(text: str, x: float, y: float, height: float, stroke: float,
            space: float | None = None) -> list[list[Point]]:
    """Rectangles (as closed point loops, anticlockwise) along every stroke of ``text`` with
    its lower-left stroke centre at (x, y); the outline reaches half a stroke beyond the
    centre lines all round. ``space``: mm between glyphs' stroke centres (the font's own by
    default: a cut's ridge between two letters is ``space - stroke`` wide)."""
    unit = height / HEIGHT
    gap = SPACE * unit if space is None else space
    out = []
    for i, ch in enumerate(check(text)):
        ox = x + i * (WIDTH * unit + gap)
        for line in GLYPHS[ch]:
            for (x0, y0), (x1, y1) in zip(line, line[1:]):
                out.append(_bar(ox + x0 * unit, y + y0 * unit, ox + x1 * unit, y + y1 * unit, stroke))
    return out


def _bar(x0: float, y0: float, x1: float, y1: float, stroke: float) -> list[Point]:
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    h = stroke / 2
    # carried on by half a stroke at both ends, so that joints and corners are filled
    ax, ay = x0 - ux * h, y0 - uy * h
    bx, by = x1 + ux * h, y1 + uy * h
    nx, ny = -uy * h, ux * h
    return [(round(ax - nx, 9), round(ay - ny, 9)), (round(bx - nx, 9), round(by - ny, 9)),
            (round(bx + nx, 9), round(by + ny, 9)), (round(ax + nx, 9), round(ay + ny, 9))]
