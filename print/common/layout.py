"""Imposition as data: where every card, back, crop mark and margin note goes on every sheet.

Nothing here draws. ``impose`` turns a card count and the print settings into pages of boxes
(millimetres, origin at the page's bottom-left corner as in PDF), and the tests check the
geometry without a PDF: every card inside the printable area, every crop mark outside its
card's trim and off every card's art, every back behind its front once the sheet is turned.

Boxes of one card:
    trim   the card's finished edge, where it is cut;
    bleed  the trim grown by the bleed: the card's art runs to here so that a cut a little
           off still shows no white edge;
    safe   the trim shrunk by the safe zone: every word and symbol stays inside it.

Layouts, by ``layout``:
    sheets  cards on sheets with a gap between them, each card with its own bleed all round
            and crop marks in the gaps and at the sheet's edges;
    tight   cards butted edge to edge, sharing their cuts, the bleed only on the grid's outer
            edges and a crop mark on every cut line at both edges of the sheet: 9 poker
            cards on A4 and on Letter. Where the page has no room below the cards for the
            margin band (Letter), the band runs up the page's side;
    cards   one card a page, for print-on-demand services.

Sheets, by ``duplex``:
    none    fronts only;
    long    a page of fronts, then a page of their backs, each back placed so that it lands
            behind its front when the sheet is turned over on its long edge (print with
            "flip on long edge");
    short   the same for "flip on short edge";
    gutter  fronts and backs on one page either side of a fold line: fold the sheet along
            it, glue, and cut. Backs across a horizontal fold are drawn upside down so that
            they read upright once folded.

A back offset ``(x, y)`` shifts every duplex back by x mm to the right and y mm up as the back
page is printed, for printers that do not register both sides alike; ``calibration`` gives a
test sheet whose reading is that offset.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from generators.common.errors import RequestError
from print.common.sizes import CardSize, Paper

DUPLEX = ("none", "long", "short", "gutter")
#: How cards go onto pages: sheets of cards with crop marks, or one card a page (each page
#: the card and its bleed, for print-on-demand services).
LAYOUTS = ("auto", "sheets", "tight", "cards")
#: The margin a layout takes when none is given: the tight layout assumes a printer that
#: prints to 3 mm from the edge, as most inkjets and many lasers do (Letter has 6.35 mm
#: above and below 9 butted poker cards for the bleed and the crop marks).
MARGINS = {"sheets": 5.0, "tight": 3.0, "cards": 5.0}

GAP = 2.0          #: least space between two cards' bleed boxes: the crop marks live there
CLEAR = 0.3        #: a crop mark keeps this far from any art
MARK = 5.0         #: the longest crop mark
MIN_MARK = 1.0     #: a crop mark shorter than this is not drawn
EDGE_MARK = 3.0    #: the least length of the marks at the sheet's edges, where the cutter lines up
#: Space across a gutter-fold line between fronts and backs: the fold stays 5 mm or more
#: from any bleed, so a fold a little off shows no colour of the other side.
FOLD_GAP = 10.0
FOOTER = 8.0       #: the band at the foot of the printable area: deck, page, card ids, ruler
INFO_GAP = 1.0     #: a tight sheet's cards and crop marks keep this far from the margin band
RULER = 100.0      #: the ruler's length, to check that the printer did not scale the page
#: A card's frame is drawn on its safe line, where a cut a little off leaves it even; the
#: card's words and pictures keep this far inside it, in mm.
FRAME_INSET = 1.5
MAX_BLEED = 10.0
MAX_OFFSET = 5.0
EPS = 1e-6


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned rectangle: lower-left corner (x, y), width w, height h, in mm."""

    x: float
    y: float
    w: float
    h: float

    @property
    def x1(self) -> float:
        return self.x + self.w

    @property
    def y1(self) -> float:
        return self.y + self.h

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    def outset(self, d: float) -> Box:
        return Box(self.x - d, self.y - d, self.w + 2 * d, self.h + 2 * d)

    def inset(self, d: float) -> Box:
        return self.outset(-d)

    def shifted(self, dx: float, dy: float) -> Box:
        return Box(self.x + dx, self.y + dy, self.w, self.h)

    def overlaps(self, other: Box) -> bool:
        """Whether the two interiors meet (boxes that only touch do not overlap)."""
        return (self.x < other.x1 - EPS and other.x < self.x1 - EPS
                and self.y < other.y1 - EPS and other.y < self.y1 - EPS)

    def contains(self, other: Box) -> bool:
        return (self.x <= other.x + EPS and self.y <= other.y + EPS
                and other.x1 <= self.x1 + EPS and other.y1 <= self.y1 + EPS)

    def mirrored_x(self, axis: float) -> Box:
        """Reflected across the vertical line x = axis."""
        return Box(2 * axis - self.x1, self.y, self.w, self.h)

    def mirrored_y(self, axis: float) -> Box:
        """Reflected across the horizontal line y = axis."""
        return Box(self.x, 2 * axis - self.y1, self.w, self.h)

    def rounded(self, places: int = 6) -> Box:
        return Box(round(self.x, places), round(self.y, places), round(self.w, places), round(self.h, places))

    @staticmethod
    def union(boxes: Iterable[Box]) -> Box:
        boxes = list(boxes)
        x, y = min(b.x for b in boxes), min(b.y for b in boxes)
        return Box(x, y, max(b.x1 for b in boxes) - x, max(b.y1 for b in boxes) - y)


