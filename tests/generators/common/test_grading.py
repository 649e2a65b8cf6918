"""Grading: one mean for every order, tiers, largest remainders, bounds."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generators.common import grading
from generators.common.errors import RequestError
from generators.common.grading import Tier


def test_the_mean_that_tipped_card_19_over_its_bound() -> None:
    # the hard profile at seed 5: six faces averaging 7.74, summed in one order 7.739999999999999
    faces = [7.36, 7.52, 7.64, 7.83, 7.99, 8.1]
    sums = {sum(p) / 6 for p in itertools.permutations(faces)}
    assert len(sums) > 1  # plain sums differ with the order
    means = {grading.mean(p) for p in itertools.permutations(faces)}
    assert means == {7.74}
    assert grading.tier_of(grading.mean(faces), (6.0, 7.74)) is Tier.HARD


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0, 20, allow_nan=False).map(lambda v: round(v, 2)), min_size=1, max_size=8),
       st.randoms(use_true_random=False))
def test_the_mean_does_not_depend_on_the_order(values: list[float], rnd) -> None:
    shuffled = list(values)
    rnd.shuffle(shuffled)
    assert grading.mean(values) == grading.mean(shuffled)


def test_close_allows_one_rounding_step() -> None:
    assert grading.close(5.25, 5.26) and not grading.close(5.25, 5.27)


def test_counts_by_largest_remainder() -> None:
    assert grading.counts(36, {"a": 1, "b": 1, "c": 1}) == {"a": 12, "b": 12, "c": 12}
    assert grading.counts(72, {1: 28, 2: 26, 3: 13, 5: 5}) == {1: 28, 2: 26, 3: 13, 5: 5}
    assert grading.counts(16, {1: 8, 2: 4, 3: 3, 5: 1}) == {1: 8, 2: 4, 3: 3, 5: 1}
    assert grading.counts(10, {"easy": 2, "hard": 1}) == {"easy": 7, "hard": 3}
    assert sum(grading.counts(7, {"x": 1, "y": 1, "z": 1}).values()) == 7


def test_bounds_are_checked() -> None:
    assert grading.check_bounds([1, 2.5]) == (1.0, 2.5)
    for bad in ([1], "abc", [2, 1], [1, math.inf], [True, 2], None):
        with pytest.raises(RequestError, match="tier_bounds"):
            grading.check_bounds(bad)


def test_quantile_bounds_split_into_thirds() -> None:
    assert grading.quantile_bounds(list(range(9)), 3) == (3, 6)


@pytest.mark.parametrize("text", ["hardest", "easy:x", "easy:0", "easy:-1", ""])
def test_bad_targets_name_the_field(text: str) -> None:
    with pytest.raises(RequestError, match="difficulty"):
        grading.parse_target(text)


def test_the_ks_distance() -> None:
    assert grading.ks_distance([1, 2, 3], [1, 2, 3]) == 0
    assert grading.ks_distance([1, 2], [3, 4]) == 1
    assert grading.ks_distance([1, 2, 3, 4], [3, 4, 5, 6]) == 0.5
    import random

    rnd = random.Random(3)
    a = [round(rnd.gauss(5, 1), 2) for _ in range(200)]
    b = [round(rnd.gauss(5.3, 1.2), 2) for _ in range(37)]

    def cdf(sample: list[float], t: float) -> float:
        return sum(v <= t for v in sample) / len(sample)

    naive = max(abs(cdf(a, t) - cdf(b, t)) for t in a + b)
    assert grading.ks_distance(a, b) == pytest.approx(naive) and naive > 0


def test_the_standard_error_is_the_spread_over_the_root_of_the_count() -> None:
    assert grading.standard_error([2.0, 4.0, 6.0, 8.0]) == pytest.approx(math.sqrt(20 / 3 / 4))
    assert grading.standard_error([5.0]) == 0.0 and grading.standard_error([]) == 0.0
    assert grading.standard_error([3.0, 3.0, 3.0]) == 0.0
