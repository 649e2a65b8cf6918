"""Mystery of the Temples on paper: temple cards and crystal grids.

A temple card shows its temple's colour and player count, the arch: the track's crystals
along an arc from the left end over to the right end, each in its colour with its letter (C
for colourless: any crystal), and each layer's points in a shield over its crystal; under
the arch, how a layer is paid (and, with ``--designer-marks``, each layer's expected actions
in small print: a designer's figure, kept off the players' cards). A grid card shows
its board and side, the slots (rings sized for a crystal) joined by lines, and the side's
ability in words. Each is laid out as data first (``arch`` and ``grid_layout``), then drawn.

``table.pdf`` holds the other cards the game needs (``components``): the ten wilderness
cards (what collecting there gives, its colour squares, its rune symbol), the twenty rune
cards (symbol and bonus), the five temple objectives and the rune objective, each in words
a player can use; ``tokens.pdf`` the crystals (the supply's counts, each colour with its
letter), five curse markers and a score marker a player in four player colours, and four
meeples, as round paper tokens printed on one side: with them the game plays from the PDFs
alone (and a score track, 0-80, on the last card).

``cards.pdf`` holds the temple cards and ``grids.pdf`` the grids. Printed duplex, a temple's
2-3 player side is a card's front and its 4 player side the back, and a board's side A the
front and side B the back (a side without its partner gets a plain back); printed one-sided,
every side is a front of its own. ``calibration.pdf`` is the duplex calibration sheet.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from generators.common.errors import RequestError
from generators.common.words import plural
from generators.mystery_of_the_temples.box import Box, Side, Temple
from generators.mystery_of_the_temples.components import Rune, Wilderness
from generators.mystery_of_the_temples.deck import Card, Deck
from print.common import colours, sheets
from print.common.layout import FRAME_INSET, Imposition, Segment, Settings, Slot, impose
from print.common.layout import Box as Rect
from print.common.pdf import MIN_TEXT, Document, Meta, Pen
from print.common.sheets import CardRequest, calibration_pdf, card_request, draw_imposition, wrap
from print.common.sizes import CARDS, CardSize

TITLE = "Mystery of the Temples"
USES = frozenset({"size", "paper", "duplex", "layout", "back_offset", "bleed", "safe", "margin", "designer_marks",
                  "out"})
FILES = (("cards.pdf", "the temple cards: a temple's 2-3 player side on the front, its 4 player side on the back"),
         ("grids.pdf", "the crystal grids: a board's side A on the front, side B on the back"),
         ("table.pdf", "the wilderness, rune and objective cards"),
         ("tokens.pdf", "the crystals, curse and score markers and meeples, as paper tokens, and a score track"),
         ("calibration.pdf", "the duplex calibration sheet"))

AUTO = CardSize("tarot", *CARDS["tarot"])
TOKEN_SIDE = 16.0  #: a paper token's side, in mm: a crystal, a marker, a meeple
TOKEN = CardSize("token 16", TOKEN_SIDE, TOKEN_SIDE)
#: The players' colours for markers and meeples (Okabe and Ito's, apart from the crystals').
PLAYER_COLOURS = (("black", "#222222"), ("white", "#FFFFFF"), ("orange", "#E69F00"), ("sky", "#56B4E9"))
#: The highest score the paper score track shows.
TRACK_TOP = 80

HEAD = 12.0        #: the header: the temple and its players
TEXT_ROOM = 24.0   #: under the arch: how a layer is paid, and the layers' difficulty
MIN_CRYSTAL = 2.6  #: the least crystal radius (mm) that holds its letter
BACKGROUND = "#F4F1EA"
BORDER = "#8C7B5B"
INK = "#3A3226"
STONE = "#D9CFBC"
SHIELD = "#3A3226"


@dataclass(frozen=True, slots=True)
class Arch:
    """Where a track's crystals go (centres, relative to the trim box's bottom-left) and
    their radius, and where each layer's shield goes."""

    centres: tuple[tuple[float, float], ...]
    radius: float
    shields: tuple[tuple[float, float], ...]


