"""Puzzle Temple on paper: lock cards, their backs, the answer key and paper blocks.

Every card is laid out as data first (``layout``: where the lock, each die row, each block
icon, the id and the tier symbol go), then drawn. The lock is drawn at ``pitch`` mm a cell,
the same pitch as the paper blocks, so that cut-out blocks can be laid on the printed card
and played. Each die row shows the die face as pips and that face's blocks as small shapes
in their colours, each with its letter, so a card reads in greyscale too.

``--size auto`` takes the smallest preset that holds every card of the deck; a card that a
given size cannot hold is an error naming the card and the size it needs.

Nouns:
    Icon        one block drawn small in a die row.
    Row         a die face and its icons.
    CardLayout  one card's layout inside its trim box.
    Answer      one face's solution for the answer key (stored, or found here), or why
                there is none.
    Packing     paper blocks placed on the cells of pages.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from generators.common import grading
from generators.common.errors import RequestError
from generators.common.grading import Tier
from generators.common.words import plural
from generators.puzzle_temple import verify as pt_verify
from generators.puzzle_temple.deck import Card, Deck, Face
from print.common import colours, sheets
from print.common.layout import FOOTER, Box, Imposition, Segment, Settings, Slot, impose
from print.common.pdf import Document, Meta, Pen, text_width
from print.common.sheets import calibration_pdf, draw_imposition, margin_note, wrap
from print.common.sizes import CardSize, Paper, presets
from solver import tiling
from solver.shapes import Shape, lying, plane, quarter_turn
from solver.verify import verify_tiling

TITLE = "Puzzle Temple"
USES = frozenset({"size", "paper", "duplex", "back_offset", "bleed", "safe", "margin", "pitch", "players", "out"})
#: The files ``make`` may write, with what each holds.
FILES = (("cards.pdf", "the lock cards to print and cut"), ("answers.pdf", "a solution of every face"),
         ("blocks.pdf", "paper blocks at the cards' pitch"), ("calibration.pdf", "the duplex calibration sheet"))

Cell = tuple[int, int]

# -- the card's measures, in mm ------------------------------------------------------------------

HEAD = 8.0        #: the header: card id on the left, tier symbol on the right
FRAME = 2.0       #: the stone frame around the lock
SEP = 4.0         #: between the lock and the die rows
DIE = 8.0         #: a die face's side
ICON = 3.0        #: a block icon's cell
ICON_GAP = 2.5    #: between icons in a row
DIE_GAP = 3.0     #: between the die face and its first icon
ROW_GAP = 1.6     #: between rows
COL_GAP = 5.0     #: between two columns of rows

BACKGROUND = "#F7F1E1"
STONE = "#CBBE9E"
LOCK = "#FFFFFF"
GRID = "#B9B0A0"
TIERS = {Tier.EASY: ("#CFE6C4", 1), Tier.MEDIUM: ("#F6D9A8", 2), Tier.HARD: ("#F0B7A8", 3)}


# -- what each face shows -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Answer:
    """A face's solution for the answer key and its difficulty for the tier: stored in the
    deck, or worked out here for a hand-written deck. ``reason`` says why there is no
    solution to draw; ``note`` that it was found here rather than read from the file."""

    die: int
    solution: Mapping[str, tuple[Cell, ...]] | None
    difficulty: float | None
    reason: str | None = None
    note: str = ""


def answers(deck: Deck, card: Card, time_limit: float | None = None) -> tuple[Answer, ...]:
    """Every face's answer: a stored solution is checked cell by cell and used; a face
    without one (or with a wrong one) is solved and rated here by the verifier."""
    out = []
    for face in card.faces:
        stored = face.solution
        if stored is not None and face.difficulty is not None:
            puzzle = deck.puzzle(card, face)
            if verify_tiling(card.lock, puzzle.pieces, stored.placements, flips=deck.flips).ok:
                out.append(Answer(face.die, _cells(stored), face.difficulty))
                continue
        check = pt_verify.check_face(deck, card, face, time_limit=time_limit)
        note = "solved here" if stored is None else "solved here: the stored solution is wrong"
        if check.solution is None:
            why = check.reason or "no solution"
            if check.status is tiling.Status.UNSOLVABLE:
                why = f"cannot be solved: {why}"
            out.append(Answer(face.die, None, None, why, note))
        else:
            out.append(Answer(face.die, _cells(check.solution), check.difficulty, None,
                              "" if check.solution == stored else note))
    return tuple(out)


def _cells(solution: object) -> dict[str, tuple[Cell, ...]]:
    return {p.piece: tuple(p.cells) for p in solution.placements}  # type: ignore[attr-defined]


def card_tier(found: Sequence[Answer], bounds: tuple[float, float]) -> Tier | None:
    values = [a.difficulty for a in found]
    if not values or any(v is None for v in values):
        return None
    return grading.tier_of(grading.mean(values), bounds)  # type: ignore[arg-type]


# -- card layout as data --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Icon:
    name: str
    cells: tuple[Cell, ...]
    x: float
    top: float


@dataclass(frozen=True, slots=True)
class Row:
    die: int
    face: Box
    icons: tuple[Icon, ...]
    band: Box


@dataclass(frozen=True, slots=True)
class CardLayout:
    """One card inside a trim box whose lower-left corner is (0, 0).

    Attributes:
        lock: the lock's cells as drawn (turned a quarter when ``turned``).
        lock_x, lock_top: where the lock's column 0 and row 0 begin.
        pitch: the lock's cell, in mm.
        frame: the stone frame around the lock.
        rows: the six die rows.
        id_at, tier_at: the header's two anchors (baseline left, and the symbol's centre).
        arrangement: ``stacked`` (lock over rows) or ``side`` (rows left of the lock), and
            the rows' columns.
    """

    width: float
    height: float
    lock: tuple[Cell, ...]
    turned: bool
    lock_x: float
    lock_top: float
    pitch: float
    frame: Box
    rows: tuple[Row, ...]
    id_at: tuple[float, float]
    tier_at: tuple[float, float]
    arrangement: str
    icon: float = ICON

    def lock_box(self) -> Box:
        rows = max(r for r, _ in self.lock) + 1
        cols = max(c for _, c in self.lock) + 1
        return Box(self.lock_x, self.lock_top - rows * self.pitch, cols * self.pitch, rows * self.pitch)


def _extent(cells: Sequence[Cell]) -> tuple[int, int]:
    return max(r for r, _ in cells) + 1, max(c for _, c in cells) + 1


@dataclass(frozen=True, slots=True)
class Measures:
    """The die rows' measures in mm, all grown together by ``scale`` when a card has room."""

    scale: float = 1.0

    @property
    def die(self) -> float:
        return DIE * self.scale

    @property
    def icon(self) -> float:
        return ICON * self.scale

    @property
    def icon_gap(self) -> float:
        return ICON_GAP * self.scale

    @property
    def die_gap(self) -> float:
        return DIE_GAP * self.scale

    @property
    def row_gap(self) -> float:
        return ROW_GAP * self.scale

    @property
    def col_gap(self) -> float:
        return COL_GAP * self.scale


