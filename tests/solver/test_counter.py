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
            group_end = board.skip[k]
            assert lo < group_end <= hi
            assert all(board.kinds[j] == board.kinds[k] for j in range(k, group_end))
            assert group_end == hi or board.kinds[group_end] != board.kinds[k]
    assert int(board.full) == (1 << 60) - 1


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
