"""Both tiling engines (the counter and CP-SAT) against published counts, the naive oracle,
each other and the independent verifier."""

from __future__ import annotations

from pathlib import Path

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


ENGINES = ["counter", "cp-sat"]


# -- published counts -------------------------------------------------------------------

@pytest.mark.parametrize(
    ("rows", "cols", "every", "classes"),
    [pytest.param(6, 10, 9356, 2339, marks=pytest.mark.slow), (5, 12, 4040, 1010), (4, 15, 1472, 368), (3, 20, 8, 2)],
)
def test_pentomino_rectangles_match_the_published_counts(rows: int, cols: int, every: int,
                                                          classes: int) -> None:
    # Haselgrove & Haselgrove (1960) for 6x10; C. B. and J. Haselgrove, and Golomb,
    # Polyominoes (1965), for 5x12 (1010), 4x15 (368) and 3x20 (2) up to symmetry. A
    # rectangle has 4 symmetries and no tiling of these is symmetric, so all = 4 x classes.
    puzzle = Puzzle(box(rows, cols), preset("pentominoes"))
    result = tiling.count(puzzle)
    assert (result.status, result.count, result.exhaustive) == (Status.SOLVED, every, True)
    assert result.stats.engine == "counter"
    up_to = tiling.count(puzzle, distinct=True, keep=5)
    assert (up_to.count, up_to.symmetries, up_to.exhaustive) == (classes, 4, True)
    assert all(verify_solution(puzzle, s).ok for s in up_to.solutions)


@pytest.mark.parametrize("engine", [pytest.param(e, marks=pytest.mark.slow) if e == "cp-sat" else e for e in ENGINES])
def test_pentominoes_3x20_with_each_engine(engine: str) -> None:
    puzzle = Puzzle(box(3, 20), preset("pentominoes"))
    assert tiling.count(puzzle, engine=engine).count == 8
    up_to = tiling.count(puzzle, distinct=True, keep=None, engine=engine)
    assert (up_to.count, up_to.stats.engine) == (2, engine)
    assert all(verify_solution(puzzle, s).ok for s in up_to.solutions)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("rows", "cols", "expected"),
    [(2, 10, 89), (3, 4, 11), (4, 4, 36), (3, 8, 153), (5, 6, 1183)],
)
def test_domino_tilings_match_oeis(rows: int, cols: int, expected: int, engine: str) -> None:
    # 2xn: Fibonacci; 3xn: OEIS A001835; 4x4: A004003; 5x6: Kasteleyn's formula (A187596).
    result = tiling.count(dominoes(box(rows, cols)), engine=engine)
    assert (result.count, result.exhaustive) == (expected, True)


def test_domino_tilings_of_the_8x8_board() -> None:
    # 12988816 = 2^4 x 901^2 (Fisher & Temperley, Kasteleyn 1961): 64 cells fill every bit of
    # the counter's mask.
    result = tiling.count(dominoes(box(8, 8)), keep=0)
    assert (result.count, result.exhaustive, result.stats.engine) == (12988816, True, "counter")


def test_soma_cube_has_11520_tilings_and_240_up_to_symmetry() -> None:
    # Conway & Guy: 240 essentially different solutions, 11520 in all (240 x 48). Pieces are
    # rigid (no mirror images in the hand); the cube's 24 rotations and, since the set is
    # closed under mirroring (A and B swap), its 24 reflections map solutions to solutions.
    puzzle = Puzzle(box(3, 3, 3), preset("soma"), flips=False)
    assert puzzle.mirror_names() is not None and puzzle.mirror_names()["soma_A"] == "soma_B"
    assert len(puzzle.symmetries()) == 48
    assert tiling.count(puzzle).count == 11520
    assert tiling.count(puzzle, distinct=True).count == 240


def test_a_set_not_closed_under_mirroring_keeps_rotations_only() -> None:
    one_sided = Puzzle(box(2, 4), (piece("L4"), piece("L4")), flips=False)
    assert one_sided.mirror_names() is None and len(one_sided.symmetries()) == 2
    both = Puzzle(box(2, 4), (piece("L4"), piece("J4")), flips=False)
    assert both.mirror_names() == {"L4": "J4", "J4": "L4"} and len(both.symmetries()) == 4