#: How much the die rows may grow on a card with room to spare, largest first.
SCALES = (1.5, 1.4, 1.3, 1.2, 1.1, 1.0)


def _row_size(deck: Deck, face: Face, m: Measures) -> tuple[float, float, list[tuple[str, tuple[Cell, ...]]]]:
    shapes = [(name, lying(deck.block(name).shape.normalized().cells)) for name in face.blocks]
    width = m.die + m.die_gap + sum(_extent(s)[1] * m.icon for _, s in shapes) + m.icon_gap * (len(shapes) - 1)
    height = max([m.die] + [_extent(s)[0] * m.icon for _, s in shapes])
    return width, height, shapes


@dataclass(frozen=True, slots=True)
class _Option:
    arrangement: str
    columns: int
    turned: bool
    width: float
    height: float


def _options(deck: Deck, card: Card, pitch: float, m: Measures = Measures()) -> list[_Option]:
    """Every arrangement of a card with the content size (w, h) it needs."""
    sizes = [_row_size(deck, f, m) for f in card.faces]
    panels = {1: _panel(sizes, 1, m), 2: _panel(sizes, 2, m)}
    lock_rows, lock_cols = _extent(plane(card.lock.cells))
    out = []
    for turned in (False, True):
        if turned and lock_rows == lock_cols:
            continue
        lw = (lock_rows if turned else lock_cols) * pitch + 2 * FRAME
        lh = (lock_cols if turned else lock_rows) * pitch + 2 * FRAME
        for columns, (pw, ph) in panels.items():
            out.append(_Option("stacked", columns, turned, max(lw, pw), HEAD + lh + SEP + ph))
            out.append(_Option("side", columns, turned, pw + SEP + lw, HEAD + max(lh, ph)))
    return out


