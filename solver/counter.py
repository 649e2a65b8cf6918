"""The fast counting engine: a compiled bitboard search that always covers the lowest
empty cell.

Nouns:
    Board    a puzzle compiled for the search: one 64-bit mask per placement, placements
             bucketed by their lowest cell and grouped by piece inside each bucket, the
             copies of each piece, and the region's symmetries as permutations of the
             placements (for counting up to symmetry).
    Outcome  what one search established: tilings found, the ones kept (as indices into
             ``puzzle.placements()``), whether the search space was exhausted, and why it
             stopped otherwise.

Why this engine: a tiling search spends nearly all its time asking "which placements fit
here?". Numbering the cells along the region's short side first keeps the frontier short,
so the lowest empty cell is almost always hemmed in and few placements fit it. Every
placement is bucketed by its lowest cell, and each bucket is split into lists, one for each
state of the few cells after it (``_probed``): the search reads the list of the occupancy
it finds, and in it only the runs of the kinds of piece it has left (a bit each, the next
found in one instruction), so it tries few placements that cannot fit, and "does it fit?"
is a single AND of two machine words. Every tiling is found exactly once
(the placement covering the lowest empty cell is determined by the tiling), so no
symmetry bookkeeping is needed to count. numba compiles the loop to machine code once per
machine (the compiled code is cached next to this file).

The search is iterative with its stack in arrays, and runs in slices of a node budget so
that a time limit is honoured and the count so far survives it. Regions over 64 cells do
not fit one mask; ``fits`` says so and ``solver.tiling`` uses CP-SAT for them.
"""

from __future__ import annotations

import operator
import time
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from solver.pieces import Piece
from solver.puzzle import Placement, Puzzle, Solution, symmetry_action

#: Cells a board can hold: one bit each in a 64-bit mask.
MAX_CELLS = 64

#: Search nodes per compiled slice between time-limit checks (a few milliseconds).
SLICE_NODES = 1 << 20

# What a compiled slice returns.
_DONE, _PAUSED, _LIMIT, _FULL = 0, 1, 2, 3


def fits(puzzle: Puzzle) -> bool:
    """Whether the counter can take this puzzle (its region has at most 64 cells)."""
    return puzzle.region.size <= MAX_CELLS