@dataclass(frozen=True, slots=True)
class Segment:
    """A straight line from (x0, y0) to (x1, y1), in mm: a crop mark or a fold line."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def length(self) -> float:
        return math.hypot(self.x1 - self.x0, self.y1 - self.y0)

    def crosses(self, box: Box) -> bool:
        """Whether this axis-aligned segment runs through the box's interior (a segment
        along the box's edge does not)."""
        lo_x, hi_x = sorted((self.x0, self.x1))
        lo_y, hi_y = sorted((self.y0, self.y1))
        if abs(self.y1 - self.y0) <= EPS:  # horizontal
            return box.y + EPS < lo_y < box.y1 - EPS and max(lo_x, box.x) < min(hi_x, box.x1) - EPS
        if abs(self.x1 - self.x0) <= EPS:  # vertical
            return box.x + EPS < lo_x < box.x1 - EPS and max(lo_y, box.y) < min(hi_y, box.y1) - EPS
        raise ValueError("only axis-aligned segments are drawn")


@dataclass(frozen=True, slots=True)
class Slot:
    """Where one card face goes: ``card`` is its index in the deck's order; ``turn`` is 180
    for a gutter-fold back drawn upside down."""

    card: int
    trim: Box
    bleed: Box
    safe: Box
    turn: int = 0


@dataclass(frozen=True, slots=True)
class Sheet:
    """One page.

    Attributes:
        number: the page number, from 1.
        kind: ``fronts``, ``backs`` or ``fronts and backs`` (gutter-fold).
        width, height: the page in mm (the paper either way up).
        fronts, backs: the card faces on the page.
        marks: crop marks, for the fronts.
        info: the band for the deck's name, the page number, the card ids and the ruler.
        info_turn: 90 when the band runs up the page's side (its text reading upwards).
        fold: the fold line of a gutter-fold sheet.
        printable: the page inside the printable margin.
    """

    number: int
    kind: str
    width: float
    height: float
    fronts: tuple[Slot, ...] = ()
    backs: tuple[Slot, ...] = ()
    marks: tuple[Segment, ...] = ()
    info: Box | None = None
    fold: Segment | None = None
    printable: Box | None = None
    info_turn: int = 0

    @property
    def slots(self) -> tuple[Slot, ...]:
        return self.fronts + self.backs

    @property
    def cards(self) -> tuple[int, ...]:
        """The deck indices of the cards whose faces are on the page, in order."""
        return tuple(dict.fromkeys(s.card for s in self.slots))

    @property
    def art(self) -> tuple[Box, ...]:
        return tuple(s.bleed for s in self.slots)

    def trim_box(self) -> Box:
        return Box.union(s.trim for s in self.slots)

    def bleed_box(self) -> Box:
        return Box.union(s.bleed for s in self.slots)


