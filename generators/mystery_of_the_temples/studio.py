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
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from generators.common.errors import RequestError
from generators.common.studio import new_id, placed
from generators.mystery_of_the_temples.box import Layer, Temple, runs
from generators.mystery_of_the_temples.deck import Card, Deck

#: Seeded grids a grid side while the designer paints (the verifier measures ``GAMES``).
LIVE_GAMES = 250
#: Seeded grids a side for the other cards' layers of a deck that stores no measures.
OTHERS_GAMES = 100
#: A layer's code when its points are left to be suggested, and a position with none.
SUGGEST, NONE = "*", "."
#: The track's length for a deck with no card yet.
LENGTH = 9


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


def draft(deck: Deck, card_id: Any = None) -> dict[str, Any]:
    """Card ``card_id`` as the editor edits it (None: a new temple, its own colour all along,
    one layer in the middle)."""
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
    else:
        colour, side = _free(deck)
    temple = Temple(colour, side, tuple(track), tuple(layers))
    return Card(card_id if card_id is not None else new_id(deck.cards), temple)



def prove(deck: Deck, data: Mapping[str, Any], card_id: Any = None, time_limit: float = 2.0) -> dict[str, Any]:
    """The drafted temple side checked now (see the module docstring): seeded measures that
    always finish, so ``time_limit`` is not needed."""
    from generators.mystery_of_the_temples.generate import points_for
    from generators.mystery_of_the_temples.measure import difficulty

    del time_limit
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
    the end), its measures and any points left to be suggested for the verifier.

    Raises:
        RequestError: the draft is malformed, naming the field.
    """
    card = card_of(deck, data, card_id)
    return placed(deck, card, card_id)


if TYPE_CHECKING:  # the type checker holds this module to the contract
    import generators.mystery_of_the_temples.studio as _self
    from generators.contract import Studio

    _conforms: Studio = _self
