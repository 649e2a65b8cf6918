"""Puzzle Temple lock cards on paper: each card laid out as data (``layout``), then drawn,
front and back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from generators.common.errors import RequestError
from generators.common.grading import Tier
from generators.common.words import plural
from generators.puzzle_temple.deck import Card, Deck, Face
from print.common import colours
from print.common.layout import Box, Slot
from print.common.pdf import MIN_TEXT, Pen, text_width
from print.common.sizes import CardSize, presets
from solver.shapes import lying, plane, quarter_turn

TITLE = "Puzzle Temple"

Cell = tuple[int, int]

# -- the card's measures, in mm ------------------------------------------------------------------

HEAD = 8.0        #: the header: card id on the left, tier symbol on the right
FRAME = 2.0       #: the stone frame around the lock
SEP = 4.0         #: between the lock and the die rows
DIE = 8.0         #: a die face's side
ICON = 3.0        #: a block icon's cell
ICON_GAP = 2.5    #: between icons in a row
ICON_LETTER = 3.0  #: the least icon cell that takes its block's letter (MIN_TEXT points)
DIE_GAP = 3.0     #: between the die face and its first icon
ROW_GAP = 1.6     #: between rows
COL_GAP = 5.0     #: between two columns of rows

BACKGROUND = "#F7F1E1"
STONE = "#CBBE9E"
LOCK = "#FFFFFF"
GRID = "#B9B0A0"
TIERS = {Tier.EASY: ("#CFE6C4", 1), Tier.MEDIUM: ("#F6D9A8", 2), Tier.HARD: ("#F0B7A8", 3)}


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
    pen.rect(slot.safe, stroke=STONE, width=0.5, radius=2.5)
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
                      letter_size=max(MIN_TEXT, lay.icon * 2.1) if lay.icon >= ICON_LETTER else None)


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
