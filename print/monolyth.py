"""Monolyth on paper: structure cards, their backs, and the level and structure tokens.

A structure card shows its id, the structure drawn in isometric view (the board's
4x4 plate, each column's cubes, north at the back), the same as a height map with a number
per column (a blank column is free: any height), a card's colours (cubes in their colour
with the colour's letter, the height map's columns banded level by level, and the colours in
words under the header), and the match rule in words (``contain``:
at least these heights; ``equal``: exactly these where a number is given; whether the card
may be turned). It prints nothing a player cannot use: one structure card is played a game,
so its tier and its expected turns (a designer's figures, in ``verify`` and the report) stay
off the card. The card is laid out as data first (``layout``), then drawn.

``cards.pdf`` holds the structure cards; ``tokens.pdf`` the level, structure and prophecy
tokens as round paper tokens (their values from the pool and the deck), each printed on one
side.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from generators.common.errors import RequestError
from generators.common.words import plural
from generators.monolyth import iso as isometric
from generators.monolyth.deck import Card, Deck
from generators.monolyth.pool import TOKEN_COLOURS, TOKEN_SHAPES
from generators.monolyth.structure import ANY, colour_words, rows_of
from print.common import colours, sheets
from print.common.layout import FRAME_INSET, Box, Imposition, Settings, Slot, impose
from print.common.pdf import MIN_TEXT, Document, Meta, Pen
from print.common.sheets import CardRequest, calibration_pdf, card_request, draw_imposition, wrap
from print.common.sizes import CARDS, CardSize
from solver.heightmap import Cube

TITLE = "Monolyth"
USES = frozenset({"size", "paper", "duplex", "layout", "back_offset", "bleed", "safe", "margin", "out"})
FILES = (("cards.pdf", "the structure cards to print and cut"),
         ("tokens.pdf", "the level, structure and prophecy tokens"),
         ("calibration.pdf", "the duplex calibration sheet"))

AUTO = CardSize("poker", *CARDS["poker"])
TOKEN = CardSize("token 24", 24.0, 24.0)

HEAD = 9.0     #: the header: title and id
FOOT = 13.0    #: the footer: the rule in words
MIN_CUBE = 3.0  #: the least cube edge in the isometric view that reads
MIN_LETTER_CUBE = 3.4  #: the least cube edge that holds a colour letter

BACKGROUND = "#EEF1F4"
BORDER = "#9AA5B1"
PLATE = "#C9D1D9"
TOP = "#B7C4D1"
SOUTH = "#7E8E9F"
EAST = "#5C6B7A"
EDGE = "#2E3A46"
BACK = "#2E3A46"
BACK_INK = "#DCE3EA"

COLOUR_LINES = 2  #: lines of colour words a coloured card holds
LINE = 2.9        #: a line of small text, in mm



@dataclass(frozen=True, slots=True)
class CardLayout:
    """Where a structure card's parts go, relative to its trim box's bottom-left corner."""

    iso: tuple[float, float, float]   # the plate's north-west corner on the page, and the cube edge
    grid: Box                         # the height map
    cell: float
    rule_at: tuple[float, float]
    rule_width: float


def iso_extent(height: int, unit: float) -> tuple[float, float]:
    """The isometric drawing's width and height for a 4x4 board ``height`` cubes high."""
    w, h = isometric.extent(4, height)
    return w * unit, h * unit


def layout(size: CardSize, safe: float, height: int, coloured: bool = False) -> CardLayout:
    """The card's parts, sized for the tallest structure the deck may ask for (and, in a deck
    with colours, room under the header for two lines of colour words).

    Raises:
        RequestError: the card cannot hold a readable drawing.
    """
    inner = Box(safe, safe, size.width - 2 * safe, size.height - 2 * safe)
    body = inner.h - HEAD - FOOT - (COLOUR_LINES * LINE if coloured else 0.0)
    grid_h = min(body * 0.36, inner.w * 0.5)
    iso_room = body - grid_h - 3
    unit = min(inner.w / isometric.extent(4, 0)[0], iso_room / isometric.extent(4, height)[1])
    if unit < MIN_CUBE:
        raise RequestError(f"size: a {size} card draws cubes of {unit:.1f} mm, less than the {MIN_CUBE:g} mm that "
                           f"reads; a structure card needs at least poker size")
    w, h = iso_extent(height, unit)
    top = inner.y1 - HEAD - (COLOUR_LINES * LINE if coloured else 0.0)
    iso = (inner.cx, top - height * unit - (iso_room - h) / 2, unit)  # the plate's north corner
    cell = grid_h / 4
    grid = Box(inner.cx - 2 * cell, inner.y + FOOT, 4 * cell, 4 * cell)
    return CardLayout(iso, grid, cell, (inner.x, inner.y + FOOT - 3.4), inner.w)