@dataclass(frozen=True, slots=True)
class Settings:
    """How cards go onto paper (every length in mm)."""

    paper: Paper
    card: CardSize
    bleed: float = 3.0
    safe: float = 3.0
    margin: float | None = None  #: None: the layout's own (``MARGINS``)
    duplex: str = "none"
    back_offset: tuple[float, float] = (0.0, 0.0)
    layout: str = "sheets"
    #: the layout was ``auto``: sheets, or tight for a gutter fold where it holds more a sheet
    auto: bool = False

    def __post_init__(self) -> None:
        if self.layout == "auto":
            object.__setattr__(self, "layout", _auto_layout(self))
            object.__setattr__(self, "auto", True)
        if self.margin is None:
            object.__setattr__(self, "margin", MARGINS.get(self.layout, MARGINS["sheets"]))

    @property
    def page_margin(self) -> float:
        assert self.margin is not None
        return self.margin

    def problems(self) -> list[str]:
        out = []
        if not 0 <= self.bleed <= MAX_BLEED:
            out.append(f"bleed: expected 0-{MAX_BLEED:g} mm, got {self.bleed:g}")
        if not 0 <= self.page_margin <= 30:
            out.append(f"margin: expected 0-30 mm, got {self.page_margin:g}")
        least = min(self.card.width, self.card.height)
        if not 0 <= self.safe <= least / 4:
            out.append(f"safe: expected 0-{least / 4:g} mm for a {self.card.name} card, got {self.safe:g}")
        if self.duplex not in DUPLEX:
            out.append(f"duplex: expected one of {', '.join(DUPLEX)}, got {self.duplex!r}")
        if self.layout not in LAYOUTS:
            out.append(f"layout: expected one of {', '.join(LAYOUTS)}, got {self.layout!r}")
        if any(abs(v) > MAX_OFFSET for v in self.back_offset):
            out.append(f"back-offset: expected each of X,Y within +-{MAX_OFFSET:g} mm, got "
                       f"{self.back_offset[0]:g},{self.back_offset[1]:g}")
        elif self.back_offset != (0.0, 0.0) and self.duplex not in ("long", "short"):
            out.append(f"back-offset: shifts duplex backs; it has no effect with --duplex {self.duplex}")
        return out


@dataclass(frozen=True, slots=True)
class Imposition:
    """The pages for a deck: ``per_page`` cards on each, the paper ``width`` x ``height``
    as laid (``landscape`` when turned)."""

    settings: Settings
    pages: tuple[Sheet, ...]
    per_page: int
    width: float
    height: float
    columns: int
    rows: int

    @property
    def landscape(self) -> bool:
        return self.width > self.height


# -- the grid ----------------------------------------------------------------------------------


def _fit(length: float, item: float, gap: float) -> int:
    """How many items fit in a line, ``gap`` apart. A lone item needs room beside it for the
    crop marks of its edges across the line (with two or more, the gaps between them hold
    those)."""
    n = max(0, math.floor((length + gap) / (item + gap) + EPS))
    if n == 1 and item + 2 * (CLEAR + MIN_MARK) > length + EPS:
        return 0
    return n


def _grid(area: Box, w: float, h: float, gap: float, cols: int, rows: int) -> list[Box]:
    """``cols`` x ``rows`` boxes of w x h, ``gap`` apart, centred in ``area``, in reading
    order (top row first, left to right)."""
    total_w = cols * w + (cols - 1) * gap
    total_h = rows * h + (rows - 1) * gap
    x0 = area.x + (area.w - total_w) / 2
    top = area.y1 - (area.h - total_h) / 2
    return [Box(x0 + c * (w + gap), top - (r + 1) * h - r * gap, w, h).rounded()
            for r in range(rows) for c in range(cols)]


