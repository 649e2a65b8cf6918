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
same structure (turned or mirrored where the deck allows).

Colours: the draft's ``level1`` ... ``levelN`` are rows of colour letters (the pool's, ``.``
for a cube of any colour), one grid per level from the floor, painted on the editor's
colour layers; a letter asks the cube of that column at that level to be of that colour.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from generators.common.errors import RequestError
from generators.common.studio import new_id, placed
from generators.monolyth import iso
from generators.monolyth.deck import Card, Deck
from generators.monolyth.pool import SIDE
from generators.monolyth.structure import ANY, colours_from, key, rows_of, target_from
from solver.heightmap import Cube

#: Greys from the floor up: a column's colour says its height.
SHADES = ("#f1efe9", "#d9d2c3", "#b8ab92", "#8d7b5a", "#5e5038")
#: The picture's cube edge, in pixels.
UNIT = 34
#: The plate, the faces of a cube the card asks for but not yet built, and the edges.
PLATE, GHOST, EDGE = "#C9D1D9", "#E4E9EE", "#2E3A46"


def picture(deck: Deck, asked: Sequence[int | None], built: Mapping[Cube, str], fresh: Iterable[Cube] = (),
            wanted: Mapping[Cube, str] | None = None) -> str:
    """The structure in isometric view as an SVG (``generators.monolyth.iso``, as the printed
    card draws it): the cubes ``built`` so far in their pieces' colours, those placed last
    (``fresh``) outlined in red, the rest of what the card asks (``asked``: its height map)
    as pale ghosts, tinted where the card asks a colour (``wanted``: cube -> rgb), a free
    column a dot on the plate."""
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
        tint = (wanted or {}).get(cube)
        pale = shade(tint, 0.55) if tint else GHOST
        fills = (rgb, shade(rgb, -0.2), shade(rgb, -0.38)) if rgb else (pale, pale, pale)
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
    """What the page draws: the 4x4 board painted with heights, and a colour layer per level
    of the monolith (a column's cube at that level painted in a pool colour)."""
    palette = [{"code": str(h), "label": f"height {h}", "short": str(h), "colour": SHADES[min(h, len(SHADES) - 1)]}
               for h in range(0 if deck.rule != "contain" else 1, deck.height + 1)]
    letters = deck.pool.letters
    colours = [{"code": letters[name], "label": name, "short": letters[name], "colour": rgb}
               for name, rgb in deck.pool.colours]
    layers: list[dict[str, Any]] = [{"key": "grid", "label": "Heights", "palette": palette,
                                     "blank": {"short": "", "label": "free"}}]
    layers += [{"key": f"level{z}", "label": f"Colours, level {z}", "palette": colours, "reach": z,
                "blank": {"short": "", "label": "any colour"}} for z in range(1, deck.height + 1)]
    return {"title": "Structure card", "grid": {"label": "Board (north at the top)", "rows": SIDE, "columns": SIDE,
                                                "palette": palette, "blank": {"short": "", "label": "free"},
                                                "layers": layers},
            "help": f"Pick a height, then click the board's columns; click a column again to leave it free. "
                    f"The monolyth is {deck.height} high; the card's rule is '{deck.rule}'. A colour layer "
                    f"asks the cube at that level of a column to be of a colour (click it again for any colour)."}


def draft(deck: Deck, card_id: Any = None) -> dict[str, Any]:
    """Card ``card_id`` as the editor edits it (None: a new card, one full level): its
    heights, and each level's colours where it asks some."""
    if card_id is None:
        return {"grid": ["1" * SIDE] * SIDE}
    target = deck.card(card_id).target
    out: dict[str, Any] = {"grid": rows_of(target, deck.board)}
    letters = deck.pool.letters
    at = target.colour_at()
    for z in range(deck.height):
        rows = ["".join(letters[at[(x, y, z)]] if (x, y, z) in at else "." for x in range(SIDE)) for y in range(SIDE)]
        if any(set(row) - {"."} for row in rows):
            out[f"level{z + 1}"] = rows
    return out


def card_of(deck: Deck, data: Mapping[str, Any], card_id: Any) -> Card:
    """The card a draft describes: its heights and the colours its levels ask.

    Raises:
        RequestError: the draft is malformed or asks for nothing, or a colour for a cube the
            heights do not reach, naming the field.
    """
    grid = data.get("grid")
    if not isinstance(grid, list) or len(grid) > SIDE or not all(isinstance(r, str) and len(r) <= SIDE for r in grid):
        raise RequestError(f"grid: expected at most {SIDE} rows of at most {SIDE} heights or '.'")
    rows = [(grid[y] if y < len(grid) else "").ljust(SIDE, ANY) for y in range(SIDE)]
    target = target_from(rows, deck.board, deck.rule, "grid")
    by_letter = {letter: name for name, letter in deck.pool.letters.items()}
    raw: dict[str, list[list[int]]] = {}
    for z in range(1, deck.height + 1):
        level = data.get(f"level{z}")
        if level is None:
            continue
        if not isinstance(level, list) or len(level) > SIDE or \
                not all(isinstance(r, str) and len(r) <= SIDE for r in level):
            raise RequestError(f"level{z}: expected at most {SIDE} rows of at most {SIDE} colour letters or '.'")
        for y, row in enumerate(level):
            for x, letter in enumerate(row):
                if letter == ".":
                    continue
                if letter not in by_letter:
                    raise RequestError(f"level{z}: {letter!r} is not a colour's letter "
                                       f"({', '.join(f'{v} {k}' for k, v in deck.pool.letters.items())})")
                raw.setdefault(by_letter[letter], []).append([x, y, z - 1])
    if raw:
        try:
            target = colours_from(raw, target, deck.board, deck.pool.colour_names, "colours")
        except RequestError as err:
            raise RequestError(f"colours: a colour on a level its column does not reach ({err})") from None
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
    wanted = {cube: deck.pool.rgb(colour) for cube, colour in card.target.colours}
    found = search(deck.pool, board, card.target)
    items: list[dict[str, Any]] = []
    if found.steps is None:
        status = "unsolvable" if found.exhausted else "unknown"
        text = ("no ordered build from the pool reaches it (the search was exhaustive)" if found.exhausted
                else f"unknown: the build search's budget ran out after {found.nodes:,} nodes")
        return {"verdict": "not proved" if found.exhausted else "unknown",
                "headline": "not buildable" if found.exhausted else "not settled", "items": [
                    {"label": "Build", "status": status, "text": text,
                     "picture": picture(deck, list(card.target.heights), {}, wanted=wanted)}]}
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
                       "overlay": overlay, "picture": picture(deck, asked, built, step.cubes, wanted)})
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
    """The deck with the drafted card (its heights and colours) in place of card ``card_id``
    (None: added at the end), its build and turns left to the verifier.

    Raises:
        RequestError: the draft is malformed, naming the field.
    """
    return placed(deck, card_of(deck, data, card_id), card_id)


if TYPE_CHECKING:  # the type checker holds this module to the contract
    import generators.monolyth.studio as _self
    from generators.contract import Studio

    _conforms: Studio = _self