@pytest.mark.slow
def test_soma_cube_with_cp_sat() -> None:
    puzzle = Puzzle(box(3, 3, 3), preset("soma"), flips=False)
    assert tiling.count(puzzle, engine="cp-sat").count == 11520


# -- statuses and operations ------------------------------------------------------------

@pytest.mark.parametrize("engine", ENGINES)
def test_first_solution_of_6x10_is_a_verified_tiling(engine: str) -> None:
    puzzle = Puzzle(box(6, 10), preset("pentominoes"))
    result = tiling.solve(puzzle, engine=engine)
    assert result.status is Status.SOLVED and result.count is None
    assert result.stats.engine == engine
    assert verify_solution(puzzle, result.solution).ok
    assert sorted(result.solution.pieces_used()) == sorted(p.name for p in puzzle.pieces)


@pytest.mark.parametrize("engine", ENGINES)
def test_same_seed_gives_the_same_solution(engine: str) -> None:
    puzzle = Puzzle(box(6, 10), preset("pentominoes"))
    first = tiling.solve(puzzle, seed=7, engine=engine)
    assert first.solution == tiling.solve(puzzle, seed=7, engine=engine).solution


def test_the_checkerboard_proves_tetrominoes_cannot_fill_4x5() -> None:
    # The classic parity argument: the T tetromino covers 3 + 1 squares of a chessboard.
    result = tiling.solve(Puzzle(box(4, 5), preset("tetrominoes")))
    assert result.status is Status.UNSOLVABLE and result.stats.engine == "precheck"
    assert result.reason.startswith("checkerboard colouring: the region has 10 dark and 10 light squares")


@pytest.mark.parametrize(("engine", "proof"), [("counter", "exhaustive"), ("cp-sat", "infeasible")])
def test_search_proves_what_the_prechecks_cannot(engine: str, proof: str) -> None:
    # I4, O4, L4 and S4 in a 4x4 box: the area and the colouring fit, yet no tiling exists
    puzzle = Puzzle(box(4, 4), tuple(piece(n) for n in ("I4", "O4", "L4", "S4")))
    assert puzzle.impossibility() is None
    result = tiling.solve(puzzle, engine=engine)
    assert result.status is Status.UNSOLVABLE
    assert result.stats.engine == engine and proof in result.reason
    counted = tiling.count(puzzle, engine=engine)
    assert (counted.status, counted.count, counted.exhaustive) == (Status.UNSOLVABLE, 0, True)


def test_auto_uses_cp_sat_beyond_64_cells() -> None:
    region = box(5, 13)  # 65 cells: 13 pentominoes with two copies of I
    puzzle = Puzzle(region, (*preset("pentominoes"), piece("I")))
    result = tiling.solve(puzzle)
    assert result.status is Status.SOLVED and result.stats.engine == "cp-sat"
    assert verify_solution(puzzle, result.solution).ok
    with pytest.raises(SolverError, match="at most 64 cells"):
        tiling.solve(puzzle, engine="counter")


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
    first = tiling.solve(puzzle, time_limit=1e-6, engine="cp-sat")
    assert first.status is Status.UNKNOWN and "time limit" in first.reason
    hard = tiling.unique(puzzle, time_limit=1e-6, engine="cp-sat")
    assert hard.unique is None and hard.status is Status.UNKNOWN


def test_a_time_limit_stops_the_counter_with_a_lower_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """The counter checks its clock between slices of nodes: on a clock that moves a
    millisecond a look (whatever the machine's load), a 10 ms limit stops it after the same
    slices every run, with the tilings found so far."""
    from solver import counter

    ticks = iter(range(10**9))
    monkeypatch.setattr(counter.time, "perf_counter", lambda: next(ticks) / 1000)
    counted = tiling.count(Puzzle(box(6, 10), preset("pentominoes")), time_limit=0.01, engine="counter")
    assert counted.status is Status.SOLVED and not counted.exhaustive
    assert 0 < counted.count < 9356 and "time limit" in counted.reason