@dataclass(frozen=True, slots=True)
class _Plan:
    width: float
    height: float
    printable: Box
    info: Box
    area: Box          # where fronts go
    cols: int
    rows: int
    fold: str = ""     # "", "vertical" or "horizontal"
    fold_at: float = 0.0
    turn: int = 0      # 90: the margin band runs up the page's right side

    @property
    def count(self) -> int:
        return self.cols * self.rows


def _plans(s: Settings) -> list[_Plan]:
    slot_w, slot_h = s.card.width + 2 * s.bleed, s.card.height + 2 * s.bleed
    out = []
    for width, height in ((s.paper.width, s.paper.height), (s.paper.height, s.paper.width)):
        printable = Box(s.page_margin, s.page_margin, width - 2 * s.page_margin, height - 2 * s.page_margin)
        info = Box(printable.x, printable.y, printable.w, FOOTER)
        # the bottom row's lower trim line carries its crop marks out sideways, which needs the
        # line clear of the footer band: a bleed of 2 x CLEAR or more does that by itself
        lift = FOOTER + max(0.0, 2 * CLEAR - s.bleed)
        usable = Box(printable.x, printable.y + lift, printable.w, printable.h - lift)
        if s.duplex != "gutter":
            out.append(_Plan(width, height, printable, info, usable,
                             _fit(usable.w, slot_w, GAP), _fit(usable.h, slot_h, GAP)))
            continue
        half_w = (usable.w - FOLD_GAP) / 2
        left = Box(usable.x, usable.y, half_w, usable.h)
        out.append(_Plan(width, height, printable, info, left, _fit(left.w, slot_w, GAP),
                         _fit(left.h, slot_h, GAP), "vertical", usable.cx))
        half_h = (usable.h - FOLD_GAP) / 2
        top = Box(usable.x, usable.y1 - half_h, usable.w, half_h)
        out.append(_Plan(width, height, printable, info, top, _fit(top.w, slot_w, GAP),
                         _fit(top.h, slot_h, GAP), "horizontal", usable.cy))
    return out


def per_sheet(s: Settings) -> int:
    """The most cards a sheet holds in ``s``'s layout (0: none fits; the cards layout: 1)."""
    if s.layout == "cards":
        return 1
    if s.problems():
        return 0
    return max(p.count for p in (_tight_plans(s) if s.layout == "tight" else _plans(s)))


def _auto_layout(s: Settings) -> str:
    """The ``auto`` layout: ``sheets``, but for a gutter fold (fronts and backs on one page)
    ``tight`` where it holds more cards a sheet (butted cards leave room for the second
    column a fold takes: four poker cards on A4 or Letter, where sheets holds two)."""
    from dataclasses import replace

    if s.duplex != "gutter":
        return "sheets"
    sheets, tight = (per_sheet(replace(s, layout=name)) for name in ("sheets", "tight"))
    return "tight" if tight > sheets else "sheets"


def _fit_tight(length: float, item: float) -> int:
    """How many butted items fit in a line with room for an ``EDGE_MARK`` beyond both ends."""
    return max(0, math.floor((length - 2 * EDGE_MARK) / item + EPS))


def _tight_plans(s: Settings) -> list[_Plan]:
    """The tight layout's plans: each way up, the margin band at the foot or (when the page
    is short of height, as Letter is for three poker cards) up the right side."""
    cw, ch = s.card.width, s.card.height
    m = s.page_margin
    out = []
    for width, height in ((s.paper.width, s.paper.height), (s.paper.height, s.paper.width)):
        printable = Box(m, m, width - 2 * m, height - 2 * m)
        bands = (
            (Box(printable.x, printable.y, printable.w, FOOTER),
             Box(printable.x, printable.y + FOOTER + INFO_GAP, printable.w, printable.h - FOOTER - INFO_GAP), 0),
            (Box(printable.x1 - FOOTER, printable.y, FOOTER, printable.h),
             Box(printable.x, printable.y, printable.w - FOOTER - INFO_GAP, printable.h), 90),
        )
        for info, usable, turn in bands:
            if s.duplex != "gutter":
                out.append(_Plan(width, height, printable, info, usable, _fit_tight(usable.w, cw),
                                 _fit_tight(usable.h, ch), turn=turn))
                continue
            half_w = (usable.w - FOLD_GAP) / 2
            left = Box(usable.x, usable.y, half_w, usable.h)
            out.append(_Plan(width, height, printable, info, left, _fit_tight(left.w, cw), _fit_tight(left.h, ch),
                             "vertical", usable.cx, turn))
            half_h = (usable.h - FOLD_GAP) / 2
            top = Box(usable.x, usable.y1 - half_h, usable.w, half_h)
            out.append(_Plan(width, height, printable, info, top, _fit_tight(top.w, cw), _fit_tight(top.h, ch),
                             "horizontal", usable.cy, turn))
    return out


