"""Puzzle Temple in the design studio (``generators.contract.Studio``): a lock painted on a
grid and a block set picked for each die face, proved as the designer draws.

The draft the page edits is JSON: ``{"grid": ["###.", ...], "lists": [[block, ...] x 6]}``
(``#`` a cell of the lock, ``.`` none; one list of block names per die face 1-6). ``prove``
answers with every face's verdict (solved with its number of solutions, or unsolvable with
the reason the solver proved, or unknown when the time limit came first), its difficulty
and one solution to draw over the lock, and the card's tier on the deck's scale. ``put``
gives the deck with the card in place: its faces' proofs are left for the verifier, which
``templeforge studio`` runs before it seals the file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from generators.common.errors import RequestError
from generators.common.studio import new_id, placed
from generators.puzzle_temple.deck import DICE, Card, Deck, Face
from solver import tiling
from solver.shapes import Shape

#: The largest lock the editor paints (rows, columns): Ubongo's largest cards fit in 6x6.
ROWS, COLUMNS = 6, 7
#: Blocks a face may list.
PICK = (2, 5)


def pick(deck: Deck) -> tuple[int, int]:
    """Blocks a face may list: the deck's ``blocks_per_face`` where it records one."""
    raw = deck.parameters.get("blocks_per_face")
    if isinstance(raw, list) and len(raw) == 2 and all(isinstance(x, int) for x in raw):
        return raw[0], raw[1]
    return PICK


def blank() -> Deck:
    """A new deck: no card yet, the ubongo12 blocks (the generator's default set), listed."""
    from solver.pieces import preset

    return Deck((), tuple(preset("ubongo12", True)))


def table(deck: Deck) -> dict[str, Any]:
    """Each card's mean difficulty (bits) and its faces' solutions, as stored."""
    rows = []
    for c in deck.cards:
        counts = [f.solutions for f in c.faces]
        rows.append({"id": c.id, "values": [c.difficulty, None if None in counts else sum(counts)]})  # type: ignore[arg-type]
    return {"columns": ["difficulty (bits)", "solutions, all faces"], "rows": rows}


def editor(deck: Deck) -> dict[str, Any]:
    """What the page draws: a grid to paint and a list of blocks per die face."""
    return {"title": "Lock card", "grid": {"label": "Lock", "rows": ROWS, "columns": COLUMNS},
            "lists": {"label": "Face", "names": [str(d) for d in DICE], "pick": list(pick(deck)),
                      "choices": [b.name for b in deck.blocks]},
            "help": "Click or drag on the grid to paint the lock; pick each face's blocks below."}


def draft(deck: Deck, card_id: Any = None) -> dict[str, Any]:
    """Card ``card_id`` as the editor edits it (None: a new card, a 3x4 lock and the first
    blocks that cover it left for the designer to choose)."""
    if card_id is None:
        return {"grid": ["####", "####", "####"], "lists": [[] for _ in DICE]}
    card = deck.card(card_id)
    return {"grid": card.lock.normalized().format().splitlines(), "lists": [list(card.face(d).blocks) for d in DICE]}


def card_of(deck: Deck, data: Mapping[str, Any], card_id: Any) -> Card:
    """The card a draft describes.

    Raises:
        RequestError: the draft is malformed (an empty lock, a block the deck lacks, ...),
            naming the field.
    """
    grid = data.get("grid")
    if not isinstance(grid, list) or not all(isinstance(r, str) for r in grid) or len(grid) > ROWS \
            or any(len(r) > COLUMNS or set(r) - {"#", "."} for r in grid):
        raise RequestError(f"grid: expected at most {ROWS} rows of at most {COLUMNS} '#' or '.'")
    cells = frozenset((r, c) for r, row in enumerate(grid) for c, x in enumerate(row) if x == "#")
    if not cells:
        raise RequestError("grid: paint at least one cell of the lock")
    lists = data.get("lists")
    if not isinstance(lists, list) or len(lists) != len(DICE):
        raise RequestError(f"lists: expected {len(DICE)} lists of blocks, one per die face")
    names = {b.name for b in deck.blocks}
    faces = []
    for die, blocks in zip(DICE, lists):
        if not isinstance(blocks, list) or not all(isinstance(b, str) for b in blocks):
            raise RequestError(f"face {die}: expected a list of block names")
        unknown = [b for b in blocks if b not in names]
        if unknown:
            raise RequestError(f"face {die}: {unknown[0]!r} is not one of the deck's blocks")
        faces.append(Face(die, tuple(blocks)))
    return Card(card_id if card_id is not None else new_id(deck.cards), Shape(cells).normalized(), tuple(faces))



