"""Each stone face's symbol as outlines, shared by the printed cards and the 3D tiles.

A symbol is a few simple polygons (no holes, counter-clockwise, no self-crossings) in a
square from -1 to 1, y up; overlapping polygons are meant as their union. The published
faces have pictures (a rayed sun, a crescent moon, a fish, a gull, a horseshoe, a sailing
boat, a seed, a fir tree); a designer's own faces get plain shapes in turn (circle,
triangle, square, diamond, star, hexagon, cross, chevron). Paper draws them filled; the
tiles cut or inlay them, so every piece is at least ``MIN_FEATURE`` of the symbol's size
wide where it matters (no hairlines).
"""

from __future__ import annotations

import math
from functools import lru_cache

Point = tuple[float, float]
Polygon = tuple[Point, ...]
Symbol = tuple[Polygon, ...]


def _circle(cx: float, cy: float, r: float, n: int = 32, start: float = 0.0) -> Polygon:
    return tuple((cx + r * math.cos(start + 2 * math.pi * k / n), cy + r * math.sin(start + 2 * math.pi * k / n))
                 for k in range(n))


def _star(points: int, outer: float, inner: float, turn: float = math.pi / 2) -> Polygon:
    out = []
    for k in range(2 * points):
        r = outer if k % 2 == 0 else inner
        a = turn + math.pi * k / points
        out.append((r * math.cos(a), r * math.sin(a)))
    return tuple(out)


def _arc(cx: float, cy: float, r: float, a0: float, a1: float, n: int) -> list[Point]:
    return [(cx + r * math.cos(a0 + (a1 - a0) * k / n), cy + r * math.sin(a0 + (a1 - a0) * k / n))
            for k in range(n + 1)]


def _crescent() -> Symbol:
    """An outer circle less an inner one shifted up and right."""
    R, (cx, cy, r) = 0.9, (0.38, 0.26, 0.74)
    d = math.hypot(cx, cy)
    # where the circles cross, as angles on each circle
    a = (R * R - r * r + d * d) / (2 * d)
    h = math.sqrt(R * R - a * a)
    base = math.atan2(cy, cx)
    spread = math.atan2(h, a)
    outer = _arc(0, 0, R, base + spread, base + 2 * math.pi - spread, 40)
    spread2 = math.atan2(h, d - a)
    inner = _arc(cx, cy, r, base + math.pi + spread2, base + math.pi - spread2, 28)
    return (tuple(outer + inner[1:-1]),)


def _fish() -> Symbol:
    body = tuple((-0.22 + 0.62 * math.cos(2 * math.pi * k / 32), 0.42 * math.sin(2 * math.pi * k / 32))
                 for k in range(32))
    tail = ((0.25, 0.0), (0.95, -0.5), (0.85, 0.0), (0.95, 0.5))
    return body, tail


def _horseshoe() -> Symbol:
    outer = _arc(0, 0.1, 0.88, math.radians(-35), math.radians(215), 36)
    inner = _arc(0, 0.1, 0.5, math.radians(215), math.radians(-35), 28)
    return (tuple(outer + inner),)


def _seed() -> Symbol:
    pts = []
    for k in range(40):
        t = 2 * math.pi * k / 40
        pts.append((0.62 * math.sin(t) * math.sin(t / 2), 0.95 * math.cos(t)))
    return (tuple(pts),)


PICTURES: dict[str, Symbol] = {
    "sun": (_star(12, 1.0, 0.68),),
    "moon": _crescent(),
    "fish": _fish(),
    "bird": (((-1.0, 0.2), (-0.55, 0.75), (0.0, 0.22), (0.55, 0.75), (1.0, 0.2), (0.55, 0.36), (0.0, -0.45),
              (-0.55, 0.36)),),
    "horse": _horseshoe(),
    "boat": (((-0.95, -0.3), (-0.6, -0.75), (0.6, -0.75), (0.95, -0.3)),
             ((-0.1, -0.3), (0.7, -0.3), (-0.1, 0.95)),
             ((-0.25, -0.3), (-0.25, 0.7), (-0.75, -0.3))),
    "seed": _seed(),
    "tree": (((-0.16, -0.95), (0.16, -0.95), (0.16, -0.3), (-0.16, -0.3)),
             ((-0.82, -0.4), (0.82, -0.4), (0.0, 0.3)),
             ((-0.64, 0.0), (0.64, 0.0), (0.0, 0.66)),
             ((-0.46, 0.38), (0.46, 0.38), (0.0, 0.98))),
}

PLAIN: tuple[Symbol, ...] = (
    (_circle(0, 0, 0.85),),
    (((-0.9, -0.72), (0.9, -0.72), (0.0, 0.9)),),
    (((-0.75, -0.75), (0.75, -0.75), (0.75, 0.75), (-0.75, 0.75)),),
    (((0.0, -0.95), (0.8, 0.0), (0.0, 0.95), (-0.8, 0.0)),),
    (_star(5, 0.98, 0.42),),
    (_circle(0, 0, 0.88, 6),),
    (((-0.3, -0.9), (0.3, -0.9), (0.3, -0.3), (0.9, -0.3), (0.9, 0.3), (0.3, 0.3), (0.3, 0.9), (-0.3, 0.9),
      (-0.3, 0.3), (-0.9, 0.3), (-0.9, -0.3), (-0.3, -0.3)),),
    (((-0.9, -0.2), (0.0, 0.6), (0.9, -0.2), (0.9, -0.75), (0.0, 0.05), (-0.9, -0.75)),),
)


def _ccw(polygon: Polygon) -> Polygon:
    area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1]))
    return polygon if area > 0 else tuple(reversed(polygon))


@lru_cache(maxsize=64)
def symbols(faces: tuple[str, ...]) -> tuple[Symbol, ...]:
    """A symbol per face: the published picture for a known name, else the next plain shape
    (a set with more unknown faces than plain shapes repeats them; the letter tells them apart)."""
    out = []
    plain = 0
    for face in faces:
        symbol = PICTURES.get(face.lower())
        if symbol is None:
            symbol = PLAIN[plain % len(PLAIN)]
            plain += 1
        out.append(tuple(_ccw(p) for p in symbol))
    return tuple(out)
