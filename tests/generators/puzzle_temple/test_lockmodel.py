"""The joint CP-SAT lock model: its designs obey every constraint it states."""

from __future__ import annotations

import random

from generators.puzzle_temple.lockmodel import LockModel
from solver import tiling
from solver.pieces import preset
from solver.puzzle import Puzzle
from solver.verify import verify_tiling


def test_a_design_is_a_connected_hole_free_lock_with_six_tiling_sets() -> None:
    blocks = preset("ubongo12")
    model = LockModel(blocks, 5, 4, (3, 3), (9, 13), flips=True, holes=False, work=1.0)
    designed = model.design(random.Random(1), seed=1)
    assert designed is not None
    lock, sets = designed
    rows, cols = lock.extent()
    assert rows <= 4 and cols <= 5 and 9 <= lock.size <= 13
    assert lock.is_connected() and not lock.holes()
    assert len(set(sets)) == 6 and all(len(s) == 3 for s in sets)
    for names in sets:
        pieces = tuple(b for b in blocks if b.name in names)
        result = tiling.solve(Puzzle(lock, pieces))
        assert result.status is tiling.Status.SOLVED
        assert verify_tiling(lock, pieces, result.solution.placements).ok


def test_designs_are_deterministic_for_a_seed() -> None:
    model = LockModel(preset("ubongo12"), 4, 4, (3, 3), (8, 12), flips=True, holes=False, work=0.5)
    assert model.design(random.Random(3), seed=3) == model.design(random.Random(3), seed=3)
