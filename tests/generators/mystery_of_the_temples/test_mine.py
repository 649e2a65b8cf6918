"""Mystery of the Temples' corpus: every run once (a path pays either way), priced on every
grid side as the verifier prices a layer."""

from __future__ import annotations

import math

from generators import GAMES
from generators.common.options import resolve
from generators.mystery_of_the_temples.box import DEFAULT, Layer, Temple
from generators.mystery_of_the_temples.measure import PLACES, difficulty, from_empty

MINER = GAMES["mystery-of-the-temples"].load_miner()


def plan(**given: str):  # type: ignore[no-untyped-def]
    return MINER.plan(resolve(MINER.OPTIONS, given).values)


def test_every_run_once_up_to_reversal() -> None:
    runs = plan(length="1-3").runs()
    colours = len(DEFAULT.colours)
    palindromes = colours + colours ** 2
    assert len(runs) == colours + (colours ** 2 + colours) // 2 + (colours ** 3 + palindromes - colours) // 2
    assert len(set(runs)) == len(runs) and all(r <= r[::-1] for r in runs)


def test_rows_price_every_side_as_the_verifier_does() -> None:
    p = plan(length="2")
    rows = p.rows(0)
    names = DEFAULT.names
    for row in rows[::5]:
        run = tuple(names.index(n) for n in row[0].split())
        temple, layer = Temple(0, "a", (), ()), Layer(0, None, run)
        assert row[4] == from_empty(DEFAULT, temple, layer, "rows")
        for side, value in zip(DEFAULT.grids, row[8]):
            measured = difficulty(DEFAULT, side, temple, layer, "rows")
            assert (math.isnan(value) and measured is None) or value == round(measured.mean, PLACES)
        paid = [v for v in row[8] if not math.isnan(v)]
        assert row[5] == round(sum(paid) / len(paid), PLACES) and (row[6], row[7]) == (min(paid), max(paid))
        assert row[9] == []