def needs(deck: Deck, card: Card, pitch: float, safe: float) -> tuple[float, float]:
    """The smallest card (width, height) that holds ``card``, its safe zone included."""
    best = min(_options(deck, card, pitch), key=lambda o: (o.width + 2 * safe) * (o.height + 2 * safe))
    return best.width + 2 * safe, best.height + 2 * safe


def _fits(option: _Option, size: CardSize, safe: float) -> bool:
    return option.width <= size.width - 2 * safe + 1e-9 and option.height <= size.height - 2 * safe + 1e-9


def choose_size(deck: Deck, pitch: float, safe: float) -> CardSize:
    """The smallest preset (either way up) that holds every card of the deck.

    Raises:
        RequestError: no preset holds the largest card (naming it and what it needs).
    """
    for size in presets():
        if all(any(_fits(o, size, safe) for o in _options(deck, c, pitch)) for c in deck.cards):
            return size
    card, (w, h) = _largest(deck, pitch, safe)
    raise RequestError(f"size: card {card.id} needs {w:.1f} x {h:.1f} mm at a {pitch:g} mm pitch, more than the "
                       f"largest preset; give --size WxH or a smaller --pitch")


def _largest(deck: Deck, pitch: float, safe: float) -> tuple[Card, tuple[float, float]]:
    sized = [(c, needs(deck, c, pitch, safe)) for c in deck.cards]
    return max(sized, key=lambda t: t[1][0] * t[1][1])


def check_size(deck: Deck, size: CardSize, pitch: float, safe: float) -> None:
    """Raises RequestError naming the first card ``size`` cannot hold and what it needs."""
    for card in deck.cards:
        options = _options(deck, card, pitch)
        if not any(_fits(o, size, safe) for o in options):
            w, h = needs(deck, card, pitch, safe)
            holding = next((p for p in presets() if any(_fits(o, p, safe) for o in options)), None)
            hint = f"the smallest preset that holds it is {holding}" if holding else "no preset holds it"
            raise RequestError(f"size: card {card.id} needs at least {w:.1f} x {h:.1f} mm at a {pitch:g} mm "
                               f"pitch; {size} cannot hold it ({hint}; try --size auto or a smaller --pitch)")


def row_scale(deck: Deck, size: CardSize, pitch: float, safe: float) -> Measures:
    """The largest die-row measures (``SCALES``) at which every card of the deck fits
    ``size``: one scale for the whole deck, so that its cards look alike."""
    for scale in SCALES:
        m = Measures(scale)
        if all(any(_fits(o, size, safe) for o in _options(deck, c, pitch, m)) for c in deck.cards):
            return m
    return Measures()


