""""More cards like mine": a reference deck, and choosing cards that match it.

Nouns:
    Reference  what is taken from a designer's deck: its block set, blocks per face, flips
               rule and lock box (the defaults of the request, unless an option overrides
               them), the difficulty of each of its faces rated by our rating, its share of
               unique faces, and its locks (which no generated card may repeat, up to
               rotation and reflection).
    bin        a face's place in the reference distribution: the least reference difficulty
               at or above its own, so a bin holds the values just below a reference value.

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

import bisect
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generators.common import grading
from generators.common.deckfile import DeckError
from generators.common.errors import RequestError
from solver.pieces import Piece
from solver.shapes import Shape

if TYPE_CHECKING:
    from generators.puzzle_temple.generate import Candidate, Chosen, Option
    from generators.puzzle_temple.spec import Spec

#: The KS distance a matched deck aims at; the generator keeps making candidates until it is
#: met or the budget is spent.
AIM = 0.1

#: Candidate locks (per card, and at least) at which the generator stops looking for a
#: closer match.
POOL = 4
POOL_MIN = 150


@dataclass(frozen=True, slots=True)
class Reference:
    """See the module docstring."""

    source: str
    block_set: str
    blocks: tuple[Piece, ...]
    blocks_per_face: tuple[int, int]
    flips: bool
    lock_size: tuple[int, int]
    difficulties: tuple[float, ...]
    unique: tuple[bool, ...]
    locks: frozenset[Shape]
    lock_sizes: tuple[int, ...]
    skipped: int

    @property
    def unique_share(self) -> float:
        return sum(self.unique) / len(self.unique)

    def values(self) -> tuple[float, ...]:
        """The reference's distinct difficulties, in order: the bins' centres."""
        return tuple(sorted(set(self.difficulties)))

    def bin_of(self, difficulty: float) -> int:
        """The bin of a difficulty: the index of the least reference value at or above it
        (the last one for a difficulty above them all). Filling the bins in proportion then
        makes the two distribution functions agree at every reference value."""
        values = self.values()
        return min(bisect.bisect_left(values, difficulty), len(values) - 1)

    def targets(self, faces: int) -> Counter[int]:
        """How many of ``faces`` generated faces each bin should hold: the reference's
        distribution function scaled to ``faces`` and rounded at every reference value, so
        the rounding never drifts to one end (largest remainders would favour early bins)."""
        values = self.values()
        below = Counter(values.index(d) for d in self.difficulties)
        out: Counter[int] = Counter()
        seen = placed = 0
        for k in range(len(values)):
            seen += below[k]
            upto = math.floor(faces * seen / len(self.difficulties) + 0.5)
            out[k] = upto - placed
            placed = upto
        return out

    def unique_target(self, faces: int) -> int:
        return round(self.unique_share * faces)


def read_reference(value: Any, label: str) -> Reference:
    """The reference deck named by ``--like`` (any Puzzle Temple deck, hand-written or
    generated), its faces rated now.

    Raises:
        RequestError: the file cannot be read, is not a Puzzle Temple deck, or has no face
            that can be solved and rated.
    """
    from generators.puzzle_temple.deck import read_deck
    from generators.puzzle_temple.verify import MAX_RATING_STATES  # rate as the verifier does
    from solver.rating import RatingLimit, rate

    if isinstance(value, Reference):
        return value
    if not isinstance(value, str) or not value.strip():
        raise RequestError(f"{label}: expected a deck file, got {value!r}")
    try:
        deck = read_deck(value)
    except DeckError as err:
        raise RequestError(f"{label}: {err}") from None
    difficulties, unique, skipped = [], [], 0
    for card in deck.cards:
        for face in card.faces:
            try:
                rating = rate(deck.puzzle(card, face), max_states=MAX_RATING_STATES)
            except RatingLimit:
                skipped += 1
                continue
            if not rating.tilings:
                skipped += 1
                continue
            difficulties.append(rating.bits)
            unique.append(rating.tilings == 1)
    if not difficulties:
        raise RequestError(f"{label}: {value} has no face that can be solved and rated")
    per_face = [len(f.blocks) for c in deck.cards for f in c.faces]
    turned = [sorted(c.lock.extent()) for c in deck.cards]  # (short side, long side)
    name = deck.parameters.get("blocks")
    return Reference(
        source=str(value),
        block_set=name if isinstance(name, str) else Path(value).name,
        blocks=deck.blocks,
        blocks_per_face=(min(per_face), max(per_face)),
        flips=deck.flips,
        lock_size=(max(t[1] for t in turned), max(t[0] for t in turned)),
        difficulties=tuple(difficulties),
        unique=tuple(unique),
        locks=frozenset(c.lock.canonical(flips=True) for c in deck.cards),
        lock_sizes=tuple(c.lock.size for c in deck.cards),
        skipped=skipped)


def matched(chosen: Chosen, reference: Reference, cards: int) -> bool:
    """Whether the chosen cards fill every bin's share exactly, or come within ``AIM`` of
    the reference's difficulties (a small reference cannot come closer than its steps)."""
    from generators.puzzle_temple.spec import FACES

    got = Counter(reference.bin_of(o.difficulty) for _, options, _ in chosen for o in options)
    return got == reference.targets(cards * FACES) or distance(chosen, reference) <= AIM


def distance(chosen: Chosen, reference: Reference) -> float:
    """The KS distance between the chosen faces' difficulties and the reference's."""
    values = [o.difficulty for _, options, _ in chosen for o in options]
    return grading.ks_distance(values, reference.difficulties) if values else 1.0


def select_like(spec: Spec, pool: Sequence[Candidate]) -> Chosen:
    """Cards from the pool whose faces fill the reference's bins and unique share (see the
    module docstring); possibly fewer than asked for."""
    from generators.puzzle_temple.generate import rebalance
    from generators.puzzle_temple.spec import FACES

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
