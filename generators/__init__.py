"""Content generators, one package per game, and the registry: the one module outside the
games' own files that names them.

A game is known by its deck files' ``game`` name (``puzzle-temple``). The registry holds
``generators.contract.Game`` descriptors: names, titles and module paths, so that listing
the games imports nothing heavy; a game's modules are imported when a command asks for
them. Every game meets the contract in ``generators.contract``; what games share lives in
``generators.common``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from generators.contract import Deck, Game

#: Every game Templeforge generates, by deck name, in the order ``--game all`` builds them.
GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add ``game`` to the registry (a game's name is taken once).

    Raises:
        ValueError: another game already has the name.
    """
    if game.name in GAMES and GAMES[game.name] != game:
        raise ValueError(f"a game called {game.name!r} is already registered")
    GAMES[game.name] = game
    return game


def unregister(name: str) -> None:
    """Take a game out of the registry (tests that register a toy game tidy up with it)."""
    GAMES.pop(name, None)


register(Game(
    "puzzle-temple", "Puzzle Temple",
    "Lock cards: a lock and six block sets (die faces 1-6), each proved to tile it.",
    rules="generators.puzzle_temple.rules", paper="print.puzzle_temple", plastic="cad.puzzle_temple",
    mine="generators.puzzle_temple.mine", engine="generators.puzzle_temple.engine",
    studio="generators.puzzle_temple.studio"))
register(Game(
    "shifting-stones", "Shifting Stones",
    "Pattern cards: 3x3 windows of stone faces, points priced by exact difficulty.",
    rules="generators.shifting_stones.rules", paper="print.shifting_stones", plastic="cad.shifting_stones",
    commands=(("stones", "templeforge.games.shifting_stones"),), mine="generators.shifting_stones.mine",
    engine="generators.shifting_stones.engine", studio="generators.shifting_stones.studio"))
register(Game(
    "monolyth", "Monolyth",
    "Structure cards: target shapes on the 4x4 board, proved buildable in order, priced by expected turns.",
    rules="generators.monolyth.rules", paper="print.monolyth", plastic="cad.monolyth",
    mine="generators.monolyth.mine", engine="generators.monolyth.engine", studio="generators.monolyth.studio"))
register(Game(
    "mystery-of-the-temples", "Mystery of the Temples",
    "Temple cards: curse tracks whose layers are proved payable on every crystal grid, priced by their cost in play.",
    rules="generators.mystery_of_the_temples.rules", paper="print.mystery_of_the_temples",
    plastic="cad.mystery_of_the_temples", mine="generators.mystery_of_the_temples.mine",
    engine="generators.mystery_of_the_temples.engine", studio="generators.mystery_of_the_temples.studio"))

#: The game a command builds when none is named.
DEFAULT = "puzzle-temple"


def game(name: str) -> Game:
    """The registered game called ``name``.

    Raises:
        LookupError: no such game (the message lists the known ones).
    """
    if name not in GAMES:
        raise LookupError(f"unknown game {name!r}; games: {', '.join(GAMES)}")
    return GAMES[name]


def open_deck(path: str | Path) -> tuple[Game, Deck, Any]:
    """Read any game's deck file: the game, the deck and the file as parsed (for its seal,
    ``generators.common.seal``).

    Raises:
        generators.common.deckfile.DeckError: the file cannot be read or is not a deck of
            a known game.
    """
    from generators.common import deckfile

    data = deckfile.read_json(path)
    return _parsed(data, str(path))


def _parsed(data: Any, source: str) -> tuple[Game, Deck, Any]:
    from generators.common import deckfile, seal

    info = game(deckfile.game_of(data, source, tuple(GAMES)))
    return info, info.load_rules().deck_from_json(seal.unsealed(data), source), data


def read_deck(path: str | Path) -> tuple[Game, Deck]:
    """Read any game's deck file: the envelope first, then the game's own reader.

    Raises:
        generators.common.deckfile.DeckError: the file cannot be read or is not a deck of
            a known game.
    """
    info, deck, _ = open_deck(path)
    return info, deck


def deck_from_bytes(info: Game, data: bytes, source: str = "deck.json") -> Deck:
    """A deck of ``info``'s game from its file's bytes.

    Raises:
        generators.common.deckfile.DeckError: the bytes are not such a deck.
    """
    from generators.common import deckfile, seal

    return info.load_rules().deck_from_json(seal.unsealed(deckfile.loads(data.decode("utf-8"), source)), source)