def cell_order(puzzle: Puzzle) -> list[tuple[int, ...]]:
    """The region's cells in search order: along the shortest side of the bounding box
    first, then the next shortest, the longest last (ties keep the axis order)."""
    cells = puzzle.region.sorted_cells()
    extent = [max(axis) - min(axis) for axis in zip(*cells)]
    major_first = sorted(range(len(extent)), key=lambda a: -extent[a])
    if major_first == list(range(len(extent))):
        return list(cells)
    return sorted(cells, key=operator.itemgetter(*major_first))


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """A puzzle compiled for the bitboard search (see the module docstring).

    ``order[k]`` is the index in ``puzzle.placements()`` of the search's placement ``k``.
    """

    masks: np.ndarray  # uint64 per placement
    kinds: np.ndarray  # int64 piece index per placement
    start: np.ndarray  # int64: bucket of cell c is start[c] .. start[c+1]
    copies: np.ndarray  # int64 per piece
    full: np.uint64  # every region cell's bit
    order: np.ndarray  # int64
    action: np.ndarray  # int64 (symmetries, placements), identity first; (1, P) if unused
    depth: int  # most placements a tiling can have
    halo: np.ndarray  # uint64 per placement: the cells next to it, not under it
    neighbours: np.ndarray  # uint64 per cell: the masks of its region neighbours
    prune: bool  # no piece is a single cell, so an empty cell walled in is a dead end
    cells: tuple[tuple[int, ...], ...] = ()  # built by ``compiled``: each bit's cell
    names: tuple[str, ...] = ()  # built by ``compiled``: each kind's piece name
    reach: int = 0  # built by ``compiled``: the cells some placement covers
    fitting: tuple[int, ...] = ()  # built by ``compiled``: placements per kind
    probed: list[np.ndarray] = field(default_factory=list, compare=False)  # ``_probed``'s lists, at the first search

    @classmethod
    def compiled(cls, puzzle: Puzzle) -> Board:
        """The board of ``Board.of(puzzle)`` with the placements made by compiled code
        straight from the region and the pieces' orientations (cached per piece set), never
        as ``Placement`` objects: the same masks in the same search order, at a fraction of
        the cost. ``order`` is the identity: a kept tiling is read back with ``solution``.
        For puzzles ``compilable`` takes."""
        if not compilable(puzzle):
            raise ValueError("the compiled board takes regions of at most 64 cells and pieces of at most 10")
        _check_kinds(len(puzzle.kinds))
        cells, rank = _ranked(puzzle)
        shapes = _shapes(puzzle.kinds, puzzle.flips, puzzle.region.dim)
        masks, kinds, start, halo, near, reach, fitting, *lists = _compile(
            np.array(cells, dtype=np.int64), rank, shapes.offsets, shapes.start, shapes.piece, len(puzzle.kinds))
        n = len(masks)
        smallest = min(p.size for p, _ in puzzle.kinds)
        identity = np.arange(n, dtype=np.int64)
        return cls(masks, kinds, start, np.array([c for _, c in puzzle.kinds], dtype=np.int64),
                   np.uint64((1 << len(cells)) - 1), identity, identity.reshape(1, -1), len(cells) // smallest + 1,
                   halo, near, smallest > 1, tuple(cells), tuple(p.name for p, _ in puzzle.kinds),
                   int(reach), tuple(int(f) for f in fitting), lists)

    def possible(self) -> bool:
        """For a ``compiled`` board: every cell is reached by some placement and every kind
        of piece fits somewhere (what ``Puzzle.impossibility`` checks of the placements)."""
        return self.reach == int(self.full) and all(self.fitting)

    def anchors(self, puzzle: Puzzle) -> tuple[tuple[int, int], ...] | None:
        """For a ``compiled`` board of a region with symmetries: one placement per orbit of
        the anchor piece's placements under them, with the orbit's size, so that the count
        is the sum over these of (size x tilings with the anchor lying there). The anchor is
        a piece with one copy (every tiling holds it exactly once, so the tilings split by
        where it lies, and a symmetry maps those with the anchor at ``a`` one to one onto
        those with it at the image of ``a``), the one with the fewest placements. Without
        flips only rotations are used (a reflection would swap a piece with its mirror
        image). None when nothing is gained: no symmetry, or no piece with one copy."""
        symmetries = [t for t in puzzle.symmetries()[1:] if puzzle.flips or t.is_rotation]
        single = [k for k, (_, copies) in enumerate(puzzle.kinds) if copies == 1]
        if not symmetries or not single or len(puzzle.pieces) < 2:
            return None
        fitting = self.fitting
        anchor = min(single, key=lambda k: (fitting[k], k))
        bit = {c: b for b, c in enumerate(self.cells)}
        region = puzzle.region
        moves = []
        for t in symmetries:
            offset = tuple(a - b for a, b in zip(region.lower_corner(), region.transformed(t).lower_corner()))
            moves.append((t, offset))
        orbits: dict[int, int] = {}
        for k in np.flatnonzero(self.kinds == anchor):
            mask = int(self.masks[k])
            cells = [self.cells[b] for b in range(len(self.cells)) if mask >> b & 1]
            images = {mask}
            for t, offset in moves:
                images.add(sum(1 << bit[tuple(v + d for v, d in zip(t.apply(c), offset))] for c in cells))
            rep = min(images)
            orbits[rep] = orbits.get(rep, 0) + 1
        position = {int(m): int(k) for k in np.flatnonzero(self.kinds == anchor) for m in [self.masks[k]]}
        return tuple((weight, position[rep]) for rep, weight in sorted(orbits.items()))

    def solution(self, chosen: tuple[int, ...]) -> Solution:
        """A kept tiling of a ``compiled`` board (positions in the search order) as a
        ``Solution``: the same one ``Board.of`` would have given."""
        out = []
        for k in chosen:
            mask = int(self.masks[k])
            out.append(Placement(self.names[int(self.kinds[k])],
                                 tuple(self.cells[b] for b in range(len(self.cells)) if mask >> b & 1)))
        return Solution(tuple(out))

    @classmethod
    def of(cls, puzzle: Puzzle, distinct: bool = False) -> Board:
        if not fits(puzzle):
            raise ValueError(f"the counter takes at most {MAX_CELLS} cells, got {puzzle.region.size}")
        placements = puzzle.placements()
        cells = cell_order(puzzle)
        bit = {c: i for i, c in enumerate(cells)}
        n_cells = len(bit)
        kinds = puzzle.kinds
        piece_index = {p.name: i for i, (p, _) in enumerate(kinds)}
        near = [0] * n_cells
        for i, c in enumerate(cells):  # each adjacent pair once, from its lower cell
            for d in _above(c):
                j = bit.get(d)
                if j is not None:
                    near[i] |= 1 << j
                    near[j] |= 1 << i
        # per placement, as Python ints: (lowest cell, piece, index), mask
        single = {c: 1 << i for c, i in bit.items()}
        keyed = []
        for i, p in enumerate(placements):
            mask = sum(map(single.__getitem__, p.cells))  # the cells are distinct
            keyed.append(((mask & -mask).bit_length() - 1, piece_index[p.piece], i, mask))
        keyed.sort()
        n = len(keyed)
        order = [k[2] for k in keyed]
        lows = [k[0] for k in keyed]
        masks = [k[3] for k in keyed]
        mask_arr = np.array(masks, dtype=np.uint64)
        near_arr = np.array(near, dtype=np.uint64)
        halo = _halos(mask_arr, near_arr)
        order_arr = np.array(order, dtype=np.int64)
        if distinct:
            position = np.empty(n, dtype=np.int64)
            position[order_arr] = np.arange(n)
            perms = np.array(symmetry_action(puzzle), dtype=np.int64).reshape(-1, len(placements))
            action = position[perms[:, order_arr]] if n else perms
        else:
            action = np.arange(n, dtype=np.int64).reshape(1, -1)
        smallest = min(p.size for p, _ in kinds)
        return cls(mask_arr, np.array([k[1] for k in keyed], dtype=np.int64),
                   np.searchsorted(np.array(lows, dtype=np.int64), np.arange(n_cells + 1)).astype(np.int64),
                   np.array([c for _, c in kinds], dtype=np.int64), np.uint64((1 << n_cells) - 1),
                   order_arr, action, n_cells // smallest + 1,
                   halo, near_arr, smallest > 1)


