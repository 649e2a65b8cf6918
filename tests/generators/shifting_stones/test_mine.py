"""Shifting Stones' corpus rows against the verifier's measure, pattern by pattern."""

from __future__ import annotations

import pytest

from generators import GAMES
from generators.common.errors import RequestError
from generators.common.options import resolve
from generators.shifting_stones import scale
from generators.shifting_stones.pattern import parse_pattern
from generators.shifting_stones.space import measure
from generators.shifting_stones.tiles import PUBLISHED

MINER = GAMES["shifting-stones"].load_miner()


def plan(**given: str):  # type: ignore[no-untyped-def]
    return MINER.plan(resolve(MINER.OPTIONS, given).values)


def test_a_chunk_holds_every_pattern_the_stones_can_show_measured_as_verify_does() -> None:
    p = plan(stones="1")
    window, layout = p.cells()[0]
    assert window == (1, 1) and layout == ((True,),)
    rows = p.rows(0)
    assert [tuple(r[4]) for r in rows] == [(f,) for f in PUBLISHED.faces]
    for row in rows:
        pattern = parse_pattern(row[0], PUBLISHED, "row")
        key, found = measure(PUBLISHED, pattern)
        assert row[1:4] == ("1x1", "#", 1)
        assert (row[5], row[6], row[7], row[9]) == (found.difficulty, found.shown, found.max, key)
        assert row[8] == scale.rate(found.difficulty, scale.PUBLISHED_SCALE)


def test_windows_and_stones_make_the_chunks() -> None:
    published = plan(stones="1-2", windows="published")
    assert {w for w, _ in published.cells()} == {(1, 2), (2, 1), (1, 3), (3, 1), (2, 2), (3, 3)}
    every = plan(stones="1")
    assert {w for w, _ in every.cells()} == {(1, 1), (3, 3)}  # one stone touches every edge of 1x1 only
    assert every.chunks() == 1 + 9
    with pytest.raises(RequestError, match="stones: expected at most 9"):
        plan(stones="10")


def test_only_patterns_some_grid_shows_are_rows() -> None:
    p = plan(stones="2", windows="published")
    # Sun and Moon share one tile: no grid shows both, so no 2-stone pattern asks for them both
    assert all(p.cells()[i][0] != (1, 1) for i in range(p.chunks()))
    from generators.shifting_stones.pattern import Pattern

    both = Pattern(((0, 1),))
    assert not both.fits(PUBLISHED) and Pattern(((0, 2),)).fits(PUBLISHED)
