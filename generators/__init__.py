"""Content generators, one package per game, and the registry that finds them.

A game is known by its deck files' ``game`` name (``puzzle-temple``). The registry holds
only names, titles and package paths, so that listing the games imports nothing heavy; a
game's package is imported the first time it is asked for (``game(name)``).

Every game package has the same shape: ``spec`` (its options, declared once, and the
request they make), ``deck`` (its cards as values and its part of the deck file, with a
JSON Schema), ``generate``, ``verify`` (independent of ``generate``) and ``figures`` (the
numbers that tables and plots are drawn from). What games share lives in
``generators.common``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A registered game: its deck name, its title, a one-line summary and its package."""

    name: str
    title: str
    summary: str
    package: str

    def module(self, part: str) -> ModuleType:
        """One of the game's modules (``spec``, ``deck``, ``generate``, ...), imported now."""
        return importlib.import_module(f"{self.package}.{part}")


#: Every game Templeforge generates, by deck name.
GAMES: dict[str, GameInfo] = {
    "puzzle-temple": GameInfo(
        "puzzle-temple", "Puzzle Temple",
        "Lock cards: a lock and six block sets (die faces 1-6), each proved to tile it.",
        "generators.puzzle_temple"),
    "shifting-stones": GameInfo(
        "shifting-stones", "Shifting Stones",
        "Pattern cards: 3x3 windows of stone faces, points priced by exact difficulty.",
        "generators.shifting_stones"),
}


def game(name: str) -> GameInfo:
    """The registered game called ``name``.

    Raises:
        LookupError: no such game (the message lists the known ones).
    """
    if name not in GAMES:
        raise LookupError(f"unknown game {name!r}; games: {', '.join(GAMES)}")
    return GAMES[name]


def read_deck(path: str | Path) -> tuple[GameInfo, Any]:
    """Read any game's deck file: the envelope first, then the game's own reader.

    Raises:
        generators.common.deckfile.DeckError: the file cannot be read or is not a deck of
            a known game.
    """
    from generators.common import deckfile

    data = deckfile.read_json(path)
    info = game(deckfile.game_of(data, str(path), tuple(GAMES)))
    return info, info.module("deck").deck_from_json(data, str(path))
