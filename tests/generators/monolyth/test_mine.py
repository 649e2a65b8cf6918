"""Monolyth's corpus: every structure once up to symmetry, proved and priced as the
generator and verifier do."""

from __future__ import annotations

import math

import pytest

from generators import GAMES
from generators.common.errors import RequestError
from generators.common.options import resolve
from generators.monolyth.measure import bound, difficulty, prove
from generators.monolyth.mine import CHUNK, _structures
from generators.monolyth.pool import DEFAULT
from generators.monolyth.structure import canonical
from solver.heightmap import Board, Target

MINER = GAMES["monolyth"].load_miner()


def plan(**given: str):  # type: ignore[no-untyped-def]
    return MINER.plan(resolve(MINER.OPTIONS, given).values)


def brute_force(height: int, turn: bool, most: int) -> set[tuple[int | None, ...]]:
    """Every structure of 1 to ``most`` cubes by plain recursion, reduced by canonical."""
    board = Board(4, 4, height)
    out = set()

    def place(prefix: list[int], left: int) -> None:
        if len(prefix) == 16:
            if sum(prefix):
                out.add(canonical(tuple(h or None for h in prefix), board, turn))
            return
        for h in range(min(height, left) + 1):
            place(prefix + [h], left - h)

    place([], most)
    return out


@pytest.mark.parametrize("turn", [True, False])
def test_every_structure_once(turn: bool) -> None:
    found = _structures(3, turn, (1, 3))
    assert len(found) == len(set(found))
    assert set(found) == brute_force(3, turn, 3)
    sums = [sum(h or 0 for h in s) for s in found]
    assert sums == sorted(sums)


def test_rows_are_proved_and_priced_as_the_verifier_does() -> None:
    p = plan(cubes="3-4")
    board = Board(4, 4, 3)
    rows = p.rows(p.chunks() - 1)
    assert 0 < len(rows) <= CHUNK
    for row in rows:
        heights = tuple(None if ch == "." else int(ch) for ch in row[0].replace("/", ""))
        target = Target(heights, (), "contain")
        assert row[1] == sum(h or 0 for h in heights) and row[2] == sum(1 for h in heights if h)
        proof = prove(DEFAULT, board, target)
        assert (row[4] == "buildable") == (proof is not None)
        if proof is not None:
            assert row[5] == proof[1]
            least = bound(DEFAULT, board, target)
            assert row[6] == difficulty(DEFAULT, board, target)[0]
            assert row[7] == least and least is not None and least <= row[6]  # small: the exact bound, below
        else:
            assert math.isnan(row[6])


def test_too_many_cubes_is_refused() -> None:
    with pytest.raises(RequestError, match="cubes: at most 10"):
        plan(cubes="11")
