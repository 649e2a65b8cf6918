"""Puzzle Temple's corpus rows against the counter and the rating, lock by lock."""

from __future__ import annotations

from typing import Any

import pytest

from generators import GAMES
from generators.common.errors import RequestError
from generators.common.options import resolve
from solver import tiling
from solver.puzzle import Puzzle
from solver.rating import rate
from solver.shapes import Shape

MINER = GAMES["puzzle-temple"].load_miner()


def plan(**given: Any) -> Any:
    return MINER.plan(resolve(MINER.OPTIONS, given).values)


def lock(row: tuple[Any, ...]) -> Shape:
    return Shape.parse(row[0].replace("/", "\n"))


@pytest.mark.parametrize("flips", ["true", "false"])
def test_rows_are_proved_distinct_locks(flips: str) -> None:
    p = plan(blocks_per_face="3", box="5x3", flips=flips)
    assert p.chunks() == 220
    pieces = {b.name: b for b in p.pieces}
    for index in (0, 57, 219):
        rows = p.rows(index)
        seen = set()
        for row in rows:
            shape = lock(row)
            blocks = [pieces[n] for n in row[4]]
            assert shape.is_connected() and not shape.holes()
            assert row[1] == shape.size == sum(b.size for b in blocks)
            assert (row[2], row[3]) == shape.extent()[::-1] and row[2] <= 5 and row[3] <= 3
            puzzle = Puzzle(shape, blocks, flips=p.flips)
            assert row[5] == tiling.count(puzzle).count >= 1 and row[6] == (row[5] == 1)
            assert row[7] == rate(puzzle).bits
            key = shape.canonical(flips=p.flips)
            assert key not in seen
            seen.add(key)
        assert rows == sorted(rows, key=lambda r: (r[1], r[0]))


def test_without_flips_mirror_images_are_other_locks() -> None:
    # I2 and I3 are their own mirror images: every mirrored lock is tiled too, and counts apart
    with_flips = plan(blocks_per_face="2", box="4x3").rows(0)
    without = plan(blocks_per_face="2", box="4x3", flips="false").rows(0)
    assert with_flips[0][4] == ["I2", "I3"] and len(without) > len(with_flips)
    assert {lock(r).canonical(flips=True) for r in without} == {lock(r).canonical(flips=True) for r in with_flips}


def test_bad_requests_name_their_option() -> None:
    with pytest.raises(RequestError, match="blocks-per-face: 13 is more than|expected at most 8"):
        plan(blocks_per_face="13")
    with pytest.raises(RequestError, match=r"box: the region search takes boxes"):
        plan(box="9x7")
    assert plan(box="4x6").box == (6, 4)  # a box turned a quarter is the same box
