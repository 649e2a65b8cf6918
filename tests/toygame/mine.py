"""Toy Tally's corpus (``generators.contract.Miner``): every set of cells of the 3x3 grid
with up to ``--most`` dots, a chunk per dot count."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from generators.common.corpus import Column
from generators.common.options import whole

VERSION = "1"
HELP = "Every tally card there can be: each set of cells of the 3x3 grid holding 1 to --most dots."
EXAMPLE = "--most 3 --out tallies.parquet"
OPTIONS = (whole("most", 3, "the most dots on a card", low=1, high=9),)
COLUMNS = (Column("dots", "int8", "the card's dots"), Column("cells", "string", "their cells, 'row,column' by ' '"))


@dataclass(frozen=True, slots=True)
class Plan:
    most: int

    def request(self) -> dict[str, Any]:
        return {"most": self.most}

    def chunks(self) -> int:
        return self.most

    def rows(self, index: int) -> list[tuple[Any, ...]]:
        cells = [(r, c) for r in range(3) for c in range(3)]
        return [(index + 1, " ".join(f"{r},{c}" for r, c in chosen))
                for chosen in itertools.combinations(cells, index + 1)]


def plan(values: Mapping[str, Any]) -> Plan:
    return Plan(values["most"])


if TYPE_CHECKING:  # the type checker holds this module to the contract
    import tests.toygame.mine as _self
    from generators.contract import Miner

    _conforms: Miner = _self
