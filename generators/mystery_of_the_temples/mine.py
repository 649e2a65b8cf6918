"""Mystery of the Temples' corpus (``generators.contract.Miner``): every run of crystals a
layer may ask for, priced on every grid side of the box.

A run is the crystals a layer asks for in payment order (a layer read as a row, or one end
of a track up to the layer). A path pays it from either end, so a run and its reverse are
one run, listed once (the lesser of the two). Every run of the asked lengths over the box's
colours is listed in a fixed order (by length, then colours) and cut into chunks of
``CHUNK``; each is priced as the verifier prices a layer: exactly from an empty grid
(``measure.from_empty``) and on every grid side over the same seeded mid-game grids
(``measure.difficulty``), a side whose lines hold no path of the run's length recorded as
unable to pay it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from generators.common import parse
from generators.common.corpus import Column
from generators.common.errors import RequestError
from generators.common.options import Option
from generators.mystery_of_the_temples.box import Box, parse_box

#: Raised whenever a request's rows change (chunks of another version are not resumed).
VERSION = "1"

#: Runs a chunk holds.
CHUNK = 48
#: The longest run (6 colours: about 140,000 runs of 7).
MAX_LENGTH = 7

HELP = ("Record every run of crystals a layer may ask for (a run and its reverse once: a path pays either way) "
        "with its exact expected crystals from an empty grid and its expected actions on every grid side of the "
        "box from a full grid mid-game, as the verifier prices a layer. A chunk is 48 runs.")
EXAMPLE = "--length 2-4 --out runs.parquet"


def _length(value: Any, label: str) -> tuple[int, int]:
    return parse.parse_range(value, label, low=1, high=MAX_LENGTH)


OPTIONS: tuple[Option, ...] = (
    Option("box", parse_box, "ours", "the supply and grid sides: `ours` (see docs/games/mystery-of-the-temples.md) "
           "or a box TOML file",
           metavar="ours|FILE.toml"),
    Option("length", _length, "1-4", "`N` or `MIN-MAX` crystals a run asks for", metavar="N|MIN-MAX"),
)

COLUMNS: tuple[Column, ...] = (
    Column("run", "string", "the crystals in payment order, colour names joined by ' '"),
    Column("length", "int8", "its crystals"),
    Column("colourless", "int8", "its colourless crystals (any crystal pays one)"),
    Column("free", "bool", "whether it asks only for colourless crystals (any crystals pay it)"),
    Column("from_empty", "float64", "the exact expected crystals drawn to pay it from an empty grid"),
    Column("difficulty", "float64", "its mean expected actions over the grid sides that can pay it, from a full "
           "grid mid-game (NaN when none can)"),
    Column("easiest", "float64", "the least of those (NaN when none can)"),
    Column("hardest", "float64", "the most of those (NaN when none can)"),
    Column("by_side", "list<float64>", "its expected actions on each grid side in the box's order (NaN where "
           "the side cannot pay it)"),
    Column("unpayable", "list<string>", "the grid sides whose lines hold no path of its length"),
)


@dataclass(frozen=True, slots=True)
class Plan:
    """A checked request: the box and the run lengths."""

    box: Box
    source: str
    length: tuple[int, int]

    def runs(self) -> list[tuple[int, ...]]:
        lo, hi = self.length
        colours = range(len(self.box.colours))
        return [run for k in range(lo, hi + 1) for run in itertools.product(colours, repeat=k)
                if run <= run[::-1]]

    def request(self) -> dict[str, Any]:
        from generators.common.corpus import content_digest

        return {"box": self.source, "box_digest": content_digest(self.box.as_json()),
                "colours": [[c.name, c.supply] for c in self.box.colours],
                "sides": [s.name for s in self.box.grids], "length": list(self.length)}

    def chunks(self) -> int:
        return -(-len(self.runs()) // CHUNK)

    def rows(self, index: int) -> list[tuple[Any, ...]]:
        from generators.mystery_of_the_temples.box import Layer, Temple, free
        from generators.mystery_of_the_temples.measure import PLACES, difficulty, from_empty

        names = self.box.names
        out = []
        for run in self.runs()[index * CHUNK:(index + 1) * CHUNK]:
            temple, layer = Temple(0, "a", (), ()), Layer(0, None, run)
            by_side = []
            for side in self.box.grids:
                measured = difficulty(self.box, side, temple, layer, "rows")
                by_side.append(round(measured.mean, PLACES) if measured is not None else math.nan)
            paid = [v for v in by_side if not math.isnan(v)]
            mean = round(sum(paid) / len(paid), PLACES) if paid else math.nan
            out.append((" ".join(names[c] for c in run), len(run), sum(1 for c in run if c == 0),
                        free(temple, layer, "rows"), from_empty(self.box, temple, layer, "rows"), mean,
                        min(paid) if paid else math.nan, max(paid) if paid else math.nan, by_side,
                        [s.name for s, v in zip(self.box.grids, by_side) if math.isnan(v)]))
        return out


def plan(values: Mapping[str, Any]) -> Plan:
    """The checked request of parsed option values."""
    box: Box = values["box"]
    if not box.grids:
        raise RequestError(f"box: {box.title} has no grid sides to price the runs on")
    source = "ours" if box.title.lower() in ("ours", "our box") else box.title
    return Plan(box, source, values["length"])


if TYPE_CHECKING:  # the type checker holds this module to the contract
    import generators.mystery_of_the_temples.mine as _self
    from generators.contract import Miner

    _conforms: Miner = _self
