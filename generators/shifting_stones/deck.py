"""Shifting Stones decks: pattern cards as values, and the deck file (``templeforge.deck/1``).

Nouns:
    Card   a pattern card: its id, its window, and (in a generated deck) its points and the
           measured difficulty: the mean least number of actions from a random grid
           (``difficulty``), the share of grids that already show it (``shown``) and the
           most actions any grid needs (``max``).
    Deck   the cards, the tile set, and the record of how they were made.

The file's fields, in order: ``format``, ``game``, ``seed``, ``parameters``, ``versions``,
``tiles``, ``cards``; each card's window is rows of face names and ``any``. A hand-written
pattern list needs only ``format``, ``game`` and ``cards`` with a ``window`` each (ids are
numbered from 1 when left out); without ``tiles`` it uses the published stones.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generators.common import deckfile
from generators.common.deckfile import FORMAT, DeckError
from generators.common.errors import RequestError
from generators.common.files import write_atomic
from generators.shifting_stones.pattern import Pattern, pattern_from
from generators.shifting_stones.tiles import PUBLISHED, TileSet, tile_set_from

GAME = "shifting-stones"

CardId = int | str


@dataclass(frozen=True, slots=True)
class Card:
    id: CardId
    pattern: Pattern
    points: int | None = None
    difficulty: float | None = None
    shown: float | None = None
    max: int | None = None

    def as_json(self, tiles: TileSet) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "window": self.pattern.names(tiles)}
        for name in ("points", "difficulty", "shown", "max"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out


@dataclass(frozen=True, slots=True)
class Deck:
    """A pattern deck (see the module docstring); ``tiles_listed``: the file names its tiles."""

    cards: tuple[Card, ...]
    tiles: TileSet = PUBLISHED
    seed: int | None = None
    parameters: Mapping[str, Any] = field(default_factory=dict)
    versions: Mapping[str, str] = field(default_factory=dict)
    tiles_listed: bool = True

    @property
    def mix(self) -> tuple[tuple[int, int], ...] | None:
        """The points mix the parameters ask for, if recorded."""
        from generators.shifting_stones.scale import parse_mix

        text = self.parameters.get("mix")
        return parse_mix(text, "parameters.mix") if isinstance(text, str) else None

    def card(self, card_id: CardId) -> Card:
        card: Card = deckfile.find_card(self.cards, card_id)
        return card

    def as_json(self) -> dict[str, Any]:
        out = deckfile.envelope(GAME, self.seed, dict(self.parameters), dict(self.versions))
        if self.tiles_listed:
            out["tiles"] = self.tiles.as_json()
        out["cards"] = [c.as_json(self.tiles) for c in self.cards]
        return out

    def dumps(self) -> str:
        return deckfile.dumps(self.as_json())


def schema() -> dict[str, Any]:
    return deckfile.load_schema("generators.shifting_stones")


def deck_from_json(data: Any, source: str = "<deck>") -> Deck:
    """Build a Deck from parsed JSON, validated against the schema first.

    Raises:
        DeckError: every problem, each naming its field (``cards[3].window``: row 1,
            column 2: unknown face 'Cat').
    """
    deckfile.require_schema(data, schema(), source, FORMAT)
    problems: list[str] = []  # what the schema cannot say
    tiles = PUBLISHED
    if "tiles" in data:
        try:
            tiles = tile_set_from(data["tiles"], "tiles")
        except RequestError as err:
            raise DeckError(f"{source}: {deckfile.summarise(err.problems)}") from None
    cards = []
    problems.extend(deckfile.id_problems(data["cards"]))
    for i, raw in enumerate(data["cards"], start=1):
        card_id = raw.get("id", i)
        try:
            pattern = pattern_from(raw["window"], tiles, f"cards[{i}].window")
        except RequestError as err:
            problems.extend(err.problems)
            continue
        cards.append(Card(card_id, pattern, raw.get("points"), raw.get("difficulty"), raw.get("shown"),
                          raw.get("max")))
    if problems:
        raise DeckError(f"{source}: " + deckfile.summarise(problems, 14))
    return Deck(tuple(cards), tiles, data.get("seed"), data.get("parameters", {}), data.get("versions", {}),
                "tiles" in data)


def read_deck(path: str | Path) -> Deck:
    data = deckfile.read_json(path)
    deckfile.game_of(data, str(path), (GAME,))
    return deck_from_json(data, str(path))


def write_deck(deck: Deck, path: str | Path) -> Path:
    return write_atomic(path, deck.dumps())
