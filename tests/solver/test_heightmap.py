"""Builds on a board: placements under the support rule, ordered builds and their replay
(``solver.heightmap``), and the expected turns to a target (``solver.turns``), each against a
plain search that does not share the solver's code."""

from __future__ import annotations

import itertools
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.heightmap import CONTAIN, Board, Kind, Step, Target, apply, build, legal, placements, replay
from solver.pieces import piece
from solver.shapes import Shape
from solver.turns import TooManyStates, expected_turns, simulate_turns, state_count


def kind(name: str, colour: str = "", count: int | None = None) -> Kind:
    return Kind(name, piece(name).shape, colour, count)


def test_a_placement_needs_every_column_at_its_base() -> None:
    board = Board(3, 1, 3)
    moves = placements([kind("L3")], board)
    assert moves and all(len({c for c, _, _ in p.base}) == len(p.base) for p in moves)
    for p in moves:
        heights = tuple(0 for _ in range(board.columns))
        assert legal(p, heights) == all(b == 0 for _, b, _ in p.base)
    # an L standing in the x-z plane with its foot up hangs: legal only once the column under it is filled
    hanging = [p for p in moves if {z for _, _, z in p.cubes} == {0, 1}
               and any(b == 1 for _, b, _ in p.base)]
    assert hanging
    for p in hanging:
        assert not legal(p, (0, 0, 0))
        ready = [0, 0, 0]
        for c, b, _ in p.base:
            ready[c] = b
        assert legal(p, ready) and sum(apply(p, ready)) == sum(ready) + 3


def test_a_piece_with_a_gap_in_a_column_is_never_placed() -> None:
    u = Kind("U", Shape(frozenset({(0, 0, 0), (0, 0, 2), (1, 0, 0), (1, 0, 1), (1, 0, 2)})), "")
    standing = [p for p in placements([u], Board(2, 1, 3)) if max(z for _, _, z in p.cubes) == 2]
    # the U lying flat fits a 2x1 footprint only on its side, where one column would have a gap
    assert all(len({(x, y) for x, y, _ in p.cubes}) == 2 for p in standing)
    for p in standing:
        for x in range(2):
            zs = sorted(z for cx, _, z in p.cubes if cx == x)
            assert zs == list(range(zs[0], zs[0] + len(zs)))


PINWHEEL = (  # four standing S pieces around a standing domino: a 3x3x2 block no order builds
    ("S4", ((0, 0, 0), (1, 0, 0), (1, 0, 1), (2, 0, 1))),
    ("S4", ((2, 0, 0), (2, 1, 0), (2, 1, 1), (2, 2, 1))),
    ("S4", ((2, 2, 0), (1, 2, 0), (1, 2, 1), (0, 2, 1))),
    ("S4", ((0, 2, 0), (0, 1, 0), (0, 1, 1), (0, 0, 1))),
    ("I2", ((1, 1, 0), (1, 1, 1))),
)


def test_a_tiling_is_not_a_build_the_pinwheel() -> None:
    board, target = Board(3, 3, 2), Target((2,) * 9)
    kinds = [kind("S4", count=4), kind("I2", count=1)]
    cells = [c for _, cubes in PINWHEEL for c in cubes]
    assert len(set(cells)) == 18, "the pinwheel tiles the block"
    for order in itertools.permutations(PINWHEEL):
        problems = replay([Step(name, "", cubes) for name, cubes in order], kinds, board, target)
        assert any("hangs over an empty space" in p for p in problems)
    found = build(kinds, board, target)  # the same pieces laid another way do build it
    assert found.buildable and replay(found.steps or (), kinds, board, target) == []


def _plain_buildable(kinds: list[Kind], board: Board, target: Target) -> bool:
    """Breadth-first over (cubes filled, pieces left), trying every rotation at every offset
    and checking support cube by cube."""
    limits = target.limits(board)
    shapes = [[o for o in k.solid.orientations(flips=False)] for k in kinds]

    @cache
    def reach(filled: frozenset[tuple[int, int, int]], left: tuple[int, ...]) -> bool:
        heights = [0] * board.columns
        for x, y, z in filled:
            heights[board.column(x, y)] = max(heights[board.column(x, y)], z + 1)
        if target.reached(heights):
            return True
        for k, forms in enumerate(shapes):
            if left[k] == 0:
                continue
            for form in forms:
                for dx in range(board.width):
                    for dy in range(board.depth):
                        for dz in range(board.height):
                            cubes = {(x + dx, y + dy, z + dz) for x, y, z in form.cells}
                            if any(not (0 <= x < board.width and 0 <= y < board.depth) or z >= limits[
                                    board.column(x, y)] or (x, y, z) in filled for x, y, z in cubes):
                                continue
                            if any(z > 0 and (x, y, z - 1) not in filled | cubes for x, y, z in cubes):
                                continue
                            after = filled | cubes
                            if any(z > 0 and (x, y, z - 1) not in after for x, y, z in after):
                                continue
                            if reach(frozenset(after), left[:k] + (left[k] - 1,) + left[k + 1:]):
                                return True
        return False

    return reach(frozenset(), tuple(k.count or 0 for k in kinds))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=4, max_size=4),
       st.lists(st.sampled_from(["I2", "I3", "L3", "O4", "T4", "S4", "L4"]), min_size=1, max_size=4, unique=True),
       st.lists(st.integers(0, 3), min_size=4, max_size=4))
def test_build_agrees_with_a_plain_search(heights: list[int], names: list[str], counts: list[int]) -> None:
    board, target = Board(2, 2, 2), Target(tuple(heights))
    kinds = [kind(n, count=c) for n, c in zip(names, counts)]
    found = build(kinds, board, target)
    assert found.buildable == _plain_buildable(kinds, board, target)
    if found.buildable:
        assert replay(found.steps or (), kinds, board, target) == []


