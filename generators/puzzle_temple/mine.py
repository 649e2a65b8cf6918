"""Puzzle Temple's corpus (``generators.contract.Miner``): every lock a block set can fill.

For each block set of the asked size (a chunk each, in ``itertools.combinations`` order of
the block set's blocks), ``solver.regions`` walks every placement of its blocks inside the
box and counts the tilings of each region they cover; a row is a lock (connected, hole-free
unless ``--holes``, inside the box, once up to the turns, and mirror images when blocks may
be turned over) with that block set, its number of solutions (checked against the rating's
own count) and its difficulty (``solver.rating``, the same figure deck files carry).
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
from generators.puzzle_temple.mined import VERSION
from generators.puzzle_temple.spec import OPTIONS as SPEC_OPTIONS
from generators.puzzle_temple.spec import _per_face
from solver.pieces import Piece

__all__ = ["COLUMNS", "EXAMPLE", "HELP", "OPTIONS", "VERSION", "Plan", "plan"]

HELP = ("Record every lock a block set fills: each connected region inside the box (hole-free unless --holes; once "
        "up to turning it, and mirroring it when blocks may be turned over) with each block set of the asked size "
        "that tiles it, its number of solutions and its difficulty in bits. A chunk is one block set.")
EXAMPLE = "--blocks ubongo12 --blocks-per-face 3 --box 6x4 --out corpus.parquet"

#: The generator's own declarations of the options a corpus shares with it.
GENERATOR = {o.name: o for o in SPEC_OPTIONS}

#: The largest square-ish box the region search takes: (WIDTH + 1) x HEIGHT at most 63 cells.
MAX_BOX = "8x7"


def _box(value: Any, label: str) -> tuple[int, int]:
    from solver.regions import fits

    width, height = parse.parse_size(value, label, high=12)
    if width < height:  # a box turned a quarter is the same box
        width, height = height, width
    if not fits(width, height):
        raise RequestError(f"{label}: the region search takes boxes with (WIDTH + 1) x HEIGHT at most 63 "
                           f"(such as {MAX_BOX}, 10x5 or 12x4), got {width}x{height}")
    return width, height


OPTIONS: tuple[Option, ...] = (
    GENERATOR["blocks"],
    Option("blocks_per_face", _per_face, "3", "`N` or a range `MIN-MAX` of blocks a face uses",
           metavar="N|MIN-MAX"),
    Option("box", _box, "6x4", f"the box every lock fits, in cells ((WIDTH + 1) x HEIGHT at most 63: {MAX_BOX}, "
           "10x5, 12x4)", metavar="WxH"),
    GENERATOR["flips"],
    GENERATOR["holes"],
)

COLUMNS: tuple[Column, ...] = (
    Column("region", "string", "the lock: its rows top to bottom joined by '/', '#' a cell of the lock and '.' "
           "none, turned to fit the box"),
    Column("cells", "int16", "the lock's cells"),
    Column("width", "int8", "the lock's width in cells, as drawn in region"),
    Column("height", "int8", "the lock's height in cells"),
    Column("blocks", "list<string>", "the block set that fills it, each block once (names as in the block set)"),
    Column("solutions", "int64", "its number of tilings by those blocks (turned pieces distinct, mirrored ones "
           "allowed when flips)"),
    Column("unique", "bool", "whether it has exactly one solution"),
    Column("difficulty", "float64", "bits of expected search effort (solver.rating), rounded to hundredths, "
           "as deck files carry it"),
    Column("success", "float64", "the chance of solving it without backtracking, rounded to 4 places"),
)


@dataclass(frozen=True, slots=True)
class Plan:
    """A checked request: the block set, the sizes of the sets and the box."""

    name: str
    pieces: tuple[Piece, ...]
    per_face: tuple[int, int]
    box: tuple[int, int]
    flips: bool
    holes: bool

    def sets(self) -> list[tuple[int, ...]]:
        lo, hi = self.per_face
        return [c for k in range(lo, hi + 1) for c in itertools.combinations(range(len(self.pieces)), k)]

    def request(self) -> dict[str, Any]:
        return {"blocks": self.name, "pieces": [[p.name, p.shape.format()] for p in self.pieces],
                "blocks_per_face": list(self.per_face), "box": list(self.box), "flips": self.flips,
                "holes": self.holes}

    def chunks(self) -> int:
        return len(self.sets())

    def rows(self, index: int) -> list[tuple[Any, ...]]:
        from solver.puzzle import Puzzle
        from solver.rating import rate
        from solver.regions import tiled_regions

        chosen = tuple(self.pieces[i] for i in self.sets()[index])
        width, height = self.box
        seen: set[Any] = set()
        out = []
        for region, count in tiled_regions(chosen, width, height, self.flips, holes=self.holes):
            key = region.canonical(flips=self.flips)
            if key in seen:
                continue
            seen.add(key)
            lock = min((o for o in region.orientations(self.flips) if _fits(o, width, height)),
                       key=lambda o: o.sort_key())
            rating = rate(Puzzle(lock, chosen, flips=self.flips))
            if rating.tilings != count:
                raise RuntimeError(f"the region search counted {count} tilings of {lock.format()!r}, "
                                   f"the rating {rating.tilings}")
            rows, cols = lock.extent()
            out.append((lock.format().replace("\n", "/"), lock.size, cols, rows, [p.name for p in chosen], count,
                        count == 1, rating.bits if math.isfinite(rating.difficulty) else math.inf,
                        round(rating.success, 4)))
        out.sort(key=lambda r: (r[1], r[0]))
        return out


def _fits(shape: Any, width: int, height: int) -> bool:
    rows, cols = shape.extent()
    return bool(cols <= width and rows <= height)


def plan(values: Mapping[str, Any]) -> Plan:
    """The checked request of parsed option values."""
    blocks = values["blocks"]
    lo, hi = values["blocks_per_face"]
    problems = []
    if any(p.shape.dim != 2 for p in blocks.pieces):
        problems.append("blocks: blocks must be flat (2D)")
    if hi > len(blocks.pieces):
        problems.append(f"blocks-per-face: {hi} is more than the {len(blocks.pieces)} blocks in {blocks.name}")
    if lo < 1:
        problems.append(f"blocks-per-face: expected at least 1, got {lo}")
    if problems:
        raise RequestError(problems)
    return Plan(blocks.name, tuple(blocks.pieces), (lo, hi), values["box"], values["flips"], values["holes"])


if TYPE_CHECKING:  # the type checker holds this module to the contract
    import generators.puzzle_temple.mine as _self
    from generators.contract import Miner

    _conforms: Miner = _self
