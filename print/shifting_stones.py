"""Shifting Stones on paper: pattern cards, their backs, reference cards and paper stones.

A pattern card shows its points in a badge, its id, and its window: each stone in its
face's colour with the face's symbol (``generators.shifting_stones.symbols``, the same
outlines the 3D tiles carry) and letter, so a card reads in greyscale; a blank cell (any
stone) is a dashed outline. Every card's cells have the same size, whatever its window, and
a caption says whether the window may show anywhere or fixes the whole grid. The card is
laid out as data first (``layout``), then drawn.

``cards.pdf`` holds the pattern cards and then one reference card per player (the actions,
the stones, the scoring); ``stones.pdf`` the nine stones as double-sided paper tiles, each
face behind the other (duplex as asked, or folded along the gutter when printing one-sided).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from generators.common.errors import RequestError
from generators.common.words import plural
from generators.shifting_stones.deck import Card, Deck
from generators.shifting_stones.pattern import SIDE
from generators.shifting_stones.symbols import Symbol, symbols
from generators.shifting_stones.tiles import TileSet
from print.common import colours, sheets
from print.common.layout import FRAME_INSET, Box, Imposition, Settings, Slot, impose
from print.common.pdf import MIN_TEXT, Document, Meta, Pen, text_width
from print.common.sheets import calibration_pdf, draw_imposition, wrap
from print.common.sizes import CARDS, CardSize, Paper

TITLE = "Shifting Stones"
USES = frozenset({"size", "paper", "duplex", "layout", "back_offset", "bleed", "safe", "margin", "players",
                  "designer_marks", "out"})
#: The files ``make`` may write, with what each holds.
FILES = (("cards.pdf", "the pattern cards and reference cards to print and cut"),
         ("stones.pdf", "the stones on paper, double-sided"), ("calibration.pdf", "the duplex calibration sheet"))

AUTO = CardSize("poker", *CARDS["poker"])  #: the card size ``--size auto`` gives
STONE_SIZE = CardSize("30x30", 30.0, 30.0)  #: a paper stone

HEAD = 12.0       #: the header: points badge, card id
FOOT = 9.0        #: the footer: caption and difficulty
GAP = 1.6         #: between stones
PAD = 2.2         #: the tray around the window
MIN_CELL = 9.0    #: a stone smaller than this is too small to read
MAX_CELL = 17.0

BACKGROUND = "#F4EFE3"
TRAY = "#D8CDB5"
BORDER = "#B8A98A"
BACK = "#4E473D"
BACK_INK = "#EFE6D2"


@dataclass(frozen=True, slots=True)
class CardLayout:
    """Where a pattern card's parts go, relative to its trim box's bottom-left corner."""

    badge: tuple[float, float, float]        # centre x, centre y, radius
    id_at: tuple[float, float]               # right end of the id's baseline
    tray: Box
    cells: tuple[tuple[Box, int | None], ...]  # each cell and its face (None: any stone)
    caption_at: tuple[float, float]
    note_at: tuple[float, float]


def cell_size(size: CardSize, safe: float) -> float:
    """The stone size a card of ``size`` gives (cells are sized for a 3x3 window).

    Raises:
        RequestError: the card cannot hold a readable 3x3 window.
    """
    room_w = size.width - 2 * safe - 2 * PAD
    room_h = size.height - 2 * safe - HEAD - FOOT - 2 * PAD
    cell = min(MAX_CELL, (room_w - (SIDE - 1) * GAP) / SIDE, (room_h - (SIDE - 1) * GAP) / SIDE)
    if cell < MIN_CELL:
        need_w = SIDE * MIN_CELL + (SIDE - 1) * GAP + 2 * PAD + 2 * safe
        need_h = need_w - 2 * safe + HEAD + FOOT + 2 * safe
        raise RequestError(f"size: a {size} card holds stones of {max(cell, 0):.1f} mm, less than the "
                           f"{MIN_CELL:g} mm that reads; a pattern card needs at least {need_w:.0f} x "
                           f"{need_h:.0f} mm (try poker)")
    return cell


def layout(card: Card, size: CardSize, safe: float) -> CardLayout:
    cell = cell_size(size, safe)
    inner = Box(safe, safe, size.width - 2 * safe, size.height - 2 * safe)
    radius = HEAD / 2 - 0.6
    badge = (inner.x + radius, inner.y1 - radius, radius)
    id_at = (inner.x1, inner.y1 - HEAD / 2 - 1.2)
    rows, cols = card.pattern.height, card.pattern.width
    w = cols * cell + (cols - 1) * GAP
    h = rows * cell + (rows - 1) * GAP
    middle_y = inner.y + FOOT + (inner.h - HEAD - FOOT) / 2
    left, top = inner.cx - w / 2, middle_y + h / 2
    cells = []
    for r, row in enumerate(card.pattern.rows):
        for c, face in enumerate(row):
            cells.append((Box(left + c * (cell + GAP), top - (r + 1) * cell - r * GAP, cell, cell), face))
    tray = Box(left - PAD, top - h - PAD, w + 2 * PAD, h + 2 * PAD)
    return CardLayout(badge, id_at, tray, tuple(cells), (inner.cx, inner.y + FOOT - 3.2), (inner.cx, inner.y + 0.8))


# -- drawing -------------------------------------------------------------------------------------


def draw_symbol(pen: Pen, symbol: Symbol, cx: float, cy: float, half: float, ink: str) -> None:
    for polygon in symbol:
        pen.polygon([(cx + x * half, cy + y * half) for x, y in polygon], fill=ink)


def draw_stone(pen: Pen, box: Box, face: int, tiles: TileSet, marks: Sequence[Symbol],
               letters: Sequence[str]) -> None:
    """A stone: its face's colour, symbol and letter (the letter in the top-left corner)."""
    colour = tiles.colour(face)
    ink = colours.text_on(colour)
    pen.rect(box, fill=colour, stroke=colours.INK, width=0.35, radius=box.w * 0.18)
    draw_symbol(pen, marks[face], box.cx, box.cy - box.h * 0.03, box.w * 0.3, ink)
    size = box.w * 0.6
    if size >= MIN_TEXT:  # a stone too small for a readable letter shows its symbol alone
        pen.text(box.x + box.w * 0.1, box.y1 - box.h * 0.1 - size * 0.3, letters[face], size, bold=True,
                 colour=ink)