def project(x0: float, y0: float, unit: float, x: float, y: float, z: float) -> tuple[float, float]:
    """A point of the board (x east, y south, z up) on the page: north at the back."""
    u, w = isometric.flat(x, y, z)
    return x0 + u * unit, y0 + w * unit


def draw_iso(pen: Pen, x0: float, y0: float, unit: float, heights: list[int | None],
             painted: Mapping[Cube, tuple[str, str]] | None = None) -> None:
    """The plate and every cube, back to front (the painter's order); a cube in ``painted``
    (its RGB and letter) in its colour, its letter on its top and south faces."""
    painted = painted or {}

    def poly(points: Sequence[tuple[float, float, float]], fill: str) -> None:
        pen.polygon([project(x0, y0, unit, *p) for p in points], fill=fill, stroke=EDGE, width=0.25)

    def letter(points: Sequence[tuple[float, float, float]], fill: str, text: str) -> None:
        xs, ys = zip(*(project(x0, y0, unit, *p) for p in points))
        pen.centred_text(sum(xs) / 4, sum(ys) / 4, text, MIN_TEXT, bold=True, colour=colours.text_on(fill))

    poly(isometric.plate(4), PLATE)
    for y in range(4):
        for x in range(4):
            if heights[y * 4 + x] is None:
                cx, cy = project(x0, y0, unit, x + 0.5, y + 0.5, 0)
                pen.circle(cx, cy, unit * 0.08, fill="#8A96A3")
    for cube in isometric.ordered(isometric.columns(heights, 4)):
        top, south, east = isometric.faces(cube)
        if cube in painted:
            rgb, text = painted[cube]
            fills = (rgb, colours.shade(rgb, -0.2), colours.shade(rgb, -0.38))
        else:
            fills, text = (TOP, SOUTH, EAST), ""
        for face, fill in zip((top, south, east), fills):
            poly(face, fill)
        if text and unit >= MIN_LETTER_CUBE:
            letter(top, fills[0], text)
            letter(south, fills[1], text)


def draw_grid(pen: Pen, grid: Box, cell: float, rows: list[str],
              painted: Mapping[Cube, tuple[str, str]] | None = None) -> None:
    """The height map: a number per column, blank for a free one; north at the top. A column
    with cubes in ``painted`` shows a band per level from the floor up, each in its cube's
    colour (grey for any colour), the number on a white label."""
    painted = painted or {}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            box = Box(grid.x + x * cell, grid.y1 - (y + 1) * cell, cell, cell)
            if ch == ANY:
                pen.rect(box.inset(0.4), fill=BACKGROUND, stroke="#8A96A3", width=0.3, dash=(0.8, 0.8))
                continue
            shade = ("#FFFFFF", "#DCE3EA", "#B7C4D1", "#8FA0B2", "#6C7F93")[min(int(ch), 4)]
            inner = box.inset(0.2)
            if any((x, y, z) in painted for z in range(int(ch))):
                band = inner.h / int(ch)
                for z in range(int(ch)):
                    fill = painted[(x, y, z)][0] if (x, y, z) in painted else "#DCE3EA"
                    pen.rect(Box(inner.x, inner.y + z * band, inner.w, band), fill=fill)
                pen.rect(inner, stroke=EDGE, width=0.3)
                label = max(3.2, min(cell * 0.55, 4.4))
                pen.rect(Box(box.cx - label / 2, box.cy - label / 2, label, label), fill="#FFFFFF", stroke=EDGE,
                         width=0.2, radius=0.6)
                pen.centred_text(box.cx, box.cy, ch, max(MIN_TEXT, min(9.0, cell * 1.5)), bold=True, colour=EDGE)
                continue
            pen.rect(inner, fill=shade, stroke=EDGE, width=0.3)
            pen.centred_text(box.cx, box.cy, ch, min(11.0, cell * 1.6), bold=True, colour=colours.text_on(shade))
    # "north" beside the top row, with an arrow up: the word belongs to the height map, not (as
    # it read above the map, under the 3D view) to the front of the 3D view, whose north is at the back
    top = grid.y1 - cell / 2
    pen.text(grid.x - 2.2, top - 1.0, "north", MIN_TEXT, anchor="end", colour="#5C6B7A")
    pen.polygon([(grid.x - 1.4, top + 1.2), (grid.x - 0.6, top - 0.4), (grid.x - 2.2, top - 0.4)], fill="#5C6B7A")


