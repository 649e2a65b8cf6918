"""Monolyth decks: structure cards as values, and the deck file (``templeforge.deck/1``).

Nouns:
    Card   a structure card: its id, its target (``structure``), and in a generated deck (or
           once verified) its difficulty (expected turns in seeded games of the greedy
           player, ``simulated``, with its standard error, and where the card is small enough
           its ``bound``: the expected turns with perfect play, exact; decks of older versions
           may hold that exact figure as the difficulty, method ``exact``, which verify
           refuses), the fewest singles its build needs, and a
           ``witness``: the placements in build order, each a piece of the pool with its
           colour and cubes ``[x, y, z]`` (x, y in 0-3 from the north-west corner, z from 0
           at the floor). A card may ask for colours: ``colours``, each colour of the pool
           with the target's cubes that must be that colour (``generators.monolyth.structure``).
    Deck   the cards, the pool, the height limit, the match rule (``equal``: the build is
           exactly the target where it says; ``contain``: the build reaches at least its
           heights), whether a card may be turned, and the record of how they were made.

The file's fields, in order: ``format``, ``game``, ``seed``, ``parameters``, ``versions``,
``height``, ``rule``, ``turn``, ``pool``, ``prophecies`` (the box's prophecy tokens: each
value, how many, and its chance of coming true, ``generators.monolyth.prophecy``),
``cards``. A hand-written structure list needs only
``format``, ``game`` and ``cards`` with a ``target`` each (the height is 3, the rule
``contain``, turning allowed and the pool ours unless the file says otherwise).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generators.common import deckfile
from generators.common.deckfile import FORMAT, DeckError
from generators.common.errors import RequestError
from generators.common.files import write_atomic
from generators.monolyth.pool import DEFAULT, SIDE, Pool, pool_from
from generators.monolyth.prophecy import Prophecy
from generators.monolyth.structure import colours_from, colours_json, rows_of, target_from
from solver.heightmap import CONTAIN, Board, Step, Target

GAME = "monolyth"

CardId = int | str

EXACT = "exact"
SIMULATED = "simulated"


@dataclass(frozen=True, slots=True)
class Card:
    id: CardId
    target: Target
    difficulty: float | None = None
    method: str | None = None
    error: float | None = None
    singles: int | None = None
    witness: tuple[Step, ...] | None = None
    bound: float | None = None

    def as_json(self, board: Board, colours: Sequence[str] = ()) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "target": rows_of(self.target, board)}
        if self.target.colours:
            out["colours"] = colours_json(self.target, colours)
        if self.difficulty is not None:
            out["difficulty"] = {"turns": self.difficulty, "method": self.method}
            if self.error is not None:
                out["difficulty"]["error"] = self.error
            if self.bound is not None:
                out["difficulty"]["bound"] = self.bound
        if self.singles is not None:
            out["singles"] = self.singles
        if self.witness is not None:
            out["witness"] = [{"piece": s.piece, "colour": s.colour, "cells": [list(c) for c in s.cubes]}
                              for s in self.witness]
        return out


@dataclass(frozen=True, slots=True)
class Deck:
    """See the module docstring; ``pool_listed``: the file lists its pool."""

    cards: tuple[Card, ...]
    pool: Pool = DEFAULT
    height: int = 3
    rule: str = CONTAIN
    turn: bool = True
    seed: int | None = None
    parameters: Mapping[str, Any] = field(default_factory=dict)
    versions: Mapping[str, str] = field(default_factory=dict)
    pool_listed: bool = True
    prophecies: tuple[Prophecy, ...] = ()

    @property
    def board(self) -> Board:
        return Board(SIDE, SIDE, self.height)

    def card(self, card_id: CardId) -> Card:
        card: Card = deckfile.find_card(self.cards, card_id)
        return card

    def as_json(self) -> dict[str, Any]:
        out = deckfile.envelope(GAME, self.seed, dict(self.parameters), dict(self.versions))
        out["height"] = self.height
        out["rule"] = self.rule
        out["turn"] = self.turn
        if self.pool_listed:
            out["pool"] = self.pool.as_json()
        if self.prophecies:
            out["prophecies"] = [{"value": p.value, "count": p.count, "chance": p.chance, "error": p.error,
                                  "low": p.low, "high": p.high} for p in self.prophecies]
        out["cards"] = [c.as_json(self.board, self.pool.colour_names) for c in self.cards]
        return out

    def dumps(self) -> str:
        return deckfile.dumps(self.as_json())


def schema() -> dict[str, Any]:
    return deckfile.load_schema("generators.monolyth")


def deck_from_json(data: Any, source: str = "<deck>") -> Deck:
    """Build a Deck from parsed JSON, validated against the schema first.

    Raises:
        DeckError: every problem, each naming its field.
    """
    deckfile.require_schema(data, schema(), source, FORMAT)
    problems: list[str] = []  # what the schema cannot say
    height = data.get("height", 3)
    rule = data.get("rule", CONTAIN)
    board = Board(SIDE, SIDE, height)
    pool = DEFAULT
    if "pool" in data:
        try:
            pool = pool_from(data["pool"], "pool", board)
        except RequestError as err:
            raise DeckError(f"{source}: {deckfile.summarise(err.problems)}") from None
    names = {(k.name, k.colour) for k in pool.pieces} | {("single", c) for c, _ in pool.singles}
    cards = []
    problems.extend(deckfile.id_problems(data["cards"]))
    for i, raw in enumerate(data["cards"], start=1):
        card_id = raw.get("id", i)
        try:
            target = target_from(raw["target"], board, rule, f"cards[{i}].target")
            if "colours" in raw:
                target = colours_from(raw["colours"], target, board, pool.colour_names, f"cards[{i}].colours")
        except RequestError as err:
            problems.extend(err.problems)
            continue
        witness = None
        if "witness" in raw:
            witness = tuple(Step(s["piece"], s["colour"], tuple((c[0], c[1], c[2]) for c in s["cells"]))
                            for s in raw["witness"])
            for j, s in enumerate(witness, start=1):
                if (s.piece, s.colour) not in names:
                    problems.append(f"cards[{i}].witness[{j}]: {s.piece} {s.colour} is not a piece of the pool")
        difficulty = raw.get("difficulty", {})
        cards.append(Card(card_id, target, difficulty.get("turns"), difficulty.get("method"), difficulty.get("error"),
                          raw.get("singles"), witness, difficulty.get("bound")))
    if problems:
        raise DeckError(f"{source}: " + deckfile.summarise(problems, 14))
    prophecies = tuple(Prophecy(p["value"], p["count"], p["chance"], p["error"], p["low"], p["high"])
                       for p in data.get("prophecies", ()))
    return Deck(tuple(cards), pool, height, rule, data.get("turn", True), data.get("seed"),
                data.get("parameters", {}), data.get("versions", {}), "pool" in data, prophecies)


def read_deck(path: str | Path) -> Deck:
    data = deckfile.read_json(path)
    deckfile.game_of(data, str(path), (GAME,))
    return deck_from_json(data, str(path))


def write_deck(deck: Deck, path: str | Path) -> Path:
    return write_atomic(path, deck.dumps())
