"""Grading content by difficulty, shared by every game's generator and verifier.

Nouns:
    Tier    easy / medium / hard. A card's tier is that of its mean difficulty against two
            ``bounds`` (easy below the first, hard from the second).
    target  the share of cards per tier (``thirds``, ``ramp``, weights such as
            ``easy:2,medium:2,hard:1``), or None for no target.

One rule, used on both sides: ``mean`` is order-independent (``math.fsum``, rounded to a
fixed grid), so the generator and the verifier put a card in the same tier whatever order
they add its faces in; stored difficulties are rounded to ``STEP`` and compared with
``close`` (a tolerance of one rounding step).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from enum import Enum
from typing import TypeVar

from generators.common.errors import RequestError

K = TypeVar("K", bound=Hashable)

#: Stored difficulties are rounded to this step (hundredths of a bit).
STEP = 0.01


class Tier(Enum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


#: Named difficulty targets: the share of cards in each tier.
TARGETS: dict[str, dict[Tier, int]] = {
    "thirds": {Tier.EASY: 1, Tier.MEDIUM: 1, Tier.HARD: 1},
    "easy": {Tier.EASY: 1},
    "medium": {Tier.MEDIUM: 1},
    "hard": {Tier.HARD: 1},
    "ramp": {Tier.EASY: 3, Tier.MEDIUM: 2, Tier.HARD: 1},
}


def mean(values: Iterable[float]) -> float:
    """The mean, the same for every order of ``values`` (exact sum, then rounded to 1e-9 so
    that the division's last bit cannot tip a comparison).

    Raises:
        ValueError: no values.
    """
    values = list(values)
    if not values:
        raise ValueError("the mean of no values")
    return round(math.fsum(values) / len(values), 9)


def standard_error(values: Sequence[float]) -> float:
    """The standard error of the mean of ``values`` (the sample's spread over the square
    root of its size; 0 for fewer than two values)."""
    values = list(values)
    if len(values) < 2:
        return 0.0
    centre = math.fsum(values) / len(values)
    return math.sqrt(math.fsum((v - centre) ** 2 for v in values) / (len(values) - 1) / len(values))


def close(a: float, b: float, step: float = STEP) -> bool:
    """Whether two stored difficulties agree to within one rounding step."""
    return abs(a - b) <= step + 1e-9


def counts(total: int, weights: Mapping[K, int]) -> dict[K, int]:
    """Split ``total`` in proportion to ``weights`` by largest remainders (ties to the
    earlier key), so the parts add up to ``total`` exactly."""
    whole = sum(weights.values())
    if whole <= 0:
        raise ValueError("weights must have a positive sum")
    exact = {k: total * w / whole for k, w in weights.items()}
    out = {k: int(v) for k, v in exact.items()}
    order = list(weights)
    short = total - sum(out.values())
    for k in sorted(exact, key=lambda k: (-(exact[k] - int(exact[k])), order.index(k)))[:short]:
        out[k] += 1
    return out


def quantile_bounds(values: Sequence[float], parts: int = 3) -> tuple[float, ...]:
    """The ``parts - 1`` values that split ``values`` into equal shares (the lower ends of
    every share but the first)."""
    ordered = sorted(values)
    if not ordered:
        return tuple(0.0 for _ in range(parts - 1))
    return tuple(ordered[(k * len(ordered)) // parts] for k in range(1, parts))


def parse_target(text: str, name: str = "difficulty") -> dict[Tier, int] | None:
    """``any`` (no target), a name from ``TARGETS``, or weights like ``easy:2,medium:2,hard:1``.

    Raises:
        RequestError: anything else, naming ``name``.
    """
    if not isinstance(text, str):
        raise RequestError(f"{name}: expected any, {', '.join(TARGETS)} or weights, got {text!r}")
    text = text.strip().lower()
    if text == "any":
        return None
    if text in TARGETS:
        return dict(TARGETS[text])
    out: dict[Tier, int] = {}
    for part in text.split(","):
        tier_name, _, weight = part.partition(":")
        try:
            tier = Tier(tier_name.strip())
            share = int(weight)
        except ValueError:
            raise RequestError(f"{name}: expected any, {', '.join(TARGETS)} or weights like "
                               f"easy:2,medium:2,hard:1, got {text!r}") from None
        if share < 0:
            raise RequestError(f"{name}: weights must not be negative, got {text!r}")
        out[tier] = out.get(tier, 0) + share
    if not any(out.values()):
        raise RequestError(f"{name}: at least one weight must be positive, got {text!r}")
    return {t: out[t] for t in Tier if out.get(t)}


def target_text(target: Mapping[Tier, int] | None) -> str:
    if target is None:
        return "any"
    return ",".join(f"{t.value}:{target[t]}" for t in Tier if t in target)


def check_bounds(bounds: object, name: str = "tier_bounds") -> tuple[float, float]:
    """Two finite, ordered numbers, or ``RequestError`` naming ``name``."""
    if (not isinstance(bounds, (list, tuple)) or len(bounds) != 2
            or not all(isinstance(b, (int, float)) and not isinstance(b, bool) and math.isfinite(b)
                       for b in bounds)):
        raise RequestError(f"{name}: expected two numbers [easy below, hard from], got {bounds!r}")
    low, high = float(bounds[0]), float(bounds[1])
    if low > high:
        raise RequestError(f"{name}: the easy bound {low} is above the hard bound {high}")
    return low, high


def tier_of(difficulty: float, bounds: tuple[float, float]) -> Tier:
    """The tier of a mean difficulty (see the module docstring)."""
    if difficulty < bounds[0]:
        return Tier.EASY
    if difficulty < bounds[1]:
        return Tier.MEDIUM
    return Tier.HARD


def band(tier: Tier, bounds: tuple[float, float]) -> tuple[float, float]:
    """The mean difficulties of ``tier``: ``[low, high)``."""
    return {Tier.EASY: (-math.inf, bounds[0]), Tier.MEDIUM: (bounds[0], bounds[1]),
            Tier.HARD: (bounds[1], math.inf)}[tier]


def tier_counts(cards: int, target: Mapping[Tier, int] | None) -> dict[Tier | None, int]:
    """How many cards each tier gets (largest remainders), or all of them untargeted."""
    if target is None:
        return {None: cards}
    return dict(counts(cards, {t: target[t] for t in Tier if t in target}))


def ks_distance(a: Sequence[float], b: Sequence[float]) -> float:
    """The two-sample Kolmogorov-Smirnov distance: the largest gap between the empirical
    distribution functions of ``a`` and ``b`` (0 alike, 1 apart).

    Raises:
        ValueError: either sample is empty.
    """
    xs, ys = sorted(a), sorted(b)
    if not xs or not ys:
        raise ValueError("the KS distance needs two non-empty samples")
    i = j = 0
    gap = 0.0
    for v in sorted(set(xs) | set(ys)):
        while i < len(xs) and xs[i] <= v:
            i += 1
        while j < len(ys) and ys[j] <= v:
            j += 1
        gap = max(gap, abs(i / len(xs) - j / len(ys)))
    return gap


def ranks(values: Sequence[float]) -> list[float]:
    """Each value's rank from 1, ties sharing the mean of their ranks."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Spearman's rank correlation (the Pearson correlation of the ranks, ties averaged);
    None when either side has no spread."""
    if len(xs) != len(ys) or len(xs) < 2:
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return None
    return float(sxy / (sxx * syy) ** 0.5)
