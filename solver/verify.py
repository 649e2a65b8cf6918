"""The independent checker: is a list of placements an exact tiling of a region?

Plain Python on purpose: no CP-SAT and nothing from the search engines (not even their
placement lists), so that it can serve as the specification the engines are tested against
and as the proof ``templeforge verify`` re-runs on stored solutions.

Nouns:
    Verdict  every problem found, in a stable order; ``ok`` when there are none.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import cast

from solver.errors import ShapeError
from solver.pieces import Piece
from solver.puzzle import Mode, Puzzle, Solution
from solver.shapes import Cell, Shape, as_cell

#: Placements larger than this many cells a side are listed, not drawn, in messages.
MAX_DRAWN = 16


@dataclass(frozen=True, slots=True)
class Verdict:
    """The result of a check: ``problems`` lists every fault found (empty when exact)."""

    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems

    def __bool__(self) -> bool:
        return self.ok


def _pair(item: object) -> tuple[str, list[object]]:
    if hasattr(item, "piece") and hasattr(item, "cells"):
        return str(item.piece), list(item.cells)
    name, cells = cast(tuple[str, Iterable[object]], item)
    return name, list(cells)


def _cell_text(c: Cell) -> str:
    return str(list(c))


def verify_tiling(
    region: Shape,
    pieces: Sequence[Piece],
    placements: Iterable[object],
    *,
    flips: bool = True,
    mode: Mode | str = Mode.ALL,
) -> Verdict:
    """Check that ``placements`` tile ``region`` exactly with the given pieces.

    Args:
        region: the cells that must be covered.
        pieces: the available pieces (a multiset: repeats are copies).
        placements: ``(piece name, cells)`` pairs or ``Placement`` values.
        flips: whether a piece may appear as its mirror image.
        mode: ``all`` (every piece used exactly as often as listed) or ``subset``.

    Returns:
        A Verdict naming every problem: unknown pieces, cells that do not form the piece's
        shape, cells outside the region, overlaps, uncovered cells, pieces used too often or
        (mode ``all``) not at all.
    """
    mode = Mode(mode)
    problems: list[str] = []
    shapes: dict[str, Shape] = {}
    copies: Counter[str] = Counter()
    for p in pieces:
        shapes.setdefault(p.name, p.shape)
        copies[p.name] += 1

    used: Counter[str] = Counter()
    owners: dict[Cell, list[int]] = defaultdict(list)
    for number, item in enumerate(placements, start=1):
        try:
            name, raw = _pair(item)
        except (TypeError, ValueError):
            problems.append(f"placement {number}: expected (piece, cells), got {item!r}")
            continue
        label = f"placement {number} ({name})"
        try:
            cells = [as_cell(c) for c in raw]
        except (TypeError, ShapeError):
            shown = repr(raw)
            problems.append(f"{label}: cells must be lists of integers, got "
                            f"{shown if len(shown) <= 80 else shown[:80] + ' ...'}")
            continue
        if not cells:
            problems.append(f"{label}: no cells")
            continue
        if any(len(c) != region.dim for c in cells):
            problems.append(f"{label}: cells must have {region.dim} coordinates like the region")
            continue
        repeated = sorted(c for c, k in Counter(cells).items() if k > 1)
        if repeated:
            problems.append(f"{label}: lists cell(s) {', '.join(map(_cell_text, repeated))} twice")
        outside = sorted(c for c in set(cells) if c not in region.cells)
        if outside:
            problems.append(f"{label}: cell(s) {', '.join(map(_cell_text, outside))} outside the region")
        for c in set(cells):
            owners[c].append(number)
        used[name] += 1
        if name not in shapes:
            problems.append(f"{label}: no piece of that name is available")
            continue
        want = shapes[name].lifted() if region.dim == 3 else shapes[name]
        if want.dim != region.dim:
            problems.append(f"{label}: a {want.dim}D piece cannot lie in a {region.dim}D region")
            continue
        try:
            got = Shape(frozenset(cells))
        except ShapeError as err:
            problems.append(f"{label}: {err}")
            continue
        if got.size != want.size or got.canonical(flips) != want.canonical(flips):
            how = "or its mirror image" if flips else "(mirror images not allowed)"
            small = all(e <= MAX_DRAWN for e in got.extent())
            picture = got.format().replace("\n", "/") if small else ", ".join(map(_cell_text, got.sorted_cells()[:8]))
            problems.append(f"{label}: cells {picture} are not the piece's shape {how}")

    for c in sorted(owners):
        if len(owners[c]) > 1 and c in region.cells:
            problems.append(f"cell {_cell_text(c)} is covered by placements {', '.join(map(str, owners[c]))}")
    uncovered = sorted(c for c in region.cells if c not in owners)
    if uncovered:
        shown = ", ".join(map(_cell_text, uncovered[:8])) + (" ..." if len(uncovered) > 8 else "")
        problems.append(f"{len(uncovered)} region cell(s) not covered: {shown}")
    for name in sorted(used):
        if name in copies and used[name] > copies[name]:
            problems.append(f"piece {name} is used {used[name]} times but only {copies[name]} available")
    if mode is Mode.ALL:
        missing = [f"{n}" + (f" ({copies[n] - used[n]} of {copies[n]})" if copies[n] > 1 else "")
                   for n in copies if used[n] < copies[n]]
        if missing:
            problems.append(f"piece(s) not used: {', '.join(missing)}")
    return Verdict(tuple(problems))


def verify_solution(puzzle: Puzzle, solution: Solution) -> Verdict:
    """``verify_tiling`` for a puzzle and one of its solutions."""
    return verify_tiling(puzzle.region, puzzle.pieces, solution.placements, flips=puzzle.flips,
                         mode=puzzle.mode)
