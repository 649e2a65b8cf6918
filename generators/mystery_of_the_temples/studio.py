"""Mystery of the Temples in the design studio (``generators.contract.Studio``): a temple
side's track painted crystal by crystal and its curse layers placed with their points,
checked on every grid side as the designer paints.

The draft is ``{"grid": [track, layers]}``: the first row one code a track position (``a``
for the box's first colour, ``b`` the next, ...), the second a digit under each position
that holds a layer (its printed points), ``*`` for a layer whose points are left to be
suggested, ``.`` for none. ``prove`` answers for every layer: its runs from either end,
whether every grid side can pay it (a path of the run's length along its lines), the
expected actions to pay it on each side (``LIVE_GAMES`` seeded grids a side: a quicker
measure than the verifier's, its standard error said), and the points the isolated measure
suggests for it among the deck's other layers, beside the points painted (a deck priced by
play is priced again from play by the verifier when the card is saved). The temple's
colour and player-count side are the card's (a new card takes the first colour and side
the deck does not yet hold); tracks read by rows are not edited here.

The box's crystal grids are the deck's other parts (``parts``): a grid side's draft is
``{"graph": {"slots": [[x, y], ...], "lines": [[a, b], ...]}}``, its 12 slots' drawing
positions (a unit is a slot pitch) and the lines joining them. ``prove`` checks it as the
deck file's reader does (12 slots, at least ``MIN_APART`` apart, connected) and answers,
for every temple side of the deck, whether the grid can pay each of its layers and the
expected actions (``LIVE_GAMES`` seeded grids), beside the same on the grid as saved; lines
that cross are said (legal, but the printed board draws one over the other). Saving writes
the deck's box with the grid side changed, its colours and grids listed in the file.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from generators.common.errors import RequestError
from generators.common.studio import new_id, placed
from generators.mystery_of_the_temples.box import MIN_APART, SLOTS, Layer, Side, Temple, runs
from generators.mystery_of_the_temples.deck import Card, Deck

#: Seeded grids a grid side while the designer paints (the verifier measures ``GAMES``).
LIVE_GAMES = 250
#: Seeded grids a side for the other cards' layers of a deck that stores no measures.
OTHERS_GAMES = 100
#: A layer's code when its points are left to be suggested, and a position with none.
SUGGEST, NONE = "*", "."
#: The track's length for a deck with no card yet.
LENGTH = 9


#: A grid side's id among the deck's parts: ``grid 1A``.
PART = "grid "


def codes(deck: Deck) -> list[str]:
    """One letter a colour of the box, in its order (colourless first)."""
    return list(string.ascii_lowercase[:len(deck.box.names)])


def length(deck: Deck) -> int:
    return len(deck.cards[0].temple.track) if deck.cards else LENGTH


def blank() -> Deck:
    """A new deck: no card yet, our box (colours, grids, cards), tracks read from the ends."""
    return Deck(())


def table(deck: Deck) -> dict[str, Any]:
    """Each temple side's points in all, its layers and their mean actions, as stored."""
    rows = []
    for c in deck.cards:
        points = [layer.points for layer in c.temple.layers]
        total = None if None in points else sum(points)  # type: ignore[arg-type]
        actions = None if c.priced is None else round(sum(p.actions for p in c.priced) / len(c.priced), 3)
        rows.append({"id": c.id, "values": [total, len(points), actions]})
    return {"columns": ["points, all layers", "layers", "mean actions a layer"], "rows": rows}


def editor(deck: Deck) -> dict[str, Any]:
    """What the page draws: the track (first row) and the layers' points (second row)."""
    palette = [{"code": code, "label": colour.name, "short": colour.name[:1].upper(), "colour": colour.rgb}
               for code, colour in zip(codes(deck), deck.box.colours)]
    palette += [{"code": str(p), "label": f"layer {p}", "short": str(p), "colour": "#fdf6e3"} for p in range(1, 10)]
    palette.append({"code": SUGGEST, "label": "layer *", "short": "*", "colour": "#fdf6e3"})
    return {"title": "Temple side", "grid": {"label": "Track (top) and layers with their points (below)", "rows": 2,
                                             "columns": length(deck), "palette": palette,
                                             "blank": {"short": "", "label": "no layer"}},
            "help": "Paint the track's positions with crystal colours in the top row; put a layer under a position "
                    "in the bottom row with its points ('layer 6': a layer worth 6; 'layer *': points to be "
                    "suggested)."}


def _free(deck: Deck) -> tuple[int, str]:
    """A new temple's colour and side: the first the deck does not hold yet."""
    held = {(c.temple.colour, c.temple.side) for c in deck.cards}
    sides = sorted({c.temple.side for c in deck.cards}) or ["2-3", "4"]
    for side in sides:
        for colour in range(1, len(deck.box.names)):
            if (colour, side) not in held:
                return colour, side
    return 1, sides[0]


