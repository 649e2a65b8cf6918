"""Difficulty tiers and targets: the rule that spreads a deck's cards over easy, medium and
hard, shared by the generator (which aims at it) and the verifier (which checks it).

Nouns:
    Tier    easy / medium / hard. A card's tier is that of its mean face difficulty against
            the deck's two ``tier_bounds`` (easy below the first, hard from the second).
    target  the share of cards per tier (``thirds``, ``ramp``, weights such as
            ``easy:2,medium:2,hard:1``), or None for no target.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum

from solver.errors import TempleforgeError


class SpecError(TempleforgeError, ValueError):
    """An impossible or malformed request; the message names each parameter at fault."""


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


def parse_target(text: str) -> dict[Tier, int] | None:
    """``any`` (no target), a name from ``TARGETS``, or weights like ``easy:2,medium:2,hard:1``.

    Raises:
        SpecError: anything else.
    """
    text = text.strip().lower()
    if text == "any":
        return None
    if text in TARGETS:
        return dict(TARGETS[text])
    out: dict[Tier, int] = {}
    for part in text.split(","):
        name, _, weight = part.partition(":")
        try:
            tier = Tier(name.strip())
            share = int(weight)
        except ValueError:
            raise SpecError(f"difficulty: expected any, {', '.join(TARGETS)} or weights like "
                            f"easy:2,medium:2,hard:1, got {text!r}") from None
        if share < 0:
            raise SpecError(f"difficulty: weights must not be negative, got {text!r}")
        out[tier] = out.get(tier, 0) + share
    if not any(out.values()):
        raise SpecError(f"difficulty: at least one weight must be positive, got {text!r}")
    return {t: w for t, w in out.items() if w}


def target_text(target: Mapping[Tier, int] | None) -> str:
    if target is None:
        return "any"
    return ",".join(f"{t.value}:{target[t]}" for t in Tier if t in target)


def tier_of(difficulty: float, bounds: tuple[float, float]) -> Tier:
    if difficulty < bounds[0]:
        return Tier.EASY
    if difficulty < bounds[1]:
        return Tier.MEDIUM
    return Tier.HARD


def tier_counts(cards: int, target: Mapping[Tier, int] | None) -> dict[Tier | None, int]:
    """How many cards each tier gets (largest remainders), or all of them untargeted."""
    if target is None:
        return {None: cards}
    total = sum(target.values())
    exact = {t: cards * w / total for t, w in target.items()}
    out: dict[Tier | None, int] = {t: int(v) for t, v in exact.items()}
    short = cards - sum(out.values())
    for t in sorted(exact, key=lambda t: (-(exact[t] - int(exact[t])), list(Tier).index(t)))[:short]:
        out[t] += 1
    return out