def rule_words(deck: Deck) -> str:
    what = ("Build at least these heights (more is fine; a blank column is free)." if deck.rule == "contain" else
            "Build exactly these heights where a number is given (a blank column is free).")
    return what + (" The card may be turned or mirrored." if deck.turn else " Do not turn the card.")


def draw_front(pen: Pen, slot: Slot, deck: Deck, card: Card, lay: CardLayout) -> None:
    t = slot.trim
    ox, oy = t.x, t.y
    inner = slot.safe.inset(FRAME_INSET)
    pen.rect(slot.bleed, fill=BACKGROUND)
    pen.rect(slot.safe, stroke=BORDER, width=0.5, radius=2.5)
    pen.text(inner.x, inner.y1 - 4.2, "Structure", 8.5, bold=True, colour=EDGE)
    pen.text(inner.x1, inner.y1 - 4.2, f"#{card.id}", 8, bold=True, anchor="end", colour="#5C6B7A")
    x0, y0, unit = lay.iso
    letters = deck.pool.letters
    painted = {cube: (deck.pool.rgb(c), letters[c]) for cube, c in card.target.colours}
    if card.target.colours:
        words = "Colours: " + "; ".join(colour_words(card.target, deck.board, letters)) + "."
        y = inner.y1 - HEAD - 2.0
        for part in wrap(words, MIN_TEXT, inner.w, lines=COLOUR_LINES):
            pen.text(inner.x, y, part, MIN_TEXT, colour=EDGE)
            y -= LINE
    draw_iso(pen, ox + x0, oy + y0, unit, list(card.target.heights), painted)
    draw_grid(pen, lay.grid.shifted(ox, oy), lay.cell, rows_of(card.target, deck.board), painted)
    y = oy + lay.rule_at[1]
    for part in wrap(rule_words(deck), MIN_TEXT, lay.rule_width, lines=3):
        pen.text(ox + lay.rule_at[0], y, part, MIN_TEXT, colour=EDGE)
        y -= LINE


def draw_back(pen: Pen, slot: Slot) -> None:
    t = slot.trim
    pen.rect(slot.bleed, fill=BACK)
    pen.rect(Box(t.x + 3, t.y + 3, t.w - 6, t.h - 6), stroke=BACK_INK, width=0.6, radius=3)
    unit = t.w / 14
    x0, y0 = t.cx, t.cy + 4 * unit
    for cube in isometric.ordered(isometric.columns([3] * 16, 4)):
        for points, fill in zip(isometric.faces(cube), ("#8FA0B2", "#6C7F93", "#4F6072")):
            pen.polygon([project(x0, y0, unit, *p) for p in points], fill=fill, stroke=BACK, width=0.3)
    pen.text(t.cx, t.y + t.h * 0.18, TITLE.upper(), min(16.0, t.w / 5), bold=True, anchor="middle", colour=BACK_INK)


def token_outline(pen: Pen, kind: str, box: Box, grow: float, fill: str | None, stroke: str | None = None,
                  width: float = 0.3) -> None:
    """A token's outline (``TOKEN_SHAPES``: round, a hexagon, a rounded square) in ``box``,
    grown by ``grow`` mm all round."""
    shape = TOKEN_SHAPES.get(kind, "round")
    r = box.w / 2 + grow
    if shape == "hexagon":  # pointed at the top and bottom, its corners on the box
        turns = [math.pi / 2 + k * math.pi / 3 for k in range(6)]
        pen.polygon([(box.cx + r * math.cos(a), box.cy + r * math.sin(a)) for a in turns], fill=fill, stroke=stroke,
                    width=width)
    elif shape == "square":
        side = box.w * 0.92
        pen.rect(Box(box.cx - side / 2 - grow, box.cy - side / 2 - grow, side + 2 * grow, side + 2 * grow),
                 fill=fill, stroke=stroke, width=width, radius=box.w * 0.1 + grow)
    else:
        pen.circle(box.cx, box.cy, r, fill=fill, stroke=stroke, width=width)


