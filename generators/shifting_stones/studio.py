"""Shifting Stones in the design studio (``generators.contract.Studio``): a pattern card's
window painted stone by stone on the 3x3 grid, measured as the designer draws.

The draft is ``{"grid": [rows of codes]}``: one character a place, a face's code (``0``,
``1``, ... in the tile set's face order), ``*`` for a stone of any face, ``.`` for no stone.
The window is the painted places' bounding box; an unpainted place inside it is a stone of
any face, as a blank on the printed card. ``prove`` answers with the least actions a player
needs from a random grid (the mean, and the most), the share of grids that already show it,
the points it earns on the deck's own scale (else the absolute one), whether another card
of the deck asks for the same thing, and the deck's card nearest in difficulty.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from generators.common.errors import RequestError
from generators.common.studio import new_id, placed
from generators.common.words import plural
from generators.shifting_stones.deck import Card, Deck
from generators.shifting_stones.pattern import SIDE, pattern_from
from generators.shifting_stones.tiles import ANY

#: The code of a stone of any face, and of a place with no stone.
ANY_CODE, NONE = "*", "."


def codes(deck: Deck) -> list[str]:
    """One character a face, in the tile set's face order."""
    return list((string.digits + string.ascii_lowercase)[:len(deck.tiles.faces)])


def blank() -> Deck:
    """A new deck: no card yet, the published stones."""
    return Deck(())


def table(deck: Deck) -> dict[str, Any]:
    """Each card's points, difficulty (expected actions) and stones, as stored; beside them
    the published deck's points and stones (``scale.PUBLISHED_MIX``, ``PUBLISHED_STONES``)."""
    from generators.shifting_stones.scale import PUBLISHED_MIX, PUBLISHED_STONES

    reference = {"label": "the published deck (72 cards)",
                 "columns": {"points": [list(p) for p in PUBLISHED_MIX], "stones": [list(p) for p in PUBLISHED_STONES]}}
    return {"columns": ["points", "difficulty (actions)", "stones"],
            "rows": [{"id": c.id, "values": [c.points, c.difficulty, c.pattern.stones]} for c in deck.cards],
            "reference": reference}


def editor(deck: Deck) -> dict[str, Any]:
    """What the page draws: a 3x3 grid painted with the set's faces (and any face)."""
    colours = [c for t in deck.tiles.tiles for c in t.colours]
    palette = [{"code": code, "label": name, "short": name[:2], "colour": colour}
               for code, name, colour in zip(codes(deck), deck.tiles.faces, colours)]
    palette.append({"code": ANY_CODE, "label": "any face", "short": "?", "colour": "#9a9a9a"})
    return {"title": "Pattern card", "grid": {"label": "Window", "rows": SIDE, "columns": SIDE, "palette": palette},
            "help": "Pick a face, then click the places of the window; click a place again to clear it. A place "
                    "left empty inside the window is a stone of any face."}


def draft(deck: Deck, card_id: Any = None) -> dict[str, Any]:
    """Card ``card_id`` as the editor edits it (None: a new card, one stone to start from)."""
    if card_id is None:
        return {"grid": [codes(deck)[0]]}
    card = deck.card(card_id)
    code = codes(deck)
    return {"grid": ["".join(ANY_CODE if f is None else code[f] for f in row) for row in card.pattern.rows]}


def card_of(deck: Deck, data: Mapping[str, Any], card_id: Any) -> Card:
    """The card a draft describes.

    Raises:
        RequestError: the draft is malformed, naming the field.
    """
    grid = data.get("grid")
    known = set(codes(deck)) | {ANY_CODE, NONE}
    if not isinstance(grid, list) or len(grid) > SIDE or not all(isinstance(r, str) and len(r) <= SIDE for r in grid) \
            or any(set(r) - known for r in grid):
        raise RequestError(f"grid: expected at most {SIDE} rows of at most {SIDE} face codes, '*' or '.'")
    painted = [(r, c) for r, row in enumerate(grid) for c, x in enumerate(row) if x != NONE]
    if not painted:
        raise RequestError("grid: place at least one stone")
    top, bottom = min(r for r, _ in painted), max(r for r, _ in painted)
    left, right = min(c for _, c in painted), max(c for _, c in painted)
    names = dict(zip(codes(deck), deck.tiles.faces))
    rows = [[names.get(grid[r][c] if c < len(grid[r]) else NONE, ANY) for c in range(left, right + 1)]
            for r in range(top, bottom + 1)]
    pattern = pattern_from(rows, deck.tiles, "grid")
    return Card(card_id if card_id is not None else new_id(deck.cards), pattern)



@dataclass(frozen=True, slots=True)
class Measured:
    """A drafted window measured by the generator's search (``space.measure``): None where no
    grid shows it, with ``problem`` saying why; ``key`` names the grids that show it."""

    feasible: bool
    difficulty: float | None
    shown: float | None
    max: int | None
    rated: int | None
    key: str
    problem: str | None = None


