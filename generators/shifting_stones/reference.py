"""A reference deck for "a deck like mine": what is taken from a designer's pattern list.

``Reference`` holds its tiles (the request's default), each feasible card's difficulty
measured now as the generator measures (the mean least number of actions from a random
grid), its window shapes, stones per pattern and points (when every card carries them), the
(window, stones) cells its patterns fall in with the stone layouts it uses, and the keys of
its patterns (the grids that show them), which no generated card may repeat. ``profile``
gives its measures to the shared matching (``generators.common.like``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from generators.common import like
from generators.common.like import Profile
from generators.shifting_stones.pattern import Layout, Pattern
from generators.shifting_stones.tiles import TileSet

#: The classes a card falls in, compared side by side with the reference's.
WINDOW = "window"
STONES = "stones"
POINTS = "points"

#: A (window (height, width), stones) cell with the stone layouts the reference uses in it.
Cell = tuple[tuple[int, int], int]


def window_of(pattern: Pattern) -> str:
    return f"{pattern.height}x{pattern.width}"


def layout_of(pattern: Pattern) -> Layout:
    return tuple(tuple(f is not None for f in row) for row in pattern.rows)


@dataclass(frozen=True, slots=True)
class Reference:
    """See the module docstring."""

    source: str
    tiles: TileSet
    difficulties: tuple[float, ...]
    windows: tuple[str, ...]
    stones: tuple[int, ...]
    points: tuple[int, ...] | None
    cells: tuple[tuple[Cell, int, tuple[Layout, ...]], ...]  # each cell, its cards, its layouts
    keys: frozenset[str]
    skipped: int

    @property
    def profile(self) -> Profile:
        classes = {WINDOW: self.windows, STONES: tuple(str(k) for k in self.stones)}
        if self.points is not None:
            classes[POINTS] = tuple(str(p) for p in self.points)
        return Profile(self.difficulties, classes)

    @property
    def mix(self) -> tuple[tuple[int, int], ...] | None:
        """Its cards per points value, or None when some card carries no points."""
        return tuple(sorted(Counter(self.points).items())) if self.points is not None else None


def read_reference(value: Any, label: str) -> Reference:
    """The reference deck named by ``--like`` (any Shifting Stones deck, hand-written or
    generated), each card measured now.

    Raises:
        RequestError: the file cannot be read, is not a Shifting Stones deck, or has no card
            that its tiles can show.
    """
    from generators.shifting_stones.deck import read_deck
    from generators.shifting_stones.space import measure

    if isinstance(value, Reference):
        return value
    deck = like.read_reference(value, label, read_deck)
    feasible = [c for c in deck.cards if c.pattern.fits(deck.tiles)]
    measured = [(c, *measure(deck.tiles, c.pattern)) for c in feasible]
    shown = [(c, key, m) for c, key, m in measured if m.shown > 0]
    if not shown:
        raise like.refuse(label, value, f"none of its {len(deck.cards)} patterns shows on any grid of its tiles "
                                        f"({deck.tiles.title})")
    cards = [c for c, _, _ in shown]
    cells: dict[Cell, list[Layout]] = {}
    for c in cards:
        layouts = cells.setdefault(((c.pattern.height, c.pattern.width), c.pattern.stones), [])
        layouts.append(layout_of(c.pattern))
    priced = all(c.points is not None for c in cards)
    return Reference(
        source=str(value),
        tiles=deck.tiles,
        difficulties=tuple(m.difficulty for _, _, m in shown),
        windows=tuple(window_of(c.pattern) for c in cards),
        stones=tuple(c.pattern.stones for c in cards),
        points=tuple(c.points for c in cards if c.points is not None) if priced else None,
        cells=tuple((cell, len(layouts), tuple(sorted(set(layouts)))) for cell, layouts in sorted(cells.items())),
        keys=frozenset(key for _, key, _ in shown),
        skipped=len(deck.cards) - len(shown))