def _tight_slots(cards: Iterable[int], cells: Sequence[Box], area: Box, s: Settings) -> list[Slot]:
    """Butted cards: each trim a cell of the grid, its bleed reaching out only across the
    grid's outer edges (as far as ``s.bleed``, or the room the area leaves there)."""
    grid = Box.union(cells)
    left, right = min(s.bleed, grid.x - area.x), min(s.bleed, area.x1 - grid.x1)
    low, high = min(s.bleed, grid.y - area.y), min(s.bleed, area.y1 - grid.y1)
    out = []
    for k, t in zip(cards, cells):
        dl = left if abs(t.x - grid.x) < EPS else 0.0
        dr = right if abs(t.x1 - grid.x1) < EPS else 0.0
        db = low if abs(t.y - grid.y) < EPS else 0.0
        dt = high if abs(t.y1 - grid.y1) < EPS else 0.0
        bleed = Box(t.x - dl, t.y - db, t.w + dl + dr, t.h + db + dt).rounded()
        out.append(Slot(k, t, bleed, t.inset(s.safe).rounded()))
    return out


def behind(box: Box, duplex: str, width: float, height: float) -> Box:
    """Where, on the back page as printed, the face behind ``box`` lies once the sheet is
    turned over on its long (``long``) or short (``short``) edge. A sheet turned over on a
    vertical edge mirrors left and right; on a horizontal edge, top and bottom."""
    portrait = width <= height
    vertical_edge = portrait if duplex == "long" else not portrait
    return box.mirrored_x(width / 2) if vertical_edge else box.mirrored_y(height / 2)


def needed(s: Settings) -> tuple[float, float]:
    """The paper a card needs with its bleed, inside the margin and above the footer."""
    if s.layout == "tight":
        room = 2 * EDGE_MARK + 2 * s.page_margin
        return s.card.width + room, s.card.height + room + FOOTER + INFO_GAP
    lift = FOOTER + max(0.0, 2 * CLEAR - s.bleed)
    return s.card.width + 2 * s.bleed + 2 * s.page_margin, s.card.height + 2 * s.bleed + 2 * s.page_margin + lift


