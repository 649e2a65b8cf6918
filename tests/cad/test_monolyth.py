"""Monolyth's 3D kit: a board's parts do not overlap, its walls' colours are bands at the top
(so an AMS print swaps filament only in their layers), and pieces print on plates of one
colour."""

from __future__ import annotations

import pytest

from cad import monolyth as cm
from cad.common import kit
from cad.common.profile import Physical
from cad.common.solids import mesh

PH = Physical()


def test_a_boards_parts_do_not_overlap_and_each_edge_colour_is_a_top_band() -> None:
    edges = ("red", "yellow", "green", "blue")
    parts = cm.board_parts(edges, PH, letters=None)
    assert [side for side, _, _ in parts] == ["north", "east", "south", "west"]
    whole = parts[0][1].fuse(*[shape for _, shape, _ in parts[1:]]).clean()
    total = sum(shape.Volume() for _, shape, _ in parts)
    assert total == pytest.approx(whole.Volume(), rel=1e-6), "no volume counted twice (its grams neither)"
    height = cm.FLOOR + cm.RIM
    for side, shape, _ in parts[1:]:
        box = shape.BoundingBox()
        assert box.zmin == pytest.approx(height - cm.cap_height(PH)) and box.zmax == pytest.approx(height), side


def test_an_ams_board_plate_swaps_only_in_its_bands_layers() -> None:
    edges = ("red", "yellow", "green", "blue")
    solids = tuple(kit.Solid(f"{side} wall", mesh(shape), colour)
                   for (side, shape, _), colour in zip(cm.board_parts(edges, PH, letters=None), edges))
    board = kit.Piece("board-1", "board 1", solids, 1)
    number = {c: i + 1 for i, c in enumerate(edges)}
    (sheet,) = kit.arrange([board], 256, 256, 5.0, single=False, slots=4, number=number)
    filaments = kit.Filaments(tuple(kit.threemf.Filament(c, "#123456") for c in edges), number, {})
    bands = kit.layers_of(sheet, {"board-1": board}, filaments, PH.layer_height)
    layers = round(cm.cap_height(PH) / PH.layer_height)
    assert all(b == {1} for b in bands[:-layers]) and all(b == {1, 2, 3, 4} for b in bands[-layers:])
    assert kit.swaps(bands) == 3 * layers  # three swaps a band layer, none below (was three a layer all up)


def test_tokens_of_each_kind_have_their_own_outline_with_the_value_inside() -> None:
    """Level, structure and prophecy tokens differ in shape, not only in colour: a NO-AMS
    plate prints them all in one filament."""
    outlines = {}
    for kind in ("level", "structure", "prophecy"):
        body, ink = [shape for _, shape, _ in cm.token_parts(7, PH, kind)]
        assert mesh(body).watertight() and ink.Volume() > 0 and body.intersect(ink).Volume() < 1e-6
        box, inner = body.BoundingBox(), ink.BoundingBox()
        assert box.xmin < inner.xmin and inner.xmax < box.xmax and box.ymin < inner.ymin and inner.ymax < box.ymax
        outlines[kind] = (round(body.Volume() + ink.Volume(), 1), len(body.Faces()))
    assert len(set(outlines.values())) == 3, outlines
