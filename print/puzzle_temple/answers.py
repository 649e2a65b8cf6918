"""Puzzle Temple's answer key: a solution of every face (stored, or found here), drawn as the
card shows it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from generators.common import grading
from generators.common.grading import Tier
from generators.puzzle_temple.deck import Card, Deck
from print.common.layout import FOOTER, Box, Segment
from print.common.pdf import MIN_TEXT, Document
from print.common.sheets import margin_note, wrap
from print.common.sizes import Paper
from print.puzzle_temple.cards import GRID, CardLayout, Cell, _extent, tier_symbol

# -- what each face shows -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Answer:
    """A face's solution for the answer key and its difficulty for the tier: stored in the
    deck, or worked out here for a hand-written deck. ``reason`` says why there is no
    solution to draw; ``note`` that it was found here rather than read from the file."""

    die: int
    solution: Mapping[str, tuple[Cell, ...]] | None
    difficulty: float | None
    reason: str | None = None
    note: str = ""


def answers(deck: Deck, card: Card, time_limit: float | None = None) -> tuple[Answer, ...]:
    """Every face's answer: a stored solution is checked cell by cell and used; a face
    without one (or with a wrong one) is solved and rated here by the verifier."""
    from generators.puzzle_temple import verify as pt_verify  # here: the solver loads only when a face is solved
    from solver import tiling
    from solver.verify import verify_tiling

    out = []
    for face in card.faces:
        stored = face.solution
        if stored is not None and face.difficulty is not None:
            puzzle = deck.puzzle(card, face)
            if verify_tiling(card.lock, puzzle.pieces, stored.placements, flips=deck.flips).ok:
                out.append(Answer(face.die, _cells(stored), face.difficulty))
                continue
        check = pt_verify.check_face(deck, card, face, time_limit=time_limit)
        note = "solved here" if stored is None else "solved here: the stored solution is wrong"
        if check.solution is None:
            why = check.reason or "no solution"
            if check.status is tiling.Status.UNSOLVABLE:
                why = f"cannot be solved: {why}"
            out.append(Answer(face.die, None, None, why, note))
        else:
            out.append(Answer(face.die, _cells(check.solution), check.difficulty, None,
                              "" if check.solution == stored else note))
    return tuple(out)


def _cells(solution: object) -> dict[str, tuple[Cell, ...]]:
    return {p.piece: tuple(p.cells) for p in solution.placements}  # type: ignore[attr-defined]


def card_tier(found: Sequence[Answer], bounds: tuple[float, float]) -> Tier | None:
    values = [a.difficulty for a in found]
    if not values or any(v is None for v in values):
        return None
    return grading.tier_of(grading.mean(values), bounds)  # type: ignore[arg-type]


# -- answers ---------------------------------------------------------------------------------------


def draw_answers(doc: Document, deck: Deck, found: Sequence[tuple[Answer, ...]], lays: Sequence[CardLayout],
                 tiers: Sequence[Tier | None], paper: Paper, margin: float, key: Mapping[str, str],
                 palette: Mapping[str, str], title: str) -> None:
    """The answer key: per card, each face's solution drawn small, as the card shows the
    lock (turned alike), in the blocks' colours and letters."""
    width, height = paper.width, paper.height
    area = Box(margin, margin + FOOTER, width - 2 * margin, height - 2 * margin - FOOTER - 6)
    most_rows = max(_extent(lay.lock)[0] for lay in lays)
    most_cols = max(_extent(lay.lock)[1] for lay in lays)
    slot_w = area.w / 6
    cell = min(5.0, (slot_w - 4) / most_cols)
    entry_h = 6.0 + 5.0 + most_rows * cell + 4.0
    per_page = max(1, int(area.h // entry_h))
    pages = math.ceil(len(deck.cards) / per_page)
    for p in range(pages):
        with doc.page(width, height) as pen:
            pen.text(area.x, area.y1 + 2, f"{title}: answer key", 10, bold=True)
            top = area.y1 - 1
            chunk = range(p * per_page, min(len(deck.cards), (p + 1) * per_page))
            for i in chunk:
                card, lay = deck.cards[i], lays[i]
                pen.text(area.x, top - 4, f"card {card.id}", 8, bold=True)
                tier_symbol(pen, area.x + 30, top - 3, tiers[i], size=2.6)
                pen.line(Segment(area.x, top - 5.5, area.x1, top - 5.5), 0.15, "#999999")
                for j, ans in enumerate(found[i]):
                    x = area.x + j * slot_w
                    pen.pips(Box(x, top - 10.5, 4.0, 4.0), ans.die)
                    if ans.note:
                        pen.text(x + 5, top - 9.6, ans.note.split(":")[0], MIN_TEXT, colour="#555555")
                    grid_top = top - 12.5
                    if ans.solution is None:
                        pen.cells(lay.lock, x, grid_top, cell, "#EEEEEE", grid=GRID)
                        below = grid_top - _extent(lay.lock)[0] * cell - 2.6
                        for n, line in enumerate(wrap(ans.reason or "", MIN_TEXT, slot_w - 2)):
                            pen.text(x, below - n * 2.9, line, MIN_TEXT, colour="#B00000")
                        continue
                    for name, cells in sorted(ans.solution.items()):
                        drawn = as_drawn(cells, card, lay)
                        pen.cells(drawn, x, grid_top, cell, palette[name], edge_width=0.3, letter=key[name],
                                  letter_size=min(7.0, cell * 2.0))
                top -= entry_h
            margin_note(pen, Box(margin, margin, width - 2 * margin, FOOTER),
                        f"{title}  |  answer key, page {p + 1} of {pages}",
                        "each face's stored solution; 'solved here' marks one this tool found for a hand-written deck")


def as_drawn(cells: Sequence[Cell], card: Card, lay: CardLayout) -> tuple[Cell, ...]:
    """Solution cells in the lock's frame as the card draws it (turned alike)."""
    if not lay.turned:
        return tuple(cells)
    rows = max(r for r, _ in card.lock.cells) + 1
    return tuple((c, rows - 1 - r) for r, c in cells)