def draw_token(pen: Pen, slot: Slot, label: str, value: int, fill: str) -> None:
    """A token in its kind's outline and colour, its art reaching ``bleed`` past the cut line,
    which is drawn along the outline: cut along it (the crop marks give the box it sits in)."""
    t = slot.trim
    bleed = t.x - slot.bleed.x
    token_outline(pen, label, t, bleed, fill)
    token_outline(pen, label, t, 0.0, None, EDGE, 0.3)
    ink = colours.text_on(fill)
    pen.centred_text(t.cx, t.cy + 1.6, str(value), 14, bold=True, colour=ink)
    pen.text(t.cx, t.cy - 6.0, label, MIN_TEXT, anchor="middle", colour=ink)


# -- the whole job -----------------------------------------------------------------------------------


Request = CardRequest
request = card_request


@dataclass(frozen=True, slots=True)
class Printed:
    files: dict[str, bytes]
    size: CardSize
    imposition: Imposition
    tokens: Imposition
    labels: tuple[str, ...]
    pieces: tuple[tuple[str, Imposition, tuple[str, ...]], ...] = ()  #: paper pieces: file, its sheets, names


def make(deck: Deck, request: Request, title: str) -> Printed:
    """``cards.pdf`` (the structure cards), ``tokens.pdf`` (level and structure tokens) and
    ``calibration.pdf`` (for duplex printing).

    Raises:
        RequestError: a size that cannot hold a readable card, or paper too small.
    """
    size = AUTO if request.size == "auto" else request.size
    assert isinstance(size, CardSize)
    lay = layout(size, request.safe + FRAME_INSET, deck.height, any(c.target.colours for c in deck.cards))
    settings = request.settings(size)
    imposition = impose(len(deck.cards), settings)
    meta = f"{len(deck.cards)} structure cards, {size.name} {size.width:g} x {size.height:g} mm"
    doc = Document(Meta(f"{title}: cards", f"{TITLE} structure cards ({meta})", TITLE), request.duplex)
    draw_imposition(doc, imposition, title=title, ids=[c.id for c in deck.cards],
                    front=lambda pen, slot: draw_front(pen, slot, deck, deck.cards[slot.card], lay),
                    back=draw_back if request.duplex != "none" else None)
    files = {"cards.pdf": doc.data()}
    tokens = [("level", v, TOKEN_COLOURS["level"]) for v in deck.pool.level_tokens]
    tokens += [("structure", v, TOKEN_COLOURS["structure"]) for v in deck.pool.structure_tokens]
    tokens += [("prophecy", p.value, TOKEN_COLOURS["prophecy"]) for p in deck.prophecies for _ in range(p.count)]
    token_settings = Settings(request.paper, TOKEN, request.bleed, 0.0, settings.page_margin, "none")
    token_sheet = impose(len(tokens), token_settings)
    tdoc = Document(Meta(f"{title}: tokens", f"{TITLE}: {len(tokens)} tokens", TITLE), "none")
    draw_imposition(tdoc, token_sheet, title=f"{title}: tokens", ids=[f"{k} {v}" for k, v, _ in tokens],
                    front=lambda pen, slot: draw_token(pen, slot, *tokens[slot.card]), back=None)
    files["tokens.pdf"] = tdoc.data()
    cal = calibration_pdf(settings, imposition, title, TITLE)
    if cal is not None:
        files["calibration.pdf"] = cal
    names = tuple(f"{k} token {v}" for k, v, _ in tokens)
    return Printed(files, size, imposition, token_sheet, tuple(str(c.id) for c in deck.cards),
                   (("tokens.pdf", token_sheet, names),))


def deck_title(deck: Deck, path: str | Path) -> str:
    return sheets.deck_title(TITLE, deck.seed, path)


def summary(printed: Printed) -> list[str]:
    lines = [sheets.cards_line(printed.imposition, printed.size)]
    tk = printed.tokens
    lines.append(f"tokens.pdf: {plural(len(tk.pages), 'page')}, {plural(sum(len(p.fronts) for p in tk.pages), 'token')}"
                 f" (level, structure, prophecy), one-sided")
    if "calibration.pdf" in printed.files:
        lines.append(sheets.CALIBRATION_LINE)
    return lines


if TYPE_CHECKING:  # the type checker holds this module to the contract
    from generators.contract import Paper as _Contract
    from print import monolyth as _self

    _conforms: _Contract = _self
