"""The difficulty rating against a plain re-implementation of its model solver."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from solver import tiling
from solver.pieces import piece, preset, random_union
from solver.puzzle import Puzzle
from solver.rating import rate
from solver.shapes import Shape
from tests.oracle import oriented


def naive_model(region: Shape, pieces: list, flips: bool = True) -> tuple[Fraction, Fraction, int]:
    """(chance of success without backtracking, expected effort, tilings) of the model
    solver, as exact fractions, by plain recursion over cell sets. The model: look at every
    fitting placement of an unused piece, branch on the empty cell with the fewest (first in
    reading order), try its placements in random order, backtrack from dead ends; effort is
    the placements looked at before the first tiling."""
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

    def walk(empty: frozenset, left: tuple):
        """(success, effort, size, tilings) of the subtree."""
        if not empty:
            return Fraction(1), Fraction(0), Fraction(0), 1
        per_cell = [fitting(c, empty, left) for c in sorted(empty)]
        looked = len({o for options in per_cell for o in options})
        options = min(per_cell, key=len)
        kids = []
        for name, cells in options:
            rest = list(left)
            rest.remove(name)
            kids.append(walk(empty - cells, tuple(rest)))
        good = [k for k in kids if k[3]]
        size = looked + sum(k[2] for k in kids)
        if good:
            effort = looked + sum(k[2] for k in kids if not k[3]) / (len(good) + 1) + \
                sum(k[1] for k in good) / len(good)
        else:
            effort = size
        success = sum(k[0] for k in kids) / len(kids) if kids else Fraction(0)
        return success, effort, size, sum(k[3] for k in kids)

    success, effort, _, tilings = walk(frozenset(region.cells), tuple(p.name for p in pieces))
    return success, effort, tilings


def test_a_forced_lock_costs_only_the_looking() -> None:
    # three dominoes fit; the end of the top row takes only one, then one is left: 3 + 1 looks
    r = rate(Puzzle(Shape.parse("###\n#.."), (piece("I2"), piece("I2"))))
    assert (r.effort, r.difficulty, r.success, r.tilings, r.forced) == (4, 2, 1, 1, 2)


def test_two_good_first_choices() -> None:
    # the 1x5 bar: 4 + 3 placements fit; its end cell takes the I2 or the I3, and either way
    # one placement is left for the other piece: 7 + 1 looks
    r = rate(Puzzle(Shape.parse("#####"), (piece("I2"), piece("I3"))))
    assert (r.effort, r.difficulty, r.tilings, r.forced) == (8, 3, 2, 1)


def test_a_dead_end_costs_what_it_looks_at() -> None:
    # 2x3 box, O4 and I2: 2 + 7 placements fit; at the corner (0, 0) the O4 or the standing
    # I2 leave one placement for the other piece, the flat I2 leaves a dead end where nothing
    # fits (it looks at nothing): 9 + 1 looks
    puzzle = Puzzle(Shape.parse("###\n###"), (piece("O4"), piece("I2")))
    r = rate(puzzle)
    assert r.effort == 10 and r.success == pytest.approx(2 / 3)
    success, effort, tilings = naive_model(puzzle.region, list(puzzle.pieces))
    assert r.tilings == tilings == 2 and r.effort == pytest.approx(float(effort))
    assert r.success == pytest.approx(float(success))


def test_an_unsolvable_puzzle_rates_infinite() -> None:
    puzzle = Puzzle(Shape.parse("###\n###"), (piece("I3"), piece("L3")))
    assert tiling.count(puzzle).status is tiling.Status.UNSOLVABLE
    r = rate(puzzle)
    assert r.difficulty == math.inf and r.success == 0 and r.tilings == 0


@pytest.mark.parametrize("seed", range(12))
def test_rating_matches_the_naive_model_solver(seed: int) -> None:
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
        success, effort, tilings = naive_model(region, pieces)
        assert r.success == pytest.approx(float(success), abs=1e-12)
        assert r.tilings == tilings == (tiling.count(puzzle).count or 0)
        if tilings:
            assert r.effort == pytest.approx(float(effort)) and r.difficulty == pytest.approx(math.log2(effort))
        else:
            assert r.difficulty == math.inf


def test_real_locks_need_luck() -> None:
    # random 4-block Ubongo locks: some first choices lead nowhere
    rng = random.Random(3)
    blocks = preset("ubongo12")
    rated = []
    for _ in range(20):
        chosen = rng.sample(blocks, 4)
        rated.append(rate(Puzzle(random_union(chosen, rng), tuple(chosen))))
    assert min(r.success for r in rated) < 1 and all(r.difficulty >= 0 for r in rated)


def test_a_state_limit_stops_a_rating_that_would_take_too_long() -> None:
    from solver.rating import RatingLimit
    box = Shape.parse("\n".join(["#" * 10] * 6))
    with pytest.raises(RatingLimit, match="more than 1000 search states"):
        rate(Puzzle(box, preset("pentominoes")), max_states=1000)


def test_the_rating_counts_what_count_counts_in_each_mode() -> None:
    two = Shape.parse("##")
    both = Puzzle(two, (piece("I2"), piece("I2")))  # mode all: both dominoes must be used
    assert tiling.count(both).status is tiling.Status.UNSOLVABLE
    rated = rate(both)
    assert rated.tilings == 0 and math.isinf(rated.difficulty)
    either = Puzzle(two, (piece("I2"), piece("I2")), mode="subset")
    assert tiling.count(either).count == rate(either).tilings == 1


@pytest.mark.parametrize("seed", range(40))
def test_the_compiled_placements_are_the_python_ones_in_the_same_order(seed: int) -> None:
    """The rating reads each cell's placements from the counter's compiled code: the same
    (mask, kind) lists, in the same order, as from ``puzzle.placements()``, for flat and
    layered regions, with and without flips, and repeated pieces."""
    from solver.rating import _covering

    rng = random.Random(seed)
    if seed % 4:
        chosen = rng.sample(preset("ubongo12"), 3 + seed % 3)
        if seed % 5 == 0:
            chosen.append(chosen[0])  # two copies of one piece
        region = random_union(chosen, rng)
    else:  # a box of layers: the Soma cube, or a 3x3x2 slab with some of its pieces
        chosen = list(preset("soma")) if seed % 8 == 0 else rng.sample(preset("soma"), 4)
        layers = 3 if seed % 8 == 0 else 2
        region = Shape(frozenset((x, y, z) for x in range(3) for y in range(3) for z in range(layers)))
    puzzle = Puzzle(region, tuple(chosen), flips=seed % 3 != 0, mode="all" if seed % 8 == 0 else "subset")
    order = sorted(region.cells)
    bit = {c: i for i, c in enumerate(order)}
    kind_of = {p.name: k for k, (p, _) in enumerate(puzzle.kinds)}
    made = _covering(puzzle, bit, kind_of)
    assert made == _covering(puzzle, bit, kind_of, compiled=False)
    assert sum(map(len, made)) == sum(len(p.cells) for p in puzzle.placements()) > 0
