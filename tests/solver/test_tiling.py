"""CP-SAT tiling against published counts, the naive oracle and the independent verifier."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import tiling
from solver.pieces import Piece, piece, preset
from solver.puzzle import Mode, Puzzle
from solver.shapes import Shape
from solver.tiling import SolverError, Status
from solver.verify import verify_solution
from tests import oracle
from tests.strategies import polyominoes


def box(rows: int, cols: int, layers: int = 1) -> Shape:
    if layers == 1:
        return Shape(frozenset((r, c) for r in range(rows) for c in range(cols)))
    return Shape(frozenset((r, c, z) for r in range(rows) for c in range(cols) for z in range(layers)))


def dominoes(region: Shape) -> Puzzle:
    return Puzzle(region, (piece("I2"),) * (region.size // 2))


# -- published counts -------------------------------------------------------------------

def test_pentominoes_3x20_has_8_tilings_2_up_to_symmetry() -> None:
    # Golomb, Polyominoes (1965): the 3x20 box has exactly two solutions up to symmetry.
    puzzle = Puzzle(box(3, 20), preset("pentominoes"))
    every = tiling.count(puzzle)
    assert (every.status, every.count, every.exhaustive) == (Status.SOLVED, 8, True)
    up_to = tiling.count(puzzle, distinct=True, keep=None)
    assert (up_to.count, up_to.symmetries, up_to.exhaustive) == (2, 4, True)
    assert all(verify_solution(puzzle, s).ok for s in up_to.solutions)


@pytest.mark.parametrize(
    ("rows", "cols", "expected"),
    [(2, 10, 89), (3, 4, 11), (4, 4, 36), (3, 8, 153), (5, 6, 1183)],
)
def test_domino_tilings_match_oeis(rows: int, cols: int, expected: int) -> None:
    # 2xn: Fibonacci; 3xn: OEIS A001835; 4x4: A004003; 5x6: Kasteleyn's formula (A187596).
    result = tiling.count(dominoes(box(rows, cols)))
    assert (result.count, result.exhaustive) == (expected, True)


@pytest.mark.slow
def test_soma_cube_has_11520_tilings() -> None:
    # Conway & Guy: 240 essentially different solutions, 11520 in all (240 x 48). Pieces are
    # rigid (no mirror images), so the 24 rotations of the cube leave 11520 / 24 = 480 classes
    # (the 240 also identifies each solution with its mirror image, which swaps A and B).
    puzzle = Puzzle(box(3, 3, 3), preset("soma"), flips=False)
    assert tiling.count(puzzle).count == 11520
    assert tiling.count(puzzle, distinct=True).count == 480


# -- statuses and operations ------------------------------------------------------------

def test_first_solution_of_6x10_is_a_verified_tiling() -> None:
    puzzle = Puzzle(box(6, 10), preset("pentominoes"))
    result = tiling.solve(puzzle)
    assert result.status is Status.SOLVED and result.count is None
    assert verify_solution(puzzle, result.solution).ok
    assert sorted(result.solution.pieces_used()) == sorted(p.name for p in puzzle.pieces)


def test_same_seed_gives_the_same_solution() -> None:
    puzzle = Puzzle(box(6, 10), preset("pentominoes"))
    assert tiling.solve(puzzle, seed=7).solution == tiling.solve(puzzle, seed=7).solution


def test_search_proves_tetrominoes_cannot_fill_4x5() -> None:
    # The classic parity argument: the T tetromino covers 3 + 1 squares of a chessboard.
    result = tiling.solve(Puzzle(box(4, 5), preset("tetrominoes")))
    assert result.status is Status.UNSOLVABLE
    assert result.stats.engine == "cp-sat" and "infeasible" in result.reason


def test_area_mismatch_is_answered_without_search() -> None:
    result = tiling.count(Puzzle(box(6, 10), preset("pentominoes")[:-1]))
    assert result.status is Status.UNSOLVABLE and result.count == 0 and result.exhaustive
    assert result.stats.engine == "precheck"
    assert "55 cells but the region has 60" in result.reason


def test_a_cell_no_piece_reaches_is_reported() -> None:
    region = Shape.parse("""
        ###.
        ...#
        ###.
    """)  # (1, 3) is cut off from everything: 7 cells, pieces I3 I2 I2 = 7
    result = tiling.solve(Puzzle(region, (piece("I3"), piece("I2"), piece("I2"))))
    assert result.status is Status.UNSOLVABLE and "[1, 3]" in result.reason


def test_a_time_limit_gives_unknown_never_unsolvable() -> None:
    puzzle = Puzzle(box(6, 10), preset("pentominoes"))
    first = tiling.solve(puzzle, time_limit=1e-6)
    assert first.status is Status.UNKNOWN and "time limit" in first.reason
    counted = tiling.count(puzzle, time_limit=0.5)
    assert counted.status is Status.SOLVED and not counted.exhaustive
    assert 0 < counted.count < 9356


def test_limit_stops_the_count() -> None:
    result = tiling.count(Puzzle(box(3, 20), preset("pentominoes")), limit=3, keep=None)
    assert (result.count, result.exhaustive, len(result.solutions)) == (3, False, 3)
    assert result.unique is False


def test_unique() -> None:
    plus = Shape.parse(".#.\n###\n.#.")
    assert tiling.unique(Puzzle(plus, (piece("X"),))).unique is True
    result = tiling.unique(Puzzle(box(2, 3), (piece("I3"), piece("I3"))))
    assert result.unique is True and result.count == 1
    assert tiling.unique(dominoes(box(2, 2))).unique is False
    assert tiling.unique(Puzzle(box(2, 3), (piece("I3"), piece("L3")))).unique is False  # none
    hard = tiling.unique(Puzzle(box(6, 10), preset("pentominoes")), time_limit=1e-6)
    assert hard.unique is None and hard.status is Status.UNKNOWN


def test_enumeration_returns_every_tiling_once() -> None:
    puzzle = dominoes(box(3, 4))
    result = tiling.enumerate_solutions(puzzle)
    assert len(result.solutions) == result.count == 11
    assert len(set(result.solutions)) == 11
    assert all(verify_solution(puzzle, s).ok for s in result.solutions)


def test_flat_pieces_turn_in_a_3d_region() -> None:
    # A square and two L tetrominoes fill a 2x2x3 box only when they leave the bottom layer.
    puzzle = Puzzle(box(2, 2, 3), (piece("O4"), piece("L4"), piece("L4")), flips=True)
    result = tiling.enumerate_solutions(puzzle)
    assert result.status is Status.SOLVED
    assert all(verify_solution(puzzle, s).ok for s in result.solutions)
    assert any(len({c[2] for p in s.placements for c in p.cells if p.piece == "O4"}) == 2
               for s in result.solutions)  # some solution stands the square on its edge


def test_bad_parameters_raise() -> None:
    puzzle = dominoes(box(2, 2))
    with pytest.raises(SolverError):
        tiling.count(puzzle, limit=0)
    with pytest.raises(SolverError):
        tiling.solve(puzzle, time_limit=-1)
    with pytest.raises(SolverError):
        tiling.solve(puzzle, workers=0)


# -- against the naive oracle -----------------------------------------------------------

MONOMINO = Piece("M", Shape.parse("#"))
BY_SIZE = {
    1: [MONOMINO],
    2: [piece("I2")],
    3: [piece("I3"), piece("L3")],
    4: [piece(n) for n in ("I4", "O4", "T4", "S4", "L4", "J4", "Z4")],
    5: [piece(n) for n in ("P", "L", "Y", "N", "U", "F")],
}


@st.composite
def small_puzzles(draw: st.DrawFn) -> Puzzle:
    dim = draw(st.sampled_from([2, 2, 2, 3]))
    region = draw(polyominoes(dim=dim, max_size=10 if dim == 2 else 8))
    mode = draw(st.sampled_from([Mode.ALL, Mode.SUBSET]))
    flips = draw(st.booleans())
    pieces: list[Piece] = []
    area = 0
    target = region.size if mode is Mode.ALL else region.size + draw(st.integers(0, 4))
    while area < target:
        size = draw(st.integers(1, min(5, target - area)))
        pieces.append(draw(st.sampled_from(BY_SIZE[size])))
        area += size
    return Puzzle(region, tuple(pieces), flips=flips, mode=mode)


@settings(max_examples=300, deadline=None)
@given(small_puzzles())
def test_cp_sat_agrees_with_the_naive_oracle(puzzle: Puzzle) -> None:
    expected = oracle.tilings(puzzle.region, list(puzzle.pieces), puzzle.flips, puzzle.mode is Mode.SUBSET)
    result = tiling.enumerate_solutions(puzzle)
    assert result.exhaustive
    assert result.count == len(expected)
    assert result.status is (Status.SOLVED if expected else Status.UNSOLVABLE)
    got = {frozenset((p.piece, frozenset(p.cells)) for p in s.placements) for s in result.solutions}
    assert got == set(expected)
    for s in result.solutions:
        assert verify_solution(puzzle, s).ok


@settings(max_examples=100, deadline=None)
@given(small_puzzles())
def test_distinct_counts_agree_with_the_naive_oracle(puzzle: Puzzle) -> None:
    expected = oracle.tilings(puzzle.region, list(puzzle.pieces), puzzle.flips, puzzle.mode is Mode.SUBSET)
    result = tiling.count(puzzle, distinct=True)
    assert result.count == oracle.distinct(puzzle.region, expected, puzzle.flips)
