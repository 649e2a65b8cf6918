"""The state space of the 3x3 grid, and exact distances to a pattern over all of it.

A state says which tile type lies in each place (places 0-8 in reading order) and which
side is up; tiles of one type are not told apart. It is numbered ``a * 512 + o``: ``a`` the
arrangement of tile types (in lexicographic order of the type sequence) and ``o`` nine
bits, bit ``p`` set when the tile in place ``p`` shows its second face. The published set
has 9! / (1! 2! 3! 3!) = 5040 arrangements, 2,580,480 states.

Actions: swap two orthogonally adjacent tiles (12 pairs; a tile keeps its side) or flip one
tile (9). Both undo themselves, so the distance from a state to the nearest state showing a
pattern is found by one breadth-first search from every such state at once (compiled with
numba).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from generators.common.errors import RequestError
from generators.shifting_stones.tiles import PLACES, TileSet

if TYPE_CHECKING:
    from generators.shifting_stones.pattern import Pattern

SIDE = 3
ORIENTATIONS = 1 << PLACES
#: the 12 orthogonally adjacent pairs of places: six across, six down
PAIRS = tuple((r * SIDE + c, r * SIDE + c + 1) for r in range(SIDE) for c in range(SIDE - 1)) + \
    tuple((r * SIDE + c, (r + 1) * SIDE + c) for r in range(SIDE - 1) for c in range(SIDE))
MAX_STATES = 20_000_000  #: a tile set whose grids outnumber this is refused (memory, time)


@dataclass(frozen=True, slots=True)
class Move:
    """An action: ``swap`` places ``a`` and ``b``, or ``flip`` place ``a``."""

    kind: str
    a: int
    b: int = -1

    def __str__(self) -> str:
        def at(p: int) -> str:
            return f"r{p // SIDE + 1}c{p % SIDE + 1}"

        return f"swap {at(self.a)} with {at(self.b)}" if self.kind == "swap" else f"flip {at(self.a)}"


MOVES = tuple(Move("swap", a, b) for a, b in PAIRS) + tuple(Move("flip", p) for p in range(PLACES))


def _arrangements(counts: Sequence[int]) -> np.ndarray:
    """Every sequence of nine tile types with these counts, in lexicographic order."""
    out: list[list[int]] = []
    left = list(counts)
    row: list[int] = []

    def extend() -> None:
        if len(row) == PLACES:
            out.append(list(row))
            return
        for t, n in enumerate(left):
            if n:
                left[t] -= 1
                row.append(t)
                extend()
                row.pop()
                left[t] += 1

    extend()
    return np.array(out, dtype=np.int8)


def _codes(arrangements: np.ndarray, base: int) -> np.ndarray:
    weights = base ** np.arange(PLACES - 1, -1, -1, dtype=np.int64)
    return arrangements.astype(np.int64) @ weights


@njit(cache=True)
def _bfs(targets: np.ndarray, swap: np.ndarray, bits: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    n = targets.shape[0]
    dist = np.full(n, -1, np.int8)
    queue = np.empty(n, np.int32)
    tail = 0
    for s in range(n):
        if targets[s]:
            dist[s] = 0
            queue[tail] = s
            tail += 1
    head = 0
    pairs = swap.shape[1]
    level = 0
    # level by level: from the frontier outwards while it is small, then (once it is a
    # quarter of what is left) each state not yet reached looking for a neighbour on the
    # frontier, which stops at the first it finds (every action undoes itself, so a
    # neighbour of a state is a state it is a neighbour of)
    while head < tail:
        frontier = tail - head
        unvisited = n - tail
        if frontier * 4 < unvisited:
            end = tail
            while head < end:
                s = queue[head]
                head += 1
                a = s >> 9
                o = s & 511
                for k in range(pairs):
                    t = (swap[a, k] << 9) | bits[o, k]
                    if dist[t] < 0:
                        dist[t] = level + 1
                        queue[tail] = t
                        tail += 1
                for p in range(9):
                    t = (a << 9) | (o ^ (1 << p))
                    if dist[t] < 0:
                        dist[t] = level + 1
                        queue[tail] = t
                        tail += 1
        else:
            head = tail
            for s in range(n):
                if dist[s] >= 0:
                    continue
                a = s >> 9
                o = s & 511
                hit = False
                for p in range(9):
                    if dist[(a << 9) | (o ^ (1 << p))] == level:
                        hit = True
                        break
                if not hit:
                    for k in range(pairs):
                        if dist[(swap[a, k] << 9) | bits[o, k]] == level:
                            hit = True
                            break
                if hit:
                    dist[s] = level + 1
                    queue[tail] = s
                    tail += 1
        level += 1
    return dist


class Space:
    """The states of one tile set, with the tables the search needs."""

    def __init__(self, tiles: TileSet) -> None:
        self.tiles = tiles
        self.arrangements = _arrangements(tiles.counts)
        n = len(self.arrangements)
        if n * ORIENTATIONS > MAX_STATES:
            raise RequestError(f"tiles: {n * ORIENTATIONS:,} grids is more than the {MAX_STATES:,} searched "
                               f"(use fewer kinds of tile, more of each)")
        base = len(tiles.tiles)
        codes = _codes(self.arrangements, base)
        self.swap = np.empty((n, len(PAIRS)), np.int32)
        for k, (p, q) in enumerate(PAIRS):
            moved = self.arrangements.copy()
            moved[:, [p, q]] = moved[:, [q, p]]
            self.swap[:, k] = np.searchsorted(codes, _codes(moved, base))
        o = np.arange(ORIENTATIONS, dtype=np.int32)
        self.bits = np.empty((ORIENTATIONS, len(PAIRS)), np.int32)
        for k, (p, q) in enumerate(PAIRS):
            bp, bq = (o >> p) & 1, (o >> q) & 1
            self.bits[:, k] = (o & ~((1 << p) | (1 << q))) | (bq << p) | (bp << q)
        self._codes = codes

    @property
    def size(self) -> int:
        return len(self.arrangements) * ORIENTATIONS

    # -- grids and states ----------------------------------------------------------------------

    def state(self, faces: Sequence[int]) -> int:
        """The state of a grid given as nine face numbers (``TileSet.faces`` order).

        Raises:
            ValueError: the grid does not use this set's tiles (wrong counts).
        """
        types = [f // 2 for f in faces]
        if len(faces) != PLACES or sorted(types) != sorted(t for t, n in enumerate(self.tiles.counts)
                                                             for _ in range(n)):
            raise ValueError("the grid does not hold this tile set's stones")
        code = _codes(np.array([types], dtype=np.int8), len(self.tiles.tiles))[0]
        a = int(np.searchsorted(self._codes, code))
        o = sum((f % 2) << p for p, f in enumerate(faces))
        return a * ORIENTATIONS + o

    def faces(self, state: int) -> tuple[int, ...]:
        """The nine faces a state shows."""
        a, o = divmod(int(state), ORIENTATIONS)
        return tuple(int(t) * 2 + ((o >> p) & 1) for p, t in enumerate(self.arrangements[a]))

    def after(self, state: int, move: Move) -> int:
        a, o = divmod(int(state), ORIENTATIONS)
        if move.kind == "flip":
            return a * ORIENTATIONS + (o ^ (1 << move.a))
        k = PAIRS.index((move.a, move.b))
        return int(self.swap[a, k]) * ORIENTATIONS + int(self.bits[o, k])

    # -- patterns ------------------------------------------------------------------------------

    def shows(self, window: Sequence[Sequence[int | None]]) -> np.ndarray:
        """For every state, whether its grid shows the window (rows of face numbers, None
        for any tile) at some place, unturned.

        At one place the window asks, cell by cell, for a tile (the face's type) and a side
        up (the face's side): the arrangements with those tiles there, crossed with the
        orientations with those sides up (one mask and value over the nine side bits)."""
        h, w = len(window), max(len(r) for r in window)
        orientations = np.arange(ORIENTATIONS)
        out = np.zeros((len(self.arrangements), ORIENTATIONS), bool)
        for r0 in range(SIDE - h + 1):
            for c0 in range(SIDE - w + 1):
                tiles = np.ones(len(self.arrangements), bool)
                mask = value = 0
                for dr, row in enumerate(window):
                    for dc, face in enumerate(row):
                        if face is None:
                            continue
                        p = (r0 + dr) * SIDE + c0 + dc
                        tiles &= self.arrangements[:, p] == face // 2
                        mask |= 1 << p
                        value |= (face % 2) << p
                out[tiles] |= (orientations & mask) == value
        return out.reshape(-1)

    def distances(self, shown: np.ndarray) -> np.ndarray:
        """The least number of actions from every state to one that shows the pattern
        (``shown``, from ``shows``); -1 everywhere if none does."""
        return _bfs(shown, self.swap, self.bits)

    def path(self, state: int, dist: np.ndarray) -> list[Move]:
        """A shortest sequence of actions from ``state`` to the pattern."""
        out: list[Move] = []
        if dist[state] < 0:
            raise ValueError("no grid shows the pattern")
        while dist[state] > 0:
            for move in MOVES:
                nxt = self.after(state, move)
                if dist[nxt] == dist[state] - 1:
                    out.append(move)
                    state = nxt
                    break
        return out


@lru_cache(maxsize=4)
def space(tiles: TileSet) -> Space:
    """The (cached) state space of a tile set."""
    return Space(tiles)


#: Decimal places a difficulty is stored with.
MEASURE_PLACES = 3


@dataclass(frozen=True, slots=True)
class Measure:
    """What the search says about a pattern: the mean least number of actions from a uniformly
    random grid, the share of grids that show it already, and the most actions any grid needs."""

    difficulty: float
    shown: float
    max: int


def digest(shown: np.ndarray) -> str:
    """A name for a set of grids (from ``Space.shows``): two patterns shown on the same
    grids have the same digest."""
    return hashlib.blake2b(np.packbits(shown).tobytes(), digest_size=16).hexdigest()


def measure(tiles: TileSet, pattern: Pattern) -> tuple[str, Measure]:
    """The digest of the grids that show ``pattern`` and its measured difficulty."""
    sp = space(tiles)
    shown = sp.shows(pattern.rows)
    key = digest(shown)
    dist = sp.distances(shown)
    total = int(dist.sum(dtype=np.int64))
    return key, Measure(round(total / sp.size, MEASURE_PLACES), round(int(shown.sum()) / sp.size, 6), int(dist.max()))
