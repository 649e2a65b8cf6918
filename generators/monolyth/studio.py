"""Monolyth in the design studio (``generators.contract.Studio``): a structure card's height
map painted on the 4x4 board, built and measured as the designer paints.

The draft is ``{"grid": [rows of codes]}``: a digit a column (the height the card asks for),
``.`` for a column the card leaves free, as the deck file writes a target. ``prove`` answers
with an ordered build from the pool (the fewest singles; a spent search budget is
``unknown``, not unbuildable) to step through, column heights after each placement (the
columns it touched marked); the
turns the greedy player needs (the deck's scale: ``measure.difficulty``) with the bound of
perfect play where the height maps are few enough; the tier on the deck's own scale, or
where it falls against the default deck's band; and a card of the deck that asks for the
same structure (turned or mirrored where the deck allows). Colours a card asks for are kept
as they are: the editor paints heights.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from generators.common.errors import RequestError
from generators.common.studio import new_id, placed
from generators.monolyth import iso
from generators.monolyth.deck import Card, Deck
from generators.monolyth.pool import SIDE
from generators.monolyth.structure import ANY, key, rows_of, target_from
from solver.heightmap import Cube

#: Greys from the floor up: a column's colour says its height.
SHADES = ("#f1efe9", "#d9d2c3", "#b8ab92", "#8d7b5a", "#5e5038")
#: The picture's cube edge, in pixels.
UNIT = 34
#: The plate, the faces of a cube the card asks for but not yet built, and the edges.
PLATE, GHOST, EDGE = "#C9D1D9", "#E4E9EE", "#2E3A46"


def picture(deck: Deck, asked: Sequence[int | None], built: Mapping[Cube, str], fresh: Iterable[Cube] = ()) -> str:
    """The structure in isometric view as an SVG (``generators.monolyth.iso``, as the printed
    card draws it): the cubes ``built`` so far in their pieces' colours, those placed last
    (``fresh``) outlined in red, the rest of what the card asks (``asked``: its height map)
    as pale ghosts, a free column a dot on the plate."""
    from generators.common.palette import shade

    fresh = set(fresh)
    width, height = iso.extent(SIDE, deck.height)
    pad = 4
    ox, oy = pad + SIDE * iso.COS * UNIT, pad + deck.height * UNIT

    def at(p: tuple[float, float, float]) -> str:
        u, w = iso.flat(*p)
        return f"{ox + u * UNIT:.1f},{oy - w * UNIT:.1f}"

    def poly(points: Sequence[tuple[float, float, float]], fill: str, stroke: str = EDGE, wide: float = 0.8) -> str:
        return f'<polygon points="{" ".join(at(p) for p in points)}" fill="{fill}" stroke="{stroke}" ' \
               f'stroke-width="{wide}" stroke-linejoin="round"/>'

    parts = [poly(iso.plate(SIDE), PLATE)]
    for y in range(SIDE):
        for x in range(SIDE):
            if asked[y * SIDE + x] is None:
                cx, cy = at((x + 0.5, y + 0.5, 0)).split(",")
                parts.append(f'<circle cx="{cx}" cy="{cy}" r="2.5" fill="#8A96A3"/>')
    cubes = set(iso.columns(asked, SIDE)) | set(built)
    for cube in iso.ordered(cubes):
        rgb = built.get(cube)
        fills = (rgb, shade(rgb, -0.2), shade(rgb, -0.38)) if rgb else (GHOST, GHOST, GHOST)
        stroke, wide = ("#C0392B", 2.0) if cube in fresh else ((EDGE, 0.8) if rgb else ("#AAB4BF", 0.6))
        parts.extend(poly(face, fill, stroke, wide) for face, fill in zip(iso.faces(cube), fills))
    w, h = width * UNIT + 2 * pad, height * UNIT + 2 * pad
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" ' \
           f'viewBox="0 0 {w:.1f} {h:.1f}">{"".join(parts)}</svg>'


def blank() -> Deck:
    """A new deck: no card yet, our pool, height 3, the ``contain`` rule, cards that turn."""
    return Deck(())


def table(deck: Deck) -> dict[str, Any]:
    """Each card's turns (the greedy player's), its bound and the cubes it asks for, as stored."""
    rows = []
    for c in deck.cards:
        cubes = sum(h for h in c.target.heights if h is not None)
        rows.append({"id": c.id, "values": [c.difficulty, c.bound, cubes]})
    return {"columns": ["turns", "bound (perfect play)", "cubes asked"], "rows": rows}


def editor(deck: Deck) -> dict[str, Any]:
    """What the page draws: the 4x4 board painted with heights."""
    palette = [{"code": str(h), "label": f"height {h}", "short": str(h), "colour": SHADES[min(h, len(SHADES) - 1)]}
               for h in range(0 if deck.rule != "contain" else 1, deck.height + 1)]
    return {"title": "Structure card", "grid": {"label": "Board (north at the top)", "rows": SIDE, "columns": SIDE,
                                                "palette": palette, "blank": {"short": "", "label": "free"}},
            "help": f"Pick a height, then click the board's columns; click a column again to leave it free. "
                    f"The monolith is {deck.height} high; the card's rule is '{deck.rule}'."}


def draft(deck: Deck, card_id: Any = None) -> dict[str, Any]:
    """Card ``card_id`` as the editor edits it (None: a new card, one full level)."""
    if card_id is None:
        return {"grid": ["1" * SIDE] * SIDE}
    return {"grid": rows_of(deck.card(card_id).target, deck.board)}


def card_of(deck: Deck, data: Mapping[str, Any], card_id: Any) -> Card:
    """The card a draft describes (the colours of the card it replaces kept where it has
    some and the heights still hold them).

    Raises:
        RequestError: the draft is malformed or asks for nothing, naming the field.
    """
    grid = data.get("grid")
    if not isinstance(grid, list) or len(grid) > SIDE or not all(isinstance(r, str) and len(r) <= SIDE for r in grid):
        raise RequestError(f"grid: expected at most {SIDE} rows of at most {SIDE} heights or '.'")
    rows = [(grid[y] if y < len(grid) else "").ljust(SIDE, ANY) for y in range(SIDE)]
    target = target_from(rows, deck.board, deck.rule, "grid")
    return Card(card_id if card_id is not None else new_id(deck.cards), target)



def prove(deck: Deck, data: Mapping[str, Any], card_id: Any = None, time_limit: float = 2.0) -> dict[str, Any]:
    """The drafted structure built and measured now (see the module docstring); the build's
    search has its own node budget, so ``time_limit`` is not needed."""
    from generators.common import grading
    from generators.monolyth.measure import bound, difficulty, search
    from generators.monolyth.verify import OURS_BAND, bounds_of

    del time_limit
    try:
        card = card_of(deck, data, "draft")
    except RequestError as err:
        return {"verdict": "invalid", "headline": str(err), "items": []}
    board = deck.board
    found = search(deck.pool, board, card.target)
    items: list[dict[str, Any]] = []
    if found.steps is None:
        status = "unsolvable" if found.exhausted else "unknown"
        text = ("no ordered build from the pool reaches it (the search was exhaustive)" if found.exhausted
                else f"unknown: the build search's budget ran out after {found.nodes:,} nodes")
        return {"verdict": "not proved" if found.exhausted else "unknown",
                "headline": "not buildable" if found.exhausted else "not settled", "items": [
                    {"label": "Build", "status": status, "text": text,
                     "picture": picture(deck, list(card.target.heights), {})}]}
    heights = [0] * board.columns
    frames = []
    built: dict[Cube, str] = {}
    asked = list(card.target.heights)
    for n, step in enumerate(found.steps, start=1):
        for x, y, z in step.cubes:
            heights[board.column(x, y)] = max(heights[board.column(x, y)], z + 1)
            built[(x, y, z)] = deck.pool.rgb(step.colour)
        touched = {(x, y) for x, y, _ in step.cubes}
        overlay = [[y, x, str(heights[board.column(x, y)]), (x, y) in touched]
                   for y in range(board.depth) for x in range(board.width) if heights[board.column(x, y)]]
        frames.append({"caption": f"step {n} of {len(found.steps)}: {step.piece} ({step.colour}), "
                                  f"{len(step.cubes)} cube{'s' if len(step.cubes) != 1 else ''}",
                       "overlay": overlay, "picture": picture(deck, asked, built, step.cubes)})
    singles = f", {found.singles} single{'s' if found.singles != 1 else ''}" if found.singles else ""
    items.append({"label": "Build", "status": "solved", "text": f"buildable: {len(found.steps)} placements{singles}; "
                                                              f"step through the build order",
                  "frames": frames, "overlay": frames[-1]["overlay"], "picture": frames[-1]["picture"]})
    value, _, error = difficulty(deck.pool, board, card.target)
    least = bound(deck.pool, board, card.target)
    exact = f"; at least {least:.2f} with perfect play" if least is not None else ""
    items.append({"label": "Turns", "status": "solved",
                  "text": f"{value:.2f} turns (± {error or 0:.2f}) for the greedy player{exact}"})
    bounds = bounds_of(deck)
    if bounds is not None:
        placed = f"{grading.tier_of(value, bounds).value} on the deck's own tiers"
    else:
        low, high = OURS_BAND
        placed = ("within" if low <= value <= high else "outside") + \
            f" the default deck's band ({low:.2f}-{high:.2f} turns)"
    structure = key(card.target, board, deck.turn)
    same = [c for c in deck.cards if str(c.id) != str(card_id) and key(c.target, board, deck.turn) == structure]
    if same:
        turned = " (turned or mirrored)" if deck.turn else ""
        items.append({"label": "Deck", "status": "unsolvable",
                      "text": f"card {same[0].id} asks for the same structure{turned}"})
    return {"verdict": "not proved" if same else "proved", "headline": f"buildable; {value:.2f} turns, {placed}",
            "items": items}


def put(deck: Deck, data: Mapping[str, Any], card_id: Any = None) -> Deck:
    """The deck with the drafted card in place of card ``card_id`` (None: added at the end),
    its build and turns left to the verifier.

    Raises:
        RequestError: the draft is malformed, naming the field.
    """
    card = card_of(deck, data, card_id)

    def colours_kept(old: Card, new: Card) -> Card:  # the old card's colours where the heights still hold them
        kept = tuple((cube, colour) for cube, colour in old.target.colours if _holds(new, cube))
        return replace(new, target=replace(new.target, colours=kept))

    return placed(deck, card, card_id, colours_kept)


def _holds(card: Card, cube: tuple[int, int, int]) -> bool:
    """Whether the card's heights still ask for ``cube``."""
    x, y, z = cube
    h = card.target.heights[y * SIDE + x]
    return h is not None and z < h


if TYPE_CHECKING:  # the type checker holds this module to the contract
    import generators.monolyth.studio as _self
    from generators.contract import Studio

    _conforms: Studio = _self
