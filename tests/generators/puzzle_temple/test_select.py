"""Puzzle Temple's selection weighs every candidate at once (numpy); it must choose exactly
what the plain greedy, a candidate at a time, chooses."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from generators.common import grading
from generators.common.grading import Tier
from generators.puzzle_temple import generate as gen
from generators.puzzle_temple.candidates import Candidate, Option, rebalance
from generators.puzzle_temple.deck import FACES
from solver.pieces import preset


def plain_choice(candidate: Candidate, usage: Counter[str], tier: Tier | None,
                 bounds: tuple[float, float]) -> tuple[bool, float, list[Option]]:
    """The greedy as first written: six block sets, each the cheapest (its blocks' usage with
    the picks so far, plus 4 x the mean's distance from the tier's middle; ties by name)."""
    goal = grading.band(tier, bounds) if tier is not None else None
    aim = None if goal is None else (goal[1] - 0.5 if math.isinf(goal[0]) else
                                     goal[0] + 0.5 if math.isinf(goal[1]) else (goal[0] + goal[1]) / 2)
    picked: list[Option] = []
    added: Counter[str] = Counter()
    left = list(candidate.options)
    while len(picked) < FACES:
        def cost(o: Option) -> tuple[float, tuple[str, ...]]:
            c: float = sum(usage[b] + added[b] for b in o.blocks)
            if aim is not None:
                c += 4 * abs((sum(p.difficulty for p in picked) + o.difficulty) / (len(picked) + 1) - aim)
            return c, o.blocks
        best = min(left, key=cost)
        picked.append(best)
        left.remove(best)
        added.update(best.blocks)
    fits = tier is None or grading.tier_of(grading.mean(o.difficulty for o in picked), bounds) is tier
    after = usage + added
    return fits, sum(v * v for v in after.values()), picked


@pytest.fixture(scope="module")
def pool() -> list[Candidate]:
    spec = gen.Spec(blocks=preset("ubongo12"), cards=12, workers=1)
    made = [gen.make_candidate(spec, i) for i in range(45)]
    return [c for c in made if c is not None]


def test_every_candidates_faces_are_the_plain_greedys(pool) -> None:
    spec = gen.Spec(blocks=preset("ubongo12"), cards=12, workers=1)
    table = gen._Options(pool, [b.name for b in spec.blocks])
    bounds = gen.tier_bounds(pool)
    rng = random.Random(5)
    fitted = 0
    for trial in range(4):
        usage = Counter({b.name: rng.randrange(0, 9) * trial for b in spec.blocks})
        for tier in (None, *Tier):
            picks, fits, spread = table.choose(usage, tier, bounds)
            for c, candidate in enumerate(pool):
                plain = plain_choice(candidate, usage, tier, bounds)
                assert ([table.option(k) for k in picks[c]], bool(fits[c]), spread[c]) == (plain[2], *plain[:2])
                fitted += plain[0]
    assert 0 < fitted < 16 * len(pool)  # some candidates fit their tier and some do not


def test_the_deck_chosen_is_the_plain_greedys(pool) -> None:
    spec = gen.Spec(blocks=preset("ubongo12"), cards=min(9, len(pool) // 2), workers=1)
    bounds = gen.tier_bounds(pool)
    usage: Counter[str] = Counter({b.name: 0 for b in spec.blocks})
    counts = grading.tier_counts(spec.cards, spec.difficulty)
    able = {t: sum(plain_choice(c, usage, t, bounds)[0] for c in pool) for t in counts}
    plain = []
    used: set[int] = set()
    for tier in sorted(counts, key=lambda t: (able[t] / max(counts[t], 1), str(t))):
        for _ in range(counts[tier]):
            found = [(f[1], i, f[2]) for i, c in enumerate(pool)
                     if i not in used and (f := plain_choice(c, usage, tier, bounds))[0]]
            if not found:
                break
            _, i, options = min(found, key=lambda f: (f[0], f[1]))
            used.add(i)
            usage.update(b for o in options for b in o.blocks)
            plain.append((pool[i], options, tier))
    assert len(plain) == spec.cards
    rebalance(plain, usage, lambda trial, tier, old, new: gen._in_tier(trial, tier, bounds))
    chosen = gen.select(spec, pool, bounds)
    assert [(c.index, [o.blocks for o in options], tier) for c, options, tier in chosen] == \
        [(c.index, [o.blocks for o in options], tier) for c, options, tier in plain]