def layout(deck: Deck, card: Card, size: CardSize, pitch: float, safe: float,
           m: Measures = Measures()) -> CardLayout:
    """Where everything on ``card`` goes on a card of ``size``: the fitting arrangement with
    the most room to spare on its tighter side.

    Raises:
        RequestError: the card does not fit.
    """
    fitting = [o for o in _options(deck, card, pitch, m) if _fits(o, size, safe)]
    if not fitting:
        check_size(deck, size, pitch, safe)
    inner = Box(safe, safe, size.width - 2 * safe, size.height - 2 * safe)
    best = max(fitting, key=lambda o: min(inner.w - o.width, inner.h - o.height))
    lock = quarter_turn(card.lock.cells) if best.turned else plane(card.lock.cells)
    lock_rows, lock_cols = _extent(lock)
    lw, lh = lock_cols * pitch + 2 * FRAME, lock_rows * pitch + 2 * FRAME
    body = Box(inner.x, inner.y, inner.w, inner.h - HEAD)
    sizes = [_row_size(deck, f, m) for f in card.faces]
    panel_w, panel_h = _panel(sizes, best.columns, m)
    if best.arrangement == "stacked":
        spare = body.h - (lh + SEP + panel_h)
        top = body.y1 - spare / 2
        frame = Box(body.cx - lw / 2, top - lh, lw, lh)
        panel = Box(body.cx - panel_w / 2, frame.y - SEP - panel_h, panel_w, panel_h)
    else:
        spare_w = body.w - (panel_w + SEP + lw)
        left = body.x + spare_w / 2
        panel = Box(left, body.cy - panel_h / 2, panel_w, panel_h)
        frame = Box(panel.x1 + SEP, body.cy - lh / 2, lw, lh)
    rows = _rows(sizes, card, panel, best.columns, m)
    return CardLayout(size.width, size.height, lock, best.turned, frame.x + FRAME, frame.y1 - FRAME, pitch, frame,
                      rows, (inner.x, inner.y1 - 4.6), (inner.x1 - 1.0, inner.y1 - 3.2),
                      f"{best.arrangement}, {plural(best.columns, 'column')}", m.icon)


def _panel(sizes: Sequence[tuple[float, float, object]], columns: int, m: Measures) -> tuple[float, float]:
    if columns == 1:
        return max(w for w, _, _ in sizes), sum(h for _, h, _ in sizes) + m.row_gap * (len(sizes) - 1)
    left, right = sizes[:3], sizes[3:]
    width = max(w for w, _, _ in left) + (m.col_gap + max(w for w, _, _ in right) if right else 0)
    height = max(sum(h for _, h, _ in part) + m.row_gap * (len(part) - 1) for part in (left, right) if part)
    return width, height


def _rows(sizes: Sequence[tuple[float, float, list[tuple[str, tuple[Cell, ...]]]]], card: Card, panel: Box,
          columns: int, m: Measures) -> tuple[Row, ...]:
    groups = [list(range(len(sizes)))] if columns == 1 else [list(range(min(3, len(sizes)))),
                                                              list(range(3, len(sizes)))]
    out: list[Row] = []
    x = panel.x
    for group in groups:
        if not group:
            continue
        top = panel.y1
        col_w = max(sizes[i][0] for i in group)
        for i in group:
            width, height, shapes = sizes[i]
            band = Box(x, top - height, col_w, height)
            face = Box(x, band.cy - m.die / 2, m.die, m.die)
            icons = []
            ix = face.x1 + m.die_gap
            for name, cells in shapes:
                rows, cols = _extent(cells)
                icons.append(Icon(name, cells, ix, band.cy + rows * m.icon / 2))
                ix += cols * m.icon + m.icon_gap
            out.append(Row(card.faces[i].die, face, tuple(icons), band))
            top -= height + m.row_gap
        x += col_w + m.col_gap
    return tuple(out)


# -- drawing a card ------------------------------------------------------------------------------


def tier_symbol(pen: Pen, x: float, y: float, tier: Tier | None, size: float = 3.2, ink: str = colours.INK) -> None:
    """One, two or three triangles for easy, medium, hard, right-aligned at x, centred on y;
    an unrated card shows a hollow circle."""
    if tier is None:
        pen.circle(x - size / 2, y, size / 2.4, fill=None, stroke=ink, width=0.3)
        return
    count = TIERS[tier][1]
    for i in range(count):
        cx = x - size / 2 - i * (size + 0.8)
        pen.polygon([(cx - size / 2, y - size / 2.3), (cx + size / 2, y - size / 2.3), (cx, y + size / 2.3)],
                    fill=ink)