#: The most cells a piece may have for ``Board.compiled`` (a placement's sort key holds six
#: bits a cell in one 64-bit word).
MAX_PIECE = 10


#: Kinds of piece a board can hold: one bit each in a 64-bit mask.
MAX_KINDS = 64


def _check_kinds(n_kinds: int) -> None:
    if n_kinds > MAX_KINDS:
        raise ValueError(f"the counter takes at most {MAX_KINDS} kinds of piece, got {n_kinds}")


def compilable(puzzle: Puzzle) -> bool:
    """Whether ``Board.compiled`` takes this puzzle."""
    return fits(puzzle) and max(p.size for p, _ in puzzle.kinds) <= MAX_PIECE


def in_reading_order(puzzle: Puzzle) -> tuple[list[int], list[int]]:
    """Every placement of a ``compilable`` puzzle as a mask over the region's cells in
    reading order (bit ``i``: the ``i``-th of ``region.sorted_cells()``) and its kind (its
    index in ``puzzle.kinds``), in the order of ``puzzle.placements()`` (kind, then cells in
    reading order): the same placements, made by compiled code rather than as Python
    ``Placement`` objects."""
    if not compilable(puzzle):
        raise ValueError("in_reading_order takes regions of at most 64 cells and pieces of at most 10")
    cells, rank = _ranked(puzzle)
    shapes = _shapes(puzzle.kinds, puzzle.flips, puzzle.region.dim)
    n_kinds = len(puzzle.kinds)
    _, primary, keys, _, reading = _placements(np.array(cells, dtype=np.int64), rank, shapes.offsets, shapes.start,
                                               shapes.piece, n_kinds)
    kinds = primary % n_kinds
    order = np.lexsort((keys, kinds))  # kind, then the cells' reading order (``key``: their ranks, 6 bits each)
    if len(order) > 1:  # one placement per (kind, cells): orientations that coincide
        same = (kinds[order[1:]] == kinds[order[:-1]]) & (keys[order[1:]] == keys[order[:-1]])
        order = order[np.concatenate(([True], ~same))]
    return reading[order].tolist(), kinds[order].tolist()


def _ranked(puzzle: Puzzle) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """The board's cells in the search's order, and each one's place in reading order."""
    cells = cell_order(puzzle)
    lexical = puzzle.region.sorted_cells()
    if cells == list(lexical):
        return cells, np.arange(len(cells), dtype=np.int64)
    where = {c: i for i, c in enumerate(lexical)}
    return cells, np.array([where[c] for c in cells], dtype=np.int64)


