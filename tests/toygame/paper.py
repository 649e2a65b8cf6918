"""Toy Tally on paper (``generators.contract.Paper``), through the shared sheet engine."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from print.common import sheets
from print.common.layout import Imposition, Settings, Slot, impose
from print.common.pdf import Document, Meta, Pen
from print.common.sizes import CARDS, CardSize
from tests.toygame.rules import Deck

TITLE = "Toy Tally"
USES = frozenset({"size", "paper", "duplex", "back_offset", "bleed", "safe", "margin", "out"})
FILES = (("cards.pdf", "the tally cards"), ("calibration.pdf", "the duplex calibration sheet"))


@dataclass(frozen=True, slots=True)
class Printed:
    files: dict[str, bytes]
    imposition: Imposition
    labels: Sequence[str]
    size: CardSize


def request(values: Mapping[str, Any]) -> dict[str, Any]:
    return dict(values)


def make(deck: Deck, request: dict[str, Any], title: str) -> Printed:
    size = CardSize("mini-euro", *CARDS["mini-euro"]) if request["size"] == "auto" else request["size"]
    settings = Settings(request["paper"], size, request["bleed"], request["safe"], request["margin"],
                        request["duplex"], request["back_offset"])
    imposition = impose(len(deck.cards), settings)
    doc = Document(Meta(f"{title}: cards", f"{TITLE} cards", TITLE), request["duplex"])

    def front(pen: Pen, slot: Slot) -> None:
        card = deck.cards[slot.card]
        pen.rect(slot.bleed, fill="#F4EFE3")
        step = slot.safe.w / 3
        for x, y in card.cells:
            pen.circle(slot.safe.x + (x + 0.5) * step, slot.safe.y1 - (y + 0.5) * step, step * 0.3)
        pen.centred_text(slot.trim.cx, slot.safe.y + 4, f"{card.dots}", 12, bold=True)

    def back(pen: Pen, slot: Slot) -> None:
        pen.rect(slot.bleed, fill="#4E473D")

    sheets.draw_imposition(doc, imposition, title=title, ids=[c.id for c in deck.cards], front=front,
                           back=back if request["duplex"] != "none" else None)
    files = {"cards.pdf": doc.data()}
    cal = sheets.calibration_pdf(settings, imposition, title, TITLE)
    if cal is not None:
        files["calibration.pdf"] = cal
    return Printed(files, imposition, tuple(str(c.id) for c in deck.cards), size)


def summary(printed: Printed) -> list[str]:
    return [sheets.cards_line(printed.imposition, printed.size)]


def deck_title(deck: Deck, path: str | Path) -> str:
    return sheets.deck_title(TITLE, deck.seed, path)


if TYPE_CHECKING:
    import tests.toygame.paper as _self
    from generators.contract import Paper

    _conforms: Paper = _self