def parts(deck: Deck) -> list[dict[str, Any]]:
    """The deck's parts besides its cards: each grid side of the box, by name."""
    return [{"id": PART + s.name, "label": f"Grid {s.name}", "title": f"grid side {s.name}: {len(s.grid.lines)} lines",
             "help": f"Crystal grid {s.name} ({s.ability or 'no ability'}): {SLOTS} slots joined by lines. Click two "
                     f"slots to join them with a line, or part them; click a slot, then an empty place, to move it. "
                     f"Every temple side of the deck is checked on it as you draw."}
            for s in deck.box.grids]


def _side(deck: Deck, part: Any) -> Side | None:
    """The grid side a part id names (None: not a part id)."""
    if not isinstance(part, str) or not part.startswith(PART):
        return None
    name = part[len(PART):]
    side = next((s for s in deck.box.grids if s.name == name), None)
    if side is None:
        raise RequestError(f"card: the box has no grid side {name!r}")
    return side


def draft(deck: Deck, card_id: Any = None) -> dict[str, Any]:
    """Card ``card_id`` as the editor edits it (None: a new temple, its own colour all along,
    one layer in the middle), or a grid side (``grid 1A``) as its slots and lines."""
    side = _side(deck, card_id)
    if side is not None:
        return {"graph": {"slots": [list(p) for p in side.grid.positions],
                          "lines": [list(li) for li in side.grid.lines]}}
    code = codes(deck)
    if card_id is None:
        colour, _ = _free(deck)
        n = length(deck)
        return {"grid": [code[colour] * n, NONE * (n // 2) + SUGGEST + NONE * (n - n // 2 - 1)]}
    temple = deck.card(card_id).temple
    points = {layer.position: SUGGEST if layer.points is None else str(layer.points) for layer in temple.layers}
    return {"grid": ["".join(code[c] for c in temple.track),
                     "".join(points.get(p, NONE) for p in range(1, len(temple.track) + 1))]}


def card_of(deck: Deck, data: Mapping[str, Any], card_id: Any) -> Card:
    """The card a draft describes.

    Raises:
        RequestError: the draft is malformed, naming the field and the position.
    """
    if deck.reading != "ends":
        raise RequestError("the studio edits tracks read from the ends; this deck reads its layers by rows")
    grid = data.get("grid")
    n = length(deck)
    if not isinstance(grid, list) or not 1 <= len(grid) <= 2 or not all(isinstance(r, str) for r in grid):
        raise RequestError("grid: expected the track and the layers' row")
    track_row, layer_row = grid[0].ljust(n, NONE), (grid[1] if len(grid) > 1 else "").ljust(n, NONE)
    if len(track_row) > n or len(layer_row) > n:
        raise RequestError(f"grid: a track of {n} positions")
    code = {c: i for i, c in enumerate(codes(deck))}
    track = []
    for p, c in enumerate(track_row, start=1):
        if c not in code:
            raise RequestError(f"track position {p}: paint a crystal colour (the top row), not {c!r}")
        track.append(code[c])
    layers = []
    for p, c in enumerate(layer_row, start=1):
        if c == NONE:
            continue
        if c != SUGGEST and not c.isdigit():
            raise RequestError(f"layer at position {p}: points 1-9 or * (the bottom row), not a colour")
        layers.append(Layer(p, None if c == SUGGEST else int(c)))
    if not layers:
        raise RequestError("layers: put at least one layer under the track (the bottom row)")
    if card_id is not None and any(str(c.id) == str(card_id) for c in deck.cards):
        old = deck.card(card_id).temple
        colour, side = old.colour, old.side
        blocked = {layer.position for layer in old.layers if layer.blocked}  # kept where the layer stays
        layers = [replace(layer, blocked=layer.position in blocked) for layer in layers]
    else:
        colour, side = _free(deck)
    temple = Temple(colour, side, tuple(track), tuple(layers))
    return Card(card_id if card_id is not None else new_id(deck.cards), temple)



def side_of(deck: Deck, data: Mapping[str, Any], side: Side) -> Side:
    """The grid side a draft describes, checked as the deck file's reader checks one.

    Raises:
        RequestError: the draft is malformed or breaks a rule, naming it.
    """
    import math

    from generators.mystery_of_the_temples.box import _grid

    graph = data.get("graph")
    slots = graph.get("slots") if isinstance(graph, Mapping) else None
    lines = graph.get("lines") if isinstance(graph, Mapping) else None
    if not (isinstance(slots, list) and len(slots) == SLOTS and all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                                        and math.isfinite(v) and abs(v) <= 100 for v in p)
            for p in slots)):
        raise RequestError(f"graph.slots: expected {SLOTS} slot positions [x, y]")
    if not (isinstance(lines, list) and all(isinstance(li, list) and len(li) == 2 and all(
            type(v) is int and 0 <= v < SLOTS for v in li) and li[0] != li[1] for li in lines)):
        raise RequestError(f"graph.lines: expected pairs of slot numbers 0-{SLOTS - 1}, two different slots each")
    grid = _grid([(p[0], p[1]) for p in slots], [(li[0], li[1]) for li in lines])
    if len(set(grid.lines)) != len(grid.lines):
        raise RequestError("graph.lines: a line is drawn twice")
    for a in range(SLOTS):
        for b in range(a + 1, SLOTS):
            if math.dist(grid.positions[a], grid.positions[b]) < MIN_APART - 1e-9:
                raise RequestError(f"slots {a + 1} and {b + 1} are closer than {MIN_APART} of a slot pitch: move one")
    if not grid.connected():
        raise RequestError("the grid is not connected: every slot must be reachable along lines")
    return Side(side.board, side.side, side.ability, grid)


def crossings(side: Side) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Pairs of lines that cross (sharing no slot) on the drawing."""
    p = side.grid.positions

    def turn(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    out = []
    lines = side.grid.lines
    for i, (a, b) in enumerate(lines):
        for c, d in lines[i + 1:]:
            if len({a, b, c, d}) < 4:
                continue
            if turn(p[a], p[b], p[c]) * turn(p[a], p[b], p[d]) < 0 and \
                    turn(p[c], p[d], p[a]) * turn(p[c], p[d], p[b]) < 0:
                out.append(((a, b), (c, d)))
    return out


def _prove_side(deck: Deck, data: Mapping[str, Any], old: Side) -> dict[str, Any]:
    """A drafted grid side checked now (see the module docstring)."""
    from generators.mystery_of_the_temples.measure import difficulty

    try:
        side = side_of(deck, data, old)
    except RequestError as err:
        return {"verdict": "invalid", "headline": str(err), "items": []}
    names = deck.box.names
    items: list[dict[str, Any]] = []
    unpaid = 0
    for card in deck.cards:
        temple = card.temple
        paid, cannot, before = [], [], []
        for layer in temple.layers:
            now = difficulty(deck.box, side, temple, layer, deck.reading, games=LIVE_GAMES)
            was = difficulty(deck.box, old, temple, layer, deck.reading, games=LIVE_GAMES)
            if now is None:
                cannot.append(layer.position)
            else:
                paid.append(now.mean)
                if was is not None:
                    before.append(was.mean)
        label = f"{names[temple.colour].capitalize()} {temple.side}"
        if cannot:
            unpaid += 1
            items.append({"label": label, "status": "unsolvable",
                          "text": f"cannot pay the layer{'s' if len(cannot) > 1 else ''} at position"
                                  f"{'s' if len(cannot) > 1 else ''} {', '.join(map(str, cannot))} (no path as long as "
                                  f"its runs)"})
            continue
        mean = sum(paid) / len(paid)
        was_text = f" (saved grid: {sum(before) / len(before):.2f})" if before else ""
        items.append({"label": label, "status": "solved",
                      "text": f"every layer payable; {mean:.2f} expected actions a layer{was_text}"})
    crossed = crossings(side)
    if crossed:
        (a, b), (c, d) = crossed[0]
        items.append({"label": "Drawing", "status": "note",
                      "text": f"{len(crossed)} pair{'s' if len(crossed) > 1 else ''} of lines cross (slots {a + 1}-"
                              f"{b + 1} and {c + 1}-{d + 1}): allowed, but the printed board draws one over the other"})
    verdict = "not proved" if unpaid else "proved"
    drawn = f"grid side {side.name}, {len(side.grid.lines)} lines"
    headline = (f"{drawn}: pays every layer of {len(deck.cards) - unpaid} of {len(deck.cards)} temple sides "
                f"({LIVE_GAMES} grids a layer here)") if deck.cards else f"{drawn}: a valid grid (no temple side yet)"
    return {"verdict": verdict, "headline": headline, "items": items}


def prove(deck: Deck, data: Mapping[str, Any], card_id: Any = None, time_limit: float = 2.0) -> dict[str, Any]:
    """The drafted temple side (or grid side) checked now (see the module docstring): seeded
    measures that always finish, so ``time_limit`` is not needed."""
    from generators.mystery_of_the_temples.generate import points_for
    from generators.mystery_of_the_temples.measure import difficulty

    del time_limit
    try:
        old = _side(deck, card_id)
    except RequestError as err:
        return {"verdict": "invalid", "headline": str(err), "items": []}
    if old is not None:
        return _prove_side(deck, data, old)
    try:
        card = card_of(deck, data, card_id if card_id is not None else "draft")
    except RequestError as err:
        return {"verdict": "invalid", "headline": str(err), "items": []}
    names = deck.box.names
    temple = card.temple
    means: list[float] = []
    items: list[dict[str, Any]] = []
    unpaid = 0
    for layer in temple.layers:
        asked = runs(temple, layer, deck.reading)
        words = " or ".join("-".join(names[c] for c in run) for run in asked)
        paid, cannot = [], []
        for side in deck.box.grids:
            m = difficulty(deck.box, side, temple, layer, deck.reading, games=LIVE_GAMES)
            if m is None:
                cannot.append(side.name)
            else:
                paid.append((side.name, m.mean, m.error))
        label = f"Layer at {layer.position}"
        if cannot:
            unpaid += 1
            items.append({"label": label, "status": "unsolvable",
                          "text": f"{words}: grid side{'s' if len(cannot) > 1 else ''} {', '.join(cannot)} cannot "
                                  f"pay it (no path as long as its runs)"})
            continue
        mean = sum(a for _, a, _ in paid) / len(paid)
        means.append(mean)
        spread = ", ".join(f"{name} {a:.1f}" for name, a, _ in paid)
        error = max(e for _, _, e in paid)
        items.append({"label": label, "status": "solved", "layer": layer.position, "mean": mean,
                      "text": f"{words}: payable on every grid side; {mean:.2f} expected actions (± {error:.2f}; "
                              f"{spread})"})
    others = [a for c, measured in zip(deck.cards, _layer_means(deck.box, deck.reading, tuple(deck.cards)))
              if str(c.id) != str(card_id) for a in measured]
    if means and others:
        suggested = points_for(others + means, 3, 8)[len(others):]
        play = "; this deck's points come from play, measured when you save" \
            if deck.parameters.get("price") == "play" else ""
        at = 0
        for item, layer in zip(items, temple.layers):
            if item["status"] != "solved":
                continue
            painted = "points to be suggested" if layer.points is None else f"painted {layer.points}"
            item["text"] += f"; the isolated measure suggests {suggested[at]} points among the deck's layers " \
                            f"({painted}{play})"
            at += 1
    verdict = "not proved" if unpaid else "proved"
    which = f"{names[temple.colour]} temple, {temple.side} players"
    headline = (f"{which}: {len(temple.layers) - unpaid} of {len(temple.layers)} layers payable on every grid side"
                f" ({LIVE_GAMES} grids a side here; the verifier measures more when you save)")
    return {"verdict": verdict, "headline": headline, "items": items}


@lru_cache(maxsize=4)
def _layer_means(box: Any, reading: str, cards: tuple[Card, ...]) -> tuple[tuple[float, ...], ...]:
    """Each card's layers' mean actions over the grid sides: as stored, else measured here
    (``OTHERS_GAMES`` grids a side, enough to rank them; kept while the deck is)."""
    from generators.mystery_of_the_temples.measure import difficulty

    out = []
    for card in cards:
        if card.priced is not None:
            out.append(tuple(p.actions for p in card.priced))
            continue
        means = []
        for layer in card.temple.layers:
            paid = [m.mean for side in box.grids
                    if (m := difficulty(box, side, card.temple, layer, reading, games=OTHERS_GAMES)) is not None]
            if paid:
                means.append(sum(paid) / len(paid))
        out.append(tuple(means))
    return tuple(out)


def put(deck: Deck, data: Mapping[str, Any], card_id: Any = None) -> Deck:
    """The deck with the drafted temple side in place of card ``card_id`` (None: added at
    the end), its measures and any points left to be suggested for the verifier; or, for a
    grid side (``grid 1A``), the deck with that side of its box redrawn (every card's
    measures left to the verifier, which measures them on the new grid).

    Raises:
        RequestError: the draft is malformed, naming the field.
    """

    old = _side(deck, card_id)
    if old is not None:
        side = side_of(deck, data, old)
        grids = tuple(side if s.name == old.name else s for s in deck.box.grids)
        cards = tuple(replace(c, priced=None) for c in deck.cards)
        return replace(deck, box=replace(deck.box, grids=grids), cards=cards, listed=True, means=None)
    card = card_of(deck, data, card_id)
    return placed(deck, card, card_id)


if TYPE_CHECKING:  # the type checker holds this module to the contract
    import generators.mystery_of_the_temples.studio as _self
    from generators.contract import Studio

    _conforms: Studio = _self