def test_a_time_limit_stops_cp_sat_with_a_lower_bound_or_unknown() -> None:
    """CP-SAT's limit is its own clock's: counting all 9356 takes minutes, so a second stops
    it. What it found is a lower bound; on a machine so busy that it found none, the answer
    is unknown, never unsolvable (no assumption about how fast the machine is)."""
    counted = tiling.count(Puzzle(box(6, 10), preset("pentominoes")), time_limit=1.0, engine="cp-sat")
    assert not counted.exhaustive and "time limit" in counted.reason
    if counted.count:
        assert counted.status is Status.SOLVED and counted.count < 9356
    else:
        assert counted.status is Status.UNKNOWN


@pytest.mark.parametrize("engine", ENGINES)
def test_limit_stops_the_count(engine: str) -> None:
    puzzle = Puzzle(box(3, 20), preset("pentominoes"))
    result = tiling.count(puzzle, limit=3, keep=None, engine=engine)
    assert (result.count, result.exhaustive, len(result.solutions)) == (3, False, 3)
    assert result.unique is False and "limit of 3" in result.reason
    classes = tiling.count(puzzle, limit=1, distinct=True, engine=engine)
    assert (classes.count, classes.exhaustive) == (1, False)


@pytest.mark.parametrize("engine", ENGINES)
def test_unique(engine: str) -> None:
    plus = Shape.parse(".#.\n###\n.#.")
    assert tiling.unique(Puzzle(plus, (piece("X"),)), engine=engine).unique is True
    result = tiling.unique(Puzzle(box(2, 3), (piece("I3"), piece("I3"))), engine=engine)
    assert result.unique is True and result.count == 1
    assert tiling.unique(dominoes(box(2, 2)), engine=engine).unique is False
    none = tiling.unique(Puzzle(box(2, 3), (piece("I3"), piece("L3"))), engine=engine)
    assert none.unique is False and none.status is Status.UNSOLVABLE


@pytest.mark.parametrize("engine", ENGINES)
def test_enumeration_returns_every_tiling_once(engine: str) -> None:
    puzzle = dominoes(box(3, 4))
    result = tiling.enumerate_solutions(puzzle, engine=engine)
    assert len(result.solutions) == result.count == 11
    assert len(set(result.solutions)) == 11
    assert all(verify_solution(puzzle, s).ok for s in result.solutions)


def test_enumeration_keeps_more_tilings_than_one_buffer_holds() -> None:
    result = tiling.enumerate_solutions(dominoes(box(5, 6)))  # 1183 tilings
    assert result.count == len(set(result.solutions)) == 1183
    few = tiling.enumerate_solutions(dominoes(box(3, 10)), limit=500)  # 571 in all
    assert few.count == len(few.solutions) == 500 and not few.exhaustive


@pytest.mark.parametrize("engine", ENGINES)
def test_flat_pieces_turn_in_a_3d_region(engine: str) -> None:
    # A square and two L tetrominoes fill a 2x2x3 box only when they leave the bottom layer.
    puzzle = Puzzle(box(2, 2, 3), (piece("O4"), piece("L4"), piece("L4")), flips=True)
    result = tiling.enumerate_solutions(puzzle, engine=engine)
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
    with pytest.raises(SolverError, match="engine must be one of auto, counter, cp-sat"):
        tiling.solve(puzzle, engine="dlx")


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
def pieces_for(draw: st.DrawFn, region: Shape) -> Puzzle:
    """Random pieces for ``region``: exactly its area (mode all) or up to 4 cells more
    (subset); no monominoes in regions of 12 cells or more, which would explode the count."""
    mode = draw(st.sampled_from([Mode.ALL, Mode.SUBSET]))
    flips = draw(st.booleans())
    pieces: list[Piece] = []
    area = 0
    target = region.size if mode is Mode.ALL else region.size + draw(st.integers(0, 4))
    smallest = 1 if region.size < 12 else 2
    while area < target:
        room = target - area
        size = draw(st.integers(min(smallest, room), min(5, room)))
        pieces.append(draw(st.sampled_from(BY_SIZE[size])))
        area += size
    return Puzzle(region, tuple(pieces), flips=flips, mode=mode)


