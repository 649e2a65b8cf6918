"""The compiled counter's structure: cell order, buckets, slices that pause and resume."""

from __future__ import annotations

import numpy as np
import pytest

from solver import counter
from solver.pieces import piece, preset
from solver.puzzle import Puzzle
from solver.shapes import Shape


def box(rows: int, cols: int) -> Shape:
    return Shape(frozenset((r, c) for r in range(rows) for c in range(cols)))


def test_cells_run_along_the_short_side_first() -> None:
    wide = counter.cell_order(Puzzle(box(2, 3), (piece("I3"), piece("I3"))))
    assert wide == [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)]
    tall = counter.cell_order(Puzzle(box(3, 2), (piece("I3"), piece("I3"))))
    assert tall == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]


def test_placements_are_bucketed_by_lowest_cell_and_grouped_by_piece() -> None:
    puzzle = Puzzle(box(6, 10), preset("pentominoes"))
    board = counter.Board.of(puzzle)
    assert len(board.masks) == len(puzzle.placements()) == 2056
    assert sorted(board.order.tolist()) == list(range(2056))
    for c in range(60):
        lo, hi = board.start[c], board.start[c + 1]
        for k in range(lo, hi):
            mask = int(board.masks[k])
            assert mask & -mask == 1 << c  # lowest cell is c
        assert list(board.kinds[lo:hi]) == sorted(board.kinds[lo:hi])  # grouped by piece
    assert int(board.full) == (1 << 60) - 1


def test_each_list_holds_the_buckets_placements_that_miss_its_occupied_cells_in_order() -> None:
    board = counter.Board.of(Puzzle(box(6, 10), preset("pentominoes")))
    listed, _, kind_start, present, bits = counter.probed(board)
    assert bits == counter.PROBE_BITS  # 2,056 placements: the most bits
    kinds = len(board.copies)
    for c in (0, 7, 31, 59):
        bucket = range(board.start[c], board.start[c + 1])
        for b in (0, 1, 0b101, (1 << bits) - 1):
            blocked = (b << (c + 1)) & int(board.full)
            here = (c << bits) | b
            runs = [listed[kind_start[here, k]:kind_start[here, k + 1]].tolist() for k in range(kinds)]
            assert [i for run in runs for i in run] == [i for i in bucket if not int(board.masks[i]) & blocked]
            assert all(board.kinds[i] == k for k, run in enumerate(runs) for i in run)
            assert int(present[here]) == sum(1 << k for k, run in enumerate(runs) if run)
    small = counter.Board.of(Puzzle(box(2, 3), (piece("I3"), piece("I3"))))
    assert counter.probed(small)[4] == 0  # a few placements: one list a cell


def test_the_symmetry_action_is_carried_into_the_search_order() -> None:
    puzzle = Puzzle(box(3, 4), (piece("I2"),) * 6)
    board = counter.Board.of(puzzle, distinct=True)
    assert board.action.shape == (4, len(puzzle.placements()))
    assert board.action[0].tolist() == list(range(len(puzzle.placements())))
    masks = [int(m) for m in board.masks]
    for perm in board.action[1:]:  # a symmetry maps placements onto placements one to one
        assert sorted(perm.tolist()) == list(range(len(masks)))
        assert any(perm[k] != k for k in range(len(masks)))


@pytest.mark.parametrize("distinct", [False, True])
def test_pausing_and_resuming_changes_nothing(monkeypatch: pytest.MonkeyPatch, distinct: bool) -> None:
    puzzle = Puzzle(box(4, 5), (piece("I2"),) * 4 + (piece("L3"),) * 4)
    board = counter.Board.of(puzzle, distinct=distinct)
    whole = counter.search(board, keep=None, distinct=distinct)
    monkeypatch.setattr(counter, "SLICE_NODES", 7)
    sliced = counter.search(board, keep=None, distinct=distinct)
    assert whole.finished and sliced.finished and whole.found > 50
    assert (sliced.found, sliced.kept, sliced.nodes) == (whole.found, whole.kept, whole.nodes)


def test_keeping_is_separate_from_counting(monkeypatch: pytest.MonkeyPatch) -> None:
    board = counter.Board.of(Puzzle(box(2, 12), (piece("I2"),) * 12))  # Fibonacci: 233
    none = counter.search(board, keep=0)
    assert (none.found, none.kept) == (233, ())
    some = counter.search(board, keep=5)
    assert some.found == 233 and len(some.kept) == 5
    monkeypatch.setattr(counter, "SLICE_NODES", 3)
    every = counter.search(board, keep=None)  # drains the solution buffer as it fills
    assert every.found == len(set(every.kept)) == 233
    limited = counter.search(board, limit=10, keep=None)
    assert (limited.found, len(limited.kept), limited.at_limit, limited.finished) == (10, 10, True, False)


