"""Every region a piece set tiles in a box, against the tiling counter region by region."""

from __future__ import annotations

import itertools

import pytest

from solver import regions, tiling
from solver.pieces import preset
from solver.puzzle import Puzzle
from solver.shapes import Shape

UBONGO = {p.name: p for p in preset("ubongo12")}


def brute_force(pieces: tuple, width: int, height: int, holes: bool) -> dict[Shape, int]:
    """Every subset of the box's cells against the top and left sides, of the pieces' area,
    connected (and hole-free unless holes): its tilings, counted by the counter."""
    area = sum(p.size for p in pieces)
    cells = [(r, c) for r in range(height) for c in range(width)]
    out = {}
    for chosen in itertools.combinations(cells, area):
        shape = Shape(frozenset(chosen))
        if min(r for r, _ in chosen) or min(c for _, c in chosen):
            continue
        if not shape.is_connected() or (not holes and shape.holes()):
            continue
        n = tiling.count(Puzzle(shape, pieces, flips=True)).count
        if n:
            out[shape] = n
    return out


@pytest.mark.parametrize("names, box, holes", [
    (("I2", "L3"), (4, 3), False),
    (("I3", "T4"), (4, 3), True),
    (("I2", "I3", "O4"), (4, 3), False),
    (("L3", "S4"), (4, 4), True),
])
def test_every_region_and_count_matches_the_counter(names: tuple[str, ...], box: tuple[int, int], holes: bool) -> None:
    pieces = tuple(UBONGO[n] for n in names)
    found = regions.tiled_regions(pieces, *box, holes=holes)
    assert dict(found) == brute_force(pieces, *box, holes)
    assert found, "the case should have regions"


def test_holes_are_left_out_unless_asked() -> None:
    pieces = (UBONGO["L4"], UBONGO["L3"], UBONGO["I3"])
    with_holes = dict(regions.tiled_regions(pieces, 4, 4, holes=True))
    without = dict(regions.tiled_regions(pieces, 4, 4))
    assert set(without) < set(with_holes)
    assert all(s.holes() for s in set(with_holes) - set(without))


def test_boxes_too_large_for_the_masks_are_refused() -> None:
    assert regions.fits(8, 7) and regions.fits(12, 4) and not regions.fits(9, 7)
    with pytest.raises(ValueError, match="larger"):
        regions.tiled_regions((UBONGO["I2"],), 9, 7)