def arch(size: CardSize, safe: float, length: int) -> Arch:
    """The track along a tall half ellipse, a temple's doorway (left end low on the left,
    over the top, right end low on the right), the crystals evenly spaced along it and as
    large as the card allows, each layer's shield outside it.

    Raises:
        RequestError: the crystals would be too small to read.
    """
    inner = Rect(safe, safe, size.width - 2 * safe, size.height - 2 * safe)
    shield = 4.2
    rx = inner.w / 2 - 2 * shield - 4.5
    bottom = inner.y + TEXT_ROOM + 8
    ry = min(rx * 2.4, inner.y1 - HEAD - 2 * shield - 8 - bottom)
    cx, cy = inner.cx, bottom
    steps = 720
    points = [(cx + rx * math.cos(math.pi * (1 - k / steps)), cy + ry * math.sin(math.pi * (1 - k / steps)))
              for k in range(steps + 1)]
    along = [0.0]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        along.append(along[-1] + math.hypot(x1 - x0, y1 - y0))
    gap = along[-1] / max(1, length - 1)
    radius = min(6.0, gap * 0.44)
    if radius < MIN_CRYSTAL:
        raise RequestError(f"size: a {size} card draws crystals {radius:.1f} mm across, less than the {MIN_CRYSTAL:g} "
                           f"mm that holds a letter; a temple card needs a larger card (tarot)")
    centres = []
    shields = []
    k = 0
    for i in range(length):
        want = i * gap
        while k < steps and along[k + 1] < want:
            k += 1
        t = math.pi * (1 - k / steps)
        x, y = points[k]
        nx, ny = math.cos(t) / rx, math.sin(t) / ry  # the ellipse's outward normal
        norm = math.hypot(nx, ny)
        out = radius + shield + 1.5
        centres.append((x, y))
        shields.append((x + nx / norm * out, y + ny / norm * out))
    return Arch(tuple(centres), radius, tuple(shields))


def crystal(pen: Pen, x: float, y: float, r: float, rgb: str, letter: str) -> None:
    """A crystal: a hexagon in its colour, its letter inside."""
    points = [(x + r * math.cos(math.pi / 6 + k * math.pi / 3), y + r * math.sin(math.pi / 6 + k * math.pi / 3))
              for k in range(6)]
    pen.polygon(points, fill=rgb, stroke=INK, width=0.35)
    pen.centred_text(x, y, letter, max(MIN_TEXT, r * 2.4), bold=True, colour=colours.text_on(rgb))


def draw_temple(pen: Pen, slot: Slot, box: Box, temple: Temple, card: Card | None, reading: str,
                lay: Arch | None, designer: bool = False) -> None:
    t = slot.trim
    ox, oy = t.x, t.y
    inner = slot.safe.inset(FRAME_INSET)
    name = box.names[temple.colour]
    rgb = box.colours[temple.colour].rgb
    pen.rect(slot.bleed, fill=BACKGROUND)
    pen.rect(Rect(slot.bleed.x, inner.y1 - 7, slot.bleed.w, slot.bleed.y1 - inner.y1 + 7), fill=rgb)
    ink = colours.text_on(rgb)
    pen.text(inner.x, inner.y1 - 4.5, f"{name.capitalize()} temple", 11, bold=True, colour=ink)
    pen.text(inner.x1, inner.y1 - 4.5, f"{temple.side} players", 8, bold=True, anchor="end", colour=ink)
    letters = box.letters
    if reading == "rows" or lay is None:
        _rows(pen, inner, box, temple)
    else:
        centres = [(ox + x, oy + y) for x, y in lay.centres]
        for (x0, y0), (x1, y1) in zip(centres, centres[1:]):  # the arch's stones under the crystals
            pen.line(Segment(x0, y0, x1, y1), width=lay.radius * 2.4, colour=STONE)
        for (x, y), c in zip(centres, temple.track):
            crystal(pen, x, y, lay.radius, box.colours[c].rgb, letters[box.names[c]])
        for layer in temple.layers:
            sx, sy = lay.shields[layer.position - 1]
            _shield(pen, ox + sx, oy + sy, layer.points)
            if layer.blocked:  # the badge over the shield
                _badge(pen, ox + sx, oy + sy + 4.2 + BADGE + 0.6)
    y = inner.y + TEXT_ROOM - 6
    words = ("Break a layer: pay crystals from either end of the arch up to its shield, in order, pulled along "
             "your grid's lines; any crystal pays a C.") if reading != "rows" else (
             "Break a layer: pay its row of crystals, in order from either end, pulled along your grid's lines; any "
             "crystal pays a C.")
    if any(layer.blocked for layer in temple.layers):
        words += " 2P: at 2 players a spare marker covers the layer."
    for part in wrap(words, MIN_TEXT, inner.w, lines=4):
        pen.text(inner.x, y, part, MIN_TEXT, colour=INK)
        y -= 2.9
    if designer and card is not None and card.priced is not None:  # a designer's figure: off the player's card
        shown = "  ".join(f"{layer.position}: {p.actions:.1f}" for layer, p in zip(temple.layers, card.priced))
        pen.text(inner.x, inner.y + 6.5, "expected actions by layer", MIN_TEXT, colour="#8C7B5B")
        pen.text(inner.x, inner.y + 3.3, shown, MIN_TEXT, colour="#8C7B5B")


