"""The figures of a Puzzle Temple deck, as data (``generators.common.figures``).

``summary`` is what ``generate`` prints after a deck is made (lock sizes, block usage, tiers,
the difficulty histogram), ``report`` what ``verify`` prints (a row per card, then faces
drawn where asked, then the summary), ``cards`` what ``show`` prints. The terminal, the PDF
answer key and the build report all draw from these.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from generators.common.figures import Bars, Drawing, Fact, Figure, Histogram, Table
from generators.common.grading import Tier
from generators.common.words import plural
from generators.puzzle_temple.deck import Card, Deck, Face
from solver.puzzle import Solution
from solver.shapes import Shape

if TYPE_CHECKING:  # the verifier's types only: this module loads no solver until one is needed
    from generators.puzzle_temple.verify import DeckCheck, FaceCheck


def _span(lo: int, hi: int) -> str:
    return f"{lo}" if lo == hi else f"{lo}-{hi}"


def drawing(solution: Solution, region: Shape, key: dict[str, str]) -> str:
    """A solution drawn with the deck's letters, and its legend."""
    legend = solution.legend(key)
    return solution.picture(region, key) + (f"\n{legend}" if legend else "")


def summary(deck: Deck, check: DeckCheck, spec: Any = None) -> list[Figure]:
    """Lock sizes and blocks per face, block usage, the tier spread and the histogram of face
    difficulties (recomputed by the verifier); for a deck made ``--like`` a reference, how
    well it matches (the KS distance, unique faces, lock sizes side by side)."""
    out: list[Figure] = []
    sizes = sorted({c.lock.size for c in deck.cards})
    per_face = sorted({len(f.blocks) for c in deck.cards for f in c.faces})
    out.append(Fact("locks", f"{_span(sizes[0], sizes[-1])} cells; {_span(per_face[0], per_face[-1])} "
                             f"blocks per face"))
    usage = ", ".join(f"{name} {n}" for name, n in check.usage.items())
    ratio = check.usage_ratio
    out.append(Fact("block usage (faces)", f"{usage}; max/min {ratio:.2f}" if ratio is not None
                    else f"{usage}; some block is never used"))
    tiers = [check.tier(c.id) for c in deck.cards]
    if check.bounds is not None and all(t is not None for t in tiers):
        spread = Counter(t.value for t in tiers if t is not None)
        low, high = check.bounds
        out.append(Fact("card tiers by mean face difficulty",
                        f"easy {spread['easy']}, medium {spread['medium']}, hard {spread['hard']} "
                        f"(easy below {low} bits, hard from {high}; {check.scale})"))
    values = [f.difficulty for f in check.faces if f.difficulty is not None]
    if values:
        out.append(Histogram.of("face difficulty (bits)", values))
    reference = getattr(spec, "like", None)
    if reference is not None and values:
        out.extend(likeness(deck, check, reference))
    return out


def likeness(deck: Deck, check: DeckCheck, reference: Any) -> list[Figure]:
    """How a deck made ``--like`` a reference compares with it (``generators.common.like``)."""
    from generators.common.like import Profile, comparison, natural
    from generators.puzzle_temple.reference import LOCK_CELLS

    faces = [f for f in check.faces if f.difficulty is not None]
    mine = Profile(tuple(f.difficulty for f in faces if f.difficulty is not None),
                   {LOCK_CELLS: tuple(str(c.lock.size) for c in deck.cards)},
                   tuple(f.count == 1 for f in faces))
    return comparison(mine, reference.profile, reference.source, unit="bits", items="faces",
                      skipped=reference.skipped, orders={LOCK_CELLS: natural})


def count_text(f: FaceCheck) -> str:
    from solver.tiling import Status

    if f.status is Status.UNSOLVABLE:
        return "0"
    return str(f.count) if f.exhaustive else f">={f.count}"


def card_table(deck: Deck, check: DeckCheck) -> Table:
    """A row per card: id, cells, solutions of faces 1-6, mean difficulty, tier, ok/FAIL."""
    faces = {(str(f.card), f.die): f for f in check.faces}
    rows = []
    for card in deck.cards:
        mine = [faces[(str(card.id), f.die)] for f in card.faces]
        mean = check.card_difficulty(card.id)
        tier = check.tier(card.id)
        bad = any(f.problems for f in mine) or any(p.startswith(f"card {card.id}:") or
                                                   p.startswith(f"card {card.id},")
                                                   for p in check.rule_problems)
        rows.append((str(card.id), str(card.lock.size), " ".join(count_text(f) for f in mine),
                     f"{mean:.2f}" if mean is not None else "-", tier.value if tier else "-",
                     "FAIL" if bad else "ok"))
    return Table(("card", "cells", "solutions, faces 1-6", "difficulty", "tier", "check"), tuple(rows),
                 ">><>< ", orders=((4, ("-", *(t.value for t in Tier))),))


