"""Card and paper sizes in millimetres, and the parsers for the options that name them.

A card size is a preset (``poker``, ``bridge``, ``tarot``, ``mini-euro``, ``square``, ``a6``,
``a5``) or ``WxH`` in mm, either way up (``poker-landscape`` turns a preset on its side).
Paper is ``a4``, ``letter``, ``a3`` or ``tabloid``; the imposition turns it either way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from generators.common.errors import RequestError

MM = 72 / 25.4  #: points per millimetre

#: Card presets, portrait (width, height) in mm.
CARDS: dict[str, tuple[float, float]] = {
    "mini-euro": (44.0, 68.0),
    "bridge": (57.15, 88.9),
    "poker": (63.5, 88.9),
    "square": (70.0, 70.0),
    "tarot": (69.85, 120.65),  # 2.75 x 4.75 in, the tarot size print-on-demand services sell
    "a6": (105.0, 148.0),
    "a5": (148.0, 210.0),
}

#: Paper sizes, portrait (width, height) in mm.
PAPERS: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
    "tabloid": (279.4, 431.8),
}

#: Limits on a custom card: smaller cannot hold a word in its safe zone, larger fits no paper.
MIN_CARD = 20.0
MAX_CARD = 420.0


@dataclass(frozen=True, slots=True)
class CardSize:
    """A card's trim size: ``name`` as the user wrote it (``poker``, ``70x120``)."""

    name: str
    width: float
    height: float

    @property
    def landscape(self) -> bool:
        return self.width > self.height

    def turned(self) -> CardSize:
        """The same card on its side."""
        base = self.name.removesuffix("-landscape")
        name = base if self.landscape else f"{base}-landscape"
        if base not in CARDS:
            name = f"{_mm(self.height)}x{_mm(self.width)}"
        return CardSize(name, self.height, self.width)

    def holds(self, width: float, height: float) -> bool:
        return width <= self.width + 1e-9 and height <= self.height + 1e-9

    def __str__(self) -> str:
        return f"{self.name} ({_mm(self.width)} x {_mm(self.height)} mm)"


@dataclass(frozen=True, slots=True)
class Paper:
    """A sheet of paper, portrait: ``name``, ``width`` and ``height`` in mm."""

    name: str
    width: float
    height: float

    def __str__(self) -> str:
        return f"{self.name} ({_mm(self.width)} x {_mm(self.height)} mm)"


def _mm(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def presets() -> list[CardSize]:
    """Every preset, each way up, smallest area first (the order ``--size auto`` tries)."""
    out = []
    for name, (w, h) in CARDS.items():
        out.append(CardSize(name, w, h))
        if w != h:
            out.append(CardSize(f"{name}-landscape", h, w))
    return sorted(out, key=lambda c: (c.width * c.height, c.height < c.width))


def parse_card_size(value: Any, name: str = "size") -> CardSize:
    """A preset name, ``NAME-landscape`` or ``WxH`` in mm (like ``70x120`` or ``63.5x88.9``).

    Raises:
        RequestError: naming the field and the sizes it accepts.
    """
    text = str(value).strip().lower() if isinstance(value, str) else None
    if text is None:
        raise RequestError(f"{name}: expected a card size name or WxH in mm, got {value!r}")
    base = text.removesuffix("-landscape")
    if base in CARDS:
        card = CardSize(base, *CARDS[base])
        turn = text.endswith("-landscape") and card.width != card.height
        return card.turned() if turn else card
    m = re.fullmatch(r"(\d{1,4}(?:\.\d{1,3})?)\s*x\s*(\d{1,4}(?:\.\d{1,3})?)", text)
    if not m:
        raise RequestError(f"{name}: unknown card size {value!r} (expected {', '.join(CARDS)}, "
                           f"NAME-landscape, or WxH in mm like 70x120)")
    w, h = float(m.group(1)), float(m.group(2))
    for side in (w, h):
        if not MIN_CARD <= side <= MAX_CARD:
            raise RequestError(f"{name}: a card side must be {MIN_CARD:g}-{MAX_CARD:g} mm, got {value!r}")
    return CardSize(f"{_mm(w)}x{_mm(h)}", w, h)


def parse_paper(value: Any, name: str = "paper") -> Paper:
    """``a4``, ``letter``, ``a3`` or ``tabloid``."""
    text = value.strip().lower() if isinstance(value, str) else None
    if text not in PAPERS:
        raise RequestError(f"{name}: unknown paper {value!r} (expected {', '.join(PAPERS)})")
    return Paper(text, *PAPERS[text])
