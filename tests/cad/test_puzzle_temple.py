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
    plain = ct.card_solid(cad_deck, card, replace(PH, lead_in=0.0))
    assert plain.Volume() == pytest.approx(w * d * h - pocket * PH.pocket_depth - marks, rel=1e-6)
    # the lead-in takes a 45-degree triangle off the whole rim of the pocket
    rim = sum(e.Length() for e in section(plain, PH.card_thickness - PH.pocket_depth / 2).Edges()) - 2 * (w + d)
    assert plain.Volume() - solid.Volume() == pytest.approx(rim * PH.lead_in ** 2 / 2, rel=0.1)


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


@pytest.mark.slow
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
    # body + inlays make the plate less its pocket (measured without the rim's lead-in)
    pocket = area(ct.pocket_loops(card.lock.cells, PH)[0]) * PH.pocket_depth
    square = dict(ct.card_parts(cad_deck, card, replace(PH, lead_in=0.0), ams=True))
    total = sum(p.Volume() for p in square.values())
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


def test_each_coupon_domino_sits_in_its_pocket_as_a_block_sits_in_a_card_at_that_clearance() -> None:
    """The coupon is built as the kit is: the domino for clearance c is shrunk by c / 2 and
    its pocket grown by c, so it leaves the 1.5 c to the wall a block leaves in a card made
    with clearance c; the ladder holds the settings' own clearance."""
    import cadquery as cq

    ph = replace(PH, clearance=0.25)
    parts, dominoes, clearances = ct.coupon_parts(ph)
    assert clearances == ct.ladder(ph) == [0.1, 0.2, 0.25, 0.3, 0.4]
    assert [c for c, _ in dominoes] == clearances
    body = dict(parts)["body"]
    assert to_mesh(body).watertight() and all(to_mesh(d).watertight() for _, d in dominoes)
    z = ph.card_thickness - ph.pocket_depth / 2
    walls = section(body, z)
    widest = max(clearances)
    slot = 2 * ph.pitch + 2 * widest
    top = body.BoundingBox().ymax - ct.RIM - widest
    for i, (c, domino) in enumerate(dominoes):
        block = ct.block_solid(((0, 0), (0, 1)), replace(ph, clearance=c))
        assert domino.Volume() < block.Volume() and domino.BoundingBox().xlen == pytest.approx(block.BoundingBox().xlen)
        x = ct.RIM + widest + i * (slot + ct.COUPON_GAP)
        # lay the domino where its cells are: the pocket is its cells' outline grown by c
        placed = domino.translate(cq.Vector(x, top, ph.card_thickness - ph.pocket_depth))
        gap = section(placed, z).distance(walls)
        assert gap == pytest.approx(1.5 * c, abs=1e-6), (i, c, gap)
        assert body.intersect(placed).Volume() == pytest.approx(0, abs=1e-6)


def test_pocket_rims_have_a_lead_in_and_the_card_still_holds_every_face(cad_deck: Deck) -> None:
    """Each pocket's rim is chamfered ``lead_in`` wide at 45 degrees: just under the top the
    opening is wider than at half depth by nearly twice the chamfer, all round; lower down
    the pocket is as it was, so every stored solution still fits."""
    card = cad_deck.cards[0]
    body = ct.card_solid(cad_deck, card, PH)
    plain = ct.card_solid(cad_deck, card, replace(PH, lead_in=0.0))
    mid = PH.card_thickness - PH.pocket_depth / 2
    near_top = PH.card_thickness - 0.1
    assert section(body, mid).Area() == pytest.approx(section(plain, mid).Area(), abs=1e-6)
    perimeter = sum(e.Length() for e in section(plain, mid).Edges()) - 2 * (section(plain, mid).BoundingBox().xlen
                                                                          + section(plain, mid).BoundingBox().ylen)
    removed = section(plain, near_top).Area() - section(body, near_top).Area()
    assert removed == pytest.approx(perimeter * (PH.lead_in - 0.1), rel=0.05)


def test_jewels_drop_into_their_holes_whichever_way_they_are_turned() -> None:
    """A jewel's foot is round and everything above it keeps inside the foot's circle, so it
    drops into its round hole at any turn; its bottom edge is chamfered against elephant foot."""
    jewel = ct.jewel_solid(PH)
    points = to_mesh(jewel).vertices
    assert max(float((x * x + y * y) ** 0.5) for x, y, _ in points) == pytest.approx(ct.JEWEL_RADIUS, abs=1e-3)
    assert ct.hole_radius(PH) - ct.JEWEL_RADIUS == pytest.approx(PH.clearance)
    assert section(jewel, 0.05).Area() < section(jewel, 1.0).Area() - 1.0, "the bottom edge is chamfered"


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
    jewel = ct.jewel_solid(PH)
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