def face_drawing(deck: Deck, card: Card, face: Face, f: FaceCheck) -> Drawing:
    """A face as ``verify`` finds it: solvable (count, unique, rating, a solution drawn) or
    why not."""
    from solver.tiling import Status

    head = f"card {card.id}, face {face.die}: {' '.join(face.blocks)}"
    if f.status is Status.UNSOLVABLE:
        return Drawing(f"{head}: cannot be solved: {f.reason}", "")
    if f.status is Status.UNKNOWN:
        return Drawing(f"{head}: unknown ({f.reason})", "")
    unique = {True: "unique", False: "not unique", None: "unique not known"}[f.unique]
    count = plural(f.count, "solution") if f.exhaustive else f"at least {plural(f.count, 'solution')}"
    rated = f", {f.difficulty:.2f} bits" if f.difficulty is not None else ""
    picture = drawing(f.solution, card.lock, deck.letters()) if f.solution is not None else ""
    return Drawing(f"{head}: solvable, {count}, {unique}{rated}", picture)


def report(deck: Deck, check: DeckCheck, show_all: bool = False) -> list[Figure]:
    """What ``verify`` prints: the card table, faces drawn (every face with ``show_all``,
    else those without a stored solution), then the summary."""
    out: list[Figure] = [card_table(deck, check)]
    faces = {(str(f.card), f.die): f for f in check.faces}
    for card in deck.cards:
        for face in card.faces:
            if show_all or face.solution is None:
                out.append(face_drawing(deck, card, face, faces[(str(card.id), face.die)]))
    return out + summary(deck, check)


def cards(deck: Deck, chosen: Sequence[Card]) -> list[Figure]:
    """What ``show`` prints: each card's lock, then each face with its stored solution (or
    one found now)."""
    from solver.tiling import solve

    key = deck.letters()
    out: list[Figure] = []
    for card in chosen:
        out.append(Drawing(f"card {card.id}: lock of {card.lock.size} cells", card.lock.format()))
        for face in card.faces:
            solution, note = face.solution, ""
            if solution is None:
                solution = solve(deck.puzzle(card, face)).solution
                note = " (solved now)"
            counted = f", {plural(face.solutions, 'solution')}" if face.solutions is not None else ""
            rated = f", {face.difficulty:.2f} bits" if face.difficulty is not None else ""
            out.append(Drawing(f"face {face.die}: {' '.join(face.blocks)}{counted}{rated}{note}",
                               drawing(solution, card.lock, key) if solution is not None else "cannot be solved"))
    return out




def verdict(deck: Deck, check: DeckCheck) -> Fact:
    """The verification verdict in one line."""
    if check.ok:
        return Fact("verification", f"every face of the {plural(len(deck.cards), 'card')} ({len(check.faces)} "
                                    f"faces) proved solvable by the independent verifier; the deck's rules hold")
    return Fact("verification", f"FAILED: {'; '.join(check.problems[:3])}")


def build_report(deck: Deck, check: DeckCheck) -> list[Figure]:
    """What the build report shows: the verdict, the summary, the block usage as bars, and a
    row per card with face 1's solution as a picture, each face's solutions and difficulty,
    and the card's tier."""
    from generators.common.palette import assign

    faces = {(str(f.card), f.die): f for f in check.faces}
    key = deck.letters()
    colours = assign([b.name for b in deck.blocks])
    rows = []
    for card in deck.cards:
        mine = [faces[(str(card.id), f.die)] for f in card.faces]
        first = mine[0].solution if mine else None
        picture = first.picture(card.lock, key) if first is not None else card.lock.format()
        mean = check.card_difficulty(card.id)
        tier = check.tier(card.id)
        rows.append((str(card.id), picture, str(card.lock.size), " ".join(count_text(f) for f in mine),
                     " ".join(f"{f.difficulty:.2f}" if f.difficulty is not None else "-" for f in mine),
                     f"{mean:.2f}" if mean is not None else "-", tier.value if tier else "-"))
    table = Table(("card", "face 1 solved", "cells", "solutions, faces 1-6", "difficulty (bits), faces 1-6",
                   "mean difficulty", "tier"), tuple(rows), "><>>>><", pictures=(1,),
                  colours=tuple((key[name], colours[name]) for name in key),
                  orders=((6, ("-", *(t.value for t in Tier))),))
    usage = Bars("faces that use each block", tuple(check.usage), tuple(float(n) for n in check.usage.values()))
    return [verdict(deck, check), *summary(deck, check), usage, table]