def prove(deck: Deck, data: Mapping[str, Any], card_id: Any = None, time_limit: float = 2.0) -> dict[str, Any]:
    """Every face of the drafted card (of card ``card_id``, None: a new one) proved now
    (see the module docstring)."""
    from generators.common import grading
    from generators.puzzle_temple.verify import check_face, tier_scale

    try:
        card = card_of(deck, data, "draft")
    except RequestError as err:
        return {"verdict": "invalid", "headline": str(err), "items": []}
    lock = sorted(card.lock.cells)
    painted = [(r, c) for r, row in enumerate(data["grid"]) for c, x in enumerate(row) if x == "#"]
    top, left = min(r for r, _ in painted), min(c for _, c in painted)  # the draft's frame
    items: list[dict[str, Any]] = []
    difficulties = []
    measured = []
    unknown = 0
    fewest, most = pick(deck)
    for face in card.faces:
        label = f"Face {face.die}"
        if not (fewest <= len(face.blocks) <= most):
            items.append({"label": label, "status": "empty", "text": f"pick {fewest}-{most} blocks"})
            continue
        area = sum(deck.block(b).shape.size for b in face.blocks)
        if area != len(lock):
            items.append({"label": label, "status": "unsolvable",
                          "text": f"cannot be solved: the blocks cover {area} cells, the lock has {len(lock)}"})
            continue
        check = check_face(deck, card, face, time_limit=time_limit)
        letters = deck.letters()
        overlay = []
        if check.solution is not None:
            overlay = [[r + top, c + left, letters[p.piece]] for p in check.solution.placements for r, c in p.cells]
        if check.status is tiling.Status.SOLVED:
            many = ("unique" if check.unique else f"{check.count} solutions" if check.exhaustive
                    else f"at least {check.count} solutions")
            rated = f", difficulty {check.difficulty:.2f} bits" if check.difficulty is not None else ", too big to rate"
            text = f"solvable: {many}{rated}"
            if check.difficulty is not None:
                difficulties.append(check.difficulty)
                measured.append(replace(face, difficulty=check.difficulty))
        elif check.status is tiling.Status.UNSOLVABLE:
            text = f"cannot be solved: {check.reason}"
        else:
            unknown += 1
            text = f"unknown: {check.reason or 'the time limit came first'}"
        items.append({"label": label, "status": check.status.value, "text": text, "overlay": overlay,
                      "solutions": check.count, "unique": check.unique, "difficulty": check.difficulty})
    solved = sum(1 for i in items if i["status"] == tiling.Status.SOLVED.value)
    verdict = "proved" if solved == len(DICE) else "unknown" if unknown and solved + unknown == len(DICE) \
        else "not proved"
    headline = f"{solved} of {len(DICE)} faces proved solvable"
    if len(difficulties) == len(DICE):
        bounds, scale = tier_scale(deck)
        value = grading.mean(difficulties)
        headline += f"; difficulty {value:.2f} bits, {grading.tier_of(value, bounds).value} on {scale}"
    broken = rules_broken(deck, replace(card, faces=tuple(measured)) if len(measured) == len(DICE) else card)
    if broken:
        verdict = "not proved" if verdict == "proved" else verdict
        headline += "; the deck's rules: " + "; ".join(broken)
    return {"verdict": verdict, "headline": headline, "items": items}


def rules_broken(deck: Deck, card: Card) -> list[str]:
    """The rules the deck records (its generator's parameters: lock size, cells, blocks a
    face, faces from easiest to hardest) that the card breaks, each without the card's name."""
    from generators.puzzle_temple.verify import parameter_problems

    parameters = {k: v for k, v in deck.parameters.items() if k not in ("cards", "seed")}
    alone = replace(deck, cards=(card,), parameters=parameters)
    return [p.split(": ", 1)[-1] if p.startswith("card ") else p for p in parameter_problems(alone)
            if "blocks, outside parameters.blocks_per_face" not in p]


def put(deck: Deck, data: Mapping[str, Any], card_id: Any = None) -> Deck:
    """The deck with the drafted card in place of card ``card_id`` (None: added at the end),
    its proofs left to the verifier.

    Raises:
        RequestError: the draft is malformed, naming the field.
    """
    card = card_of(deck, data, card_id)
    return placed(deck, card, card_id)


if TYPE_CHECKING:  # the type checker holds this module to the contract
    import generators.puzzle_temple.studio as _self
    from generators.contract import Studio

    _conforms: Studio = _self