#: The radius (mm) of the badge on a layer blocked at 2 players.
BADGE = 2.7


def _badge(pen: Pen, x: float, y: float) -> None:
    """A layer blocked at 2 players: "2P" in a ringed disc."""
    pen.circle(x, y, BADGE, fill="#FFFFFF", stroke=SHIELD, width=0.5)
    pen.centred_text(x, y, "2P", MIN_TEXT, bold=True, colour=SHIELD)


def _shield(pen: Pen, x: float, y: float, points: int | None) -> None:
    w = 4.2
    pen.polygon([(x - w, y + w), (x + w, y + w), (x + w, y - w * 0.2), (x, y - w * 1.2), (x - w, y - w * 0.2)],
                fill=SHIELD, stroke=None)
    pen.centred_text(x, y + w * 0.15, "?" if points is None else str(points), 9, bold=True, colour="#FFFFFF")


def _rows(pen: Pen, inner: Rect, box: Box, temple: Temple) -> None:
    """Read as rows: each layer its own row of crystals, the shield at its left; the rows as
    large as the card's room between the header and the rules allows, centred in it."""
    letters = box.letters
    longest = max((len(layer.row) for layer in temple.layers), default=1) or 1
    top, bottom = inner.y1 - HEAD - 4, inner.y + TEXT_ROOM + 2
    pitch = min(16.0, (top - bottom) / max(len(temple.layers), 1))
    room = inner.w - 14
    r = min(5.0, pitch * 0.36, (room / longest - 1.2) / 2)
    y = (top + bottom) / 2 + pitch * (len(temple.layers) - 1) / 2
    left = inner.x + 12 + (room - longest * (2 * r + 1.2)) / 2
    for layer in temple.layers:
        _shield(pen, left - 7, y, layer.points)
        if layer.blocked:  # pinned on the shield's upper left corner, inside the frame
            _badge(pen, left - 9.4, y + 4.7)
        for i, c in enumerate(layer.row):
            crystal(pen, left + r + i * (2 * r + 1.2), y, r, box.colours[c].rgb, letters[box.names[c]])
        y -= pitch


@dataclass(frozen=True, slots=True)
class GridLayout:
    """A grid's slots on the card: the scale and offset of its drawing positions, the slot
    radius."""

    scale: float
    x0: float
    y0: float
    radius: float


#: A grid's slot on paper: the paper crystal (``TOKEN``, 16 mm) with 0.3 mm all round, the
#: same on every board, and at least ``SLOT_APART`` between two slots.
SLOT = TOKEN_SIDE + 2 * 0.3
SLOT_APART = 1.0
#: The sizes a grid board may take, smallest first: the first on which every grid side's slots
#: keep apart (``grid_size``). 130 x 180 mm prints two a sheet of A4 or Letter with its bleed.
GRID_SIZES = (CardSize("a6", *CARDS["a6"]), CardSize("grid board", 130.0, 180.0), CardSize("a5", *CARDS["a5"]),
              CardSize("a4", 210.0, 297.0))


