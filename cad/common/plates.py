"""Parts arranged on printer beds, as data: which plate, where, turned or not.

Each part is a footprint (its bounding rectangle on the bed). ``pack`` places them first-fit
decreasing on shelves: tallest first, each on the first shelf of the first plate with room,
turned a quarter when that fits better, every part at least ``gap`` from every other and
``edge`` from the bed's border. Tests check the geometry, not the algorithm.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from generators.common.errors import RequestError

EDGE = 3.0  #: least distance from a part to the bed's border


@dataclass(frozen=True, slots=True)
class Footprint:
    """A part's bounding rectangle on the bed: ``key`` names it (``card-7``)."""

    key: str
    width: float
    depth: float


@dataclass(frozen=True, slots=True)
class Placed:
    """A part on a plate: its lower-left corner (x, y) and its size as placed."""

    key: str
    x: float
    y: float
    width: float
    depth: float
    turned: bool = False

    @property
    def x1(self) -> float:
        return self.x + self.width

    @property
    def y1(self) -> float:
        return self.y + self.depth

    def distance(self, other: Placed) -> float:
        """The gap between two rectangles (0 when they touch or overlap)."""
        dx = max(0.0, max(self.x, other.x) - min(self.x1, other.x1))
        dy = max(0.0, max(self.y, other.y) - min(self.y1, other.y1))
        return math.hypot(dx, dy)


@dataclass(frozen=True, slots=True)
class Plate:
    index: int
    parts: tuple[Placed, ...]


@dataclass
class _Shelf:
    y: float
    depth: float
    x: float


@dataclass
class _Open:
    shelves: list[_Shelf] = field(default_factory=list)
    parts: list[Placed] = field(default_factory=list)
    top: float = EDGE


def check_fits(parts: Sequence[Footprint], width: float, depth: float, edge: float = EDGE) -> None:
    """Every part fits a ``width`` x ``depth`` bed one way round or the other.

    Raises:
        RequestError: the first part that does not, naming it and its size.
    """
    usable_w, usable_d = width - 2 * edge, depth - 2 * edge
    for p in parts:
        fits = (p.width <= usable_w and p.depth <= usable_d) or (p.depth <= usable_w and p.width <= usable_d)
        if not fits:
            raise RequestError(f"printer: part {p.key} ({p.width:.1f} x {p.depth:.1f} mm) is larger than the "
                               f"{width:g} x {depth:g} mm bed (a smaller pitch, or a printer with a larger bed)")


class Packer:
    """Plates filled one part at a time (``add``): each part goes on the first shelf of the
    first plate with room, or on a new plate."""

    def __init__(self, width: float, depth: float, gap: float, edge: float = EDGE) -> None:
        self.width, self.depth, self.gap, self.edge = width, depth, gap, edge
        self._open: list[_Open] = []

    def add(self, part: Footprint) -> int:
        """Place ``part`` on the first plate with room, else on a new plate; returns the
        plate's index.

        Raises:
            RequestError: the part fits no bed either way round.
        """
        check_fits([part], self.width, self.depth, self.edge)
        # lie long side along x, so that shelves stay low
        w, d = max(part.width, part.depth), min(part.width, part.depth)
        turned = part.width < part.depth
        if w > self.width - 2 * self.edge:
            w, d, turned = d, w, not turned
        for i in range(len(self._open)):
            if _place(self._open[i], part.key, w, d, turned, self.width, self.depth, self.gap, self.edge):
                return i
        self._open.append(_Open())
        placed = _place(self._open[-1], part.key, w, d, turned, self.width, self.depth, self.gap, self.edge)
        assert placed, "a part that fits the bed fits an empty plate"
        return len(self._open) - 1

    def plates(self) -> list[Plate]:
        return [Plate(i + 1, tuple(p.parts)) for i, p in enumerate(self._open)]


def biggest_first(parts: Sequence[Footprint]) -> list[Footprint]:
    """The order shelves pack best in: longest side first, then the other side, then key."""
    return sorted(parts, key=lambda p: (-max(p.width, p.depth), -min(p.width, p.depth), p.key))


Zone = Sequence[tuple[float, float]]


