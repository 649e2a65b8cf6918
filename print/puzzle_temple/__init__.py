"""Puzzle Temple on paper, the game's print module (``generators.contract.Paper``): lock
cards and their backs (``cards``), the answer key (``answers``) and paper blocks
(``blocks``), made into PDFs here.

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

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from generators.common.words import plural
from generators.puzzle_temple.deck import Deck
from print.common import colours, sheets
from print.common.layout import FRAME_INSET, Imposition, Settings, Slot, impose
from print.common.pdf import Document, Meta, Pen
from print.common.sheets import calibration_pdf, draw_imposition
from print.common.sizes import CardSize, Paper
from print.puzzle_temple.answers import (  # noqa: F401 - the package is the game's print module
    Answer,
    _cells,
    answers,
    as_drawn,
    card_tier,
    draw_answers,
)
from print.puzzle_temple.blocks import (  # noqa: F401
    Packing,
    Placed,
    _first_fit,
    blocks_grid,
    draw_blocks,
    pack,
)
from print.puzzle_temple.cards import (  # noqa: F401
    BACKGROUND,
    COL_GAP,
    DIE,
    DIE_GAP,
    FRAME,
    GRID,
    HEAD,
    ICON,
    ICON_GAP,
    LOCK,
    ROW_GAP,
    SCALES,
    SEP,
    STONE,
    TIERS,
    TITLE,
    CardLayout,
    Cell,
    Icon,
    Measures,
    Row,
    _extent,
    _fits,
    _largest,
    _Option,
    _options,
    _panel,
    _row_size,
    _rows,
    check_size,
    choose_size,
    draw_back,
    draw_front,
    layout,
    needs,
    row_scale,
    tier_symbol,
)

USES = frozenset({"size", "paper", "duplex", "layout", "back_offset", "bleed", "safe", "margin", "pitch", "players",
                  "out"})
#: The files ``make`` may write, with what each holds.
FILES = (("cards.pdf", "the lock cards to print and cut"), ("answers.pdf", "a solution of every face"),
         ("blocks.pdf", "paper blocks at the cards' pitch"), ("calibration.pdf", "the duplex calibration sheet"))

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
    margin: float | None = None  #: None: the layout's own
    layout: str = "auto"


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
    size = choose_size(deck, request.pitch, request.safe + FRAME_INSET) if request.size == "auto" else request.size
    assert isinstance(size, CardSize)
    check_size(deck, size, request.pitch, request.safe + FRAME_INSET)
    settings = Settings(request.paper, size, request.bleed, request.safe, request.margin, request.duplex,
                        request.back_offset, request.layout)
    imposition = impose(len(deck.cards), settings)
    margin = settings.page_margin  # the answer key and the blocks keep the cards' margin
    grid, rows, columns = blocks_grid(request.paper, margin, request.pitch)
    shapes = [(b.name, b.shape) for b in deck.blocks]
    packing = pack(shapes, request.players, rows, columns, deck.flips) if request.players else None

    key, palette = deck.letters(), colours.assign([b.name for b in deck.blocks])
    inside = request.safe + FRAME_INSET  # the frame lies on the safe line, the card's content inside it
    measures = row_scale(deck, size, request.pitch, inside)
    lays = tuple(layout(deck, c, size, request.pitch, inside, measures) for c in deck.cards)
    from generators.puzzle_temple import verify as pt_verify  # the solver loads when a deck is printed

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
    draw_answers(key_doc, deck, found, lays, tiers, request.paper, margin, key, palette, title)
    files["answers.pdf"] = key_doc.data()

    if packing is not None:
        blocks = Document(Meta(f"{title}: paper blocks", f"{TITLE}: {request.players} player sets of blocks at "
                                                         f"{request.pitch:g} mm", TITLE))
        draw_blocks(blocks, packing, grid, request.paper, margin, request.pitch, key, palette, title,
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
                   values["margin"], str(values.get("layout", "auto")))  # type: ignore[arg-type]


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
