"""Puzzle Temple's candidates: a lock with the block sets that tile it, and the cards chosen
from them (shared by the generator's selection and by "more like mine")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from generators.common.grading import Tier
from solver.puzzle import Solution
from solver.shapes import Shape


@dataclass(frozen=True, slots=True)
class Option:
    """A block set that tiles a candidate lock, with its proof and rating."""

    blocks: tuple[str, ...]
    solutions: int
    difficulty: float
    solution: Solution


@dataclass(frozen=True, slots=True)
class Candidate:
    """A lock with every allowed block set that tiles it (at least six)."""

    index: int
    lock: Shape
    options: tuple[Option, ...]


#: The chosen cards: each candidate, the six options on its faces and its tier (if any).
Chosen = list[tuple[Candidate, list[Option], Tier | None]]


def rebalance(chosen: Chosen, usage: Counter[str],
              keeps: Callable[[list[Option], Tier | None, Option, Option], bool],
              swapped: Callable[[Option, Option], None] | None = None) -> None:
    """Swap single faces for unused block sets of the same lock while that levels block usage
    (the sum of squared usage counts falls) and ``keeps(trial, tier, old, new)`` holds (the
    card stays in its tier, or the face in its share of the difficulty distribution);
    ``swapped(old, new)`` hears of every swap made."""
    improved = True
    while improved:
        improved = False
        for candidate, options, tier in chosen:
            for i, old in enumerate(options):
                best, gain = None, 0
                for new in [o for o in candidate.options if o not in options]:
                    trial = options[:i] + [new] + options[i + 1:]
                    if not keeps(trial, tier, old, new):
                        continue
                    # the change in the sum of squared usage counts, over the blocks it moves
                    change = Counter(new.blocks)
                    change.subtract(old.blocks)
                    delta = sum(d * (2 * usage[b] + d) for b, d in change.items())
                    if delta < gain:
                        best, gain = new, delta
                if best is not None:
                    if swapped is not None:
                        swapped(old, best)
                    usage.subtract(old.blocks)
                    usage.update(best.blocks)
                    options[i] = best
                    improved = True
