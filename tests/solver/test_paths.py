"""Runs paid along a grid's lines: paths against a plain enumeration, costs and swaps against
brute force, the exact expectation against closed forms, and the measure's monotony in the
grid's lines."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from solver.grids import Grid
from solver.paths import (
    COLOURLESS,
    EMPTY,
    actions,
    from_empty,
    longest,
    measure,
    min_swaps,
    paths,
    paying,
    paying_paths,
)

SUPPLY = [24, 8, 8, 8, 6, 6]  # colourless, red, yellow, blue, green, purple
R, Y, B, G, P = 1, 2, 3, 4, 5


def random_grid(rng: random.Random, n: int, extra: int) -> Grid:
    lines = {(i, i + 1) for i in range(n - 1)}  # a spanning line, then random extra lines
    while len(lines) < n - 1 + extra:
        a, b = sorted(rng.sample(range(n), 2))
        lines.add((a, b))
    return Grid(tuple((float(i), 0.0) for i in range(n)), tuple(sorted(lines)))


def plain_paths(grid: Grid, k: int) -> set[tuple[int, ...]]:
    adj = {(a, b) for a, b in grid.lines} | {(b, a) for a, b in grid.lines}
    return {p for p in itertools.permutations(range(grid.slots), k)
            if all((p[i], p[i + 1]) in adj for i in range(k - 1))}


@pytest.mark.parametrize("seed", range(6))
def test_paths_are_every_simple_path_in_both_directions(seed: int) -> None:
    rng = random.Random(seed)
    grid = random_grid(rng, 7, rng.randint(0, 6))
    for k in range(1, 6):
        found = [tuple(int(v) for v in row) for row in paths(grid, k)]
        assert len(found) == len(set(found)) and set(found) == plain_paths(grid, k)
    assert longest(grid) == max(k for k in range(1, 8) if plain_paths(grid, k))


def test_a_coloured_crystal_stands_in_for_a_colourless_one() -> None:
    line = Grid(((0, 0), (1, 0), (2, 0)), ((0, 1), (1, 2)))
    ps = paths(line, 3)
    assert paying([R, Y, B], ps, [R, COLOURLESS, B]) >= 0
    assert paying([R, Y, B], ps, [B, COLOURLESS, R]) >= 0  # read the other way along the line
    assert paying([R, EMPTY, B], ps, [R, COLOURLESS, B]) == -1  # an empty slot pays nothing
    assert paying([R, COLOURLESS, B], ps, [R, Y, B]) == -1  # colourless does not stand in for yellow
    assert paying([R, B, Y], ps, [R, Y, B]) == -1  # no line from red to yellow through blue in order


@pytest.mark.parametrize("seed", range(10))
def test_every_paying_path_is_found(seed: int) -> None:
    rng = random.Random(50 + seed)
    grid = random_grid(rng, 6, rng.randint(0, 5))
    state = [rng.choice([EMPTY, 0, R, Y, Y]) for _ in range(6)]
    run = [rng.choice([0, R, Y]) for _ in range(rng.randint(1, 3))]
    ps = paths(grid, len(run))
    found = {tuple(int(v) for v in ps[i]) for i in paying_paths(state, ps, run)}
    plain = {p for p in plain_paths(grid, len(run))
             if all(state[s] >= 0 and (want == 0 or state[s] == want) for s, want in zip(p, run))}
    assert found == plain
    assert (paying(state, ps, run) >= 0) == bool(found)


def brute_actions(state: list[int], grid: Grid, run: list[int]) -> float:
    """Every way of giving each crystal out of place a distinct source slot or a draw."""
    draw = [1.0] + [sum(SUPPLY) / n for n in SUPPLY[1:]]
    best = float("inf")
    for p in plain_paths(grid, len(run)):
        fits = [state[s] >= 0 and (want == 0 or state[s] == want) for s, want in zip(p, run)]
        wrong = [j for j, ok in enumerate(fits) if not ok]
        sources = [s for s in range(grid.slots) if state[s] >= 0 and not (s in p and fits[p.index(s)])]
        for choice in itertools.product([None, *sources], repeat=len(wrong)):
            used = [c for c in choice if c is not None]
            if len(used) != len(set(used)):
                continue
            cost = 0.0
            for j, c in zip(wrong, choice):
                want = run[j]
                if c is None:
                    cost += draw[want]
                elif want == 0 or state[c] == want:
                    cost += 1
                else:
                    cost = float("inf")
            best = min(best, cost)
    return best


@pytest.mark.parametrize("seed", range(25))
def test_the_cost_of_a_state_is_the_least_over_every_way_to_fill_the_run(seed: int) -> None:
    rng = random.Random(seed)
    grid = random_grid(rng, 6, rng.randint(1, 5))
    state = [rng.choice([EMPTY, 0, 0, R, Y, B]) for _ in range(6)]
    run = [rng.choice([0, R, Y, B]) for _ in range(rng.randint(2, 4))]
    assert actions(state, paths(grid, len(run)), run, SUPPLY) == pytest.approx(brute_actions(state, grid, run))


def brute_swaps(state: list[int], grid: Grid, run: list[int], limit: int = 4) -> int | None:
    ps = paths(grid, len(run))
    frontier = {tuple(state)}
    seen = set(frontier)
    for depth in range(limit + 1):
        if any(paying(list(s), ps, run) >= 0 for s in frontier):
            return depth
        nxt = set()
        for s in frontier:
            for a, b in itertools.combinations(range(len(s)), 2):
                t = list(s)
                t[a], t[b] = t[b], t[a]
                if tuple(t) not in seen:
                    seen.add(tuple(t))
                    nxt.add(tuple(t))
        frontier = nxt
    return None


@pytest.mark.parametrize("seed", range(25))
def test_the_least_swaps_match_a_breadth_first_search_over_every_swap(seed: int) -> None:
    rng = random.Random(100 + seed)
    grid = random_grid(rng, 6, rng.randint(0, 4))
    state = [rng.choice([EMPTY, 0, R, Y, B]) for _ in range(6)]
    run = [rng.choice([0, R, Y, B]) for _ in range(rng.randint(2, 4))]
    want = brute_swaps(state, grid, run)
    got = min_swaps(state, paths(grid, len(run)), run, limit=4)
    assert got == want, (state, run, grid.lines)


def test_the_expectation_from_an_empty_grid_matches_closed_forms() -> None:
    assert from_empty([[COLOURLESS]], SUPPLY) == pytest.approx(1.0)
    assert from_empty([[R]], SUPPLY) == pytest.approx(60 / 8)
    assert from_empty([[R, R]], SUPPLY) == pytest.approx(2 * 60 / 8)
    assert from_empty([[R], [Y]], SUPPLY) == pytest.approx(60 / 16)  # whichever comes first
    # red then any: the red is 7.5 draws; the colourless spot is filled by the first other crystal
    # (or by the first red, when the red came first the spot waits for any crystal)
    red_any = from_empty([[R, COLOURLESS]], SUPPLY)
    assert 60 / 8 < red_any < 60 / 8 + 1.5


def test_more_lines_never_cost_more_on_the_same_grids() -> None:
    rng = random.Random(4)
    sparse = random_grid(rng, 12, 3)
    dense = Grid(sparse.positions, tuple(sorted(set(sparse.lines) | {(0, 5), (2, 9), (3, 7), (6, 11), (1, 10)})))
    runs = [[Y, Y, B], [R, 0, 0, B, Y]]
    a = measure(sparse, runs, SUPPLY, games=400, seed=9)
    b = measure(dense, runs, SUPPLY, games=400, seed=9)
    assert b.mean <= a.mean and b.paid >= a.paid and a.runs == 400
    assert measure(sparse, runs, SUPPLY, games=400, seed=9) == a  # seeded: the same figures
    with pytest.raises(ValueError, match="no path has its length"):
        measure(Grid(((0, 0), (1, 0)), ((0, 1),)), [[R, Y, B]], SUPPLY)
    assert np.isinf(actions([R, Y], paths(Grid(((0, 0), (1, 0)), ((0, 1),)), 3), [R, Y, B], SUPPLY))