def margins(width: float, depth: float, excluded: Sequence[Zone], gap: float, edge: float = EDGE
            ) -> list[tuple[float, float]]:
    """The ways to keep parts ``gap`` clear of the bed's ``excluded`` zones with a usable
    area centred on the bed: (x margin, y margin) cut from both sides of the bed, each
    keeping every zone out of the area; one way when there are no zones."""
    if not excluded:
        return [(0.0, 0.0)]
    need_x = need_y = 0.0
    for zone in excluded:
        x0, x1 = min(x for x, _ in zone), max(x for x, _ in zone)
        y0, y1 = min(y for _, y in zone), max(y for _, y in zone)
        near_x = x1 if x1 <= width / 2 else (width - x0 if x0 >= width / 2 else math.inf)
        near_y = y1 if y1 <= depth / 2 else (depth - y0 if y0 >= depth / 2 else math.inf)
        need_x, need_y = max(need_x, near_x + gap - edge), max(need_y, near_y + gap - edge)
    return [(m, 0.0) for m in (need_x,) if m < width / 2] + [(0.0, m) for m in (need_y,) if m < depth / 2]


def pack(parts: Sequence[Footprint], width: float, depth: float, gap: float, edge: float = EDGE,
         excluded: Sequence[Zone] = ()) -> list[Plate]:
    """Arrange ``parts`` on as few ``width`` x ``depth`` beds as the shelves allow, every part
    ``gap`` clear of the ``excluded`` zones, and each plate's parts centred on the bed as a
    group: a slicer that centres a plate it opens moves nothing, so no part enters a zone
    before or after. With zones, the parts keep to a centred area clear of them, cut from
    the sides or from the front and back, whichever takes fewer plates.

    Raises:
        RequestError: a part that fits no bed either way round (naming it and its size).
    """
    best: list[Plate] | None = None
    for mx, my in margins(width, depth, excluded, gap, edge):
        inner_w, inner_d = width - 2 * mx, depth - 2 * my
        try:
            check_fits(parts, inner_w, inner_d, edge)
        except RequestError:
            continue
        packer = Packer(inner_w, inner_d, gap, edge)
        for part in biggest_first(parts):
            packer.add(part)
        found = [_centred(plate, width, depth) for plate in packer.plates()]
        if best is None or len(found) < len(best):
            best = found
    if best is None:
        check_fits(parts, width, depth, edge)  # names the part too large for the bed itself
        raise RequestError(f"printer: the parts do not fit the {width:g} x {depth:g} mm bed clear of its "
                           f"excluded zones")
    return best


def _centred(plate: Plate, width: float, depth: float) -> Plate:
    if not plate.parts:
        return plate
    x0, x1 = min(p.x for p in plate.parts), max(p.x1 for p in plate.parts)
    y0, y1 = min(p.y for p in plate.parts), max(p.y1 for p in plate.parts)
    dx, dy = round((width - (x1 - x0)) / 2 - x0, 6), round((depth - (y1 - y0)) / 2 - y0, 6)
    return Plate(plate.index, tuple(Placed(p.key, p.x + dx, p.y + dy, p.width, p.depth, p.turned)
                                    for p in plate.parts))


def _place(plate: _Open, key: str, w: float, d: float, turned: bool, width: float, depth: float, gap: float,
           edge: float) -> bool:
    for shelf in plate.shelves:
        if d <= shelf.depth + 1e-9 and shelf.x + w <= width - edge + 1e-9:
            plate.parts.append(Placed(key, round(shelf.x, 6), round(shelf.y, 6), w, d, turned))
            shelf.x += w + gap
            return True
    y = plate.top if not plate.shelves else plate.shelves[-1].y + plate.shelves[-1].depth + gap
    if y + d > depth - edge + 1e-9:
        return False
    plate.shelves.append(_Shelf(y, d, edge + w + gap))
    plate.parts.append(Placed(key, round(edge, 6), round(y, 6), w, d, turned))
    return True


def lower_bound(parts: Sequence[Footprint], width: float, depth: float, gap: float, edge: float = EDGE) -> int:
    """No arrangement uses fewer plates: the parts' areas (each grown by half the gap all
    round) over the bed's."""
    area = sum((p.width + gap) * (p.depth + gap) for p in parts)
    return max(1, math.ceil(area / ((width - 2 * edge + gap) * (depth - 2 * edge + gap)) - 1e-9))