def grid_layout(size: CardSize, safe: float, side: Side) -> GridLayout:
    """Where a grid side's slots go on a board of ``size``: its drawing scaled to the room
    above the ability's words, every slot ``SLOT`` across.

    Raises:
        RequestError: the slots do not keep ``SLOT_APART`` apart on a board this size.
    """
    inner = Rect(safe, safe, size.width - 2 * safe, size.height - 2 * safe)
    xs = [x for x, _ in side.grid.positions]
    ys = [y for _, y in side.grid.positions]
    span_x = max(xs) - min(xs) or 1.0
    span_y = max(ys) - min(ys) or 1.0
    room = Rect(inner.x + SLOT / 2, inner.y + 34, inner.w - SLOT, inner.h - HEAD - 34 - SLOT / 2)
    scale = min(room.w / span_x, room.h / span_y)
    points = side.grid.positions
    closest = min((math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1:]), default=span_x) * scale
    if closest < SLOT + SLOT_APART - 1e-9:
        raise RequestError(f"grids: side {side.name}'s slots come {closest:.1f} mm apart centre to centre on a "
                           f"{size.name} board, less than a {SLOT:.1f} mm slot and {SLOT_APART:g} mm between")
    x0 = room.cx - (min(xs) + max(xs)) / 2 * scale
    y0 = room.cy + (min(ys) + max(ys)) / 2 * scale
    return GridLayout(scale, x0, y0, SLOT / 2)


def grid_size(box: Box, safe: float) -> tuple[CardSize, dict[str, GridLayout]]:
    """The smallest board (``GRID_SIZES``) on which every grid side's slots hold the paper
    crystals and keep apart, and each side's layout on it.

    Raises:
        RequestError: no size holds them all.
    """
    for size in GRID_SIZES:
        try:
            return size, {side.name: grid_layout(size, safe, side) for side in box.grids}
        except RequestError as err:
            last = err
    raise last


def draw_grid(pen: Pen, slot: Slot, side: Side, lay: GridLayout) -> None:
    t = slot.trim
    inner = slot.safe.inset(FRAME_INSET)
    pen.rect(slot.bleed, fill=BACKGROUND)
    pen.rect(slot.safe, stroke=BORDER, width=0.5, radius=2.5)
    pen.text(inner.x, inner.y1 - 4.5, "Crystal grid", 11, bold=True, colour=INK)
    pen.text(inner.x1, inner.y1 - 4.5, f"board {side.board}, side {side.side}", 8, bold=True, anchor="end",
             colour=INK)

    def at(i: int) -> tuple[float, float]:
        x, y = side.grid.positions[i]
        return t.x + lay.x0 + x * lay.scale, t.y + lay.y0 - y * lay.scale

    for a, b in side.grid.lines:
        pen.line(Segment(*at(a), *at(b)), width=1.6, colour=BORDER)
    for i in range(side.grid.slots):
        x, y = at(i)
        pen.circle(x, y, lay.radius, fill="#FFFFFF", stroke=INK, width=0.5)
    y = inner.y + 24
    for part in wrap(side.ability or "(no ability)", 8, inner.w, lines=5):
        pen.text(inner.x, y, part, 8, colour=INK)
        y -= 3.4
    pen.text(inner.x, inner.y + 0.6, f"{side.grid.slots} slots, {len(side.grid.lines)} lines", MIN_TEXT,
             colour="#8C7B5B")


def draw_plain_back(pen: Pen, slot: Slot) -> None:
    t = slot.trim
    pen.rect(slot.bleed, fill=INK)
    pen.rect(Rect(t.x + 3, t.y + 3, t.w - 6, t.h - 6), stroke=STONE, width=0.6, radius=3)
    pen.centred_text(t.cx, t.cy, "MYSTERY OF THE TEMPLES", min(9.0, t.w / 8), bold=True, colour=STONE)


# -- the other cards and the tokens -----------------------------------------------------------------


