"""The shared "more like mine": bins and targets, the running KS distance, class targets and
the side-by-side comparison."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generators.common import grading
from generators.common.errors import RequestError
from generators.common.figures import Fact, Table
from generators.common.like import Match, Profile, Quantiles, class_table, comparison, natural, read_reference

values = st.lists(st.sampled_from([0.5, 1.0, 1.25, 2.0, 2.5, 3.0, 4.75]), min_size=1, max_size=30)


@given(values, st.integers(1, 300))
def test_targets_follow_the_reference_distribution(reference: list[float], total: int) -> None:
    q = Quantiles(tuple(reference))
    targets = q.targets(total)
    assert sum(targets.values()) == total and min(targets.values()) >= 0
    for k, value in enumerate(q.values()):  # the distribution functions agree to within one item
        have = sum(targets[j] for j in range(k + 1))
        want = total * sum(d <= value for d in reference) / len(reference)
        assert abs(have - want) <= 0.5 + 1e-9


def test_a_value_falls_in_the_bin_of_the_reference_value_at_or_above_it() -> None:
    q = Quantiles((1.0, 2.0, 2.0, 4.0))
    assert q.values() == (1.0, 2.0, 4.0)
    assert [q.bin_of(v) for v in (0.2, 1.0, 1.5, 2.0, 3.9, 4.0, 9.0)] == [0, 0, 1, 1, 2, 2, 2]


@settings(max_examples=60)
@given(values, values, st.randoms(use_true_random=False))
def test_the_running_distance_is_the_ks_distance_after_every_swap(reference: list[float], sample: list[float],
                                                                   rng: random.Random) -> None:
    universe = [0.5, 1.0, 1.25, 2.0, 2.5, 3.0, 4.75]
    match = Match(reference, sample, universe)
    assert match.distance() == pytest.approx(grading.ks_distance(sample, reference))
    for _ in range(10):
        i = rng.randrange(len(sample))
        new = rng.choice(universe)
        trial = match.trial(sample[i], new)
        match.swap(sample[i], new)
        sample[i] = new
        assert trial == pytest.approx(grading.ks_distance(sample, reference))
        assert match.distance() == pytest.approx(trial)


def test_class_targets_scale_the_reference_shares() -> None:
    profile = Profile((1.0,) * 72, {"stones": ("1",) * 8 + ("2",) * 48 + ("3",) * 13 + ("4",) * 3})
    assert profile.class_targets("stones", 36, natural) == {"1": 4, "2": 24, "3": 7, "4": 1}
    assert sum(profile.class_targets("stones", 12).values()) == 12
    assert profile.unique_share is None
    assert Profile((1.0, 2.0), unique=(True, False)).unique_share == 0.5


def test_labels_sort_naturally() -> None:
    assert sorted(["10", "2", "1"], key=natural) == ["1", "2", "10"]
    assert sorted(["3x3", "1x2", "2x1", "1x3"], key=natural) == ["1x2", "1x3", "2x1", "3x3"]


def test_the_comparison_puts_both_sides_next_to_each_other() -> None:
    mine = Profile((1.0, 2.0, 3.0), {"window": ("1x2", "1x2", "3x3")})
    theirs = Profile((1.0, 2.0, 2.5, 3.0), {"window": ("1x2", "2x1", "2x1", "3x3")})
    figures = comparison(mine, theirs, "ref.json", unit="actions", items="cards", skipped=1)
    assert isinstance(figures[0], Fact) and "KS distance 0.167" in figures[0].text
    assert "1 of its cards could not be rated" in figures[0].text
    table = figures[-1]
    assert isinstance(table, Table) and table.columns == ("window", "here", "in the reference")
    assert table.rows == (("1x2", "2 (67%)", "1 (25%)"), ("2x1", "0 (0%)", "2 (50%)"), ("3x3", "1 (33%)", "1 (25%)"))
    assert class_table("n", [], ["1"]).rows == (("1", "0", "1 (100%)"),)


def test_a_reference_that_cannot_be_read_is_one_line(tmp_path) -> None:
    from generators.common.deckfile import DeckError

    def reader(path: str) -> object:
        raise DeckError(f"{path}: no such file")

    with pytest.raises(RequestError, match=r"^--like: .*missing.json: no such file$"):
        read_reference(str(tmp_path / "missing.json"), "--like", reader)
    with pytest.raises(RequestError, match="--like: expected a deck file"):
        read_reference("  ", "--like", reader)