@dataclass(frozen=True, slots=True, eq=False)
class _Shapes:
    """Every orientation of every kind of piece as offsets from its first cell (in reading
    order): orientation ``o`` is ``offsets[start[o]:start[o + 1]]``, of kind ``piece[o]``."""

    offsets: np.ndarray
    start: np.ndarray
    piece: np.ndarray


@lru_cache(maxsize=1024)
def _shapes(kinds: tuple[tuple[Piece, int], ...], flips: bool, dim: int) -> _Shapes:
    """The orientations of a piece set, made once and shared by every region it tiles."""
    offsets: list[tuple[int, ...]] = []
    start = [0]
    owner = []
    for k, (p, _) in enumerate(kinds):
        shape = p.shape.lifted() if dim == 3 else p.shape
        for o in shape.orientations(flips):
            cells = o.sorted_cells()
            offsets.extend(tuple(a - b for a, b in zip(c, cells[0])) for c in cells)
            start.append(len(offsets))
            owner.append(k)
    return _Shapes(np.array(offsets, dtype=np.int64).reshape(-1, dim), np.array(start, dtype=np.int64),
                   np.array(owner, dtype=np.int64))


def _compile(coords: np.ndarray, rank: np.ndarray, offsets: np.ndarray, ostart: np.ndarray, opiece: np.ndarray,
             n_kinds: int) -> tuple[np.ndarray, ...]:
    """Every placement of ``Board.of`` as a mask, in its search order: by lowest cell, then
    kind, then cells in reading order (``rank`` is each bit's place in reading order). Also
    the buckets, halos and neighbour masks, the cells some placement reaches and the
    placements per kind.

    Compiled loops make the placements (``_placements``) and group them (``_grouped``); the
    sort between is numpy's, which keeps the compiled code small: a fresh clone compiles it
    in a fraction of the time numba takes over its own sort and search routines."""
    masks, primary, keys, near, _ = _placements(coords, rank, offsets, ostart, opiece, n_kinds)
    order = np.lexsort((keys, primary))  # stable: by (lowest cell, kind), then reading order
    return _grouped(masks, primary, keys, order, near, n_kinds, PROBE_BITS, PROBE_PLACEMENTS)  # type: ignore[no-any-return]


@njit(cache=True, nogil=True)
def _grouped(masks, primary, keys, order, near, n_kinds, most_bits, per_bit):  # type: ignore[no-untyped-def]  # pragma: no cover
    """For ``_compile``: the sorted placements, one per (lowest cell, kind, cells) where
    orientations coincide, with their kinds, cell buckets, halos, the cells they reach, how
    many there are of each kind, and the search's lists (``_probed``; ``most_bits`` and
    ``per_bit`` are ``PROBE_BITS`` and ``PROBE_PLACEMENTS``)."""
    keep = np.empty(len(order), dtype=np.int64)
    m = 0
    for t in range(len(order)):
        o = order[t]
        if t > 0 and primary[o] == primary[order[t - 1]] and keys[o] == keys[order[t - 1]]:
            continue
        keep[m] = o
        m += 1
    out_masks = np.empty(m, dtype=np.uint64)
    out_primary = np.empty(m, dtype=np.int64)
    kinds = np.empty(m, dtype=np.int64)
    for t in range(m):
        out_masks[t] = masks[keep[t]]
        out_primary[t] = primary[keep[t]]
        kinds[t] = out_primary[t] % n_kinds
    n = len(near)
    start = np.empty(n + 1, dtype=np.int64)
    t = 0
    for c in range(n + 1):  # bucket c: the placements whose lowest cell is c
        while t < m and out_primary[t] // n_kinds < c:
            t += 1
        start[c] = t
    halo = _halos(out_masks, near)
    reach = np.uint64(0)
    fitting = np.zeros(n_kinds, dtype=np.int64)
    for t in range(m):
        reach |= out_masks[t]
        fitting[kinds[t]] += 1
    bits = _probe_bits(m, most_bits, per_bit)
    listed, listed_masks, kind_start, present = _probed(out_masks, kinds, start, bits, n_kinds)
    return out_masks, kinds, start, halo, near, reach, fitting, listed, listed_masks, kind_start, \
        present, bits


