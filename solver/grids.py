"""Grids of slots joined by lines: an undirected graph with a drawing position per slot.

Pure Python and quick to import (the searches over a grid's paths are ``solver.paths``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True, slots=True)
class Grid:
    """``positions[i]``: slot ``i``'s drawing position; ``lines``: pairs of slot indices."""

    positions: tuple[tuple[float, float], ...]
    lines: tuple[tuple[int, int], ...]

    @property
    def slots(self) -> int:
        return len(self.positions)

    def adjacency(self) -> np.ndarray:
        import numpy as np

        adj = np.zeros((self.slots, self.slots), dtype=np.bool_)
        for a, b in self.lines:
            adj[a, b] = adj[b, a] = True
        return adj

    def connected(self) -> bool:
        if not self.positions:
            return False
        seen = {0}
        todo = [0]
        neighbours: dict[int, list[int]] = {i: [] for i in range(self.slots)}
        for a, b in self.lines:
            neighbours[a].append(b)
            neighbours[b].append(a)
        while todo:
            for b in neighbours[todo.pop()]:
                if b not in seen:
                    seen.add(b)
                    todo.append(b)
        return len(seen) == self.slots

    def degree(self, slot: int) -> int:
        return sum(1 for a, b in self.lines if slot in (a, b))