def symbol(pen: Pen, x: float, y: float, r: float, kind: int, colour: str = INK) -> None:
    """A rune symbol, drawn: 0 sun (a disc in a ring of rays), 1 moon (a crescent), 2 star
    (five points), 3 wave (three crests), 4 leaf (a pointed oval)."""
    if kind == 0:
        pen.circle(x, y, r * 0.5, fill=colour)
        for k in range(8):
            a = k * math.pi / 4
            pen.line(Segment(x + r * 0.65 * math.cos(a), y + r * 0.65 * math.sin(a), x + r * math.cos(a),
                             y + r * math.sin(a)), width=r * 0.16, colour=colour)
    elif kind == 1:
        outer = [(x + r * math.cos(a), y + r * math.sin(a))
                 for a in [math.pi / 2 + k * math.pi / 24 for k in range(25)]]
        inner = [(x + r * 0.35 + r * 0.8 * math.cos(a), y + r * 0.8 * math.sin(a))
                 for a in [3 * math.pi / 2 - k * math.pi / 24 for k in range(25)]]
        pen.polygon(outer + inner, fill=colour)
    elif kind == 2:
        points = []
        for k in range(10):
            a = math.pi / 2 + k * math.pi / 5
            rr = r if k % 2 == 0 else r * 0.42
            points.append((x + rr * math.cos(a), y + rr * math.sin(a)))
        pen.polygon(points, fill=colour)
    elif kind == 3:
        for row in (-0.45, 0.0, 0.45):
            pts = [(x - r + 2 * r * k / 12, y + r * row + r * 0.22 * math.sin(k * math.pi / 3)) for k in range(13)]
            for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
                pen.line(Segment(x0, y0, x1, y1), width=r * 0.16, colour=colour)
    else:
        side = [(x + r * 0.55 * math.sin(math.pi * k / 12), y - r + 2 * r * k / 12) for k in range(13)]
        other = [(x - r * 0.55 * math.sin(math.pi * k / 12), y + r - 2 * r * k / 12) for k in range(13)]
        pen.polygon(side + other, fill=colour)
        pen.line(Segment(x, y - r, x, y + r), width=r * 0.08, colour=BACKGROUND)


def _crystal_row(pen: Pen, box: Box, x: float, y: float, colours_: Sequence[int], r: float = 3.2) -> None:
    letters = box.letters
    for k, c in enumerate(colours_):
        crystal(pen, x + k * r * 2.4, y, r, box.colours[c].rgb, letters[box.names[c]])


def _card_frame(pen: Pen, slot: Slot, heading: str, right: str, band: str) -> Rect:
    inner = slot.safe.inset(FRAME_INSET)
    pen.rect(slot.bleed, fill=BACKGROUND)
    pen.rect(Rect(slot.bleed.x, inner.y1 - 7, slot.bleed.w, slot.bleed.y1 - inner.y1 + 7), fill=band)
    ink = colours.text_on(band)
    pen.text(inner.x, inner.y1 - 4.5, heading, 11, bold=True, colour=ink)
    if right:
        pen.text(inner.x1, inner.y1 - 4.5, right, 8, bold=True, anchor="end", colour=ink)
    return inner


def _words(pen: Pen, inner: Rect, y: float, text: str, size: float = 7.0) -> float:
    for part in wrap(text, size, inner.w, lines=6):
        pen.text(inner.x, y, part, size, colour=INK)
        y -= size * 0.45
    return y


def _crystal_words(box: Box, crystals_: Sequence[int]) -> str:
    from generators.mystery_of_the_temples.components import Bonus, bonus_text

    return bonus_text((Bonus(tuple(crystals_)),), box.names).removeprefix("1st ")


def draw_wilderness(pen: Pen, slot: Slot, box: Box, w: Wilderness, names: Sequence[str]) -> None:
    inner = _card_frame(pen, slot, f"Wilderness {w.number}", w.kind, STONE)
    symbol(pen, inner.cx, inner.y1 - 24, 9.0, w.symbol)
    pen.centred_text(inner.cx, inner.y1 - 37, names[w.symbol], 7, colour=INK)
    y = inner.y1 - 50
    if w.kind == "direct":
        _crystal_row(pen, box, inner.cx - (len(w.crystals) - 1) * 3.84, y, w.crystals, 3.2)
        text = f"Collect here: take {_crystal_words(box, w.crystals)}."
    elif w.kind == "conversion":
        text = "Collect here: discard 3 crystals from your grid and take 2 crystals of different colours."
    else:
        squares = w.squares
        step = min(7.5, inner.w / max(1, len(squares)))
        x0 = inner.cx - (len(squares) - 1) * step / 2
        for k, c in enumerate(squares):
            rgb = box.colours[c].rgb
            pen.rect(Rect(x0 + k * step - 3, y - 3, 6, 6), fill=rgb, stroke=INK, width=0.35)
            pen.centred_text(x0 + k * step, y, box.letters[box.names[c]], MIN_TEXT, bold=True,
                             colour=colours.text_on(rgb))
        text = ("Collect here: put 1 or 2 of your crystals on empty squares and take crystals of those squares' "
                "colours. When 2 or fewer squares are left empty, the card is cleared: its crystals go back.")
    y = _words(pen, inner, y - 10, text)
    _words(pen, inner, inner.y + 8, f"Runes of the {names[w.symbol]} ring here: collecting on this card gives "
                                    f"their bonus.", MIN_TEXT)


