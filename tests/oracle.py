"""A deliberately naive tiling counter used as a test oracle.

Plain recursion over the first uncovered cell, written without anything from
``solver.puzzle`` or the engines, so that it can check them. Far too slow for real work.
"""

from __future__ import annotations

from collections import Counter

from solver.pieces import Piece
from solver.shapes import Cell, Shape


def oriented(piece: Piece, dim: int, flips: bool) -> list[tuple[Cell, ...]]:
    shape = piece.shape.lifted() if dim == 3 else piece.shape
    return [s.sorted_cells() for s in shape.orientations(flips)]


def tilings(region: Shape, pieces: list[Piece], flips: bool, subset: bool) -> list[frozenset]:
    """Every exact tiling as a frozenset of (piece name, frozenset of cells)."""
    left = Counter(p.name for p in pieces)
    shapes = {p.name: oriented(p, region.dim, flips) for p in pieces}
    empty = set(region.cells)
    found: list[frozenset] = []
    chosen: list[tuple[str, frozenset]] = []

    def walk() -> None:
        if not empty:
            if subset or not +left:
                found.append(frozenset(chosen))
            return
        target = min(empty)
        for name in sorted(left):
            if left[name] == 0:
                continue
            for cells in shapes[name]:
                offset = [t - c for t, c in zip(target, cells[0])]
                moved = [tuple(v + d for v, d in zip(c, offset)) for c in cells]
                if all(c in empty for c in moved):
                    for c in moved:
                        empty.discard(c)
                    left[name] -= 1
                    chosen.append((name, frozenset(moved)))
                    walk()
                    chosen.pop()
                    left[name] += 1
                    empty.update(moved)

    walk()
    return found


def mirror_partners(pieces: list[Piece], dim: int) -> dict[str, str] | None:
    """Each piece's mirror image among the pieces, with as many copies; None if one has none."""
    copies = Counter(p.name for p in pieces)
    shapes = {p.name: (p.shape.lifted() if dim == 3 else p.shape) for p in pieces}
    out = {}
    for name, shape in shapes.items():
        image = shape.mirrored()
        found = [other for other, s in shapes.items()
                 if copies[other] == copies[name] and s.canonical(False) == image.canonical(False)]
        if not found:
            return None
        out[name] = found[0]
    return out


def distinct(region: Shape, found: list[frozenset], flips: bool, pieces: list[Piece] | None = None) -> int:
    """How many classes the tilings fall into under the region's own symmetries: every
    symmetry with flips; without, the rotations, and the reflections too when the pieces are
    closed under mirroring (a reflected tiling then uses the mirror partners)."""
    lo = region.lower_corner()
    partners = mirror_partners(pieces, region.dim) if pieces is not None and not flips else None
    keys = set()
    for tiling in found:
        images = []
        for t in region.symmetries(flips or partners is not None):
            rename = partners if partners is not None and not t.is_rotation else {}
            image_lo = region.transformed(t).lower_corner()
            shift = [a - b for a, b in zip(lo, image_lo)]

            def move(c: Cell, t=t, shift=shift) -> Cell:
                return tuple(v + d for v, d in zip(t.apply(c), shift))

            images.append(sorted((rename.get(n, n), tuple(sorted(move(c) for c in cells))) for n, cells in tiling))
        keys.add(tuple(min(images)))
    return len(keys)
