"""A structure card's pace in play: the mean round in which some player first claims its
structure token, over ``GAMES`` seeded games of the rules engine (``engine``) with greedy
players in every seat, the card the only one in the deck.

One structure card is played a game, so the cards of a deck should come as soon as each
other in play. A card's difficulty (its expected turns built alone, ``measure.difficulty``)
ranks cards well by size but not by pace: in play everyone builds the whole monolith, level
by level for the level tokens, so a card whose cubes stand high (a 3x3 block three high)
comes later than its size says, and one that lies low sooner. The generator measures the
pace of the candidates round the median difficulty and takes the cards whose paces lie
nearest each other (``generate.comparable``).

The games are seeded from the structure (``measure.structure_seed``), so the same candidate
has the same pace in any deck and on any number of workers. A game in which nobody claims
the token counts the rounds it lasted plus one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from generators.monolyth.deck import Card, Deck
from generators.monolyth.pool import Pool
from generators.monolyth.prophecy import Prophecy
from solver.heightmap import Board, Target

#: Games a candidate's pace is measured over.
GAMES = 16
#: The agent in every seat.
AGENT = "greedy"


def players_for(height: int) -> int:
    """The player count whose monolith is ``height`` high: 3 (4x4x3) or 2 (4x4x4)."""
    return 3 if height <= 3 else 2


def game_seed(target: Target, board: Board, index: int) -> int:
    from generators.monolyth.measure import structure_seed

    text = f"pace {structure_seed(target, board)} {index}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:6], "big")


def pace(pool: Pool, height: int, rule: str, turn: bool, target: Target,
         prophecies: Sequence[Prophecy], games: int = GAMES) -> tuple[float, float]:
    """The mean round of the first claim of ``target``'s structure token and its standard
    error, over ``games`` seeded greedy games at ``players_for(height)`` players."""
    from generators.common.grading import standard_error
    from generators.common.play import agents_from, play
    from generators.monolyth import engine

    deck = Deck((Card(1, target),), pool, height, rule, turn, prophecies=tuple(prophecies))
    players = players_for(height)
    firsts = []
    for i in range(games):
        played = play(engine, deck, players, game_seed(target, deck.board, i), agents_from([AGENT], players))
        claims = [r for r in played.final.claimed_at if r]
        firsts.append(min(claims) if claims else -(-played.turns // players) + 1)
    return round(sum(firsts) / len(firsts), 3), round(standard_error(firsts), 3)