def impose(count: int, s: Settings) -> Imposition:
    """Lay out ``count`` cards (deck indices 0 .. count-1) on pages.

    The paper is tried both ways up (and, for gutter-fold, folded both ways); the layout
    with the most cards per page wins, portrait on a tie.

    Raises:
        RequestError: the settings are out of range, or a card does not fit on the paper.
    """
    problems = s.problems()
    if problems:
        raise RequestError(problems)
    if s.layout == "cards":
        return _one_a_page(count, s)
    tight = s.layout == "tight"
    plans = _tight_plans(s) if tight else _plans(s)
    best = max(plans, key=lambda p: p.count)  # max keeps the first of equals: portrait first
    if best.count == 0:
        w, h = needed(s)
        room = " (and gutter-fold needs room for two, its back beside it across the fold)" \
            if s.duplex == "gutter" else ""
        raise RequestError(f"size: {s.card} cards with {s.bleed:g} mm bleed do not fit on {s.paper} paper "
                           f"inside a {s.page_margin:g} mm margin: one needs {w:.1f} x {h:.1f} mm of paper{room}")
    if tight:
        cells = _grid(best.area, s.card.width, s.card.height, 0.0, best.cols, best.rows)
    else:
        slot_w, slot_h = s.card.width + 2 * s.bleed, s.card.height + 2 * s.bleed
        cells = _grid(best.area, slot_w, slot_h, GAP, best.cols, best.rows)
    pages: list[Sheet] = []
    n_sheets = max(1, math.ceil(count / best.count))
    for i in range(n_sheets):
        cards = range(i * best.count, min(count, (i + 1) * best.count))
        if tight:
            fronts = tuple(_tight_slots(cards, cells, best.area, s))
        else:
            fronts = tuple(_slot(k, cell, s) for k, cell in zip(cards, cells))
        backs: tuple[Slot, ...] = ()
        fold: Segment | None = None
        if best.fold == "vertical":
            backs = tuple(_mirrored(sl, "x", best.fold_at) for sl in fronts)
            fold = Segment(best.fold_at, best.area.y, best.fold_at, best.area.y1)
        elif best.fold == "horizontal":
            backs = tuple(_mirrored(sl, "y", best.fold_at) for sl in fronts)
            fold = Segment(best.area.x, best.fold_at, best.area.x1, best.fold_at)
        art = [sl.bleed for sl in fronts + backs]
        # butted cards have no gaps for marks of their own: their cuts are marked at the edges
        marks = [] if tight else [m for sl in fronts for m in _marks(sl, art, best.printable, best.info)]
        marks += _edge_marks(fronts, [sl.bleed for sl in backs], best.printable, best.info)
        marks += _edge_marks(backs, [sl.bleed for sl in fronts], best.printable, best.info)
        kind = "fronts and backs" if best.fold else "fronts"
        pages.append(Sheet(len(pages) + 1, kind, best.width, best.height, fronts, backs, _unique(marks), best.info,
                           fold, best.printable, best.turn))
        if s.duplex in ("long", "short"):
            def moved(b: Box, dx: float = s.back_offset[0], dy: float = s.back_offset[1]) -> Box:
                return behind(b, s.duplex, best.width, best.height).shifted(dx, dy).rounded()

            turned = tuple(Slot(sl.card, moved(sl.trim), moved(sl.bleed), moved(sl.safe)) for sl in fronts)
            info: Box | None = behind(best.info, s.duplex, best.width, best.height)
            if info is not None and any(info.overlaps(sl.bleed) for sl in turned):
                info = None
            # backs moved by an offset may have less room at an edge: their marks take what is left
            least = EDGE_MARK if s.back_offset == (0.0, 0.0) else MIN_MARK
            back_marks = _edge_marks(turned, [], best.printable, info or Box(0, 0, 0, 0), least)
            pages.append(Sheet(len(pages) + 1, "backs", best.width, best.height, (), turned, _unique(back_marks), info,
                               None, best.printable, best.turn))
    return Imposition(s, tuple(pages), best.count, best.width, best.height, best.cols, best.rows)


def _one_a_page(count: int, s: Settings) -> Imposition:
    """One card a page, as print-on-demand services take them: each page the card and its
    bleed (the page is the BleedBox, the card the TrimBox), no marks and no margin notes;
    with backs (any ``duplex`` but ``none``), each front's back on the page after it."""
    w, h = s.card.width + 2 * s.bleed, s.card.height + 2 * s.bleed
    slot = _slot(0, Box(0.0, 0.0, w, h), s)
    pages: list[Sheet] = []
    for k in range(count):
        mine = Slot(k, slot.trim, slot.bleed, slot.safe)
        pages.append(Sheet(len(pages) + 1, "front", w, h, fronts=(mine,)))
        if s.duplex != "none":
            pages.append(Sheet(len(pages) + 1, "back", w, h, backs=(mine,)))
    return Imposition(s, tuple(pages), 1, w, h, 1, 1)


