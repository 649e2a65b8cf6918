"""Puzzle Temple solids: watertight blocks and cards, and every stored solution proved to
fit its pocket with at least the clearance everywhere (geometry, not bytes)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from cad import puzzle_temple as ct
from cad.common.outline import area, offset
from cad.common.profile import Physical
from cad.common.solids import mesh as to_mesh
from cad.common.solids import section
from generators.puzzle_temple.deck import Card, Deck
from solver.puzzle import Placement, Solution

PH = Physical()


def test_every_block_is_watertight_and_the_clearance_smaller_than_its_cells(cad_deck: Deck) -> None:
    for name, cells in ct.block_shapes(cad_deck).items():
        solid = ct.block_solid(cells, PH)
        mesh = to_mesh(solid)
        assert mesh.watertight(), name
        assert mesh.volume() == pytest.approx(solid.Volume(), rel=1e-3) and mesh.volume() > 0
        rows = max(r for r, _ in cells) + 1
        cols = max(c for _, c in cells) + 1
        w, d, h = mesh.size
        assert (w, d, h) == pytest.approx((cols * PH.pitch - PH.clearance, rows * PH.pitch - PH.clearance,
                                           PH.block_height), abs=1e-3)
        # the footprint: its cells shrunk by half the clearance all round; chamfer and fillet take a little
        footprint = area(offset(cells, PH.pitch, -PH.clearance / 2)[0])
        assert footprint * PH.block_height * 0.97 < solid.Volume() < footprint * PH.block_height


def test_a_card_is_a_watertight_plate_with_its_pocket_cut(cad_deck: Deck) -> None:
    card = cad_deck.cards[0]
    solid = ct.card_solid(cad_deck, card, PH)
    mesh = to_mesh(solid)
    assert mesh.watertight()
    w, d, h = mesh.size
    plan = ct.card_plan(cad_deck, card, PH)
    assert (w, d, h) == pytest.approx((plan.width, plan.depth, PH.card_thickness))
    pocket = area(ct.pocket_loops(card.lock.cells, PH)[0])
    marks = sum(m.Volume() for key, m in ct.card_parts(cad_deck, card, PH, ams=True)[1:])
    assert marks > 0
    assert solid.Volume() == pytest.approx(w * d * h - pocket * PH.pocket_depth - marks, rel=1e-6)


def assert_every_face_fits(deck: Deck, cards: list[Card] | tuple[Card, ...]) -> None:
    """Each face's stored solution, built as blocks, lies in its card's pocket sharing no
    volume with the card or another block, every gap at least the clearance."""
    for card in cards:
        body = ct.card_solid(deck, card, PH)
        for face in card.faces:
            fit = ct.fit(deck, card, face, PH, body)
            assert fit.overlap == pytest.approx(0, abs=1e-6), (card.id, face.die)
            if len(face.blocks) > 1:
                assert fit.block_gap >= PH.clearance - 1e-6, (card.id, face.die, fit)
            assert fit.wall_gap >= PH.clearance - 1e-6, (card.id, face.die, fit)


def test_every_stored_solution_fits_its_pocket_with_the_clearance(cad_deck: Deck) -> None:
    assert_every_face_fits(cad_deck, cad_deck.cards)


def test_the_fit_check_catches_blocks_that_collide(cad_deck: Deck) -> None:
    card = cad_deck.cards[0]
    face = card.faces[0]
    moved = []
    for i, p in enumerate(face.solution.placements):
        cells = p.cells if i else tuple((r, c + 1) for r, c in p.cells)  # shove the first block one cell right
        moved.append(Placement(p.piece, cells))
    bad = replace(face, solution=Solution(tuple(moved)))
    fit = ct.fit(cad_deck, card, bad, PH)
    assert fit.overlap > 1.0


def test_every_mark_meets_the_minimum_stroke_lies_on_the_plate_and_misses_the_pocket(cad_deck: Deck) -> None:
    for card in cad_deck.cards:
        plan = ct.card_plan(cad_deck, card, PH)
        pocket = [(plan.lock_x + x, plan.lock_top + y) for x, y in ct.pocket_loops(card.lock.cells, PH)[0]]
        px0, px1 = min(x for x, _ in pocket), max(x for x, _ in pocket)
        py0, py1 = min(y for _, y in pocket), max(y for _, y in pocket)
        roles = {f.role for f in plan.features}
        assert roles == {"pip", "icon", "label"}
        assert sum(f.role == "pip" for f in plan.features) == 21  # 1 + 2 + ... + 6
        for f in plan.features:
            assert f.least_width() >= PH.min_stroke - 1e-9, (card.id, f.role)
            if f.circle is not None:
                x, y, r = f.circle
                xs, ys = (x - r, x + r), (y - r, y + r)
            else:
                xs = tuple(x for x, _ in f.loops[0])
                ys = tuple(y for _, y in f.loops[0])
            assert 0 < min(xs) and max(xs) < plan.width and 0 < min(ys) and max(ys) < plan.depth
            assert max(xs) < px0 or min(xs) > px1 or max(ys) < py0 or min(ys) > py1, "a mark inside the pocket"


def test_ams_inlays_fill_the_deboss_flush_without_touching_the_body(cad_deck: Deck) -> None:
    card = cad_deck.cards[1]
    parts = dict(ct.card_parts(cad_deck, card, PH, ams=True))
    body = parts.pop("body")
    assert set(parts) == {"ink"}, "every mark is ink: a card prints with two filaments, whatever its blocks"
    for key, inlay in parts.items():
        assert body.intersect(inlay).Volume() == pytest.approx(0, abs=1e-6), key
        top = inlay.BoundingBox()
        assert (top.zmin, top.zmax) == pytest.approx((PH.card_thickness - PH.deboss_depth, PH.card_thickness))
        assert to_mesh(inlay).watertight()
    whole = ct.card_parts(cad_deck, card, PH, ams=False)[0][1]
    plan = ct.card_plan(cad_deck, card, PH)
    # body + inlays make the plate less its pocket
    pocket = area(ct.pocket_loops(card.lock.cells, PH)[0]) * PH.pocket_depth
    total = body.Volume() + sum(p.Volume() for p in parts.values())
    assert total == pytest.approx(plan.width * plan.depth * PH.card_thickness - pocket, rel=1e-6)
    assert whole.Volume() == pytest.approx(body.Volume(), rel=1e-9)


def test_block_icons_show_their_cells() -> None:
    """I3, I4 and L4 read by their cells: a square per cell, the least stroke between them."""
    for cells in (((0, 0), (0, 1), (0, 2)), ((0, 0), (0, 1), (0, 2), (0, 3)), ((0, 0), (1, 0), (2, 0), (2, 1))):
        squares = ct.icon_cells(cells, PH.min_stroke)
        assert len(squares) == len(cells)
        boxes = sorted((min(x for x, _ in q), max(x for x, _ in q), min(y for _, y in q), max(y for _, y in q))
                       for q in squares)
        for a in boxes:
            assert a[1] - a[0] == pytest.approx(ct.ICON - PH.min_stroke)
            for b in boxes:
                if a != b:
                    gap = max(b[0] - a[1], a[0] - b[1], b[2] - a[3], a[2] - b[3])
                    assert gap >= PH.min_stroke - 1e-9, "two cells' squares closer than the least stroke"


def test_a_card_id_the_font_cannot_cut_is_named(cad_deck: Deck) -> None:
    card = replace(cad_deck.cards[0], id="A1+")
    with pytest.raises(Exception, match=r"card A1\+: id: 'A1\+' has characters the 3D label font cannot cut: '\+'"):
        ct.card_plan(cad_deck, card, PH)


def test_the_coupon_pockets_leave_their_labelled_clearance_around_the_domino() -> None:
    import cadquery as cq

    parts, domino, clearances = ct.coupon_parts(PH)
    body = dict(parts)["body"]
    assert to_mesh(body).watertight() and to_mesh(domino).watertight()
    z = PH.card_thickness - PH.pocket_depth / 2
    walls = section(body, z)
    lo = domino.BoundingBox()
    plan_top = None
    for i, c in enumerate(clearances):
        # lay the domino in pocket i: its cells are where the pocket's were before growing
        slot = 2 * PH.pitch + 2 * max(clearances)
        x = ct.RIM + max(clearances) + i * (slot + ct.COUPON_GAP)
        depth = body.BoundingBox().ymax
        plan_top = depth - ct.RIM - max(clearances)
        placed = domino.translate(cq.Vector(x - lo.xmin, plan_top - PH.pitch - lo.ymin, PH.card_thickness
                                            - PH.pocket_depth))
        gap = section(placed, z).distance(walls)
        assert gap == pytest.approx(c, abs=1e-6), (i, c, gap)
        assert body.intersect(placed).Volume() == pytest.approx(0, abs=1e-6)


def test_jewels_and_pawns_are_closed_and_the_pawns_differ_in_shape() -> None:
    assert to_mesh(ct.jewel_solid()).watertight()
    footprints = set()
    for name, _ in ct.PAWNS:
        pawn = ct.pawn_solid(name)
        assert to_mesh(pawn).watertight()
        footprints.add(round(section(pawn, 10.0).Area(), 1))
    assert len(footprints) == len(ct.PAWNS)
    assert len(ct.JEWELS) == 6 and ct.JEWELS_EACH * len(ct.JEWELS) == 78


@pytest.mark.slow  # the board alone takes 9 s to model
def test_the_board_holds_78_jewels_with_the_clearance_and_fits_the_smallest_bed() -> None:
    import cadquery as cq

    from cad.common.profile import PRINTERS

    width, depth, hexes, holes = ct.board_plan(PH)
    assert len(hexes) == 7 and len(holes) == 78
    smallest = min(min(p.width, p.depth) for p in PRINTERS.values())
    assert max(width, depth) <= smallest - 2 * 3.0
    # each level's row runs away from its hexagon, nearest hole first
    for level in range(6):
        row = holes[level * 13:(level + 1) * 13]
        assert all(abs(y - hexes[level + 1][1]) < 1e-9 for _, y in row)
        assert [x for x, _ in row] == sorted(x for x, _ in row) and row[0][0] > hexes[0][0]
    parts = dict(ct.board_parts(PH))
    body = parts["body"]
    assert to_mesh(body).watertight() and to_mesh(parts["ink"]).watertight()
    assert body.intersect(parts["ink"]).Volume() == pytest.approx(0, abs=1e-6)
    jewel = ct.jewel_solid()
    z = PH.card_thickness - PH.pocket_depth
    for x, y in holes[::13]:
        sitting = jewel.translate(cq.Vector(x, y, z))
        assert body.intersect(sitting).Volume() == pytest.approx(0, abs=1e-6)
        gap = section(sitting, z + 1.0).distance(section(body, z + 1.0))
        assert gap >= PH.clearance - 1e-6


@pytest.mark.slow  # the default deck at full size
def test_sampled_cards_of_the_default_deck_fit_every_face(default_deck: Deck) -> None:
    """The largest lock and three cards drawn with a fixed seed: every face's stored solution,
    built as blocks, lies in the pocket with no overlap and every gap at least the clearance."""
    largest = max(default_deck.cards, key=lambda c: len(c.lock.cells))
    others = [c for c in default_deck.cards if c is not largest]
    assert_every_face_fits(default_deck, [largest, *random.Random(0).sample(others, 3)])


@pytest.mark.slow
def test_every_card_of_the_default_deck_fits_every_face(default_deck: Deck) -> None:
    assert_every_face_fits(default_deck, default_deck.cards)
