"""Shifting Stones' corpus (``generators.contract.Miner``): every window pattern and its
exact difficulty.

A chunk is one stone layout in one window (``generate.layouts_of``: in a 3x3 window the
stones may lie anywhere, pinning their places; in a smaller one they touch every edge), in
window and layout order; its rows are every assignment of faces to the stones
(``itertools.product`` order) that some grid of the tile set can show, each measured over
the whole state space as the verifier measures a card (``space.measure``): the mean least
number of actions from a random grid, the share of grids that show it, the most actions
any grid needs, and the points the published scale gives it.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from generators.common import parse
from generators.common.corpus import Column
from generators.common.errors import RequestError
from generators.common.options import Option, choice
from generators.shifting_stones.spec import OPTIONS as SPEC_OPTIONS
from generators.shifting_stones.tiles import PLACES, TileSet

#: Raised whenever a request's rows change (chunks of another version are not resumed).
VERSION = "1"

HELP = ("Record every window pattern the stones can show with its exact difficulty: each window up to 3x3, each "
        "layout of the asked number of stones in it (anywhere in a 3x3 window, touching every edge of a smaller "
        "one) and each assignment of faces some grid can show, measured over all grids as the verifier measures "
        "a card. A chunk is one layout in one window.")
EXAMPLE = "--stones 1-2 --windows published --out stones.parquet"

#: The windows a corpus may cover (``--windows``).
WINDOWS = ("all", "published")


def _stones(value: Any, label: str) -> tuple[int, int]:
    return parse.parse_range(value, label, low=1, high=PLACES)


OPTIONS: tuple[Option, ...] = (
    next(o for o in SPEC_OPTIONS if o.name == "tiles"),  # the generator's own declaration
    Option("stones", _stones, "1-3", "`N` or `MIN-MAX` stones a pattern shows", metavar="N|MIN-MAX"),
    choice("windows", WINDOWS, "all", "`all` windows up to 3x3, or the `published` deck's (1x2, 2x1, 1x3, 3x1, "
           "2x2, 3x3)"),
)

COLUMNS: tuple[Column, ...] = (
    Column("pattern", "string", "the window as deck files write it: rows of face names and `any`, rows joined "
           "by ' / '"),
    Column("window", "string", "its size, rows x columns (`1x2`, `3x3`)"),
    Column("layout", "string", "where its stones lie: rows of '#' (a stone) and '.' (any), joined by '/'"),
    Column("stones", "int8", "how many stones it shows"),
    Column("faces", "list<string>", "the faces it asks for, in reading order"),
    Column("difficulty", "float64", "the mean least number of actions (swaps and flips) from a uniformly random "
           "grid, exact over every grid, as verify measures a card"),
    Column("shown", "float64", "the share of grids that show it already"),
    Column("most", "int8", "the most actions any grid needs"),
    Column("points", "int8", "the points the published scale gives it (1, 2, 3 or 5)"),
    Column("grids", "string", "a digest of the grids that show it: two patterns with the same are one card"),
)


@dataclass(frozen=True, slots=True)
class Plan:
    """A checked request: the tiles, stones per pattern and windows."""

    tiles: TileSet
    source: str
    stones: tuple[int, int]
    windows: str

    def cells(self) -> list[tuple[tuple[int, int], Any]]:
        """(window, layout) of every chunk, in order."""
        from generators.shifting_stones import scale
        from generators.shifting_stones.generate import layouts_of
        from generators.shifting_stones.pattern import SIDE

        sizes = [w for w, _ in scale.PUBLISHED_WINDOWS] if self.windows == "published" else \
            [(h, w) for h in range(1, SIDE + 1) for w in range(1, SIDE + 1)]
        lo, hi = self.stones
        return [((h, w), layout) for h, w in sorted(sizes) for k in range(lo, hi + 1)
                for layout in layouts_of(h, w, k)]

    def request(self) -> dict[str, Any]:
        return {"tiles": self.source, "faces": list(self.tiles.faces), "counts": list(self.tiles.counts),
                "stones": list(self.stones), "windows": self.windows}

    def chunks(self) -> int:
        return len(self.cells())

    def rows(self, index: int) -> list[tuple[Any, ...]]:
        from generators.shifting_stones import scale
        from generators.shifting_stones.pattern import Pattern
        from generators.shifting_stones.space import measure

        (h, w), layout = self.cells()[index]
        places = [(r, c) for r in range(h) for c in range(w) if layout[r][c]]
        shape = "/".join("".join("#" if on else "." for on in row) for row in layout)
        out = []
        for faces in itertools.product(range(len(self.tiles.faces)), repeat=len(places)):
            given = dict(zip(places, faces))
            pattern = Pattern(tuple(tuple(given.get((r, c)) for c in range(w)) for r in range(h)))
            if not pattern.fits(self.tiles):
                continue
            key, found = measure(self.tiles, pattern)
            out.append((pattern.text(self.tiles), f"{h}x{w}", shape, len(places),
                        [self.tiles.faces[f] for f in pattern.fixed], found.difficulty, found.shown, found.max,
                        scale.rate(found.difficulty, scale.PUBLISHED_SCALE), key))
        return out


def plan(values: Mapping[str, Any]) -> Plan:
    """The checked request of parsed option values."""
    tiles = values["tiles"]
    lo, hi = values["stones"]
    if hi > sum(tiles.counts):
        raise RequestError(f"stones: {hi} is more than the {sum(tiles.counts)} stones of {tiles.title}")
    source = "published" if tiles.title.lower().startswith("published") else tiles.title
    return Plan(tiles, source, (lo, hi), values["windows"])


if TYPE_CHECKING:  # the type checker holds this module to the contract
    import generators.shifting_stones.mine as _self
    from generators.contract import Miner

    _conforms: Miner = _self
