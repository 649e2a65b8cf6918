"""Mystery of the Temples' proofs and measures, shared by the generator, the verifier and the
figures.

- ``witnesses``: for a layer on a grid side, a path (slot indices in payment order) for each
  of its runs that the grid can pay, None for one it cannot: the proof that the layer is
  payable there.
- ``difficulty``: the layer's expected actions on a grid side from a full grid mid-game
  (``solver.paths.measure``: ``GAMES`` seeded grids, the seed from the layer's runs, so
  that every grid is measured on the same grids of crystals and the verifier plays them
  again), with its standard error and the share of grids that already pay.
- ``from_empty``: the exact expected crystals from an empty grid (lines do not matter).
- ``balance``: per grid side, the mean difficulty over every layer it can pay, and the layers
  it cannot pay.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from generators.mystery_of_the_temples.box import Box, Layer, Side, Temple, runs
from solver.grids import Grid

if TYPE_CHECKING:
    from solver.paths import Measured

#: Seeded mid-game grids per layer and grid side.
GAMES = 1000
#: Decimal places stored.
PLACES = 3


@lru_cache(maxsize=256)
def _paths(grid: Grid, k: int) -> tuple[tuple[int, ...], ...]:
    from solver.paths import paths

    return tuple(tuple(int(v) for v in row) for row in paths(grid, k)[:1])


def witnesses(side: Side, temple: Temple, layer: Layer, reading: str) -> list[tuple[int, ...] | None]:
    """A paying path per run of the layer (left, right; or the row), None where the grid
    has no path of the run's length."""
    out: list[tuple[int, ...] | None] = []
    for run in runs(temple, layer, reading):
        found = _paths(side.grid, len(run))
        out.append(found[0] if found else None)
    return out


def seed_of(temple: Temple, layer: Layer, reading: str) -> int:
    """The measure's seed for a layer: from its runs, not from the deck's seed or the grid."""
    text = ";".join(",".join(map(str, r)) for r in runs(temple, layer, reading))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=4).digest(), "big") % (1 << 31)


def difficulty(box: Box, side: Side, temple: Temple, layer: Layer, reading: str,
               games: int = GAMES) -> Measured | None:
    """The layer's expected actions on ``side`` (None: the grid cannot pay it at all)."""
    from solver.paths import measure

    try:
        return measure(side.grid, runs(temple, layer, reading), box.supply, games=games,
                       seed=seed_of(temple, layer, reading))
    except ValueError:
        return None


def from_empty(box: Box, temple: Temple, layer: Layer, reading: str) -> float:
    from solver.paths import from_empty as exact

    return round(float(exact(runs(temple, layer, reading), box.supply)), PLACES)


@dataclass(frozen=True, slots=True)
class Balance:
    """Per grid side (in the box's order): the mean difficulty over the layers it can pay,
    and the layers it cannot pay, as (temple index, layer index)."""

    means: tuple[float, ...]
    unpayable: tuple[tuple[tuple[int, int], ...], ...]

    @property
    def ratio(self) -> float:
        """The largest grid mean over the smallest."""
        return max(self.means) / min(self.means) if self.means and min(self.means) > 0 else float("inf")


def balance(values: Sequence[Sequence[Sequence[float | None]]]) -> Balance:
    """``values[temple][layer][grid]`` (None: unpayable) as a grid balance."""
    grids = len(values[0][0]) if values and values[0] else 0
    means = []
    unpayable = []
    for g in range(grids):
        seen = [v[g] for t in values for v in t]
        paid = [x for x in seen if x is not None]
        means.append(round(sum(paid) / len(paid), PLACES) if paid else float("inf"))
        unpayable.append(tuple((i, j) for i, t in enumerate(values) for j, v in enumerate(t) if v[g] is None))
    return Balance(tuple(means), tuple(unpayable))
