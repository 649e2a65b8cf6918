"""Toy Tally's rules (``generators.contract.Rules``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generators.common import deckfile
from generators.common.deckfile import DeckError
from generators.common.errors import RequestError
from generators.common.figures import Drawing, Fact, Figure, Table
from generators.common.files import write_atomic
from generators.common.options import SEED, WORKERS, output, recorded, whole

NAME = "toy-tally"
DECK_NAME = "deck.json"
OPTIONS = (whole("cards", 4, "cards in the deck", low=1, high=40), whole("most", 6, "the most dots on a card", low=1),
           SEED, WORKERS, output(f"output/{NAME}/{DECK_NAME}", DECK_NAME))
HELP = "Each card shows 1-6 dots on a 3x3 grid; the deck lists every dot's cell as its proof."
EXAMPLE = "--cards 4 --seed 1"
VERIFY_HELP = "Every card's dots are counted again from their cells."
SCALE = "nothing (tallies have no scale)"
OK_TEXT = "every tally counted again"
VERIFIER = "1"


@dataclass(frozen=True, slots=True)
class Card:
    id: int
    dots: int
    cells: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Deck:
    cards: tuple[Card, ...]
    seed: int | None = None
    parameters: Mapping[str, Any] = field(default_factory=dict)

    def card(self, card_id: Any) -> Card:
        for c in self.cards:
            if str(c.id) == str(card_id):
                return c
        raise DeckError(f"no card {card_id} in the deck")

    def dumps(self) -> str:
        out = deckfile.envelope(NAME, self.seed, dict(self.parameters), None)
        out["cards"] = [{"id": c.id, "dots": c.dots, "cells": [list(x) for x in c.cells]} for c in self.cards]
        return deckfile.dumps(out)


@dataclass(frozen=True, slots=True)
class Spec:
    cards: int
    most: int
    seed: int


def spec(values: Mapping[str, Any], given: frozenset[str]) -> Spec:
    if values["most"] > 9:
        raise RequestError(f"most: a 3x3 grid holds at most 9 dots, not {values['most']}")
    return Spec(values["cards"], values["most"], values["seed"])


def generate(spec: Spec, progress: Any = None) -> Deck:
    rng = random.Random(spec.seed)
    grid = [(x, y) for y in range(3) for x in range(3)]
    cards = tuple(Card(k + 1, n, tuple(sorted(rng.sample(grid, n))))
                  for k, n in enumerate(rng.randint(1, spec.most) for _ in range(spec.cards)))
    if progress is not None:
        progress(spec.cards, spec.cards)
    parameters = recorded(OPTIONS, {"cards": spec.cards, "most": spec.most, "seed": spec.seed})
    return Deck(cards, spec.seed, parameters)


def deck_from_json(data: Any, source: str = "<deck>") -> Deck:
    try:
        cards = tuple(Card(int(c["id"]), int(c["dots"]), tuple((int(x), int(y)) for x, y in c["cells"]))
                      for c in data["cards"])
    except (KeyError, TypeError, ValueError) as err:
        raise DeckError(f"{source}: not a {NAME} deck: {err}") from None
    return Deck(cards, data.get("seed"), data.get("parameters", {}))


def write_deck(deck: Deck, path: str | Path) -> Path:
    return write_atomic(path, deck.dumps())


def schema() -> dict[str, Any]:
    return {"type": "object", "required": ["cards"]}


@dataclass(frozen=True, slots=True)
class Check:
    problems: tuple[str, ...]
    cards: int

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def unknown(self) -> tuple[Any, ...]:
        return ()

    @property
    def counted(self) -> str:
        return f"{self.cards} tallies"


def verify(deck: Deck, *, time_limit: float | None = None, tiers_from: Any = None, tiers_name: str = "",
           strict: bool = False, workers: int = 1) -> Check:
    del workers  # a few dots a card: checked here
    problems = []
    for c in deck.cards:
        cells = set(c.cells)
        if len(cells) != c.dots or len(c.cells) != c.dots:
            problems.append(f"card {c.id}: {c.dots} dots, but {len(cells)} different cells listed")
        if any(not (0 <= x < 3 and 0 <= y < 3) for x, y in cells):
            problems.append(f"card {c.id}: a dot outside the 3x3 grid")
    return Check(tuple(problems), len(deck.cards))


def completed(deck: Deck, check: Check) -> Deck:
    return deck  # a tally's proof is its cells, which every deck lists


def picture(card: Card) -> str:
    return "\n".join("".join("o" if (x, y) in card.cells else "." for x in range(3)) for y in range(3))


def _table(deck: Deck) -> Table:
    return Table(("card", "dots", "grid"), tuple((str(c.id), str(c.dots), picture(c)) for c in deck.cards),
                 "<><", pictures=(2,), colours=(("o", "#4E79A7"),))


def summary(deck: Deck, check: Check, spec: Any = None) -> list[Figure]:
    return [Fact("dots", ", ".join(str(c.dots) for c in deck.cards))]


def report(deck: Deck, check: Check, show_all: bool = False) -> list[Figure]:
    return [Fact("verification", "ok" if check.ok else "failed"), _table(deck)]


def cards(deck: Deck, chosen: Sequence[Card]) -> list[Figure]:
    return [Drawing(f"card {c.id}: {c.dots} dots", picture(c)) for c in chosen]


def build_report(deck: Deck, check: Check) -> list[Figure]:
    said = f"every dot of the {len(deck.cards)} cards counted again" if check.ok else "; ".join(check.problems)
    return [Fact("verification", said), Fact("cards", str(len(deck.cards))), _table(deck)]


if TYPE_CHECKING:
    import tests.toygame.rules as _self
    from generators.contract import Rules

    _conforms: Rules = _self