@st.composite
def small_puzzles(draw: st.DrawFn) -> Puzzle:
    """Regions of up to 10 cells (8 in 3D), small enough for the naive oracle."""
    dim = draw(st.sampled_from([2, 2, 2, 3]))
    return draw(pieces_for(draw(polyominoes(dim=dim, max_size=10 if dim == 2 else 8))))


@st.composite
def ubongo_size_puzzles(draw: st.DrawFn) -> Puzzle:
    """Regions of 12-24 cells (16 in 3D): Ubongo-size and beyond the oracle's reach."""
    dim = draw(st.sampled_from([2, 2, 2, 3]))
    return draw(pieces_for(draw(polyominoes(dim=dim, max_size=24 if dim == 2 else 16, min_size=12))))


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=300, deadline=None)
@given(puzzle=small_puzzles())
def test_each_engine_agrees_with_the_naive_oracle(engine: str, puzzle: Puzzle) -> None:
    expected = oracle.tilings(puzzle.region, list(puzzle.pieces), puzzle.flips, puzzle.mode is Mode.SUBSET)
    result = tiling.enumerate_solutions(puzzle, engine=engine)
    assert result.exhaustive
    assert result.count == len(expected)
    assert result.status is (Status.SOLVED if expected else Status.UNSOLVABLE)
    got = {frozenset((p.piece, frozenset(p.cells)) for p in s.placements) for s in result.solutions}
    assert got == set(expected)
    for s in result.solutions:
        assert verify_solution(puzzle, s).ok


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=100, deadline=None)
@given(puzzle=small_puzzles())
def test_distinct_counts_agree_with_the_naive_oracle(engine: str, puzzle: Puzzle) -> None:
    expected = oracle.tilings(puzzle.region, list(puzzle.pieces), puzzle.flips, puzzle.mode is Mode.SUBSET)
    result = tiling.count(puzzle, distinct=True, engine=engine)
    assert result.count == oracle.distinct(puzzle.region, expected, puzzle.flips, list(puzzle.pieces))


@pytest.mark.slow  # the small regions agree in the default run
@settings(max_examples=200, deadline=None)
@given(ubongo_size_puzzles())
def test_counter_and_cp_sat_agree_on_larger_regions(puzzle: Puzzle) -> None:
    fast = tiling.count(puzzle, limit=2000, keep=None, engine="counter")
    model = tiling.count(puzzle, limit=2000, keep=None, engine="cp-sat")
    assert (fast.status, fast.count, fast.exhaustive) == (model.status, model.count, model.exhaustive)
    if fast.exhaustive:
        assert set(fast.solutions) == set(model.solutions)
        assert tiling.count(puzzle, distinct=True, engine="counter").count == \
            tiling.count(puzzle, distinct=True, engine="cp-sat").count
    for s in fast.solutions[:20]:
        assert verify_solution(puzzle, s).ok


def test_ctrl_c_after_a_cp_sat_solve_still_raises_keyboard_interrupt() -> None:
    """OR-Tools leaves the default SIGINT action behind after a solve (the process would die
    past every clean-up); the engine puts Python's handler back. Checked in a fresh
    interpreter that first takes Ctrl-C as Python does by default: one started in the
    background (``cmd &`` without job control) inherits an ignored SIGINT, and then
    keeping it ignored is right."""
    import subprocess
    import sys

    script = """
import os, signal, time
signal.signal(signal.SIGINT, signal.default_int_handler)
from solver import tiling
from solver.puzzle import Puzzle
from tests.solver.test_tiling import box, piece
tiling.solve(Puzzle(box(2, 4), (piece("I2"),) * 4), engine="cp-sat")
try:
    os.kill(os.getpid(), signal.SIGINT)
    for _ in range(40):
        time.sleep(0.05)
except KeyboardInterrupt:
    raise SystemExit(0)
raise SystemExit(3)
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).parents[2])
    assert run.returncode == 0, (run.returncode, run.stderr[-2000:])