def draw_rune(pen: Pen, slot: Slot, box: Box, rune: Rune, names: Sequence[str]) -> None:
    inner = _card_frame(pen, slot, "Rune", f"{names[rune.symbol]}", INK)
    symbol(pen, inner.cx, inner.y1 - 30, 14.0, rune.symbol)
    pen.centred_text(inner.cx, inner.y1 - 50, names[rune.symbol], 9, bold=True, colour=INK)
    y = inner.y1 - 62
    if rune.crystals:
        _crystal_row(pen, box, inner.cx - (len(rune.crystals) - 1) * 3.84, y, rune.crystals)
        gift = f"take {_crystal_words(box, rune.crystals)}"
    else:
        pen.centred_text(inner.cx, y, f"+{rune.points}", 14, bold=True, colour=INK)
        gift = f"score {plural(rune.points, 'point')}"
    _words(pen, inner, y - 10, f"Resonance: whenever you collect on a card showing the {names[rune.symbol]}, {gift}. "
                               f"At the end, each kind of rune you hold counts for the rune objective.")


def draw_objective(pen: Pen, slot: Slot, box: Box, colour: int | None) -> None:
    from generators.mystery_of_the_temples.components import OBJECTIVE_POINTS, RUNE_POINTS

    if colour is None:
        inner = _card_frame(pen, slot, "Rune objective", "every game", INK)
        y = inner.y1 - 20
        for kinds in range(1, len(RUNE_POINTS)):
            pen.text(inner.x + 4, y, f"{kinds} kind{'s' if kinds > 1 else ''} of rune", 8, colour=INK)
            pen.text(inner.x1 - 4, y, f"{RUNE_POINTS[kinds]}", 9, bold=True, anchor="end", colour=INK)
            y -= 7
        _words(pen, inner, y - 4, "At the end, score for the kinds of rune you hold (grid 4B counts one kind more; "
                                  "6 kinds only with it).")
        return
    rgb = box.colours[colour].rgb
    inner = _card_frame(pen, slot, "Temple objective", box.names[colour], rgb)
    crystal(pen, inner.cx, inner.y1 - 28, 12.0, rgb, box.letters[box.names[colour]])
    first, second = OBJECTIVE_POINTS
    _words(pen, inner, inner.y1 - 50, f"At the end, the most curse markers on the {box.names[colour]} temple score "
                                      f"{first}, the second most {second}. A tie for the most shares {first + second}, "
                                      f"a tie for second shares {second} (rounded down).")


def draw_token(pen: Pen, slot: Slot, fill: str, letter: str, label: str) -> None:
    t = slot.trim
    pen.rect(slot.bleed, fill=fill)
    ink = colours.text_on(fill)
    pen.circle(t.cx, t.cy, t.w * 0.44, fill=None, stroke=ink, width=0.3)
    pen.centred_text(t.cx, t.cy + 0.8, letter, 11, bold=True, colour=ink)
    if label:
        pen.text(t.cx, t.cy - 4.2, label, MIN_TEXT, anchor="middle", colour=ink)


def tokens_of(box: Box) -> list[tuple[str, str, str]]:
    """Every paper token: (fill, letter, label): the supply's crystals, then for each player
    colour five curse markers and a score marker, then the four meeples."""
    out = []
    letters = box.letters
    for c in box.colours:
        out += [(c.rgb, letters[c.name], "")] * c.supply  # the letter and the colour say it
    for _, rgb in PLAYER_COLOURS:
        out += [(rgb, "X", "curse")] * 5 + [(rgb, "S", "score")]
    out += [(rgb, "M", name) for name, rgb in PLAYER_COLOURS]
    return out


def token_names(box: Box) -> list[str]:
    """Each paper token's name, in ``tokens_of``'s order."""
    out = []
    for c in box.colours:
        out += [f"{c.name} crystal"] * c.supply
    for name, _ in PLAYER_COLOURS:
        out += [f"{name} curse marker"] * 5 + [f"{name} score marker"]
    out += [f"{name} meeple" for name, _ in PLAYER_COLOURS]
    return out