def draw_any(pen: Pen, box: Box) -> None:
    pen.rect(box.inset(0.3), fill=BACKGROUND, stroke="#8A7E66", width=0.35, radius=box.w * 0.18, dash=(1.2, 1.0))


def draw_front(pen: Pen, slot: Slot, card: Card, lay: CardLayout, tiles: TileSet, marks: Sequence[Symbol],
               letters: Sequence[str], designer: bool = False) -> None:
    t = slot.trim
    ox, oy = t.x, t.y
    pen.rect(slot.bleed, fill=BACKGROUND)
    pen.rect(slot.safe, stroke=BORDER, width=0.5, radius=2.5)
    bx, by, r = lay.badge
    pen.circle(ox + bx, oy + by, r, fill=colours.INK)
    points = str(card.points) if card.points is not None else "?"
    pen.centred_text(ox + bx, oy + by, points, 15 if len(points) == 1 else 11, bold=True, colour=colours.PAPER)
    label = "point" if card.points == 1 else "points"
    pen.text(ox + bx + r + 1.5, oy + by - 1.3, label, 7, colour="#5A5242")
    pen.text(ox + lay.id_at[0], oy + lay.id_at[1], f"#{card.id}", 8, bold=True, anchor="end", colour="#5A5242")
    pen.rect(lay.tray.shifted(ox, oy), fill=TRAY, radius=2.0)
    for box, face in lay.cells:
        if face is None:
            draw_any(pen, box.shifted(ox, oy))
        else:
            draw_stone(pen, box.shifted(ox, oy), face, tiles, marks, letters)
    whole = card.pattern.height == SIDE and card.pattern.width == SIDE
    caption = "fills the whole grid" if whole else "anywhere in the grid, never turned"
    pen.text(ox + lay.caption_at[0], oy + lay.caption_at[1], caption, MIN_TEXT, anchor="middle", colour="#5A5242")
    if designer and card.difficulty is not None:
        pen.text(ox + lay.note_at[0], oy + lay.note_at[1], f"difficulty {card.difficulty:.2f}", MIN_TEXT,
                 anchor="middle", colour="#8A7E66")


