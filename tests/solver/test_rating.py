"""The difficulty rating against a plain re-implementation of its model solver."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from generators.puzzle_temple.generate import random_union
from solver import tiling
from solver.pieces import piece, preset
from solver.puzzle import Puzzle
from solver.rating import rate
from solver.shapes import Shape
from tests.oracle import oriented


def naive_success(region: Shape, pieces: list, flips: bool = True) -> Fraction:
    """The model solver's chance of success, as an exact fraction, by plain recursion over
    cell sets: the empty cell with the fewest fitting placements (first in reading order),
    each fitting placement of an unused piece equally likely."""
    shapes = {p.name: oriented(p, 2, flips) for p in pieces}

    def fitting(cell, empty, left):
        out = []
        for name in sorted(set(left)):
            for cells in shapes[name]:
                for anchor in cells:
                    moved = frozenset((cell[0] + r - anchor[0], cell[1] + c - anchor[1]) for r, c in cells)
                    if moved <= empty:
                        out.append((name, moved))
        return list(dict.fromkeys(out))

    def walk(empty: frozenset, left: tuple) -> Fraction:
        if not empty:
            return Fraction(1)
        options = min((fitting(c, empty, left) for c in sorted(empty)), key=len)
        if not options:
            return Fraction(0)
        total = Fraction(0)
        for name, cells in options:
            rest = list(left)
            rest.remove(name)
            total += walk(empty - cells, tuple(rest))
        return total / len(options)

    return walk(frozenset(region.cells), tuple(p.name for p in pieces))


def test_a_forced_lock_rates_zero() -> None:
    # the right end of the top row can only take a domino lying flat; the rest is forced
    r = rate(Puzzle(Shape.parse("###\n#.."), (piece("I2"), piece("I2"))))
    assert (r.difficulty, r.success, r.tilings, r.forced) == (0, 1, 1, 2)


def test_two_good_first_choices_cost_nothing() -> None:
    # the end cell of a 1x5 bar takes the I2 or the I3, and either way the rest is forced
    r = rate(Puzzle(Shape.parse("#####"), (piece("I2"), piece("I3"))))
    assert (r.difficulty, r.tilings) == (0, 2)


def test_an_unsolvable_puzzle_rates_infinite() -> None:
    puzzle = Puzzle(Shape.parse("###\n###"), (piece("I3"), piece("L3")))
    assert tiling.count(puzzle).status is tiling.Status.UNSOLVABLE
    r = rate(puzzle)
    assert r.difficulty == math.inf and r.success == 0 and r.tilings == 0


@pytest.mark.parametrize("seed", range(12))
def test_success_matches_the_naive_model_solver(seed: int) -> None:
    rng = random.Random(seed)
    blocks = preset("ubongo12")
    chosen = rng.sample(blocks, 3 + seed % 2)
    region = random_union(chosen, rng)
    pool = rng.sample([b for b in blocks if b not in chosen], 1)
    for pieces in (chosen, chosen[:-1] + pool):
        if sum(p.size for p in pieces) != region.size:
            continue
        puzzle = Puzzle(region, tuple(pieces))
        r = rate(puzzle)
        assert r.success == pytest.approx(float(naive_success(region, pieces)), abs=1e-12)
        assert r.tilings == (tiling.count(puzzle).count or 0)
        assert r.difficulty == (math.inf if r.success == 0 else pytest.approx(-math.log2(r.success)))


def test_real_locks_need_luck() -> None:
    # random 4-block Ubongo locks: some first choices lead nowhere, so some rate above a bit
    rng = random.Random(3)
    blocks = preset("ubongo12")
    rated = []
    for _ in range(20):
        chosen = rng.sample(blocks, 4)
        rated.append(rate(Puzzle(random_union(chosen, rng), tuple(chosen))).difficulty)
    assert max(rated) > 1 and min(rated) >= 0
