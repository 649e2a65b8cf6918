"""Shifting Stones in 3D: the stones' parts, their symbols on both faces, and the kit."""

from __future__ import annotations

import io
import zipfile

import pytest

from cad import shifting_stones as cs
from cad.common import kit
from cad.common.profile import Physical
from cad.common.solids import mesh
from generators.shifting_stones.deck import Deck
from generators.shifting_stones.tiles import PUBLISHED

PH = Physical()


def _area(polygon) -> float:
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1]))) / 2


@pytest.fixture(scope="module")
def parts() -> list:
    return cs.stone_parts(PUBLISHED, 2, PH)   # Horse / Boat: a horseshoe on top, a boat below


def test_the_halves_and_inlays_fill_the_whole_stone_without_overlapping(parts) -> None:
    whole = cs._blank(cs.stone_plan(PUBLISHED, 2, PH), PH, 0.0, PH.stone_thickness)
    volumes = {key: shape.Volume() for key, shape, _ in parts}
    assert sum(volumes.values()) == pytest.approx(whole.Volume(), rel=1e-4)
    assert all(mesh(shape).watertight() for _, shape, _ in parts)
    keys = [(key, inlay) for key, _, inlay in parts]
    assert keys == [("face-4", False), ("face-5", False), ("ink-4", True), ("ink-5", True)]


def test_each_face_carries_its_symbol_deboss_deep_the_bottom_one_mirrored(parts) -> None:
    shapes = {key: shape for key, shape, _ in parts}
    top, bottom = shapes["ink-4"].BoundingBox(), shapes["ink-5"].BoundingBox()
    t, d = PH.stone_thickness, PH.deboss_depth
    assert (top.zmin, top.zmax) == pytest.approx((t - d, t), abs=1e-6)
    assert (bottom.zmin, bottom.zmax) == pytest.approx((0.0, d), abs=1e-6)
    plan = cs.stone_plan(PUBLISHED, 2, PH)
    area = sum(_area(list(p)) for p in plan.bottom)
    assert shapes["ink-5"].Volume() == pytest.approx(area * d, rel=0.02)   # the boat's three polygons, unioned
    # the boat's sail leans right on the printed card; below the stone it is cut leaning left,
    # so that it leans right again once the stone is turned over
    sail = plan.bottom[1]
    assert sum(x for x, _ in sail) / len(sail) < PH.stone_size / 2


def test_the_symbols_keep_clear_of_the_stones_edge() -> None:
    for tile in range(len(PUBLISHED.tiles)):
        plan = cs.stone_plan(PUBLISHED, tile, PH)
        for polygon in plan.top + plan.bottom:
            for x, y in polygon:
                assert 3.0 <= x <= PH.stone_size - 3.0 and 3.0 <= y <= PH.stone_size - 3.0


def test_filaments_give_each_face_its_colour_and_each_symbol_the_ink_that_reads(small_stones_deck: Deck) -> None:
    fils = cs.filaments(PUBLISHED)
    assert fils.colour("face-0") == PUBLISHED.colour(0)
    assert fils.colour("ink-0") == "#1A1A1A"            # black on the yellow sun
    assert fils.colour("ink-1") == "#F5F5F5"            # white on the blue moon


@pytest.fixture(scope="module")
def made(small_stones_deck: Deck) -> kit.Kit:
    return cs.make_kit(small_stones_deck, PH, (256, 256))


def test_the_kit_has_nine_stones_on_plates_of_four_filaments_at_most(made: kit.Kit) -> None:
    """Each kind of stone needs its two faces' colours and up to two inks, so with four AMS
    slots each kind has an AMS plate of its own; NO-AMS prints all nine on one."""
    assert made.pieces == 9 and made.ams_plates == 4 and made.no_ams_plates == 1
    assert max(r.slot for r in made.bom["ams"]) <= 4
    stl = sorted(n for n in made.files if n.startswith("stl/"))
    assert "stl/stone-1-sun-moon.stl" in stl and "stl/stone-4-seed-tree-ink-7.stl" in stl
    assert sum(1 for n in made.files if n.startswith("previews/stone-")) == 4
    rows = made.bom["no-ams"]
    assert [(r.slot, r.parts) for r in rows] == [(1, 9), (2, 9)]


def test_no_ams_swaps_filament_at_both_symbols_floors(made: kit.Kit) -> None:
    with zipfile.ZipFile(io.BytesIO(made.files["no-ams/plate-01.3mf"])) as z:
        changes = z.read("Metadata/custom_gcode_per_layer.xml").decode()
        model = z.read("3D/3dmodel.model").decode()
    d, t, h = PH.deboss_depth, PH.stone_thickness, PH.layer_height
    assert f'top_z="{d + h:g}"' in changes and f'top_z="{t - d + h:g}"' in changes
    assert 'name="ink' not in model, "NO-AMS leaves the inlays out: the symbols stay cut"
    with zipfile.ZipFile(io.BytesIO(made.files["ams/plate-01.3mf"])) as z:
        assert "ink-" in z.read("3D/3dmodel.model").decode()