def draw_back(pen: Pen, slot: Slot, tiles: TileSet, marks: Sequence[Symbol]) -> None:
    t = slot.trim
    pen.rect(slot.bleed, fill=BACK)
    pen.rect(Box(t.x + 3, t.y + 3, t.w - 6, t.h - 6), stroke=BACK_INK, width=0.6, radius=3)
    cell = min(t.w, t.h) * 0.16
    gap = cell * 0.18
    span = 3 * cell + 2 * gap
    left, top = t.cx - span / 2, t.cy + span / 2 + 6
    faces = [k % len(tiles.faces) for k in range(9)]
    for k, face in enumerate(faces):
        r, c = divmod(k, 3)
        box = Box(left + c * (cell + gap), top - (r + 1) * cell - r * gap, cell, cell)
        pen.rect(box, fill="#6A6154", stroke=BACK_INK, width=0.3, radius=cell * 0.18)
        draw_symbol(pen, marks[face], box.cx, box.cy, cell * 0.3, BACK_INK)
    words = TITLE.upper().split()
    size = min(16.0, max(8.0, (t.w - 14) / max(text_width(w, 1, bold=True) for w in words)))
    for i, word in enumerate(words):
        pen.text(t.cx, top - span - 9 - i * size * 0.42, word, size, bold=True, anchor="middle", colour=BACK_INK)


def reference_lines() -> list[tuple[str, str]]:
    """The reference card's text: (heading, body) pairs."""
    return [
        ("Your turn", "Discard a card to swap two stones side by side (never diagonally), or discard a card "
                      "to flip one stone over. Do either as often as you have cards."),
        ("Score", "Then play any cards whose pattern the grid shows: exactly as drawn, never turned or "
                  "mirrored. A dashed cell is any stone; a full 3x3 card fixes every place."),
        ("End", "The game ends when a player has scored 10 / 9 / 8 / 7 cards (2 / 3 / 4 / 5 players). "
                "The most 1-point cards earns 3 more points."),
    ]


def draw_reference(pen: Pen, slot: Slot, tiles: TileSet, marks: Sequence[Symbol], letters: Sequence[str]) -> None:
    inner = slot.safe.inset(FRAME_INSET)
    pen.rect(slot.bleed, fill=BACKGROUND)
    pen.rect(slot.safe, stroke=BORDER, width=0.5, radius=2.5)
    y = inner.y1 - 4.5
    pen.text(inner.cx, y, f"{TITLE}: reference", 8.5, bold=True, anchor="middle")
    y -= 5.5
    body = MIN_TEXT
    line = 2.9
    for head, text in reference_lines():
        pen.text(inner.x, y, head, MIN_TEXT, bold=True)
        y -= line + 0.6
        for part in wrap(text, body, inner.w, lines=6):
            pen.text(inner.x, y, part, body)
            y -= line
        y -= 1.4
    pen.text(inner.x, y, "The stones", MIN_TEXT, bold=True)
    y -= 1.6
    stone = min(7.0, (y - inner.y) / max(1, len(tiles.tiles)) - 1.2)
    for tile in tiles.tiles:
        first = tiles.faces.index(tile.faces[0])
        for side in range(2):
            box = Box(inner.x + side * (stone + 1.2), y - stone, stone, stone)
            draw_stone(pen, box, first + side, tiles, marks, letters)
        pen.text(inner.x + 2 * stone + 4, y - stone / 2 - 1.0, f"{tile.faces[0]} / {tile.faces[1]}  x{tile.count}",
                 MIN_TEXT)
        y -= stone + 1.2


def draw_tile(pen: Pen, slot: Slot, face: int, tiles: TileSet, marks: Sequence[Symbol],
              letters: Sequence[str]) -> None:
    """One side of a paper stone, its colour running into the bleed."""
    colour = tiles.colour(face)
    pen.rect(slot.bleed, fill=colour)
    ink = colours.text_on(colour)
    t = slot.trim
    draw_symbol(pen, marks[face], t.cx, t.cy - 0.6, t.w * 0.3, ink)
    pen.text(t.x + 2.2, t.y1 - 5.6, letters[face], 8, bold=True, colour=ink)


# -- the whole job -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Request:
    size: CardSize | str
    paper: Paper
    duplex: str
    back_offset: tuple[float, float]
    bleed: float
    players: int
    safe: float = 3.0
    margin: float | None = None  #: None: the layout's own
    layout: str = "auto"
    designer_marks: bool = False  #: each card's difficulty printed on it (``--designer-marks``)


@dataclass(frozen=True, slots=True)
class Printed:
    files: dict[str, bytes]
    size: CardSize
    imposition: Imposition
    stones: Imposition
    labels: tuple[str, ...]
    references: int
    pieces: tuple[tuple[str, Imposition, tuple[str, ...]], ...] = ()  #: paper pieces: file, its sheets, names