def draw_front(pen: Pen, slot: Slot, card: Card, lay: CardLayout, tier: Tier | None,
               key: Mapping[str, str], palette: Mapping[str, str]) -> None:
    ox, oy = slot.trim.x, slot.trim.y
    pen.rect(slot.bleed, fill=BACKGROUND)
    pen.rect(Box(slot.trim.x + 1.2, slot.trim.y + 1.2, slot.trim.w - 2.4, slot.trim.h - 2.4), stroke=STONE,
             width=0.5, radius=2.5)
    pen.text(ox + lay.id_at[0], oy + lay.id_at[1], f"{card.id}", 11, bold=True)
    tier_symbol(pen, ox + lay.tier_at[0], oy + lay.tier_at[1], tier)
    frame = lay.frame.shifted(ox, oy)
    pen.rect(frame, fill=STONE, radius=1.5)
    pen.cells(lay.lock, ox + lay.lock_x, oy + lay.lock_top, lay.pitch, LOCK, edge=colours.INK, edge_width=0.6,
              grid=GRID, grid_width=0.25)
    for row in lay.rows:
        pen.pips(row.face.shifted(ox, oy), row.die)
        for icon in row.icons:
            colour = palette[icon.name]
            pen.cells(icon.cells, ox + icon.x, oy + icon.top, lay.icon, colour, edge_width=0.25,
                      grid=colours.shade(colour, -0.25), grid_width=0.1, letter=key[icon.name],
                      letter_size=lay.icon * 2.1)


def draw_back(pen: Pen, slot: Slot, tier: Tier | None) -> None:
    tint = TIERS[tier][0] if tier is not None else BACKGROUND
    t = slot.trim
    pen.rect(slot.bleed, fill=tint)
    pen.rect(Box(t.x + 3, t.y + 3, t.w - 6, t.h - 6), stroke=colours.INK, width=0.6, radius=3)
    pen.rect(Box(t.x + 4.2, t.y + 4.2, t.w - 8.4, t.h - 8.4), stroke=colours.INK, width=0.25, radius=2.4)
    words = TITLE.upper().split()
    size = min(20.0, max(9.0, (t.w - 14) / max(text_width(w, 1, bold=True) for w in words)))
    line = size * 0.42
    for i, word in enumerate(words):
        pen.text(t.cx, t.cy + line * (len(words) / 2 - i) + 4, word, size, bold=True, anchor="middle")
    n = TIERS[tier][1] if tier is not None else 1
    tier_symbol(pen, t.cx + (n * 5.0 + (n - 1) * 0.8) / 2, t.cy - 8, tier, size=5.0)
    pen.text(t.cx, t.cy - 17, tier.value if tier is not None else "unrated", 9, anchor="middle")


# -- answers ---------------------------------------------------------------------------------------


