"""Meshes (closed, oriented, their volume and STL) and parts arranged on beds."""

from __future__ import annotations

import itertools
import math
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cad.common import plates
from cad.common.meshes import Mesh, box, merge
from generators.common.errors import RequestError


def test_a_box_is_watertight_with_its_volume_and_a_torn_one_is_not() -> None:
    b = box(10, 20, 3)
    assert b.watertight() and b.volume() == pytest.approx(600)
    assert b.size == (10, 20, 3)
    torn = Mesh(b.vertices, b.triangles[:-1])
    assert not torn.watertight()
    flipped = Mesh(b.vertices, np.vstack([b.triangles[:-1], b.triangles[-1][::-1]]))
    assert not flipped.watertight()
    two = merge([b, box(1, 1, 1).translated(20, 0, 0)])
    assert two.watertight() and two.volume() == pytest.approx(601)
    turned = b.rotated_z(1).on_bed()
    assert turned.size == pytest.approx((20, 10, 3)) and turned.volume() == pytest.approx(600)


def test_binary_stl_holds_every_triangle_with_its_outward_normal() -> None:
    data = box(2, 3, 4).stl()
    assert len(data) == 84 + 12 * 50 and data[:22] == b"templeforge binary STL"
    (count,) = struct.unpack("<I", data[80:84])
    assert count == 12
    normal = struct.unpack("<3f", data[84:96])
    assert normal == pytest.approx((0, 0, -1))  # the first triangle is on the bottom, facing down


def check_plates(result: list[plates.Plate], parts: list[plates.Footprint], w: float, d: float, gap: float) -> None:
    keys = sorted(p.key for plate in result for p in plate.parts)
    assert keys == sorted(p.key for p in parts)
    sizes = {p.key: sorted((p.width, p.depth)) for p in parts}
    for plate in result:
        for p in plate.parts:
            assert sorted((p.width, p.depth)) == sizes[p.key]
            assert plates.EDGE - 1e-6 <= p.x and p.x1 <= w - plates.EDGE + 1e-6
            assert plates.EDGE - 1e-6 <= p.y and p.y1 <= d - plates.EDGE + 1e-6
        for a, b in itertools.combinations(plate.parts, 2):
            assert a.distance(b) >= gap - 1e-6, (a, b)


def test_the_default_kit_of_cards_fits_few_plates() -> None:
    cards = [plates.Footprint(f"card-{i}", 84.0, 114.0) for i in range(36)]
    result = plates.pack(cards, 256, 256, 5.0)
    check_plates(result, cards, 256, 256, 5.0)
    assert len(result) == 9  # 2 x 2 a plate
    assert plates.lower_bound(cards, 256, 256, 5.0) <= len(result)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(5, 120), st.floats(5, 120)), min_size=1, max_size=40),
       st.sampled_from([(256, 256), (180, 180), (250, 210)]), st.floats(2, 10))
def test_any_parts_are_packed_apart_and_on_the_bed(sizes: list[tuple[float, float]], bed: tuple[int, int],
                                                   gap: float) -> None:
    parts = [plates.Footprint(f"p{i}", round(w, 2), round(d, 2)) for i, (w, d) in enumerate(sizes)]
    result = plates.pack(parts, *bed, gap)
    check_plates(result, parts, *bed, gap)
    assert len(result) >= plates.lower_bound(parts, *bed, gap)


def test_a_part_larger_than_the_bed_is_an_error_naming_it() -> None:
    with pytest.raises(RequestError, match=r"^printer: part board \(300\.0 x 40\.0 mm\) is larger than the 180 x 180"):
        plates.pack([plates.Footprint("board", 300, 40)], 180, 180, 5)


X1_CHUTE = (((0.0, 0.0), (18.0, 0.0), (18.0, 28.0), (0.0, 28.0)),)


def _clear_of(part: plates.Placed, zone: plates.Zone, gap: float) -> bool:
    x0, x1 = min(x for x, _ in zone), max(x for x, _ in zone)
    y0, y1 = min(y for _, y in zone), max(y for _, y in zone)
    dx = max(0.0, max(part.x, x0) - min(part.x1, x1))
    dy = max(0.0, max(part.y, y0) - min(part.y1, y1))
    return math.hypot(dx, dy) >= gap - 1e-6


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(5, 120), st.floats(5, 120)), min_size=1, max_size=30), st.floats(2, 10))
def test_no_part_enters_an_excluded_zone_before_or_after_a_slicer_centres_the_plate(
        sizes: list[tuple[float, float]], gap: float) -> None:
    """The X1 and P1 keep their front-left 18 x 28 mm for the purge chute: parts stay clear of
    it where the file puts them, and each plate is already centred as a group, so a slicer
    that centres it moves nothing."""
    parts = [plates.Footprint(f"p{i}", round(w, 2), round(d, 2)) for i, (w, d) in enumerate(sizes)]
    result = plates.pack(parts, 256, 256, gap, excluded=X1_CHUTE)
    check_plates(result, parts, 256, 256, gap)
    for plate in result:
        x0, x1 = min(p.x for p in plate.parts), max(p.x1 for p in plate.parts)
        y0, y1 = min(p.y for p in plate.parts), max(p.y1 for p in plate.parts)
        assert (x0 + x1) / 2 == pytest.approx(128, abs=1e-5) and (y0 + y1) / 2 == pytest.approx(128, abs=1e-5)
        assert all(_clear_of(p, X1_CHUTE[0], gap) for p in plate.parts)


def test_the_default_cards_take_no_more_plates_for_the_x1s_chute() -> None:
    cards = [plates.Footprint(f"card-{i}", 84.0, 114.0) for i in range(36)]
    assert len(plates.pack(cards, 256, 256, 5.0, excluded=X1_CHUTE)) == 9