def make(deck: Deck, request: Request, title: str) -> Printed:
    """``cards.pdf`` (patterns, then a reference card per player), ``stones.pdf`` (the nine
    stones on paper) and ``calibration.pdf`` (for duplex printing).

    Raises:
        RequestError: a size that cannot hold a readable window, or paper too small.
    """
    size = AUTO if request.size == "auto" else request.size
    assert isinstance(size, CardSize)
    lays = tuple(layout(c, size, request.safe + FRAME_INSET) for c in deck.cards)  # content inside the frame
    settings = Settings(request.paper, size, request.bleed, request.safe, request.margin, request.duplex,
                        request.back_offset, request.layout)
    references = request.players
    count = len(deck.cards) + references
    imposition = impose(count, settings)
    tiles = deck.tiles
    marks, letters = symbols(tiles.faces), tiles.letters()
    labels = tuple(str(c.id) for c in deck.cards) + tuple(f"ref {k + 1}" for k in range(references))

    files: dict[str, bytes] = {}
    meta = f"{len(deck.cards)} pattern cards, {size.name} {size.width:g} x {size.height:g} mm"
    cards = Document(Meta(f"{title}: cards", f"{TITLE} pattern cards ({meta})", TITLE), request.duplex)

    def front(pen: Pen, slot: Slot) -> None:
        if slot.card < len(deck.cards):
            draw_front(pen, slot, deck.cards[slot.card], lays[slot.card], tiles, marks, letters,
                       request.designer_marks)
        else:
            draw_reference(pen, slot, tiles, marks, letters)

    def back(pen: Pen, slot: Slot) -> None:
        draw_back(pen, slot, tiles, marks)

    ids: list[object] = [*(c.id for c in deck.cards), *(f"ref {k + 1}" for k in range(references))]
    draw_imposition(cards, imposition, title=title, ids=ids, front=front,
                    back=back if request.duplex != "none" else None)
    files["cards.pdf"] = cards.data()

    # the stones: each tile's first face on the front, its second behind it
    pieces = [t for t, tile in enumerate(tiles.tiles) for _ in range(tile.count)]
    duplex = request.duplex if request.duplex != "none" else "gutter"
    stone_settings = Settings(request.paper, STONE_SIZE, request.bleed, 0.0, settings.page_margin, duplex,
                              request.back_offset if duplex in ("long", "short") else (0.0, 0.0))
    stones = impose(len(pieces), stone_settings)
    doc = Document(Meta(f"{title}: stones", f"{TITLE}: the {len(pieces)} stones, double-sided", TITLE), duplex)
    names = [f"{tiles.tiles[t].name}" for t in pieces]
    draw_imposition(doc, stones, title=f"{title}: stones", ids=names,
                    front=lambda pen, slot: draw_tile(pen, slot, 2 * pieces[slot.card], tiles, marks, letters),
                    back=lambda pen, slot: draw_tile(pen, slot, 2 * pieces[slot.card] + 1, tiles, marks, letters))
    files["stones.pdf"] = doc.data()
    cal = calibration_pdf(settings, imposition, title, TITLE)
    if cal is not None:
        files["calibration.pdf"] = cal
    return Printed(files, size, imposition, stones, labels, references,
                   (("stones.pdf", stones, tuple(f"stone {n}" for n in names)),))


def deck_title(deck: Deck, path: str | Path) -> str:
    return sheets.deck_title(TITLE, deck.seed, path)


def request(values: Mapping[str, object]) -> Request:
    return Request(values["size"], values["paper"], values["duplex"], values["back_offset"],  # type: ignore[arg-type]
                   values["bleed"], values["players"], values["safe"], values["margin"],  # type: ignore[arg-type]
                   str(values.get("layout", "auto")), bool(values.get("designer_marks", False)))


def summary(printed: Printed) -> list[str]:
    refs = printed.references
    lines = [sheets.cards_line(printed.imposition, printed.size, f" ({plural(refs, 'reference card')} last)")]
    st = printed.stones
    how = "fold each along the gutter" if st.settings.duplex == "gutter" else f"duplex {st.settings.duplex}-edge"
    lines.append(f"stones.pdf: {plural(len(st.pages), 'page')}, {len(st.pages[0].fronts) if st.pages else 0} stones a "
                 f"page, double-sided ({how})")
    if "calibration.pdf" in printed.files:
        lines.append(sheets.CALIBRATION_LINE)
    return lines


if TYPE_CHECKING:  # the type checker holds this module to the contract
    from generators.contract import Paper as _Contract
    from print import shifting_stones as _self

    _conforms: _Contract = _self
