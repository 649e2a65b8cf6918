""""More cards like mine": choosing cards that match a reference deck (``reference.py``).

A face's bin is its place in the reference distribution: the least reference difficulty at
or above its own, so a bin holds the values just below a reference value.

``select_like`` chooses cards from the candidate pool so that the generated faces fill the
reference's bins in proportion to the reference faces in each (largest remainders), which
is quantile matching, and bring the share of unique faces to the reference's: card by card,
the lock whose six best faces fill the most open places (then unique faces where wanted,
then level block use; a face that fills no open place is the one nearest to an open bin),
then single-face swaps within a bin that level block use further. ``distance`` is the
two-sample Kolmogorov-Smirnov distance between the generated and the reference
difficulties (the aim: at most ``AIM``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from generators.common import grading
from generators.puzzle_temple.candidates import Candidate, Chosen, Option, rebalance
from generators.puzzle_temple.deck import FACES
from generators.puzzle_temple.reference import Reference

if TYPE_CHECKING:
    from generators.puzzle_temple.spec import Spec

#: The KS distance a matched deck aims at; the generator keeps making candidates until it is
#: met or the budget is spent.
AIM = 0.1

#: Candidate locks (per card, and at least) at which the generator stops looking for a
#: closer match.
POOL = 4
POOL_MIN = 150


def matched(chosen: Chosen, reference: Reference, cards: int) -> bool:
    """Whether the chosen cards fill every bin's share exactly, or come within ``AIM`` of
    the reference's difficulties (a small reference cannot come closer than its steps)."""
    got = Counter(reference.bin_of(o.difficulty) for _, options, _ in chosen for o in options)
    return got == reference.targets(cards * FACES) or distance(chosen, reference) <= AIM


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
    need = reference.targets(faces)
    unique_left = reference.unique_target(faces)
    usage: Counter[str] = Counter({b.name: 0 for b in spec.blocks})
    bins = {id(o): reference.bin_of(o.difficulty) for c in pool for o in c.options}
    values = reference.values()
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
    rebalance(chosen, usage, lambda trial, tier, old, new: (
        bins[id(old)] == bins[id(new)] and (old.solutions == 1) == (new.solutions == 1)))
    return chosen


def lock_size_table(generated: Sequence[int], reference: Sequence[int]) -> list[tuple[str, str, str]]:
    """Rows ``(cells, generated cards, reference cards)`` over every lock size either has."""
    mine, theirs = Counter(generated), Counter(reference)
    return [(str(n), str(mine[n]), str(theirs[n])) for n in sorted(set(mine) | set(theirs))]
