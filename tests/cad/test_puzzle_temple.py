"""Puzzle Temple solids: watertight blocks and cards, and every stored solution proved to
fit its pocket with at least the clearance everywhere (geometry, not bytes)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cad import puzzle_temple as ct
from cad.common.outline import area, offset
from cad.common.profile import Physical
from generators.puzzle_temple.deck import Deck
from solver.puzzle import Placement, Solution

PH = Physical()


def test_every_block_is_watertight_and_the_clearance_smaller_than_its_cells(cad_deck: Deck) -> None:
    for name, cells in ct.block_shapes(cad_deck).items():
        solid = ct.block_solid(cells, PH)
        mesh = ct.mesh(solid)
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
    solid = ct.card_solid(card, PH)
    mesh = ct.mesh(solid)
    assert mesh.watertight()
    w, d, h = mesh.size
    pocket = area(ct.pocket_loops(card.lock.cells, PH)[0])
    assert solid.Volume() == pytest.approx(w * d * h - pocket * PH.pocket_depth, rel=1e-6)


def test_every_stored_solution_fits_its_pocket_with_the_clearance(cad_deck: Deck) -> None:
    for card in cad_deck.cards:
        for face in card.faces:
            fit = ct.fit(card, face, PH)
            assert fit.overlap == pytest.approx(0, abs=1e-6), (card.id, face.die)
            if len(face.blocks) > 1:
                assert fit.block_gap >= PH.clearance - 1e-6, (card.id, face.die, fit)
            assert fit.wall_gap >= PH.clearance - 1e-6, (card.id, face.die, fit)


def test_the_fit_check_catches_blocks_that_collide(cad_deck: Deck) -> None:
    card = cad_deck.cards[0]
    face = card.faces[0]
    moved = []
    for i, p in enumerate(face.solution.placements):
        cells = p.cells if i else tuple((r, c + 1) for r, c in p.cells)  # shove the first block one cell right
        moved.append(Placement(p.piece, cells))
    bad = replace(face, solution=Solution(tuple(moved)))
    fit = ct.fit(card, bad, PH)
    assert fit.overlap > 1.0