@njit(cache=True, nogil=True)
def _placements(coords, rank, offsets, ostart, opiece, n_kinds):  # type: ignore[no-untyped-def]  # pragma: no cover
    """For ``_compile``: each placement's mask, its (lowest cell, kind) as one number, its
    cells' reading order as one sort key, each cell's neighbour mask, and each placement's
    mask in reading order (bit ``rank[j]`` for the cell of bit ``j``). Loops only, so it
    compiles fast."""
    n, dim = coords.shape
    one = np.uint64(1)
    low = np.empty(dim, dtype=np.int64)
    ext = np.empty(dim, dtype=np.int64)
    for a in range(dim):
        lo = coords[0, a]
        hi = coords[0, a]
        for i in range(1, n):
            lo = min(lo, coords[i, a])
            hi = max(hi, coords[i, a])
        low[a] = lo
        ext[a] = hi - lo + 1
    stride = np.ones(dim, dtype=np.int64)
    for a in range(dim - 2, -1, -1):
        stride[a] = stride[a + 1] * ext[a + 1]
    grid = np.empty(stride[0] * ext[0], dtype=np.int64)
    for at in range(len(grid)):
        grid[at] = -1
    for i in range(n):
        grid[_index(coords[i], low, stride, dim)] = i
    near = np.zeros(n, dtype=np.uint64)
    for i in range(n):
        for a in range(dim):
            if coords[i, a] - low[a] + 1 < ext[a]:
                j = grid[_index(coords[i], low, stride, dim) + stride[a]]
                if j >= 0:
                    near[i] |= one << np.uint64(j)
                    near[j] |= one << np.uint64(i)
    n_orient = len(ostart) - 1
    cap = n_orient * n
    masks = np.empty(cap, dtype=np.uint64)
    reading = np.empty(cap, dtype=np.uint64)
    primary = np.empty(cap, dtype=np.int64)
    keys = np.empty(cap, dtype=np.int64)
    count = 0
    for o in range(n_orient):
        for i in range(n):
            mask = np.uint64(0)
            ranks = np.uint64(0)
            key = 0
            ok = True
            for t in range(ostart[o], ostart[o + 1]):
                at = 0
                for a in range(dim):
                    v = coords[i, a] + offsets[t, a] - low[a]
                    if v < 0 or v >= ext[a]:
                        ok = False
                        break
                    at += v * stride[a]
                if not ok:
                    break
                j = grid[at]
                if j < 0:
                    ok = False
                    break
                mask |= one << np.uint64(j)
                ranks |= one << np.uint64(rank[j])
                key = key * 64 + rank[j]
            if ok:
                lowest = 0
                while not (mask >> np.uint64(lowest)) & one:
                    lowest += 1
                masks[count] = mask
                reading[count] = ranks
                primary[count] = lowest * n_kinds + opiece[o]
                keys[count] = key
                count += 1
    return masks[:count], primary[:count], keys[:count], near, reading[:count]


@njit(cache=True, nogil=True)
def _index(cell, low, stride, dim):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    at = 0
    for a in range(dim):
        at += (cell[a] - low[a]) * stride[a]
    return at


