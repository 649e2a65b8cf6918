"""How hard a tiling puzzle is to solve: the exact expected effort of a model solver.

Nouns:
    Rating  a puzzle's difficulty in bits, with the figures it comes from: the expected
            effort, the chance of solving it without backtracking, the number of tilings,
            the search states and the placements that were forced on the way.

The model solver is a randomised backtracking search of the kind people and programs use.
At each step it looks at every placement that still fits (an unused piece on empty cells),
picks the empty cell that the fewest of them cover (the most constrained spot; ties go to
the first cell in reading order) and tries those placements there in random order; when
some cell can no longer be covered it backtracks. Its *effort* is the number of placements
it looks at before it completes its first tiling, and

    difficulty = log2(E[effort])   bits

where the expectation is over the random order of its tries. It is computed exactly over
the whole search tree, not sampled: a branch holding no tiling costs its full size; at a
node with ``s`` children holding tilings and failing children of sizes ``f1, f2, ...``, a
random order meets ``(f1 + f2 + ...) / (s + 1)`` of failed work before the first good child
(each failing child comes before the first good one with chance ``1 / (s + 1)``), and the
good child is a uniform pick among the ``s``. So dead ends that are large and likely to be
tried first raise the figure; many tilings, forced steps and few pieces lower it. The
figure depends only on the puzzle, not on any engine's cell order. ``bench/difficulty.py``
holds it against solvers that do not share its model (see the documentation).

``success`` (the chance the model solver never has to backtrack) and ``forced`` (steps on the
way to the first tiling where one placement was the only option) are reported beside it.
An unsolvable puzzle rates ``difficulty = inf``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from solver.errors import TempleforgeError
from solver.puzzle import Mode, Puzzle
from solver.shapes import Cell


class RatingLimit(TempleforgeError):
    """The rating search met more states than it was allowed (the puzzle is too big to rate
    exactly within the limit)."""


@dataclass(frozen=True, slots=True)
class Rating:
    """Difficulty in bits (``log2`` of the expected effort, see the module docstring) and its
    ingredients.

    Attributes:
        difficulty: ``log2(effort)``; ``inf`` when there is no tiling.
        effort: expected placements the model solver looks at before its first tiling (when
            there is none: the placements it looks at to exhaust the search).
        success: the chance that the model solver completes a tiling without backtracking.
        tilings: the number of tilings (counted by the same search).
        nodes: distinct search states the rating visited.
        forced: steps on the way to the first tiling (trying options in order) where one
            placement was the only option (0 when there is no tiling).
    """

    difficulty: float
    effort: float
    success: float
    tilings: int
    nodes: int
    forced: int

    @property
    def bits(self) -> float:
        """The difficulty rounded to hundredths, as stored in deck files."""
        return round(self.difficulty, 2)


@dataclass(frozen=True, slots=True)
class _Subtree:
    tilings: int
    size: float  # placements looked at to exhaust this subtree
    effort: float  # expected placements looked at before its first tiling (if any)
    success: float  # chance that random choices reach a tiling without backtracking


def rate(puzzle: Puzzle, *, max_states: int | None = None) -> Rating:
    """Rate ``puzzle`` (see the module docstring), counting what ``tiling.count`` counts: in
    mode ``subset`` a piece may be used up to its number of copies; in mode ``all`` every copy
    must be used, so pieces whose area differs from the region's give no tiling.

    Raises:
        RatingLimit: more than ``max_states`` search states were needed (Ubongo-size locks
            need tens to hundreds; a 6x10 pentomino box needs millions).
    """
    if puzzle.mode is Mode.ALL and puzzle.piece_area != puzzle.region.size:
        return Rating(math.inf, 0.0, 0.0, 0, 1, 0)  # no tiling can use every piece exactly
    order = sorted(puzzle.region.cells)  # reading order: row, then column (then layer)
    bit = {c: i for i, c in enumerate(order)}
    kind_of = {p.name: k for k, (p, _) in enumerate(puzzle.kinds)}
    copies = tuple(count for _, count in puzzle.kinds)
    full = (1 << len(order)) - 1

    covering = _covering(puzzle, bit, kind_of)

    def options(occupied: int, left: tuple[int, ...]) -> tuple[list[tuple[int, int]], int]:
        """The placements at the most constrained empty cell, and how many fitting
        placements the solver looked at to find it (each counted once)."""
        best: list[tuple[int, int]] | None = None
        seen: set[tuple[int, int]] = set()
        for i in range(len(order)):
            if occupied >> i & 1:
                continue
            fitting = [(m, k) for m, k in covering[i] if not m & occupied and left[k]]
            seen.update(fitting)
            if best is None or len(fitting) < len(best):
                best = fitting
        return best or [], len(seen)

    def after(left: tuple[int, ...], kind: int) -> tuple[int, ...]:
        return left[:kind] + (left[kind] - 1,) + left[kind + 1:]

    memo: dict[tuple[int, tuple[int, ...]], _Subtree] = {}

    def explore(occupied: int, left: tuple[int, ...]) -> _Subtree:
        if occupied == full:
            return _Subtree(1, 0.0, 0.0, 1.0)
        key = (occupied, left)
        if key in memo:
            return memo[key]
        if max_states is not None and len(memo) >= max_states:
            raise RatingLimit(f"rating needs more than {max_states} search states")
        choices, looked = options(occupied, left)
        children = [explore(occupied | m, after(left, k)) for m, k in choices]
        good = [c for c in children if c.tilings]
        size = looked + sum(c.size for c in children)
        if good:
            wasted = sum(c.size for c in children if not c.tilings) / (len(good) + 1)
            effort = looked + wasted + sum(c.effort for c in good) / len(good)
        else:
            effort = size
        success = sum(c.success for c in children) / len(children) if children else 0.0
        out = _Subtree(sum(c.tilings for c in children), size, effort, success)
        memo[key] = out
        return out

    root = explore(0, copies)
    forced = 0
    if root.tilings:  # walk to the first tiling, counting the steps with one option
        occupied, left = 0, copies
        while occupied != full:
            choices, _ = options(occupied, left)
            forced += len(choices) == 1
            for m, k in choices:
                rest = after(left, k)
                if occupied | m == full or explore(occupied | m, rest).tilings:
                    occupied, left = occupied | m, rest
                    break
    difficulty = math.log2(root.effort) if root.tilings and root.effort >= 1 else (0.0 if root.tilings else math.inf)
    return Rating(difficulty, root.effort, root.success, root.tilings, len(memo) + 1, forced)


def _covering(puzzle: Puzzle, bit: dict[Cell, int], kind_of: dict[str, int],
              compiled: bool = True) -> list[list[tuple[int, int]]]:
    """``covering[i]``: (mask, kind) of every placement that covers cell ``i`` (cells in
    reading order, ``bit``), in the order of ``puzzle.placements()``: made by the counter's
    compiled code where it takes the puzzle (``compiled``), else from the Python placements."""
    from solver import counter  # numba's, loaded when a rating is first asked for

    covering: list[list[tuple[int, int]]] = [[] for _ in bit]
    if compiled and counter.compilable(puzzle):
        masks, kinds = counter.in_reading_order(puzzle)
        for mask, kind in zip(masks, kinds):
            entry = (mask, kind)
            rest = mask
            while rest:
                low = rest & -rest
                covering[low.bit_length() - 1].append(entry)
                rest ^= low
        return covering
    for placement in puzzle.placements():
        mask = 0
        for c in placement.cells:
            mask |= 1 << bit[c]
        for c in placement.cells:
            covering[bit[c]].append((mask, kind_of[placement.piece]))
    return covering
