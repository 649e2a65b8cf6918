"""What a pattern is worth: points on an absolute scale of expected actions, and the shape
of the published deck.

The published deck prices its cards at about 0.9 points per expected action: its cards
worth 1, 2, 3 and 5 points take 1.4, 2.1, 3.5 and 5.2 actions on average (the mean least
number of swaps and flips from a random grid, measured exactly). Those means are the
scale's anchors (``ANCHORS``). A points value between or beyond them is placed on the line
through its neighbours, so any mix has an anchor per value; a pattern earns the value
whose anchor its difficulty is nearest to (the bounds are the midpoints between
neighbouring anchors). The scale is the same for every deck: a designer's hand-written
list is rated on it, whatever the default deck is.

The published deck's shape, measured over its 72 cards: 1-4 stones a pattern (8 with one,
48 with two, 13 with three, 3 with four) in windows of 1x2 (15 cards), 2x1 (15), 1x3 (13),
3x1 (8), 2x2 (6) and 3x3 (15; a 3x3 card pins its stones to places, a single stone to a
corner, an edge or the centre), never 2x3 or 3x2; faces used roughly in proportion to the
tiles that carry them.

A deck's points mix (``Mix``: cards per points value) is read by ``parse_mix``, written by
``mix_text`` and scaled to a deck size by ``scaled``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from generators.common import grading, parse
from generators.common.errors import RequestError

#: (points, mean least actions) of the published deck's cards at each points value.
ANCHORS: tuple[tuple[int, float], ...] = ((1, 1.4), (2, 2.1), (3, 3.5), (5, 5.2))
#: The published points mix: (points, cards).
PUBLISHED_MIX: tuple[tuple[int, int], ...] = ((1, 28), (2, 26), (3, 13), (5, 5))
#: Windows (rows, columns) of the published deck, with their cards.
PUBLISHED_WINDOWS: tuple[tuple[tuple[int, int], int], ...] = (
    ((1, 2), 15), ((2, 1), 15), ((1, 3), 13), ((3, 1), 8), ((2, 2), 6), ((3, 3), 15))
#: Stones per pattern in the published deck, with their cards.
PUBLISHED_STONES: tuple[tuple[int, int], ...] = ((1, 8), (2, 48), (3, 13), (4, 3))


def anchor(points: int) -> float:
    """The mean least actions a card worth ``points`` should take: an anchor, or the line
    through the nearest two anchors (beyond them, the last two)."""
    known = dict(ANCHORS)
    if points in known:
        return known[points]
    below = [a for a in ANCHORS if a[0] < points]
    above = [a for a in ANCHORS if a[0] > points]
    (p0, d0), (p1, d1) = (below[-1], above[0]) if below and above else \
        (ANCHORS[-2], ANCHORS[-1]) if below else (ANCHORS[0], ANCHORS[1])
    return round(d0 + (points - p0) * (d1 - d0) / (p1 - p0), 6)


def bounds(values: Sequence[int]) -> tuple[tuple[tuple[int, float], ...], int]:
    """The scale over the points ``values`` (in rising order): ((points, most difficulty),
    ...) for every value but the last, and the last value, which takes everything above."""
    values = sorted(set(values))
    out = tuple((p, round((anchor(p) + anchor(q)) / 2, 6)) for p, q in zip(values, values[1:]))
    return out, values[-1]


def rate(difficulty: float, scale: tuple[tuple[tuple[int, float], ...], int]) -> int:
    """The points a pattern of ``difficulty`` earns on ``scale`` (``bounds``)."""
    steps, top = scale
    for points, most in steps:
        if difficulty <= most:
            return points
    return top


#: The scale over the published values 1, 2, 3 and 5.
PUBLISHED_SCALE = bounds([p for p, _ in ANCHORS])


Mix = tuple[tuple[int, int], ...]


def mix_text(mix: Mix) -> str:
    return ",".join(f"{p}:{n}" for p, n in mix)


def parse_mix(value: Any, name: str) -> Mix:
    """``"1:28,2:26,3:13,5:5"`` (or a TOML table ``{1 = 28, ...}``) as ((points, cards), ...)
    in rising points."""
    if isinstance(value, tuple):
        return value
    pairs: list[tuple[Any, Any]]
    if isinstance(value, Mapping):
        pairs = list(value.items())
    elif isinstance(value, str) and re.fullmatch(r"\s*\d{1,3}\s*:\s*\d{1,4}\s*(,\s*\d{1,3}\s*:\s*\d{1,4}\s*)*", value):
        pairs = [tuple(p.split(":")) for p in value.split(",")]  # type: ignore[misc]
    else:
        raise RequestError(f"{name}: expected POINTS:CARDS pairs like 1:28,2:26,3:13,5:5, got {value!r}")
    out: dict[int, int] = {}
    for points, cards in pairs:
        p = parse.parse_int(points, f"{name}: points", low=1, high=99)
        n = parse.parse_int(cards, f"{name}: cards worth {p}", low=1, high=10_000)
        if p in out:
            raise RequestError(f"{name}: {p} points appears twice")
        out[p] = n
    return tuple(sorted(out.items()))


def scaled(mix: Mix, cards: int) -> Mix:
    """``mix`` scaled to ``cards`` (largest remainders), keeping every value at one card at
    least while there are cards enough."""
    shares = grading.counts(cards, {i: n for i, (_, n) in enumerate(mix)})
    counts = [shares[i] for i in range(len(mix))]
    for i in range(len(counts)):  # a value with no card: take one from the largest
        if counts[i] == 0 and cards >= len(counts):
            j = max(range(len(counts)), key=lambda j: counts[j])
            counts[j] -= 1
            counts[i] += 1
    return tuple((p, n) for (p, _), n in zip(mix, counts) if n)