def test_singles_fill_what_the_pieces_cannot_the_fewest_first() -> None:
    board, target = Board(3, 1, 1), Target((1, 1, 1))
    kinds = [kind("I2", "red", 1)]
    assert not build(kinds, board, target).buildable
    found = build(kinds, board, target, singles=("red",), max_singles=2)
    assert found.buildable and found.singles == 1
    assert replay(found.steps or (), kinds, board, target, singles=("red",)) == []


def test_replay_names_each_fault() -> None:
    board, target = Board(2, 2, 2), Target((1, 1, 1, 1))
    kinds = [kind("O4", "red", 1), kind("I2", "blue", 1)]
    assert replay([Step("O4", "red", ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)))], kinds, board, target) == []
    cases = [
        ([Step("O4", "green", ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)))], "no such piece"),
        ([Step("O4", "red", ((0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)))], "not a O4"),
        ([Step("I2", "blue", ((0, 0, 1), (1, 0, 1)))], "hangs over an empty space"),
        ([Step("I2", "blue", ((0, 0, 0), (1, 0, 0))), Step("I2", "blue", ((0, 1, 0), (1, 1, 0)))], "only 1 of I2"),
        ([Step("O4", "red", ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0))),
          Step("I2", "blue", ((0, 0, 1), (0, 0, 2)))], "outside the 2x2x2"),
        ([Step("I2", "blue", ((0, 0, 0), (1, 0, 0)))], "do not match the target"),
    ]
    for steps, words in cases:
        assert any(words in p for p in replay(steps, kinds, board, target)), words
    coloured = Target((1, 1, 1, 1), (((0, 0, 0), "blue"),))
    problems = replay([Step("O4", "red", ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)))], kinds, board, coloured)
    assert any("the target wants blue" in p for p in problems)


def _plain_turns(kinds: list[Kind], board: Board, target: Target, offer: int) -> float:
    """The same expectation by enumerating every offer (a tuple of ``offer`` kinds) with its
    probability, on a tiny board."""
    moves = placements(kinds, board, target)
    singles = placements([Kind("single", Shape(frozenset({(0, 0, 0)})), c) for c in sorted({k.colour for k in kinds})],
                         board, target)
    colours = sorted({k.colour for k in kinds})
    total = sum(k.count or 1 for k in kinds)
    probs = [(k.count or 1) / total for k in kinds]

    @cache
    def e(h: tuple[int, ...]) -> float:
        if target.reached(h):
            return 0.0
        best = []
        for i, k in enumerate(kinds):
            v = min((e(apply(p, h)) for p in moves if p.kind == i and legal(p, h)), default=float("inf"))
            s = min((e(apply(p, h)) for p in singles if colours[p.kind] == k.colour and legal(p, h)),
                    default=float("inf"))
            best.append(min(v, s))
        expect, stuck = 0.0, 0.0
        for draw in itertools.product(range(len(kinds)), repeat=offer):
            p = 1.0
            for i in draw:
                p *= probs[i]
            v = min(best[i] for i in draw)
            if v == float("inf"):
                stuck += p
            else:
                expect += p * v
        return (1 + expect) / (1 - stuck)

    return e((0,) * board.columns)


@pytest.mark.parametrize("heights, rule, offer", [
    ((1, 1, 1, 1, 1, 1), "equal", 2), ((2, 1, 0, 1, 2, 1), "equal", 3), ((1, None, 2, 1, 1, 2), "equal", 2),
    ((2, 2, 0, 0, 1, 1), CONTAIN, 2),
])
def test_expected_turns_match_every_offer_enumerated(heights: tuple[int | None, ...], rule: str, offer: int) -> None:
    board = Board(3, 2, 2)
    target = Target(heights, (), rule)
    kinds = [kind("I2", "red", 3), kind("L3", "blue", 2), kind("O4", "red", 1)]
    assert expected_turns(kinds, board, target, offer=offer) == pytest.approx(
        _plain_turns(kinds, board, target, offer), rel=1e-9)


def test_more_choice_and_less_to_build_take_fewer_turns() -> None:
    board = Board(4, 4, 3)
    kinds = [kind("I2", "red", 8), kind("L3", "blue", 6), kind("I4", "green", 4), kind("O4", "yellow", 4),
             kind("T4", "red", 4), kind("S4", "purple", 4)]
    level = Target((1,) * 16)
    wall = Target((3, 3, 3, 3) + (1,) * 12)
    one, four = (expected_turns(kinds, board, level, offer=n) for n in (1, 4))
    assert 16 / 4 <= four < one
    assert expected_turns(kinds, board, wall) > four
    with pytest.raises(TooManyStates):
        expected_turns(kinds, board, Target((3,) * 16))
    assert state_count(Target((3,) * 16), board) == 4 ** 16


def test_simulated_games_are_seeded_and_never_beat_the_optimal_player() -> None:
    board = Board(4, 4, 3)
    kinds = [kind("I2", "red", 8), kind("L3", "blue", 6), kind("I4", "green", 4), kind("O4", "yellow", 4),
             kind("T4", "red", 4), kind("S4", "purple", 4)]
    for target in (Target((1,) * 16), Target((3, 3, 3, 3) + (1,) * 12)):
        exact = expected_turns(kinds, board, target)
        played = simulate_turns(kinds, board, target, runs=600, seed=3)
        assert played == simulate_turns(kinds, board, target, runs=600, seed=3)
        assert played != simulate_turns(kinds, board, target, runs=600, seed=4)
        assert exact - 3 * played.error <= played.mean <= exact * 1.3
        assert 0 < played.error < 0.1