def draw_track(pen: Pen, slot: Slot) -> None:
    """The score track: 0 to ``TRACK_TOP`` in a grid of squares."""
    inner = slot.safe.inset(FRAME_INSET)
    pen.rect(slot.bleed, fill=BACKGROUND)
    pen.text(inner.x, inner.y1 - 4.5, "Score track", 11, bold=True, colour=INK)
    cols = 7
    rows = math.ceil((TRACK_TOP + 1) / cols)
    size = min(inner.w / cols, (inner.h - 10) / rows)
    for n in range(TRACK_TOP + 1):
        x = inner.x + (n % cols) * size
        y = inner.y1 - 10 - (n // cols + 1) * size
        pen.rect(Rect(x, y, size, size), fill=STONE if (n // 10) % 2 == 0 else "#FFFFFF", stroke=BORDER, width=0.3)
        pen.centred_text(x + size / 2, y + size / 2, str(n), MIN_TEXT, colour=INK)


# -- the whole job -----------------------------------------------------------------------------------


Request = CardRequest
request = card_request


@dataclass(frozen=True, slots=True)
class Printed:
    files: dict[str, bytes]
    size: CardSize
    imposition: Imposition
    grids: Imposition
    labels: tuple[str, ...]
    table: Imposition | None = None
    tokens: Imposition | None = None
    pieces: tuple[tuple[str, Imposition, tuple[str, ...]], ...] = ()  #: paper pieces: file, its sheets, names


def pairs(items: Sequence[object], key: Callable[[object], object], first: Callable[[object], bool],
          duplex: bool) -> list[tuple[object | None, object | None]]:
    """Fronts and backs: with ``duplex``, items sharing a ``key`` go front (``first``) and
    back; without, each item is a front with no back."""
    if not duplex:
        return [(item, None) for item in items]
    out: dict[object, list[object | None]] = {}
    for item in items:
        pair = out.setdefault(key(item), [None, None])
        pair[0 if first(item) else 1] = item
    return [(a, b) for a, b in out.values()]


def make(deck: Deck, request: Request, title: str) -> Printed:
    """``cards.pdf`` (the temples), ``grids.pdf`` (the crystal grids) and ``calibration.pdf``
    (for duplex printing).

    Raises:
        RequestError: a size that cannot hold a readable card, or paper too small.
    """
    size = AUTO if request.size == "auto" else request.size
    assert isinstance(size, CardSize)
    safe = request.safe + FRAME_INSET
    box = deck.box
    arches = {n: arch(size, safe, n) for n in {len(c.temple.track) for c in deck.cards}} if deck.reading != "rows" \
        else {}
    board, layouts = grid_size(box, safe)
    duplex = request.duplex != "none"
    settings = request.settings(size)
    temples = pairs(deck.cards, lambda c: c.temple.colour, lambda c: c.temple.side == "2-3", duplex)  # type: ignore[attr-defined]
    imposition = impose(len(temples), settings)

    def temple_face(card: object | None) -> Callable[[Pen, Slot], None]:
        if card is None:
            return draw_plain_back
        assert isinstance(card, Card)
        return lambda pen, slot: draw_temple(pen, slot, box, card.temple, card, deck.reading,
                                             arches.get(len(card.temple.track)), request.designer_marks)

    ids = [" / ".join(str(c.id) for c in pair if isinstance(c, Card)) for pair in temples]
    meta = f"{len(deck.cards)} temple sides, {size.name} {size.width:g} x {size.height:g} mm"
    doc = Document(Meta(f"{title}: temples", f"{TITLE} temple cards ({meta})", TITLE), request.duplex)
    draw_imposition(doc, imposition, title=title, ids=ids,
                    front=lambda pen, slot: temple_face(temples[slot.card][0])(pen, slot),
                    back=(lambda pen, slot: temple_face(temples[slot.card][1])(pen, slot)) if duplex else None)
    files = {"cards.pdf": doc.data()}
    boards = pairs(box.grids, lambda s: s.board, lambda s: s.side == "A", duplex)  # type: ignore[attr-defined]
    grid_sheet = impose(len(boards), request.settings(board))

    def grid_face(side: object | None) -> Callable[[Pen, Slot], None]:
        if side is None:
            return draw_plain_back
        assert isinstance(side, Side)
        return lambda pen, slot: draw_grid(pen, slot, side, layouts[side.name])

    gdoc = Document(Meta(f"{title}: grids", f"{TITLE}: {plural(len(box.grids), 'grid side')}", TITLE), request.duplex)
    draw_imposition(gdoc, grid_sheet, title=f"{title}: grids",
                    ids=[" / ".join(s.name for s in pair if isinstance(s, Side)) for pair in boards],
                    front=lambda pen, slot: grid_face(boards[slot.card][0])(pen, slot),
                    back=(lambda pen, slot: grid_face(boards[slot.card][1])(pen, slot)) if duplex else None)
    files["grids.pdf"] = gdoc.data()
    parts = box.components
    names = parts.symbols
    faces: list[Callable[[Pen, Slot], None]] = []
    faces += [partial(draw_wilderness, box=box, w=w, names=names) for w in parts.wilderness]
    faces += [partial(draw_rune, box=box, rune=r, names=names) for r in parts.runes]
    faces += [partial(draw_objective, box=box, colour=c) for c in parts.objectives]
    faces += [partial(draw_objective, box=box, colour=None), draw_track]
    labels = ([f"wilderness {w.number}" for w in parts.wilderness] + [f"rune {r.id}" for r in parts.runes] +
              [f"objective {box.names[c]}" for c in parts.objectives] + ["rune objective", "score track"])
    table_sheet = impose(len(faces), settings)
    tbl = Document(Meta(f"{title}: table", f"{TITLE}: wilderness, rune and objective cards", TITLE), request.duplex)
    draw_imposition(tbl, table_sheet, title=f"{title}: table", ids=labels,
                    front=lambda pen, slot: faces[slot.card](pen, slot),
                    back=draw_plain_back if duplex else None)
    files["table.pdf"] = tbl.data()
    tokens = tokens_of(box)
    token_settings = Settings(request.paper, TOKEN, request.bleed, 0.0, settings.page_margin, "none")
    token_sheet = impose(len(tokens), token_settings)
    tdoc = Document(Meta(f"{title}: tokens", f"{TITLE}: {len(tokens)} tokens", TITLE), "none")
    draw_imposition(tdoc, token_sheet, title=f"{title}: tokens", ids=[label for _, _, label in tokens],
                    front=lambda pen, slot: draw_token(pen, slot, *tokens[slot.card]), back=None)
    files["tokens.pdf"] = tdoc.data()
    cal = calibration_pdf(settings, imposition, title, TITLE)
    if cal is not None:
        files["calibration.pdf"] = cal
    return Printed(files, size, imposition, grid_sheet, tuple(ids), table_sheet, token_sheet,
                   (("tokens.pdf", token_sheet, tuple(token_names(box))),))


def deck_title(deck: Deck, path: str | Path) -> str:
    return sheets.deck_title(TITLE, deck.seed, path)


def summary(printed: Printed) -> list[str]:
    lines = [sheets.cards_line(printed.imposition, printed.size)]
    g = printed.grids
    board = g.settings.card
    lines.append(f"grids.pdf: {plural(len(g.pages), 'page')}, {plural(sum(len(p.fronts) for p in g.pages), 'board')} "
                 f"of {board.width:g} x {board.height:g} mm, every slot {SLOT:.1f} mm across (a paper crystal and "
                 f"0.3 mm round it)")
    if printed.table is not None:
        lines.append(f"table.pdf: {plural(len(printed.table.pages), 'page')}, "
                     f"{plural(sum(len(p.fronts) for p in printed.table.pages), 'card')} (wilderness, runes, "
                     f"objectives, the score track)")
    if printed.tokens is not None:
        lines.append(f"tokens.pdf: {plural(len(printed.tokens.pages), 'page')}, "
                     f"{plural(sum(len(p.fronts) for p in printed.tokens.pages), 'token')} (crystals, markers, "
                     f"meeples), one-sided")
    if "calibration.pdf" in printed.files:
        lines.append(sheets.CALIBRATION_LINE)
    return lines


if TYPE_CHECKING:  # the type checker holds this module to the contract
    from generators.contract import Paper as _Contract
    from print import mystery_of_the_temples as _self

    _conforms: _Contract = _self
