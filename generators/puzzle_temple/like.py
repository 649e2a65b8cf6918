""""More cards like mine": choosing cards that match a reference deck (``reference.py``),
on the shared matching (``generators.common.like``: bins, targets, the KS distance).

``select_like`` chooses cards from the candidate pool so that the generated faces fill the
reference's bins in proportion to the reference faces in each (largest remainders), which
is quantile matching, and bring the share of unique faces to the reference's: card by card,
the lock whose six best faces fill the most open places (then unique faces where wanted,
then level block use; a face that fills no open place is the one nearest to an open bin),
then single-face swaps that bring the KS distance down (``tighten``: the bins make the
two distribution functions agree at the reference's values, the swaps between them), then
single-face swaps that level block use further without raising it. Every swap keeps a
face's unique-or-not, so the unique share stays where the choice put it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from generators.common import grading
from generators.common.like import AIM, Match
from generators.puzzle_temple.candidates import Candidate, Chosen, Option, rebalance
from generators.puzzle_temple.deck import FACES
from generators.puzzle_temple.reference import Reference

if TYPE_CHECKING:
    from generators.puzzle_temple.spec import Spec

__all__ = ["AIM", "POOL", "POOL_MIN", "UNIQUE_SLACK", "distance", "matched", "select_like"]

#: The unique share a matched deck keeps to (of its faces, either way).
UNIQUE_SLACK = 0.025

#: Candidate locks (per card, and at least) at which the generator stops looking for a
#: closer match.
POOL = 4
POOL_MIN = 150


def matched(chosen: Chosen, reference: Reference, cards: int) -> bool:
    """Whether the chosen cards fill every bin's share exactly or come within ``AIM`` of the
    reference's difficulties (a small reference cannot come closer than its steps), with
    unique faces within ``UNIQUE_SLACK`` of the reference's share."""
    quantiles = reference.quantiles
    faces = [o for _, options, _ in chosen for o in options]
    unique = sum(o.solutions == 1 for o in faces)
    if abs(unique - reference.unique_target(cards * FACES)) > max(1, round(UNIQUE_SLACK * cards * FACES)):
        return False
    got = Counter(quantiles.bin_of(o.difficulty) for o in faces)
    return got == quantiles.targets(cards * FACES) or distance(chosen, reference) <= AIM


def distance(chosen: Chosen, reference: Reference) -> float:
    """The KS distance between the chosen faces' difficulties and the reference's."""
    values = [o.difficulty for _, options, _ in chosen for o in options]
    return grading.ks_distance(values, reference.difficulties) if values else 1.0


def select_like(spec: Spec, pool: Sequence[Candidate]) -> Chosen:
    """Cards from the pool whose faces fill the reference's bins and unique share (see the
    module docstring); possibly fewer than asked for."""
    reference = spec.like
    assert reference is not None  # only called for a --like request
    faces = spec.cards * FACES
    quantiles = reference.quantiles
    need = quantiles.targets(faces)
    unique_left = reference.unique_target(faces)
    usage: Counter[str] = Counter({b.name: 0 for b in spec.blocks})
    bins = {id(o): quantiles.bin_of(o.difficulty) for c in pool for o in c.options}
    values = quantiles.values()
    used: set[int] = set()
    chosen: Chosen = []
    for card in range(spec.cards):
        want_unique = round(unique_left * FACES / (faces - card * FACES)) if unique_left > 0 else 0
        best = None
        for c in pool:
            if c.index in used or len(c.options) < FACES:
                continue
            picked: list[Option] = []
            taken: Counter[int] = Counter()
            added: Counter[str] = Counter()
            uniques = 0
            left = list(c.options)
            while len(picked) < FACES:
                open_values = [values[k] for k in range(len(values)) if need[k] - taken[k] > 0] or list(values)
                def cost(o: Option, added: Counter[str] = added, uniques: int = uniques, want_unique: int = want_unique,
                         open_values: list[float] = open_values) -> tuple[float, int, int, tuple[str, ...]]:
                    return (min(abs(o.difficulty - v) for v in open_values),
                            0 if (o.solutions == 1) == (want_unique - uniques > 0) else 1,
                            sum(usage[b] + added[b] for b in o.blocks), o.blocks)

                pick = min(left, key=cost)
                picked.append(pick)
                left.remove(pick)
                taken[bins[id(pick)]] += 1
                uniques += pick.solutions == 1
                added.update(pick.blocks)
            filled = sum(min(k, need[key]) for key, k in taken.items())
            off = round(sum(abs(o.difficulty - values[bins[id(o)]]) for o in picked), 6)
            unique_miss = abs(want_unique - uniques)
            spread = sum(v * v for v in (usage + added).values())
            score = (-filled, unique_miss, off, spread, c.index)
            if best is None or score < best[0]:
                best = (score, c, picked)
        if best is None:
            break
        _, c, picked = best
        used.add(c.index)
        for o in picked:
            need[bins[id(o)]] -= 1
            unique_left -= o.solutions == 1
            usage.update(o.blocks)
        chosen.append((c, picked, None))
    match = tighten(chosen, reference.difficulties, usage)
    rebalance(chosen, usage, lambda trial, tier, old, new: (
        (old.solutions == 1) == (new.solutions == 1) and match.trial(old.difficulty, new.difficulty)
        <= match.distance() + 1e-12), lambda old, new: match.swap(old.difficulty, new.difficulty))
    return chosen


#: Swaps ``tighten`` makes at most per face of the deck (each lowers the distance).
SWAPS_PER_FACE = 4


def tighten(chosen: Chosen, reference: Sequence[float], usage: Counter[str]) -> Match:
    """Swap single faces for unused block sets of the same lock, the swap that lowers the KS
    distance to ``reference`` most first (ties: the one that levels block use most), while
    any does; a face keeps its unique-or-not. Returns the running distance."""
    faces = [o for _, options, _ in chosen for o in options]
    universe = {o.difficulty for c, _, _ in chosen for o in c.options}
    match = Match(reference, (o.difficulty for o in faces), universe)
    for _ in range(SWAPS_PER_FACE * len(faces)):
        now = match.distance()
        best: tuple[tuple[float, int], list[Option], int, Option] | None = None
        for candidate, options, _ in chosen:
            spares = [o for o in candidate.options if o not in options]
            for i, old in enumerate(options):
                for new in spares:
                    if (old.solutions == 1) != (new.solutions == 1):
                        continue
                    after = match.trial(old.difficulty, new.difficulty)
                    if after >= now - 1e-12:
                        continue
                    score = (round(after, 12), _spread_change(usage, old, new))
                    if best is None or score < best[0]:
                        best = (score, options, i, new)
        if best is None:
            break
        _, options, i, new = best
        old = options[i]
        match.swap(old.difficulty, new.difficulty)
        usage.subtract(old.blocks)
        usage.update(new.blocks)
        options[i] = new
    return match


def _spread_change(usage: Counter[str], old: Option, new: Option) -> int:
    """How much the sum of squared block uses changes when ``new`` takes ``old``'s place."""
    touched = Counter({b: usage[b] for b in {*old.blocks, *new.blocks}})
    before = sum(v * v for v in touched.values())
    touched.subtract(old.blocks)
    touched.update(new.blocks)
    return sum(v * v for v in touched.values()) - before
