""""More like mine" for every game: matching a reference deck's distributions.

A game reads a designer's deck into a ``Profile`` (the difficulty of each rated item, the
classes its items fall in, such as stones per pattern or lock cells, and which items are
unique) and makes its own candidates; this module turns the profile into targets, measures
how close a generated deck came, and words the comparison and the refusals.

Nouns:
    Profile    a deck's measures: ``difficulties`` (one per rated item: a face, a card),
               ``classes`` (per measure name, a label per item, in the order labels sort)
               and ``unique`` (per rated item, or empty when the game has no such notion).
    Quantiles  a reference's difficulties as bins. A value's bin is the least reference
               difficulty at or above it, so a bin holds the values just below a reference
               value; filling the bins in proportion (``targets``) makes the two
               distribution functions agree at every reference value.
    Match      the running KS distance between a generated sample and the reference, for
               local search: what a swap of one value for another would make it.

``bound_ks`` puts the exact KS distance into a CP-SAT choice of items, for games that choose
their cards with a model.

The distance is the two-sample Kolmogorov-Smirnov distance (``grading.ks_distance``); a
matched deck aims at ``AIM``.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from generators.common import grading
from generators.common.deckfile import DeckError
from generators.common.errors import RequestError
from generators.common.figures import Fact, Figure, Table

#: The KS distance a matched deck aims at (at most).
AIM = 0.1

D = TypeVar("D")


@dataclass(frozen=True, slots=True)
class Profile:
    """See the module docstring."""

    difficulties: tuple[float, ...]
    classes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    unique: tuple[bool, ...] = ()

    @property
    def unique_share(self) -> float | None:
        return sum(self.unique) / len(self.unique) if self.unique else None

    def class_targets(self, name: str, total: int, order: Callable[[str], Any] | None = None) -> dict[str, int]:
        """How many of ``total`` generated items each label of class ``name`` should get:
        the reference's shares scaled (largest remainders, ties to the earlier label)."""
        seen = Counter(self.classes[name])
        labels = sorted(seen, key=order) if order is not None else sorted(seen)
        return grading.counts(total, {label: seen[label] for label in labels})

    def quantiles(self) -> Quantiles:
        return Quantiles(self.difficulties)