def draw_answers(doc: Document, deck: Deck, found: Sequence[tuple[Answer, ...]], lays: Sequence[CardLayout],
                 tiers: Sequence[Tier | None], paper: Paper, margin: float, key: Mapping[str, str],
                 palette: Mapping[str, str], title: str) -> None:
    """The answer key: per card, each face's solution drawn small, as the card shows the
    lock (turned alike), in the blocks' colours and letters."""
    width, height = paper.width, paper.height
    area = Box(margin, margin + FOOTER, width - 2 * margin, height - 2 * margin - FOOTER - 6)
    most_rows = max(_extent(lay.lock)[0] for lay in lays)
    most_cols = max(_extent(lay.lock)[1] for lay in lays)
    slot_w = area.w / 6
    cell = min(5.0, (slot_w - 4) / most_cols)
    entry_h = 6.0 + 5.0 + most_rows * cell + 4.0
    per_page = max(1, int(area.h // entry_h))
    pages = math.ceil(len(deck.cards) / per_page)
    for p in range(pages):
        with doc.page(width, height) as pen:
            pen.text(area.x, area.y1 + 2, f"{title}: answer key", 10, bold=True)
            top = area.y1 - 1
            chunk = range(p * per_page, min(len(deck.cards), (p + 1) * per_page))
            for i in chunk:
                card, lay = deck.cards[i], lays[i]
                pen.text(area.x, top - 4, f"card {card.id}", 8, bold=True)
                tier_symbol(pen, area.x + 30, top - 3, tiers[i], size=2.6)
                pen.line(Segment(area.x, top - 5.5, area.x1, top - 5.5), 0.15, "#999999")
                for j, ans in enumerate(found[i]):
                    x = area.x + j * slot_w
                    pen.pips(Box(x, top - 10.5, 4.0, 4.0), ans.die)
                    if ans.note:
                        pen.text(x + 5, top - 9.6, ans.note.split(":")[0], 5, colour="#555555")
                    grid_top = top - 12.5
                    if ans.solution is None:
                        pen.cells(lay.lock, x, grid_top, cell, "#EEEEEE", grid=GRID)
                        below = grid_top - _extent(lay.lock)[0] * cell - 2.6
                        for n, line in enumerate(wrap(ans.reason or "", 5.5, slot_w - 2)):
                            pen.text(x, below - n * 2.4, line, 5.5, colour="#B00000")
                        continue
                    for name, cells in sorted(ans.solution.items()):
                        drawn = as_drawn(cells, card, lay)
                        pen.cells(drawn, x, grid_top, cell, palette[name], edge_width=0.3, letter=key[name],
                                  letter_size=min(7.0, cell * 2.0))
                top -= entry_h
            margin_note(pen, Box(margin, margin, width - 2 * margin, FOOTER),
                        f"{title}  |  answer key, page {p + 1} of {pages}",
                        "each face's stored solution; 'solved here' marks one this tool found for a hand-written deck")


def as_drawn(cells: Sequence[Cell], card: Card, lay: CardLayout) -> tuple[Cell, ...]:
    """Solution cells in the lock's frame as the card draws it (turned alike)."""
    if not lay.turned:
        return tuple(cells)
    rows = max(r for r, _ in card.lock.cells) + 1
    return tuple((c, rows - 1 - r) for r, c in cells)


# -- paper blocks ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Placed:
    """A paper block on a page: ``cells`` as (row, column) in the page's cell grid."""

    name: str
    player: int
    cells: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class Packing:
    """Paper blocks on pages of ``rows`` x ``columns`` cells."""

    rows: int
    columns: int
    pages: tuple[tuple[Placed, ...], ...]

    @property
    def lower_bound(self) -> int:
        """No packing can use fewer pages than the cells need."""
        cells = sum(len(p.cells) for page in self.pages for p in page)
        return max(1, math.ceil(cells / (self.rows * self.columns)))


def pack(blocks: Sequence[tuple[str, Shape]], players: int, rows: int, columns: int, flips: bool) -> Packing:
    """``players`` sets of ``blocks`` on pages of ``rows`` x ``columns`` cells, largest
    first, each at the first free place (top row first, then left to right) in the first
    page it fits, turned as the rules allow (turned over too when ``flips``: a paper block
    printed on one side must not be a mirror image the rules forbid).

    Raises:
        RequestError: a block larger than a page.
    """
    items = sorted(((name, shape, p) for p in range(1, players + 1) for name, shape in blocks),
                   key=lambda t: (-len(t[1]), t[0], t[2]))
    pages: list[list[Placed]] = []
    filled: list[set[Cell]] = []
    for name, shape, player in items:
        shapes = [plane(o.cells) for o in shape.orientations(flips=flips)]
        spot: tuple[int, tuple[Cell, ...]] | None = None
        for k, taken in enumerate(filled):
            found = _first_fit(shapes, taken, rows, columns)
            if found is not None:
                spot = (k, found)
                break
        if spot is None:
            fresh: set[Cell] = set()
            place = _first_fit(shapes, fresh, rows, columns)
            if place is None:
                r, c = _extent(shapes[0])
                raise RequestError(f"pitch: block {name} ({r} x {c} cells) does not fit on a page of "
                                   f"{rows} x {columns} cells; use a smaller --pitch")
            pages.append([])
            filled.append(fresh)
            spot = (len(pages) - 1, place)
        k, cells = spot
        filled[k].update(cells)
        pages[k].append(Placed(name, player, cells))
    return Packing(rows, columns, tuple(tuple(p) for p in pages))


def _first_fit(shapes: Sequence[tuple[Cell, ...]], taken: set[Cell], rows: int,
               columns: int) -> tuple[Cell, ...] | None:
    for r in range(rows):
        for c in range(columns):
            if (r, c) in taken:
                continue
            for shape in shapes:
                # anchor the shape's first cell (in row order) on the first free cell
                ar, ac = shape[0]
                cells = tuple((r + sr - ar, c + sc - ac) for sr, sc in shape)
                if all(0 <= cr < rows and 0 <= cc < columns and (cr, cc) not in taken for cr, cc in cells):
                    return cells
    return None


def blocks_grid(paper: Paper, margin: float, pitch: float) -> tuple[Box, int, int]:
    """The cell grid of a blocks page: its box, rows and columns."""
    area = Box(margin, margin + FOOTER, paper.width - 2 * margin, paper.height - 2 * margin - FOOTER - 5)
    rows, columns = int(area.h // pitch), int(area.w // pitch)
    grid = Box(area.cx - columns * pitch / 2, area.y1 - rows * pitch, columns * pitch, rows * pitch)
    return grid, rows, columns


def draw_blocks(doc: Document, packing: Packing, grid: Box, paper: Paper, margin: float, pitch: float,
                key: Mapping[str, str], palette: Mapping[str, str], title: str, players: int) -> None:
    total = len(packing.pages)
    for n, page in enumerate(packing.pages):
        with doc.page(paper.width, paper.height) as pen:
            pen.text(grid.x, grid.y1 + 2, f"{title}: paper blocks, {players} player set"
                     f"{'s' if players != 1 else ''} at {pitch:g} mm; cut along the black lines", 9, bold=True)
            for placed in page:
                colour = palette[placed.name]
                pen.cells(placed.cells, grid.x, grid.y1, pitch, colour, edge_width=0.5,
                          grid=colours.shade(colour, -0.2), grid_width=0.15, letter=key[placed.name],
                          letter_size=min(14.0, pitch * 1.1))
            margin_note(pen, Box(margin, margin, paper.width - 2 * margin, FOOTER),
                        f"{title}  |  paper blocks, page {n + 1} of {total}",
                        f"{len(page)} blocks; each cell is {pitch:g} mm, as on the cards")


# -- the whole job -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Request:
    """What ``templeforge pdf`` asked for, parsed."""

    size: CardSize | str
    paper: Paper
    duplex: str
    back_offset: tuple[float, float]
    bleed: float
    pitch: float
    players: int
    safe: float = 3.0
    margin: float = 5.0


@dataclass(frozen=True, slots=True)
class Printed:
    """The PDFs in memory, and what a designer wants to know about them."""

    files: dict[str, bytes]
    size: CardSize
    imposition: Imposition
    lays: tuple[CardLayout, ...]
    packing: Packing | None
    answer_pages: int
    solved_here: int
    unsolvable: int
    labels: tuple[str, ...] = ()  #: each printed card's label, in imposition order


def make(deck: Deck, request: Request, title: str) -> Printed:
    """Every PDF for ``deck``: ``cards.pdf``, ``answers.pdf``, ``blocks.pdf`` (when
    ``players`` > 0) and ``calibration.pdf`` (for duplex printing).

    Raises:
        RequestError: a size, paper or pitch that cannot hold the deck, before anything is
            drawn.
    """
    size = choose_size(deck, request.pitch, request.safe) if request.size == "auto" else request.size
    assert isinstance(size, CardSize)
    check_size(deck, size, request.pitch, request.safe)
    settings = Settings(request.paper, size, request.bleed, request.safe, request.margin, request.duplex,
                        request.back_offset)
    imposition = impose(len(deck.cards), settings)
    grid, rows, columns = blocks_grid(request.paper, request.margin, request.pitch)
    shapes = [(b.name, b.shape) for b in deck.blocks]
    packing = pack(shapes, request.players, rows, columns, deck.flips) if request.players else None

    key, palette = deck.letters(), colours.assign([b.name for b in deck.blocks])
    measures = row_scale(deck, size, request.pitch, request.safe)
    lays = tuple(layout(deck, c, size, request.pitch, request.safe, measures) for c in deck.cards)
    bounds, _ = pt_verify.tier_scale(deck)
    found = [answers(deck, c) for c in deck.cards]
    tiers = [card_tier(f, bounds) for f in found]
    ids = [c.id for c in deck.cards]

    files: dict[str, bytes] = {}
    meta = f"{len(deck.cards)} lock cards, {size.name} {size.width:g} x {size.height:g} mm"
    cards = Document(Meta(f"{title}: cards", f"{TITLE} lock cards ({meta})", TITLE), request.duplex)

    def front(pen: Pen, slot: Slot) -> None:
        draw_front(pen, slot, deck.cards[slot.card], lays[slot.card], tiers[slot.card], key, palette)

    def back(pen: Pen, slot: Slot) -> None:
        draw_back(pen, slot, tiers[slot.card])

    draw_imposition(cards, imposition, title=title, ids=ids, front=front,
                    back=back if request.duplex != "none" else None)
    files["cards.pdf"] = cards.data()

    key_doc = Document(Meta(f"{title}: answer key", f"{TITLE}: a solution of every face", TITLE))
    draw_answers(key_doc, deck, found, lays, tiers, request.paper, request.margin, key, palette, title)
    files["answers.pdf"] = key_doc.data()

    if packing is not None:
        blocks = Document(Meta(f"{title}: paper blocks", f"{TITLE}: {request.players} player sets of blocks at "
                                                         f"{request.pitch:g} mm", TITLE))
        draw_blocks(blocks, packing, grid, request.paper, request.margin, request.pitch, key, palette, title,
                    request.players)
        files["blocks.pdf"] = blocks.data()
    cal = calibration_pdf(settings, imposition, title, TITLE)
    if cal is not None:
        files["calibration.pdf"] = cal
    solved_here = sum(1 for f in found for a in f if a.note and a.solution is not None)
    unsolvable = sum(1 for f in found for a in f if a.solution is None)
    return Printed(files, size, imposition, lays, packing, key_doc.pages, solved_here, unsolvable,
                   tuple(str(i) for i in ids))


def deck_title(deck: Deck, path: str | Path) -> str:
    return sheets.deck_title(TITLE, deck.seed, path)


def request(values: Mapping[str, object]) -> Request:
    """The request from the parsed print options (``print.common.options``)."""
    return Request(values["size"], values["paper"], values["duplex"], values["back_offset"],  # type: ignore[arg-type]
                   values["bleed"], values["pitch"], values["players"], values["safe"],  # type: ignore[arg-type]
                   values["margin"])  # type: ignore[arg-type]


def summary(printed: Printed) -> list[str]:
    """What the command tells the designer."""
    lines = [sheets.cards_line(printed.imposition, printed.size)]
    extra = []
    if printed.solved_here:
        extra.append(f"{printed.solved_here} solved here")
    if printed.unsolvable:
        extra.append(f"{printed.unsolvable} with no solution (marked)")
    lines.append(f"answers.pdf: {plural(printed.answer_pages, 'page')}" + (f" ({', '.join(extra)})" if extra else ""))
    if printed.packing is not None:
        p = printed.packing
        lines.append(f"blocks.pdf: {plural(len(p.pages), 'page')} of {p.rows} x {p.columns} cells "
                     f"(at least {p.lower_bound} needed)")
    if "calibration.pdf" in printed.files:
        lines.append(sheets.CALIBRATION_LINE)
    return lines


if TYPE_CHECKING:  # the type checker holds this module to the contract
    from generators.contract import Paper as _Contract
    from print import puzzle_temple as _self

    _conforms: _Contract = _self
