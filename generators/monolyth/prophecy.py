"""Prophecy tokens: how likely each value is to come true, and how many of each the box holds.

A prophecy token on a side of a player's board scores its value if that outer wall of the
finished monolith shows at least that many squares of the side's colour. For each colour of
the pool, ``solver.turns.simulate_wall`` plays ``RUNS`` seeded games to the complete
monolith by a reasonable player who has made the prophecy: as quick as a colour-blind
builder (the placement that adds the most cubes first), and among equally quick placements
the one that puts the colour on the wall (``STEER``: a square of the colour on the wall is
worth a quarter of a cube, a square of another colour there a quarter less). A value's
``chance`` is the share of games whose wall shows at least that many squares, the mean over
the colours (``low`` and ``high``: the least and most likely colour), with its standard
error.

The token values run from ``LOWEST`` to the squares a side shows (12 at height 3, at most
``HIGHEST``). Unless the pool lists its own, the box's tokens are shared out so that the
expected score is level across values: each value's tokens together are worth the same
expected points (a value's count in proportion to one over ``value * chance``), every value
at least once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from generators.common import grading
from generators.monolyth.pool import SIDE, Pool
from solver.heightmap import Board

LOWEST = 4
HIGHEST = 12
#: Tokens in the box.
TOKENS = 20
#: Games per colour.
RUNS = 2000
#: The prophesying player's preference for the colour on the wall (see the module docstring).
STEER = 0.25


@dataclass(frozen=True, slots=True)
class Prophecy:
    value: int
    count: int
    chance: float
    error: float
    low: float
    high: float

    @property
    def expected(self) -> float:
        return self.value * self.chance


def values(height: int) -> range:
    return range(LOWEST, min(HIGHEST, SIDE * height) + 1)


def chances(pool: Pool, height: int, runs: int = RUNS) -> dict[int, tuple[float, float, float, float]]:
    """Per value: (mean chance over the colours, its standard error, least, most)."""
    from solver.turns import simulate_wall

    board = Board(SIDE, SIDE, height)
    per_colour = []
    for i, colour in enumerate(pool.colour_names):
        if not any(k.colour == colour for k in pool.pieces):
            continue
        wall = simulate_wall(list(pool.pieces), board, colour, runs=runs, seed=1000 * height + i, steer=STEER)
        per_colour.append({v: wall.chance(v) for v in values(height)})
    out = {}
    for v in values(height):
        shares = [c[v][0] for c in per_colour]
        errors = [c[v][1] for c in per_colour]
        mean = sum(shares) / len(shares)
        error = (sum(e * e for e in errors) ** 0.5) / len(errors)
        out[v] = (round(mean, 4), round(error, 4), round(min(shares), 4), round(max(shares), 4))
    return out


def shares(chance: dict[int, tuple[float, float, float, float]], tokens: int) -> dict[int, int]:
    """Tokens per value so that each value's tokens are worth the same expected points."""
    usable = {v: c for v, c in chance.items() if c[0] > 0}
    weights = {v: round(1_000_000 / (v * c[0])) for v, c in usable.items()}
    if tokens >= len(weights):  # every value at least once, the rest by weight
        rest = grading.counts(tokens - len(weights), weights)
        return {v: 1 + rest[v] for v in weights}
    return {v: n for v, n in grading.counts(tokens, weights).items() if n}


def prophecies(pool: Pool, height: int, tokens: int = TOKENS, given: Sequence[int] = (),
               runs: int = RUNS) -> tuple[Prophecy, ...]:
    """The box's prophecy tokens: ``given`` values (a designer's), or ``tokens`` shared out
    (see the module docstring), each with its chance."""
    chance = chances(pool, height, runs)
    if given:
        counted = {v: list(given).count(v) for v in sorted(set(given))}
    else:
        counted = shares(chance, tokens)
    return tuple(Prophecy(v, n, *chance[v]) for v, n in sorted(counted.items()) if n)
