"""Monolyth's corpus (``generators.contract.Miner``): every structure card of a size, built
or not, and what it costs.

A structure asks some columns of the board for a height (1 up to the monolith's height) and
leaves the rest free, as a card does. Every such structure whose asked cubes number within
``--cubes`` is listed once (up to turning and mirroring, when builds may match turned), in
a fixed order (by cubes, then by the heights read row by row), and cut into chunks of
``CHUNK``. Each is searched for an ordered build from the pool (``measure.search``, the
generator's proof: every cube supported when placed, the fewest singles) and, when one is
found, priced in expected turns as the verifier prices a card (``measure.difficulty``). A
search whose budget ran out is recorded as unknown, never as unbuildable.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from generators.common import parse
from generators.common.corpus import Column
from generators.common.errors import RequestError
from generators.common.options import Option
from generators.monolyth.pool import SIDE, Pool
from generators.monolyth.spec import OPTIONS as SPEC_OPTIONS
from solver.heightmap import Board

#: Raised whenever a request's rows change (chunks of another version are not resumed).
VERSION = "1"

#: Structures a chunk holds.
CHUNK = 32
#: The most cubes a structure of the corpus may ask for (about 600,000 structures at 10).
MAX_CUBES = 10

HELP = ("Record every structure card of a size: each way of asking columns of the 4x4 board for heights (the "
        "others free) with the asked cubes within --cubes, once up to turning and mirroring when builds may "
        "match turned, with whether the pool builds it (an ordered build, every cube supported when placed) and, "
        "when it does, its expected turns. A chunk is 32 structures.")
EXAMPLE = "--cubes 1-4 --out structures.parquet"


def _cubes(value: Any, label: str) -> tuple[int, int]:
    return parse.parse_range(value, label, low=1, high=SIDE * SIDE * 4)


OPTIONS: tuple[Option, ...] = (
    *(o for o in SPEC_OPTIONS if o.name in ("pool", "height", "rule", "turn")),  # the generator's own declarations
    Option("cubes", _cubes, "1-5", "`N` or `MIN-MAX` cubes a structure asks for", metavar="N|MIN-MAX"),
)

COLUMNS: tuple[Column, ...] = (
    Column("structure", "string", "the card's heights, rows of the 4x4 board joined by '/', a digit the height "
           "asked, '.' a free column"),
    Column("cubes", "int16", "the cubes it asks for"),
    Column("columns", "int8", "the columns it asks a height of"),
    Column("top", "int8", "its highest column"),
    Column("status", "string", "`buildable` (an ordered build was found), `unbuildable` (the search proved "
           "none) or `unknown` (the search's budget ran out)"),
    Column("singles", "int8", "single cubes the build uses (the fewest the search found; -1 when not buildable)"),
    Column("difficulty", "float64", "expected turns to build it with four pieces on offer a turn, in the greedy "
           "player's seeded games as deck files measure it (NaN when not buildable)"),
    Column("bound", "float64", "the expected turns with perfect play (exact, by dynamic programming), the least any "
           "player can expect; NaN where the height maps are too many or the structure is not buildable"),
)


@dataclass(frozen=True, slots=True)
class Plan:
    """A checked request: the pool, the board's height, the rule, turning and the cubes."""

    pool: Pool
    source: str
    height: int
    rule: str
    turn: bool
    cubes: tuple[int, int]

    def structures(self) -> tuple[tuple[int | None, ...], ...]:
        return _structures(self.height, self.turn, self.cubes)

    def request(self) -> dict[str, Any]:
        from generators.common.corpus import content_digest

        return {"pool": self.source, "pool_digest": content_digest(self.pool.as_json()), "height": self.height,
                "rule": self.rule, "turn": self.turn,
                "cubes": list(self.cubes)}

    def chunks(self) -> int:
        return -(-len(self.structures()) // CHUNK)

    def rows(self, index: int) -> list[tuple[Any, ...]]:
        from generators.monolyth.measure import bound, difficulty, search
        from solver.heightmap import Target

        board = Board(SIDE, SIDE, self.height)
        out = []
        for heights in self.structures()[index * CHUNK:(index + 1) * CHUNK]:
            target = Target(heights, (), self.rule)
            text = "/".join("".join("." if (h := heights[y * SIDE + x]) is None else str(h) for x in range(SIDE))
                            for y in range(SIDE))
            asked = [h for h in heights if h is not None]
            found = search(self.pool, board, target)
            if found.steps is None:
                status = "unbuildable" if found.exhausted else "unknown"
                out.append((text, sum(asked), len(asked), max(asked), status, -1, float("nan"), float("nan")))
                continue
            value, _, _ = difficulty(self.pool, board, target)
            least = bound(self.pool, board, target)
            out.append((text, sum(asked), len(asked), max(asked), "buildable", found.singles, value,
                        float("nan") if least is None else least))
        return out


@lru_cache(maxsize=4)
def _structures(height: int, turn: bool, cubes: tuple[int, int]) -> tuple[tuple[int | None, ...], ...]:
    """Every structure with its asked cubes in ``cubes``, once up to the board's symmetries
    (when ``turn``: the least of its forms, as ``structure.canonical`` picks), by cubes and
    then heights (a free column first)."""
    import numpy as np

    from generators.monolyth.structure import symmetries

    lo, hi = cubes
    columns = SIDE * SIDE
    rows = np.zeros((1, 0), np.int8)
    for _ in range(columns):  # every height map with at most ``hi`` cubes, column by column
        used = rows.sum(axis=1, dtype=np.int64)
        parts = [np.hstack([rows[used + h <= hi], np.full(((used + h <= hi).sum(), 1), h, np.int8)])
                 for h in range(height + 1)]
        rows = np.vstack(parts)
    total = rows.sum(axis=1, dtype=np.int64)
    rows, total = rows[(total >= lo) & (total <= hi)], total[(total >= lo) & (total <= hi)]
    weights = (height + 1) ** np.arange(columns - 1, -1, -1, dtype=np.int64)  # first column most significant
    code = rows.astype(np.int64) @ weights
    if turn:  # the column order of each symmetry, read off the board's own symmetries
        forms = symmetries(tuple(range(1, columns + 1)), Board(SIDE, SIDE, height))
        least = np.min(np.stack([rows[:, [v - 1 for v in form]].astype(np.int64) @ weights  # type: ignore[operator]
                                 for form in forms]), axis=0)
        keep = code == least
        rows, total, code = rows[keep], total[keep], code[keep]
    order = np.lexsort((code, total))
    return tuple(tuple(int(h) if h else None for h in row) for row in rows[order])


def plan(values: Mapping[str, Any]) -> Plan:
    """The checked request of parsed option values."""
    pool: Pool = values["pool"]
    height = values["height"]
    lo, hi = values["cubes"]
    most = SIDE * SIDE * height
    if lo > most:
        raise RequestError(f"cubes: a {SIDE}x{SIDE}x{height} monolith holds at most {most} cubes, got {lo}-{hi}")
    if hi > MAX_CUBES:
        raise RequestError(f"cubes: at most {MAX_CUBES} (the structures number in the millions beyond), "
                           f"got {lo}-{hi}")
    source = "ours" if pool.title.lower() in ("ours", "our pool") else pool.title
    return Plan(pool, source, height, values["rule"], values["turn"], (lo, min(hi, most)))


if TYPE_CHECKING:  # the type checker holds this module to the contract
    import generators.monolyth.mine as _self
    from generators.contract import Miner

    _conforms: Miner = _self
