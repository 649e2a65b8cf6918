"""A reference deck for "a deck like mine": what is taken from a designer's structure list.

``Reference`` holds its height, match rule, turning and pool (the request's defaults), the
difficulty of each of its cards measured now as the generator measures (expected turns),
the cubes each asks for (in bands of eight, compared side by side), and its structures (up
to turning when it allows turning), which no generated card may repeat. ``profile`` gives
its measures to the shared matching (``generators.common.like``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generators.common import like
from generators.common.like import Profile
from generators.monolyth.pool import Pool

#: The class a structure falls in, compared side by side with the reference's.
CUBES = "cubes"
BAND = 8


def cubes_band(heights: tuple[int | None, ...]) -> str:
    n = sum(h or 0 for h in heights)
    low = (n - 1) // BAND * BAND + 1 if n else 0
    return f"{low}-{low + BAND - 1}"


@dataclass(frozen=True, slots=True)
class Reference:
    source: str
    height: int
    rule: str
    turn: bool
    pool: Pool
    difficulties: tuple[float, ...]
    cubes: tuple[str, ...]
    keys: frozenset[tuple[int | None, ...]]

    @property
    def profile(self) -> Profile:
        return Profile(self.difficulties, {CUBES: self.cubes})


def read_reference(value: Any, label: str) -> Reference:
    """The reference deck named by ``--like`` (any Monolyth deck), each card measured now.

    Raises:
        RequestError: the file cannot be read or is not a Monolyth deck.
    """
    from generators.monolyth.deck import read_deck
    from generators.monolyth.measure import difficulty
    from generators.monolyth.structure import canonical

    if isinstance(value, Reference):
        return value
    deck = like.read_reference(value, label, read_deck)
    board = deck.board
    return Reference(
        source=str(value), height=deck.height, rule=deck.rule, turn=deck.turn, pool=deck.pool,
        difficulties=tuple(difficulty(deck.pool, board, c.target)[0] for c in deck.cards),
        cubes=tuple(cubes_band(c.target.heights) for c in deck.cards),
        keys=frozenset(canonical(c.target.heights, board, True) for c in deck.cards))
