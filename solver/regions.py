"""Every region a set of pieces tiles inside a box, with its number of tilings.

Nouns:
    box     a ``width`` x ``height`` rectangle of cells; a region is any set of its cells.
    tiling  one placement of each piece (each used exactly once), none overlapping; its
            region is the union of the placements.

``tiled_regions(pieces, width, height, flips)`` walks every tuple of non-overlapping
placements of the pieces inside the box (a compiled search over bit masks) and counts the
tuples per union, keeping only unions pushed against the box's top and left sides, so that a
region's translations are counted once. The count of a region is then exactly the number of
its tilings by the pieces (``tiling.count`` of the region with those pieces gives the same).
The regions come back as ``Shape``s with their counts, in a fixed order (by bit mask).
"""

from __future__ import annotations

from collections.abc import Sequence

import numba as nb
import numpy as np

from solver.pieces import Piece
from solver.shapes import Shape

#: The largest box: masks are 63-bit with a guard column (``(width + 1) * height <= 63``).
MAX_PADDED = 63


def fits(width: int, height: int) -> bool:
    """Whether ``tiled_regions`` takes a box of this size."""
    return width >= 1 and height >= 1 and (width + 1) * height <= MAX_PADDED


def placements(piece: Piece, width: int, height: int, flips: bool) -> list[int]:
    """Every placement of ``piece`` inside the box as a bit mask (cell ``(r, c)`` is bit
    ``r * (width + 1) + c``), each distinct orientation once, in a fixed order."""
    out = []
    for shape in piece.shape.orientations(flips):
        rows, cols = shape.extent()
        for dr in range(height - rows + 1):
            for dc in range(width - cols + 1):
                mask = 0
                for r, c in shape.cells:
                    mask |= 1 << ((r + dr) * (width + 1) + c + dc)
                out.append(mask)
    return sorted(set(out))


@nb.njit(cache=True)
def _unions(masks, starts, row0, col0):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Tuples of non-overlapping placements (one a piece) counted per union touching row 0
    and column 0; the unions and counts, in no set order."""
    k = starts.size - 1
    counts = nb.typed.Dict.empty(key_type=nb.types.int64, value_type=nb.types.int64)
    at = np.zeros(k, np.int64)
    occupied = np.zeros(k + 1, np.int64)
    depth = 0
    at[0] = starts[0]
    while depth >= 0:
        if at[depth] >= starts[depth + 1]:
            depth -= 1
            if depth >= 0:
                at[depth] += 1
            continue
        m = masks[at[depth]]
        if m & occupied[depth]:
            at[depth] += 1
            continue
        union = occupied[depth] | m
        if depth == k - 1:
            if (union & row0) != 0 and (union & col0) != 0:
                counts[union] = counts.get(union, 0) + 1
            at[depth] += 1
        else:
            occupied[depth + 1] = union
            depth += 1
            at[depth] = starts[depth]
    keys = np.empty(len(counts), np.int64)
    values = np.empty(len(counts), np.int64)
    i = 0
    for key, value in counts.items():
        keys[i] = key
        values[i] = value
        i += 1
    return keys, values  # unsorted: sorted by the caller (no numba sort in a kernel; see tests/test_kernels.py)


@nb.njit(cache=True)
def _spread(seed, within, stride):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """The cells of ``within`` joined to ``seed`` through shared sides of cells of ``within``."""
    reached = seed & within
    while True:
        grown = (reached | (reached << 1) | (reached >> 1) | (reached << stride) | (reached >> stride)) & within
        if grown == reached:
            return reached
        reached = grown


@nb.njit(cache=True)
def _kinds(keys, stride, box, border):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Per union: 0 not connected, 1 connected with holes, 2 connected and hole-free."""
    out = np.zeros(keys.size, np.int8)
    for i in range(keys.size):
        m = keys[i]
        if _spread(m & -m, m, stride) != m:
            continue
        empty = box & ~m
        out[i] = 2 if _spread(empty & border, empty, stride) == empty else 1
    return out


def tiled_regions(pieces: Sequence[Piece], width: int, height: int, flips: bool = True, *,
                  holes: bool = False) -> list[tuple[Shape, int]]:
    """Every connected region inside the box that ``pieces`` tile (each piece used once), at
    its top-left translation, with its number of tilings; sorted by bit mask. A region that
    encloses empty cells is left out unless ``holes``."""
    if not fits(width, height):
        raise ValueError(f"a {width}x{height} box is larger than regions.tiled_regions takes")
    if not pieces:
        return []
    lists = sorted((placements(p, width, height, flips) for p in pieces), key=len)  # few choices first
    if any(not ps for ps in lists):
        return []
    masks = np.array([m for ps in lists for m in ps], np.int64)
    starts = np.zeros(len(lists) + 1, np.int64)
    np.cumsum([len(ps) for ps in lists], out=starts[1:])
    stride = width + 1
    row0 = sum(1 << c for c in range(width))
    col0 = sum(1 << (r * stride) for r in range(height))
    keys, values = _unions(masks, starts, np.int64(row0), np.int64(col0))
    order = np.argsort(keys)
    keys, values = keys[order], values[order]
    box = sum(1 << (r * stride + c) for r in range(height) for c in range(width))
    border = sum(1 << (r * stride + c) for r in range(height) for c in range(width)
                 if r in (0, height - 1) or c in (0, width - 1))
    kinds = _kinds(keys, np.int64(stride), np.int64(box), np.int64(border))
    keep = kinds >= (1 if holes else 2)
    out = []
    for key, value in zip(keys[keep].tolist(), values[keep].tolist()):
        cells = frozenset(divmod(bit, stride) for bit in range(MAX_PADDED) if key >> bit & 1)
        out.append((Shape(cells), int(value)))
    return out
