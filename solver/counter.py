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
so the lowest empty cell is almost always hemmed in and few placements fit it; with every
placement bucketed by its lowest cell, the candidates for a cell are one contiguous slice,
and "does it fit?" is a single AND of two machine words. Every tiling is found exactly once
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
from dataclasses import dataclass

import numpy as np
from numba import njit

from solver.puzzle import Puzzle, symmetry_action

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
    skip: np.ndarray  # int64: first placement after this one's (cell, piece) group
    start: np.ndarray  # int64: bucket of cell c is start[c] .. start[c+1]
    copies: np.ndarray  # int64 per piece
    full: np.uint64  # every region cell's bit
    order: np.ndarray  # int64
    action: np.ndarray  # int64 (symmetries, placements), identity first; (1, P) if unused
    depth: int  # most placements a tiling can have
    halo_start: np.ndarray  # int64: the cells next to placement k are halo[halo_start[k]:...]
    halo: np.ndarray  # int64 cell bits
    neighbours: np.ndarray  # uint64 per cell: the masks of its region neighbours
    prune: bool  # no piece is a single cell, so an empty cell walled in is a dead end

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
        skip = [n] * n
        for k in range(n - 2, -1, -1):
            same = keyed[k + 1][:2] == keyed[k][:2]
            skip[k] = skip[k + 1] if same else k + 1
        mask_arr = np.array(masks, dtype=np.uint64)
        near_arr = np.array(near, dtype=np.uint64)
        halo_start, halo = _halos(mask_arr, near_arr)
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
                   np.array(skip, dtype=np.int64),
                   np.searchsorted(np.array(lows, dtype=np.int64), np.arange(n_cells + 1)).astype(np.int64),
                   np.array([c for _, c in kinds], dtype=np.int64), np.uint64((1 << n_cells) - 1),
                   order_arr, action, n_cells // smallest + 1,
                   halo_start, halo, near_arr, smallest > 1)


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
) -> Outcome:
    """Count tilings on ``board``, stopping at ``limit`` or after ``time_limit`` seconds.

    Args:
        board: the compiled puzzle (``Board.of(puzzle, distinct)``).
        limit: stop once this many tilings (classes) are found; None for all.
        keep: how many tilings to keep (None keeps every one).
        distinct: count one tiling per orbit of the region's symmetries (the board must
            have been compiled with ``distinct=True``).
        time_limit: seconds; checked between slices of ``SLICE_NODES`` nodes.
    """
    started = time.perf_counter()
    n = len(board.masks)
    buffer_rows = 1 if keep == 0 else min(keep, 4096) if keep is not None else 4096
    kept_rows: list[tuple[int, ...]] = []
    sol_buf = np.zeros((buffer_rows, board.depth), dtype=np.int64)
    sol_len = np.zeros(buffer_rows, dtype=np.int64)
    # state: depth, found, nodes, kept-in-buffer, occupied mask (as int64 bits)
    state = np.zeros(5, dtype=np.int64)
    cell_at = np.zeros(board.depth + 1, dtype=np.int64)
    nxt = np.zeros(board.depth + 1, dtype=np.int64)
    chosen = np.zeros(board.depth + 1, dtype=np.int64)
    left = board.copies.copy()
    nxt[0] = board.start[0] if n else 0
    max_found = limit if limit is not None else np.iinfo(np.int64).max
    want = keep if keep is not None else -1  # -1: keep all (drain the buffer when full)
    while True:
        code = _slice(board.masks, board.kinds, board.skip, board.start, board.full, board.action,
                      distinct, board.prune, board.halo_start, board.halo, board.neighbours, left, state,
                      cell_at, nxt, chosen, sol_buf, sol_len,
                      max_found, want - len(kept_rows) if want >= 0 else -1, SLICE_NODES)
        for r in range(int(state[3])):
            kept_rows.append(tuple(sorted(int(board.order[k]) for k in sol_buf[r, : sol_len[r]])))
        state[3] = 0
        if code == _FULL:
            continue
        if code == _PAUSED and (time_limit is None or time.perf_counter() - started < time_limit):
            continue
        return Outcome(int(state[1]), tuple(kept_rows), code == _DONE, code == _LIMIT, int(state[2]))