def _mirrored(slot: Slot, axis: str, at: float) -> Slot:
    """A gutter-fold back: ``slot`` reflected across the fold (a horizontal fold turns it
    upside down, so that it reads upright once folded)."""
    def m(b: Box) -> Box:
        return (b.mirrored_x(at) if axis == "x" else b.mirrored_y(at)).rounded()

    return Slot(slot.card, m(slot.trim), m(slot.bleed), m(slot.safe), 0 if axis == "x" else 180)


def _slot(card: int, bleed: Box, s: Settings, turn: int = 0) -> Slot:
    trim = bleed.inset(s.bleed).rounded()
    return Slot(card, trim, bleed, trim.inset(s.safe).rounded(), turn)


def _marks(slot: Slot, art: Sequence[Box], printable: Box, info: Box) -> list[Segment]:
    """Crop marks for one card: the lines of its trim edges carried out beyond its bleed, at
    each corner, as long as ``MARK`` or as far as the nearest art, the info band or the
    printable edge allows (less than ``MIN_MARK`` of room: no mark there)."""
    blocked = [b.outset(CLEAR) for b in art] + [info.outset(CLEAR)]
    t, b = slot.trim, slot.bleed
    out = []
    for y in (t.y, t.y1):
        out.append(_ray(b.x - CLEAR, y, -1, 0, blocked, printable))
        out.append(_ray(b.x1 + CLEAR, y, 1, 0, blocked, printable))
    for x in (t.x, t.x1):
        out.append(_ray(x, b.y - CLEAR, 0, -1, blocked, printable))
        out.append(_ray(x, b.y1 + CLEAR, 0, 1, blocked, printable))
    return [m for m in out if m is not None]


def _edge_marks(slots: Sequence[Slot], others: Sequence[Box], printable: Box, info: Box,
                least: float = EDGE_MARK) -> list[Segment]:
    """Crop marks for every cut line of a grid of ``slots`` at the sheet's edges: each trim
    line carried out beyond the grid at both ends, at least ``EDGE_MARK`` long, so a
    guillotine or a ruler lines up on every cut, inner ones included (the marks between
    cards are too short to use). A mark keeps outside the grid's bleed when there is room;
    otherwise it reaches back over the bleed strip that is cut away, never onto a card's
    trim. ``others``: art the marks must keep clear of (the other side of a gutter fold)."""
    if not slots:
        return []
    blocked = [s.trim.outset(CLEAR) for s in slots] + [b.outset(CLEAR) for b in others] + [info]
    grid = Box.union(s.bleed for s in slots)
    trims = Box.union(s.trim for s in slots)
    out = []
    for x in sorted({v for s in slots for v in (s.trim.x, s.trim.x1)}):
        out.append(_edge(x, trims.y, 0, -1, trims.y - grid.y, blocked, printable, least))
        out.append(_edge(x, trims.y1, 0, 1, grid.y1 - trims.y1, blocked, printable, least))
    for y in sorted({v for s in slots for v in (s.trim.y, s.trim.y1)}):
        out.append(_edge(trims.x, y, -1, 0, trims.x - grid.x, blocked, printable, least))
        out.append(_edge(trims.x1, y, 1, 0, grid.x1 - trims.x1, blocked, printable, least))
    return [m for m in out if m is not None]


def _edge(x: float, y: float, dx: int, dy: int, bleed: float, blocked: Sequence[Box], printable: Box,
          least: float = EDGE_MARK) -> Segment | None:
    """The mark on a cut line from the grid's trim edge at (x, y) outward (dx, dy): from just
    past the bleed (``bleed`` mm out) up to ``MARK`` long where there is room, else the last
    ``EDGE_MARK`` before the printable edge, the info band or other art, from the trim corner
    at the nearest (a mark on a cut line beyond the card is cut away with the strip)."""
    beyond = [b for b in blocked if (dx > 0 and b.x >= x - EPS) or (dx < 0 and b.x1 <= x + EPS)
              or (dy > 0 and b.y >= y - EPS) or (dy < 0 and b.y1 <= y + EPS)]
    room = _room(x, y, dx, dy, beyond, printable)
    start = bleed + CLEAR
    end = min(room, start + MARK)
    if end - start < EDGE_MARK - EPS:
        start = max(0.0, end - EDGE_MARK)
    if end - start < least - EPS:
        return None
    return Segment(round(x + dx * start, 6), round(y + dy * start, 6), round(x + dx * end, 6), round(y + dy * end, 6))