def _measured(deck: Deck, card: Card) -> tuple[Measured, str]:
    """The card measured on the generator's state space, one breadth-first search from the
    grids that show it (a few hundredths of a second, the live answer; ``verify`` checks
    the saved deck again its own way), and the name of the scale its points come from."""
    from generators.shifting_stones.scale import rate
    from generators.shifting_stones.space import measure
    from generators.shifting_stones.verify import DEFAULT_POINT_BOUNDS, DEFAULT_TOP, scale_of

    own = scale_of(deck)
    (bounds, top), scale = (own, "the deck's own scale") if own is not None else \
        ((DEFAULT_POINT_BOUNDS, DEFAULT_TOP), "the absolute scale")
    why = card.pattern.shortage(deck.tiles)
    key, m = measure(deck.tiles, card.pattern) if why is None else ("", None)
    if m is None or m.max < 0:
        problem = f"no grid shows this window: {why or 'no place fits it'}"
        return Measured(False, None, None, None, None, key, problem), scale
    return Measured(True, m.difficulty, m.shown, m.max, rate(m.difficulty, (tuple(bounds), top)), key), scale


def prove(deck: Deck, data: Mapping[str, Any], card_id: Any = None, time_limit: float = 2.0) -> dict[str, Any]:
    """The drafted window (of card ``card_id``, None: a new one) measured now (see the
    module docstring); every search here finishes, so ``time_limit`` is not needed."""
    del time_limit
    try:
        card = card_of(deck, data, "draft")
    except RequestError as err:
        return {"verdict": "invalid", "headline": str(err), "items": []}
    check, scale = _measured(deck, card)
    if not check.feasible:
        return {"verdict": "not proved", "headline": f"no grid can show it: {str(check.problem).split(': ', 1)[-1]}",
                "items": [{"label": "Window", "status": "unsolvable", "text": check.problem}]}
    items = [{"label": "Window", "status": "solved",
              "text": f"{check.difficulty:.3f} actions from a random grid on average, {check.max} at most; "
                      f"{_share(check.shown or 0.0)} of grids show it already"}]
    others = [c for c in deck.cards if str(c.id) != str(card_id)]
    # the same grids: the same pattern, or (rarely) another with the same measures, checked grid by grid
    same = [c for c in others if c.pattern == card.pattern or (
        c.shown is not None and abs(c.shown - (check.shown or 0.0)) < 1e-6 and c.difficulty == check.difficulty
        and _measured_key(deck, c) == check.key)]
    if same:
        items.append({"label": "Deck", "status": "unsolvable",
                      "text": f"card {same[0].id} asks for the same thing (it shows on exactly the same grids)"})
    rated = [(c, c.difficulty if c.difficulty is not None else _difficulty(deck.tiles, c.pattern))
             for c in deck.cards if str(c.id) != str(card_id)]
    rated = [(c, d) for c, d in rated if d is not None]
    if rated:
        near, value = min(rated, key=lambda cd: abs((cd[1] or 0.0) - (check.difficulty or 0.0)))
        worth = f", {plural(near.points, 'point')}" if near.points is not None else ""
        items.append({"label": "Nearest", "status": "solved",
                      "text": f"card {near.id}: {near.pattern.text(deck.tiles).replace(chr(10), ' / ')}, "
                              f"{value:.3f} actions{worth}"})
    verdict = "not proved" if same else "proved"
    headline = f"worth {plural(check.rated or 0, 'point')} on {scale}; {check.difficulty:.3f} expected actions"
    return {"verdict": verdict, "headline": headline, "items": items}


@lru_cache(maxsize=4096)
def _difficulty(tiles: Any, pattern: Any) -> float | None:
    """A window's mean least actions from a random grid (None: no grid shows it), for a card
    whose file stores none (a designer's): measured once a window, kept for the session."""
    from generators.shifting_stones.space import measure

    if pattern.shortage(tiles) is not None:
        return None
    m = measure(tiles, pattern)[1]
    return m.difficulty if m.max >= 0 else None


def _share(share: float) -> str:
    """A share of the grids as a percentage a designer can read: two decimals, or for a rare
    window its first figure that is not zero (``0.0003%``, never ``0.00%``)."""
    if share == 0 or share >= 0.0001:
        return f"{share:.2%}"
    return f"{share * 100:.6f}".rstrip("0") + "%"


def _measured_key(deck: Deck, card: Card) -> str:
    """The grids a card shows on, as a digest (``Measured.key``)."""
    return _key(deck.tiles, card.pattern)


@lru_cache(maxsize=4096)
def _key(tiles: Any, pattern: Any) -> str:
    from generators.shifting_stones.space import digest, space

    return digest(space(tiles).shows(pattern.rows)) if pattern.shortage(tiles) is None else ""


def put(deck: Deck, data: Mapping[str, Any], card_id: Any = None) -> Deck:
    """The deck with the drafted card in place of card ``card_id`` (None: added at the end),
    measured, and worth the points of the deck's scale where the deck's cards carry points.

    Raises:
        RequestError: the draft is malformed, or no grid can show the window, naming it.
    """
    card = card_of(deck, data, card_id)
    check, _ = _measured(deck, card)
    if not check.feasible:
        raise RequestError(f"grid: {check.problem}")
    points = check.rated if any(c.points is not None for c in deck.cards) else None
    card = replace(card, points=points, difficulty=check.difficulty, shown=check.shown, max=check.max)
    return placed(deck, card, card_id)


if TYPE_CHECKING:  # the type checker holds this module to the contract
    import generators.shifting_stones.studio as _self
    from generators.contract import Studio

    _conforms: Studio = _self