@njit(cache=True, nogil=True)
def _halos(masks: np.ndarray, near: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The cells next to each placement but not under it, as bit numbers: placement k's are
    ``halo[halo_start[k]:halo_start[k + 1]]``."""
    one = np.uint64(1)
    zero = np.uint64(0)
    halo_start = np.zeros(len(masks) + 1, dtype=np.int64)
    halo = np.empty(len(masks) * len(near), dtype=np.int64)
    used = 0
    for k in range(len(masks)):
        around = zero
        for b in range(len(near)):
            if (masks[k] >> np.uint64(b)) & one:
                around |= near[b]
        around &= ~masks[k]
        for b in range(len(near)):
            if (around >> np.uint64(b)) & one:
                halo[used] = b
                used += 1
        halo_start[k + 1] = used
    return halo_start, halo[:used].copy()


@njit(cache=True, nogil=True)
def _is_canonical(chosen: np.ndarray, size: int, action: np.ndarray) -> bool:
    """Whether the tiling ``chosen[:size]`` is the least (as a sorted index list) of its
    images under the symmetries in ``action`` (row 0 is the identity)."""
    mine = np.sort(chosen[:size])
    for g in range(1, action.shape[0]):
        image = np.sort(action[g][mine])
        for t in range(size):
            if image[t] != mine[t]:
                if image[t] < mine[t]:
                    return False
                break
    return True


@njit(cache=True, nogil=True)
def _walls_in(occ, halo, first, last, neighbours) -> bool:  # type: ignore[no-untyped-def]  # numba types it
    """Whether some empty cell next to the newest placement has no empty neighbour left."""
    one = np.uint64(1)
    zero = np.uint64(0)
    for t in range(first, last):
        b = halo[t]
        if (occ >> np.uint64(b)) & one == zero and neighbours[b] & ~occ == zero:
            return True
    return False


@njit(cache=True, nogil=True)
def _slice(masks, kinds, skip, start, full, action, distinct, prune, halo_start, halo, neighbours,  # type: ignore[no-untyped-def]
           left, state, cell_at, nxt, chosen,
           sol_buf, sol_len, max_found, room, budget):  # pragma: no cover - compiled
    """Run the search for up to ``budget`` nodes from the state in the arrays.

    ``room`` is how many more tilings to keep (-1: keep all, pausing when the buffer fills).
    Returns _DONE, _PAUSED, _LIMIT or _FULL; the state arrays hold where it stopped.
    """
    depth = state[0]
    found = state[1]
    nodes = state[2]
    stored = state[3]
    occ = np.uint64(state[4])
    one = np.uint64(1)
    zero = np.uint64(0)
    spent = 0
    if len(masks) == 0:
        return _DONE
    while True:
        if spent >= budget:
            code = _PAUSED
            break
        c = cell_at[depth]
        i = nxt[depth]
        end = start[c + 1]
        while i < end:
            if left[kinds[i]] == 0:
                i = skip[i]
            elif masks[i] & occ == zero:
                break
            else:
                i += 1
        if i >= end:  # nothing fits the lowest empty cell: backtrack
            if depth == 0:
                code = _DONE
                break
            depth -= 1
            j = chosen[depth]
            occ ^= masks[j]
            left[kinds[j]] += 1
            nxt[depth] = j + 1
            continue
        spent += 1
        nodes += 1
        nxt[depth] = i + 1
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
        if prune and _walls_in(occ | masks[i], halo, halo_start[i], halo_start[i + 1], neighbours):
            continue
        occ |= masks[i]
        left[kinds[i]] -= 1
        nxt_cell = c + 1
        while (occ >> np.uint64(nxt_cell)) & one:
            nxt_cell += 1
        depth += 1
        cell_at[depth] = nxt_cell
        nxt[depth] = start[nxt_cell]
    state[0] = depth
    state[1] = found
    state[2] = nodes
    state[3] = stored
    state[4] = np.int64(occ)
    return code