def test_a_region_over_64_cells_is_refused() -> None:
    puzzle = Puzzle(box(5, 13), (*preset("pentominoes"), piece("I")))
    assert not counter.fits(puzzle)
    with pytest.raises(ValueError, match="at most 64 cells"):
        counter.Board.of(puzzle)


def test_board_arrays_have_the_compiled_types() -> None:
    board = counter.Board.of(Puzzle(box(2, 2), (piece("I2"),) * 2))
    assert board.masks.dtype == np.uint64 and board.kinds.dtype == np.int64
    # cells (0,0) (0,1) (1,0) (1,1): two dominoes start at the first, one at each of the next two
    assert board.start.tolist() == [0, 2, 3, 4, 4]


def ubongo_puzzles(n: int, seed: int) -> list[Puzzle]:
    import random

    from solver.pieces import random_union

    rng = random.Random(seed)
    blocks = preset("ubongo12")
    out = []
    for size in (3, 4, 5):
        for _ in range(n):
            chosen = rng.sample(blocks, size)
            out.append(Puzzle(random_union(chosen, rng, compact=False), tuple(chosen), flips=rng.random() < 0.7))
    return out


BOARDS = [Puzzle(box(6, 10), preset("pentominoes")), Puzzle(box(10, 6), preset("pentominoes"), flips=False),
          Puzzle(Shape(frozenset((x, y, z) for x in range(3) for y in range(3) for z in range(3))), preset("soma")),
          Puzzle(box(4, 5), (piece("I2"),) * 4 + (piece("L3"),) * 4), *ubongo_puzzles(15, 3)]


@pytest.mark.parametrize("puzzle", BOARDS, ids=range(len(BOARDS)))
def test_the_compiled_board_is_the_board_of_the_placements(puzzle: Puzzle) -> None:
    slow, fast = counter.Board.of(puzzle), counter.Board.compiled(puzzle)
    for name in ("masks", "kinds", "start", "copies", "halo", "neighbours"):
        assert np.array_equal(getattr(slow, name), getattr(fast, name)), name
    assert (slow.full, slow.depth, slow.prune) == (fast.full, fast.depth, fast.prune)
    placements = puzzle.placements()
    assert [fast.solution((k,)).placements[0] for k in range(len(fast.masks))] == [
        placements[i] for i in slow.order]
    assert fast.possible() == (puzzle.impossibility() is None or "checkerboard" in (puzzle.impossibility() or ""))


def region(text: str) -> Shape:
    return Shape.parse(text)


@pytest.mark.parametrize("puzzle", [
    Puzzle(box(5, 6), preset("pentominoes")[:6]),  # 2 symmetries squared: a rectangle
    Puzzle(box(4, 4), (piece("I4"), piece("L4"), piece("L4"), piece("O4"))),  # a square: 8 with flips
    Puzzle(box(4, 4), (piece("L4"), piece("T4"), piece("T4"), piece("Z4")), flips=False),  # rotations only
    Puzzle(box(3, 4), (piece("L3"), piece("I3"), piece("I2"), piece("I2"), piece("O4"))),
    Puzzle(region(".##.\n####\n####\n.##."), (piece("I2"), piece("I3"), piece("L3"), piece("S4"))),
    Puzzle(Shape(frozenset((x, y, z) for x in range(3) for y in range(3) for z in range(3))), preset("soma")),
], ids=range(6))
def test_counting_by_orbits_of_an_anchor_gives_the_plain_count(puzzle: Puzzle) -> None:
    board = counter.Board.compiled(puzzle)
    anchors = board.anchors(puzzle)
    assert anchors is not None and sum(w for w, _ in anchors) == int(np.sum(board.kinds == board.kinds[anchors[0][1]]))
    plain = counter.search(board, keep=0)
    orbits = counter.count_by_orbits(board, anchors)
    assert plain.finished and orbits.finished and plain.found > 0
    assert orbits.found == plain.found
    assert orbits.nodes < plain.nodes or len(anchors) == 1


def test_a_region_without_symmetry_or_single_pieces_has_no_anchor() -> None:
    lopsided = Puzzle(region("###\n##."), (piece("L3"), piece("I2")))
    assert counter.Board.compiled(lopsided).anchors(lopsided) is None
    copies = Puzzle(box(2, 4), (piece("I2"),) * 4)
    assert counter.Board.compiled(copies).anchors(copies) is None


def test_a_big_count_keeps_the_tilings_the_plain_search_keeps() -> None:
    from solver import tiling

    puzzle = Puzzle(box(5, 8), preset("pentominoes")[:8])
    result = tiling.count(puzzle, keep=3)
    plain = counter.search(counter.Board.of(puzzle), keep=3)
    assert result.count == plain.found and result.exhaustive and result.count > 3
    assert list(result.solutions) == [tiling.solution_from_indices(puzzle, k) for k in plain.kept]
    cut = tiling.count(Puzzle(box(6, 10), preset("pentominoes")), time_limit=0.001)
    assert not cut.exhaustive and (cut.count or 0) < 9356