def _above(cell: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The cell's neighbours one step up along each axis."""
    if len(cell) == 2:
        r, c = cell
        return ((r + 1, c), (r, c + 1))
    r, c, z = cell
    return ((r + 1, c, z), (r, c + 1, z), (r, c, z + 1))


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one counter search established.

    Attributes:
        found: tilings counted (symmetry classes with ``distinct``).
        kept: the tilings kept, each as sorted indices into ``puzzle.placements()``.
        finished: the whole search space was explored, so ``found`` is exact.
        at_limit: the search stopped because ``found`` reached the limit.
        nodes: placements tried and fitted (the search tree's size so far).
    """

    found: int
    kept: tuple[tuple[int, ...], ...]
    finished: bool
    at_limit: bool
    nodes: int


def search(
    board: Board,
    *,
    limit: int | None = None,
    keep: int | None = 1,
    distinct: bool = False,
    time_limit: float | None = None,
    fixed: int | None = None,
) -> Outcome:
    """Count tilings on ``board``, stopping at ``limit`` or after ``time_limit`` seconds.

    Args:
        board: the compiled puzzle (``Board.of(puzzle, distinct)``).
        limit: stop once this many tilings (classes) are found; None for all.
        keep: how many tilings to keep (None keeps every one).
        distinct: count one tiling per orbit of the region's symmetries (the board must
            have been compiled with ``distinct=True``).
        time_limit: seconds; checked between slices of ``SLICE_NODES`` nodes.
        fixed: a placement (position in the search order) every tiling counted holds: it
            lies on the board before the search starts, and kept tilings leave it out.
    """
    started = time.perf_counter()
    buffer_rows = 1 if keep == 0 else min(keep, 4096) if keep is not None else 4096
    kept_rows: list[tuple[int, ...]] = []
    sol_buf = np.zeros((buffer_rows, board.depth), dtype=np.int64)
    sol_len = np.zeros(buffer_rows, dtype=np.int64)
    # state: depth, found, nodes, kept-in-buffer, occupied mask (as int64 bits), depth 0's
    # list (-1 once the search has begun)
    state = np.zeros(6, dtype=np.int64)
    at = np.zeros(board.depth + 1, dtype=np.int64)  # per depth: the next place to try in its list,
    stop = np.zeros(board.depth + 1, dtype=np.int64)  # where the run of the kind being tried ends,
    todo = np.zeros(board.depth + 1, dtype=np.uint64)  # and the kinds still to try
    chosen = np.zeros(board.depth + 1, dtype=np.int64)
    left = board.copies.copy()
    listed, listed_masks, kind_start, present, bits = probed(board)
    occupied = first = 0
    if fixed is not None:
        occupied = int(board.masks[fixed])
        state[4] = np.array([occupied], dtype=np.uint64).view(np.int64)[0]
        left[board.kinds[fixed]] -= 1
        first = (~occupied & (occupied + 1)).bit_length() - 1  # the lowest empty cell
    state[5] = (first << bits) | (occupied >> (first + 1)) & ((1 << bits) - 1)  # depth 0's list
    max_found = limit if limit is not None else np.iinfo(np.int64).max
    want = keep if keep is not None else -1  # -1: keep all (drain the buffer when full)
    while True:
        code = _slice(board.masks, board.kinds, listed, listed_masks, kind_start, present, bits, board.full,
                      board.action, distinct, board.prune, board.halo, board.neighbours, left, state,
                      at, stop, todo, chosen, sol_buf, sol_len,
                      max_found, want - len(kept_rows) if want >= 0 else -1, SLICE_NODES)
        for r in range(int(state[3])):
            kept_rows.append(tuple(sorted(int(board.order[k]) for k in sol_buf[r, : sol_len[r]])))
        state[3] = 0
        if code == _FULL:
            continue
        if code == _PAUSED and (time_limit is None or time.perf_counter() - started < time_limit):
            continue
        return Outcome(int(state[1]), tuple(kept_rows), code == _DONE, code == _LIMIT, int(state[2]))


def count_by_orbits(board: Board, anchors: tuple[tuple[int, int], ...], time_limit: float | None = None) -> Outcome:
    """Count every tiling as the sum over the anchor's orbits (``Board.anchors``) of the
    orbit's size times the tilings with the anchor at its representative; nothing kept. A
    time limit stops it with the count so far, a lower bound."""
    started = time.perf_counter()
    found = nodes = 0
    for weight, position in anchors:
        left = None if time_limit is None else time_limit - (time.perf_counter() - started)
        if left is not None and left <= 0:
            return Outcome(found, (), False, False, nodes)
        out = search(board, keep=0, time_limit=left, fixed=position)
        found += weight * out.found
        nodes += out.nodes
        if not out.finished:
            return Outcome(found, (), False, False, nodes)
    return Outcome(found, (), True, False, nodes)


@njit(cache=True, nogil=True)
def _halos(masks: np.ndarray, near: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """The cells next to each placement but not under it, as a mask."""
    one = np.uint64(1)
    halo = np.zeros(len(masks), dtype=np.uint64)
    for k in range(len(masks)):
        around = np.uint64(0)
        for b in range(len(near)):
            if (masks[k] >> np.uint64(b)) & one:
                around |= near[b]
        halo[k] = around & ~masks[k]
    return halo


@njit(cache=True, nogil=True)
def _is_canonical(chosen: np.ndarray, size: int, action: np.ndarray) -> bool:
    """Whether the tiling ``chosen[:size]`` is the least (as a sorted index list) of its
    images under the symmetries in ``action`` (row 0 is the identity). Sorted by insertion
    (a tiling holds a dozen placements), which compiles in a fraction of numba's sort."""
    mine = np.empty(size, dtype=np.int64)
    image = np.empty(size, dtype=np.int64)
    moved = np.empty(size, dtype=np.int64)
    _insert_sorted(chosen, size, mine)
    for g in range(1, action.shape[0]):
        for t in range(size):
            moved[t] = action[g, mine[t]]
        _insert_sorted(moved, size, image)
        for t in range(size):
            if image[t] != mine[t]:
                if image[t] < mine[t]:
                    return False
                break
    return True


@njit(cache=True, nogil=True)
def _insert_sorted(values, size, out):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """``values[:size]`` into ``out``, in increasing order."""
    for t in range(size):
        v = values[t]
        k = t
        while k > 0 and out[k - 1] > v:
            out[k] = out[k - 1]
            k -= 1
        out[k] = v


@njit(cache=True, nogil=True, inline="always")
def _walls_in(occ, halo, neighbours):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Whether some empty cell of ``halo`` (the cells next to the newest placement) has no
    empty neighbour left: only the empty ones are visited, each found in one instruction."""
    free = ~occ
    empty = halo & free
    while empty:
        if neighbours[trailing_zeros(empty)] & free == np.uint64(0):  # type: ignore[call-arg]
            return True
        empty &= empty - np.uint64(1)
    return False


#: The most cells after the lowest empty one whose state picks the list of candidates there
#: (``_probed``), and the placements a board needs for each bit: a small board's search is
#: over before bigger lists would pay for themselves.
PROBE_BITS, PROBE_PLACEMENTS = 8, 16


def probed(board: Board) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """The board's candidate lists (``_probed``), made at its first search and kept: the
    placements and their masks, each list's runs by kind, the kinds each list holds (a bit
    each) and the bits of occupancy that choose a list."""
    if not board.probed:
        n_kinds = len(board.copies)
        _check_kinds(n_kinds)
        bits = _probe_bits(len(board.masks), PROBE_BITS, PROBE_PLACEMENTS)
        board.probed.extend(_probed(board.masks, board.kinds, board.start, bits, n_kinds))
        board.probed.append(np.int64(bits))
    listed, listed_masks, kind_start, present, bits = board.probed
    return listed, listed_masks, kind_start, present, int(bits)


@njit(cache=True, nogil=True)
def _probe_bits(placements, most_bits, per_bit):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """How many cells after the lowest empty one choose its list: one more each time the
    placements double past ``per_bit``, at most ``most_bits``."""
    bits = 0
    while bits < most_bits and placements >= per_bit << bits:
        bits += 1
    return bits


@njit(cache=True, nogil=True)
def _probed(masks, kinds, start, bits, n_kinds):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """The candidates of each cell as lists, one for each state of the ``bits`` cells after it
    in the search order: list ``(c << bits) | b``, for cell ``c`` with those cells' bits ``b``
    (the lowest bit the next cell), holds the placements of ``c``'s bucket that cover none
    of the occupied ones, in the bucket's order (by kind, then reading order). Kind ``k``'s
    run in list ``l`` is ``listed[kind_start[l, k]:kind_start[l, k + 1]]``, and bit ``k`` of
    ``present[l]`` says the run is not empty. The search reads the list of the occupancy it
    finds and, in it, the runs of the kinds it has left: only placements that may fit, in
    the order of the whole bucket. ``listed_masks`` holds the listed placements' masks, so
    that a try reads one array."""
    cells = len(start) - 1
    patterns = 1 << bits
    lists = cells * patterns
    kind_start = np.zeros((lists, n_kinds + 1), dtype=np.int64)
    present = np.zeros(lists, dtype=np.uint64)
    total = 0
    for c in range(cells):
        for b in range(patterns):
            blocked = (np.uint64(b) << np.uint64(c)) << np.uint64(1)
            for i in range(start[c], start[c + 1]):
                if masks[i] & blocked == 0:
                    total += 1
    listed = np.empty(total, dtype=np.int64)
    listed_masks = np.empty(total, dtype=np.uint64)
    at = 0
    for c in range(cells):
        for b in range(patterns):
            blocked = (np.uint64(b) << np.uint64(c)) << np.uint64(1)
            here = c * patterns + b
            k = 0
            kind_start[here, 0] = at
            for i in range(start[c], start[c + 1]):
                if masks[i] & blocked != 0:
                    continue
                while k < kinds[i]:  # the runs of the kinds before this one end here
                    k += 1
                    kind_start[here, k] = at
                present[here] |= np.uint64(1) << np.uint64(kinds[i])
                listed[at] = i
                listed_masks[at] = masks[i]
                at += 1
            while k < n_kinds:
                k += 1
                kind_start[here, k] = at
    return listed, listed_masks, kind_start, present


@njit(cache=True, nogil=True)
def _slice(masks, kinds, listed, listed_masks, kind_start, present, bits, full, action,  # type: ignore[no-untyped-def]
           distinct, prune, halo, neighbours, left, state, at, stop, todo, chosen,
           sol_buf, sol_len, max_found, room, budget):  # pragma: no cover - compiled
    """Run the search for up to ``budget`` nodes from the state in the arrays.

    At each depth: ``todo`` the kinds still to try in the list of candidates for the lowest
    empty cell (``_probed``), ``at`` the next place to try, ``stop`` where the run of the
    kind being tried ends. ``room`` is how many more tilings to keep (-1: keep all, pausing
    when the buffer fills). Returns _DONE, _PAUSED, _LIMIT or _FULL; the state arrays hold
    where it stopped.
    """
    depth = state[0]
    found = state[1]
    nodes = state[2]
    stored = state[3]
    occ = np.uint64(state[4])
    one = np.uint64(1)
    zero = np.uint64(0)
    low = np.uint64((1 << bits) - 1)
    if len(masks) == 0:
        return _DONE
    avail = zero  # the kinds with a copy left, a bit each
    for k in range(len(left)):
        if left[k] > 0:
            avail |= one << np.uint64(k)
    if state[5] >= 0:  # the search begins: depth 0's list
        todo[0] = avail & present[state[5]]
        at[0] = stop[0] = 0
        state[5] = -1
    spent = 0
    while True:
        if spent >= budget:
            code = _PAUSED
            break
        pos = at[depth]
        end = stop[depth]
        i = 0
        fits = False
        while True:
            while pos < end:
                if listed_masks[pos] & occ == zero:
                    i = listed[pos]
                    fits = True
                    break
                pos += 1
            if fits:
                break
            rest = todo[depth]
            if rest == zero:
                break
            k = trailing_zeros(rest)  # type: ignore[call-arg]  # an intrinsic: numba passes its context
            todo[depth] = rest & (rest - one)
            key = _list_of(occ, bits, low)
            pos = kind_start[key, k]
            end = kind_start[key, k + 1]
        if not fits:  # nothing fits the lowest empty cell: backtrack
            if depth == 0:
                code = _DONE
                break
            depth -= 1
            j = chosen[depth]
            occ ^= masks[j]
            kj = kinds[j]
            left[kj] += 1
            avail |= one << np.uint64(kj)
            continue
        spent += 1
        nodes += 1
        at[depth] = pos + 1
        stop[depth] = end
        chosen[depth] = i
        if occ | masks[i] == full:  # a tiling
            if distinct and not _is_canonical(chosen, depth + 1, action):
                continue
            found += 1
            if room != 0 and stored < sol_buf.shape[0]:
                for t in range(depth + 1):
                    sol_buf[stored, t] = chosen[t]
                sol_len[stored] = depth + 1
                stored += 1
                if room > 0:
                    room -= 1
            if found >= max_found:
                code = _LIMIT
                break
            if room < 0 and stored == sol_buf.shape[0]:
                code = _FULL
                break
            continue
        if prune and _walls_in(occ | masks[i], halo[i], neighbours):
            continue
        occ |= masks[i]
        ki = kinds[i]
        left[ki] -= 1
        if left[ki] == 0:
            avail &= ~(one << np.uint64(ki))
        depth += 1
        todo[depth] = avail & present[_list_of(occ, bits, low)]
        at[depth] = stop[depth] = 0
    state[0] = depth
    state[1] = found
    state[2] = nodes
    state[3] = stored
    state[4] = np.int64(occ)
    return code


@njit(cache=True, nogil=True, inline="always")
def _list_of(occ, bits, low):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """The list of candidates (``_probed``) for the lowest empty cell of ``occ``: the cell
    (its trailing zeros once inverted: compiled to one instruction) and the ``bits`` cells
    after it."""
    c = np.int64(trailing_zeros(~occ))  # type: ignore[call-arg]  # an intrinsic: numba passes its context
    return (c << bits) | np.int64(((occ >> np.uint64(c)) >> np.uint64(1)) & low)
