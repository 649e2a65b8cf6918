"""How hard a tiling puzzle is to solve: an exact measure of the luck a solver needs.

Nouns:
    Rating  a puzzle's difficulty in bits, with the figures it comes from: the number of
            tilings, the search nodes of the rating search, and the placements that were
            forced (the only option at a cell) on the way.

The model solver: at each step it looks for the empty cell that the fewest placements can
still cover (ties: the first in reading order, row by row), and puts one of those
placements there, chosen at random among the ones that fit with a piece not yet used. It
never backtracks: if some cell can no longer be covered, it has failed. ``p`` is the exact
probability that it completes a tiling, computed over the whole search tree (a dead end
counts 0, a tiling 1, a node the mean of its children), and

    difficulty = log2(1 / p)   bits

is how many fair coin flips' worth of luck the puzzle demands, or, equivalently, the log of
the expected number of fresh attempts such a solver needs. A lock whose every step is
forced rates 0; one where half the first choices lead nowhere and the rest are forced rates
1. More tilings, more forced placements and fewer pieces all lower the figure; a search that
branches widely into dead ends raises it. It is exact (no sampling) and deterministic, and
it depends only on the puzzle, not on any engine's cell order. The README shows that it
orders faces the way an independent solver (CP-SAT) finds them hard.

An unsolvable puzzle has ``p = 0``: ``rate`` returns ``difficulty = inf`` for it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from solver.puzzle import Puzzle


@dataclass(frozen=True, slots=True)
class Rating:
    """Difficulty in bits (``log2(1/p)``, see the module docstring) and its ingredients.

    Attributes:
        difficulty: bits of luck the model solver needs; ``inf`` when there is no tiling.
        success: ``p``, the chance that the model solver completes a tiling.
        tilings: the number of tilings (counted by the same search).
        nodes: search states the rating visited (each distinct state once).
        forced: placements on the way to the first tiling that were the only option left at
            their cell (0 when there is no tiling).
    """

    difficulty: float
    success: float
    tilings: int
    nodes: int
    forced: int

    @property
    def bits(self) -> float:
        """The difficulty rounded to hundredths, as stored in deck files."""
        return round(self.difficulty, 2)


def rate(puzzle: Puzzle) -> Rating:
    """Rate ``puzzle`` (see the module docstring). Mode ``all`` and ``subset`` both work:
    a piece may be used as often as it has copies."""
    order = sorted(puzzle.region.cells)  # reading order: row, then column (then layer)
    bit = {c: i for i, c in enumerate(order)}
    names = [p.name for p, _ in puzzle.kinds]
    kind_of = {n: k for k, n in enumerate(names)}
    copies = tuple(count for _, count in puzzle.kinds)
    full = (1 << len(order)) - 1

    # covering[i]: (mask, kind) of every placement that covers cell i
    covering: list[list[tuple[int, int]]] = [[] for _ in order]
    for placement in puzzle.placements():
        mask = 0
        for c in placement.cells:
            mask |= 1 << bit[c]
        kind = kind_of[placement.piece]
        for c in placement.cells:
            covering[bit[c]].append((mask, kind))

    memo: dict[tuple[int, tuple[int, ...]], tuple[float, int]] = {}

    def options(occupied: int, left: tuple[int, ...]) -> list[tuple[int, int]]:
        best: list[tuple[int, int]] | None = None
        for i in range(len(order)):
            if occupied >> i & 1:
                continue
            fitting = [(m, k) for m, k in covering[i] if not m & occupied and left[k]]
            if best is None or len(fitting) < len(best):
                best = fitting
                if not fitting:
                    break
        return best or []

    def explore(occupied: int, left: tuple[int, ...]) -> tuple[float, int]:
        """(chance of success, tilings) from this state."""
        if occupied == full:
            return 1.0, 1
        key = (occupied, left)
        if key in memo:
            return memo[key]
        choices = options(occupied, left)
        chance, tilings = 0.0, 0
        for mask, kind in choices:
            rest = left[:kind] + (left[kind] - 1,) + left[kind + 1:]
            p, t = explore(occupied | mask, rest)
            chance += p
            tilings += t
        out = (chance / len(choices) if choices else 0.0, tilings)
        memo[key] = out
        return out

    success, tilings = explore(0, copies)
    forced = 0
    if tilings:  # walk to the first tiling, counting the steps with one option
        occupied, left = 0, copies
        while occupied != full:
            choices = options(occupied, left)
            forced += len(choices) == 1
            for mask, kind in choices:
                rest = left[:kind] + (left[kind] - 1,) + left[kind + 1:]
                if occupied | mask == full or explore(occupied | mask, rest)[1]:
                    occupied, left = occupied | mask, rest
                    break
    difficulty = math.inf if success == 0 else max(0.0, -math.log2(success))
    return Rating(difficulty, success, tilings, len(memo) + 1, forced)