def _unique(marks: Sequence[Segment]) -> tuple[Segment, ...]:
    return tuple(dict.fromkeys(marks))


def _ray(x: float, y: float, dx: int, dy: int, blocked: Sequence[Box], printable: Box) -> Segment | None:
    """The longest mark (up to ``MARK``) from (x, y) in direction (dx, dy) before a box in
    ``blocked`` or the printable edge."""
    room = min(MARK, _room(x, y, dx, dy, blocked, printable))
    if room < MIN_MARK:
        return None
    return Segment(round(x, 6), round(y, 6), round(x + dx * room, 6), round(y + dy * room, 6))


def _room(x: float, y: float, dx: int, dy: int, blocked: Sequence[Box], printable: Box) -> float:
    """How far (x, y) can go in direction (dx, dy) before a box in ``blocked`` or the
    printable edge."""
    room = math.inf
    if dx:
        room = min(room, (printable.x1 - x) if dx > 0 else (x - printable.x))
        for box in blocked:
            ahead = box.x1 > x + EPS if dx > 0 else box.x < x - EPS
            if ahead and box.y < y < box.y1:
                room = min(room, max(0.0, (box.x - x) if dx > 0 else (x - box.x1)))
    else:
        room = min(room, (printable.y1 - y) if dy > 0 else (y - printable.y))
        for box in blocked:
            ahead = box.y1 > y + EPS if dy > 0 else box.y < y - EPS
            if ahead and box.x < x < box.x1:
                room = min(room, max(0.0, (box.y - y) if dy > 0 else (y - box.y1)))
    return room


# -- the duplex calibration sheet -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Calibration:
    """A two-page test for duplex printing: a cross on the front at each of ``targets``, and
    on the back, behind each (as this printer should put it, with the current offset), a
    scale whose numbers are back offsets. Print both pages duplex, hold the sheet up to the
    light and read, on the back, where the front's cross falls: that reading, X then Y, is
    the ``--back-offset`` to use."""

    width: float
    height: float
    duplex: str
    offset: tuple[float, float]
    targets: tuple[tuple[float, float], ...]
    scales: tuple[tuple[float, float], ...] = field(default=())
    printable: Box | None = None
    notes: Box | None = None  #: where the front's instructions go: clear of every cross


#: A calibration cross's arms reach this far from its centre, in mm.
CROSS = 9.0


def calibration(s: Settings, width: float, height: float) -> Calibration:
    """The calibration sheet for paper laid ``width`` x ``height`` (as the deck's imposition
    lays it) and the settings' duplex mode and offset."""
    if s.duplex not in ("long", "short"):
        raise RequestError(f"duplex: a calibration sheet is for --duplex long or short, not {s.duplex}")
    printable = Box(s.page_margin, s.page_margin, width - 2 * s.page_margin, height - 2 * s.page_margin)
    inner = printable.inset(25)
    targets = ((printable.cx, printable.cy), (inner.x, inner.y1), (inner.x1, inner.y1), (inner.x, inner.y),
               (inner.x1, inner.y))
    dx, dy = s.back_offset
    scales = []
    for x, y in targets:
        point = behind(Box(x, y, 0, 0), s.duplex, width, height)
        scales.append((round(point.x + dx, 6), round(point.y + dy, 6)))
    # the instructions: along the top, between the arms of the top corners' crosses and
    # above the middle one
    gap = CROSS + 3.0
    notes = Box(inner.x + gap, printable.cy + gap, inner.w - 2 * gap, printable.y1 - printable.cy - gap)
    return Calibration(width, height, s.duplex, s.back_offset, targets, tuple(scales), printable, notes)