@dataclass(frozen=True, slots=True)
class Quantiles:
    """See the module docstring."""

    difficulties: tuple[float, ...]
    tops: tuple[float, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:  # sorted once: bin_of runs for every candidate face
        object.__setattr__(self, "tops", tuple(sorted(set(self.difficulties))))

    def values(self) -> tuple[float, ...]:
        """The reference's distinct difficulties, in order: the bins' tops."""
        return self.tops

    def bin_of(self, difficulty: float) -> int:
        """The index of the least reference value at or above ``difficulty`` (the last bin
        for a difficulty above them all)."""
        return min(bisect.bisect_left(self.tops, difficulty), len(self.tops) - 1)

    def targets(self, total: int) -> Counter[int]:
        """How many of ``total`` generated values each bin should hold: the reference's
        distribution function scaled to ``total`` and rounded at every reference value, so the
        rounding never drifts to one end (largest remainders would favour early bins)."""
        values = self.values()
        below = Counter(bisect.bisect_left(values, d) for d in self.difficulties)
        out: Counter[int] = Counter()
        seen = placed = 0
        for k in range(len(values)):
            seen += below[k]
            upto = math.floor(total * seen / len(self.difficulties) + 0.5)
            out[k] = upto - placed
            placed = upto
        return out


class Match:
    """The KS distance between a generated sample and a reference, kept up to date under
    swaps of one value for another (local search). Every value the sample may hold must be in
    ``universe``."""

    def __init__(self, reference: Sequence[float], sample: Iterable[float], universe: Iterable[float]) -> None:
        sample = list(sample)
        self._grid = sorted(set(reference) | set(universe) | set(sample))
        self._index = {v: i for i, v in enumerate(self._grid)}
        ref = np.zeros(len(self._grid))
        for v in reference:
            ref[self._index[v]] += 1
        self._ref = np.cumsum(ref) / len(reference)
        counts = np.zeros(len(self._grid))
        for v in sample:
            counts[self._index[v]] += 1
        self._n = len(sample)
        self._gap = np.cumsum(counts) / max(self._n, 1) - self._ref

    def distance(self) -> float:
        return float(np.abs(self._gap).max()) if self._n else 1.0

    def _moved(self, out: float, into: float) -> tuple[int, int, float]:
        i, j = self._index[out], self._index[into]
        # the sample's distribution function falls by 1/n on [i, j) or rises by 1/n on [j, i)
        return (i, j, -1.0 / self._n) if i < j else (j, i, 1.0 / self._n)

    def trial(self, out: float, into: float) -> float:
        """The distance after the sample swaps ``out`` for ``into``."""
        lo, hi, step = self._moved(out, into)
        if lo == hi:
            return self.distance()
        inside = float(np.abs(self._gap[lo:hi] + step).max())
        outside = max(float(np.abs(self._gap[:lo]).max()) if lo else 0.0,
                      float(np.abs(self._gap[hi:]).max()) if hi < len(self._grid) else 0.0)
        return max(inside, outside)

    def swap(self, out: float, into: float) -> None:
        lo, hi, step = self._moved(out, into)
        self._gap[lo:hi] += step


def bound_ks(model: Any, chosen: Sequence[Any], values: Sequence[float], reference: Sequence[float], cards: int,
             weight: int) -> list[Any]:
    """Add the KS distance between the chosen items' values and ``reference`` to a CP-SAT
    ``model`` (``chosen[i]`` the Boolean of an item with ``values[i]``, ``cards`` of them
    chosen), exactly: between two reference values the reference's distribution function is
    flat and the sample's rises, so the largest gap lies at a reference value or just below
    one; the model bounds the gap at both for every value. Returns the cost terms: a gap of
    one item's worth past ``AIM`` costs ``10 * weight``, within it ``weight / 4``."""
    n, m = cards, len(reference)
    gap = model.new_int_var(0, n * m, "ks_gap")  # in units of 1 / (n * m): |m * C(t) - n * R(t)| <= gap
    theirs = sorted(reference)
    for v in sorted(set(theirs)):
        for below in (False, True):
            mine = [x for x, d in zip(chosen, values) if (d < v if below else d <= v)]
            r = sum(d < v if below else d <= v for d in theirs)
            model.add(m * sum(mine) - n * r <= gap)
            model.add(n * r - m * sum(mine) <= gap)
    past = model.new_int_var(0, n * m, "ks_past")
    model.add(past >= gap - math.floor(AIM * n * m))
    return [past * (10 * weight // m + 1), gap * (weight // (4 * m) + 1)]


def read_reference(value: Any, label: str, read_deck: Callable[[str], D]) -> D:
    """The deck a ``--like`` option names, read by the game's ``read_deck``.

    Raises:
        RequestError: not a file name, or the file cannot be read as the game's deck (one
            line naming ``label`` and the file's own problem).
    """
    if not isinstance(value, str) or not value.strip():
        raise RequestError(f"{label}: expected a deck file, got {value!r}")
    try:
        return read_deck(value)
    except DeckError as err:
        raise RequestError(f"{label}: {err}") from None


def refuse(label: str, source: str, why: str) -> RequestError:
    """The one line that says a reference cannot be followed, and why."""
    return RequestError(f"{label}: cannot make a deck like {source}: {why}")


def comparison(mine: Profile, theirs: Profile, source: str, *, unit: str, items: str,
               skipped: int = 0, orders: Mapping[str, Callable[[str], Any]] | None = None) -> list[Figure]:
    """How a deck made like a reference compares with it: the KS distance between the
    difficulties, the unique shares, the ranges, and each class side by side (counts and
    shares). ``items`` names what a difficulty belongs to (``faces``, ``cards``)."""
    ks = grading.ks_distance(mine.difficulties, theirs.difficulties)
    unrated = f"; {skipped} of its {items} could not be rated" if skipped else ""
    out: list[Figure] = [Fact(f"like {source}",
                              f"KS distance {ks:.3f} between the {items}' difficulties (aim <= {AIM}; "
                              f"{len(mine.difficulties)} {items} here, {len(theirs.difficulties)} there{unrated})")]
    if mine.unique_share is not None and theirs.unique_share is not None:
        out.append(Fact(f"unique {items}", f"{mine.unique_share:.0%} here, {theirs.unique_share:.0%} in the reference"))
    out.append(Fact("difficulty range", f"{min(mine.difficulties):.2f}-{max(mine.difficulties):.2f} {unit} here, "
                    f"{min(theirs.difficulties):.2f}-{max(theirs.difficulties):.2f} in the reference"))
    for name in theirs.classes:
        out.append(class_table(name, mine.classes.get(name, ()), theirs.classes[name],
                               (orders or {}).get(name)))
    return out


def class_table(name: str, mine: Sequence[str], theirs: Sequence[str],
                order: Callable[[str], Any] | None = None) -> Table:
    """Rows ``(label, here, reference)`` over every label either side has, each a count and
    its share."""
    a, b = Counter(mine), Counter(theirs)

    def cell(n: int, total: int) -> str:
        return f"{n} ({n / total:.0%})" if total else str(n)

    labels = sorted(set(a) | set(b), key=order) if order is not None else sorted(set(a) | set(b))
    rows = tuple((label, cell(a[label], len(mine)), cell(b[label], len(theirs))) for label in labels)
    return Table((name, "here", "in the reference"), rows, "<>>")


def natural(label: str) -> tuple[Any, ...]:
    """Labels in their natural order: numbers by value (``2`` < ``10``), ``2x1`` and ``9-16``
    by their parts, words by the alphabet."""
    parts = re.findall(r"\d+|\D+", label)
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts)
