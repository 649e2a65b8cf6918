"""Mystery of the Temples solids: a grid board with a pocket per slot, grooves along its lines
and its ability and name cut in; the crystals."""

from __future__ import annotations

from cad import mystery_of_the_temples as mt
from cad.common import strokes
from cad.common.profile import Physical
from cad.common.solids import gem, mesh
from generators.mystery_of_the_temples.box import DEFAULT

PH = Physical()


def test_the_ability_is_cut_in_capitals_wrapped_to_the_board() -> None:
    side = DEFAULT.grids[0]
    lines = mt.ability_lines(side)
    assert " ".join(" ".join(line) for line in lines) == (
        "GAIN ONE MORE COLOURLESS WHENEVER YOU GAIN COLOURLESS. ANY COLOUR COSTS 3 CRYSTALS.")
    width, depth = mt.size(side)
    for line in lines:
        assert sum(strokes.width(w, mt.ABILITY, mt.ABILITY_SPACE) for w in line) + mt.ABILITY * (len(line) - 1) \
            <= width - 4
    assert depth > 2 * mt.SPACING + 2 * mt.MARGIN + len(lines) * mt.ABILITY  # room under the slots for the words
    assert all(ch in strokes.GLYPHS for line in mt.ability_lines(DEFAULT.grids[2]) for w in line for ch in w)


def test_the_ridges_between_the_abilitys_letters_are_two_nozzle_widths() -> None:
    """NO-AMS shows the letters as cuts: what is left between two letters is printed in the
    top filament and must be at least two nozzle widths (0.8 mm) to print at all."""
    loops = strokes.strokes("AB", 0, 0, mt.ABILITY, mt.ABILITY_STROKE, mt.ABILITY_SPACE)
    first = strokes.strokes("A", 0, 0, mt.ABILITY, mt.ABILITY_STROKE)
    second = [loop for loop in loops if loop not in first]
    ridge = min(x for loop in second for x, _ in loop) - max(x for loop in first for x, _ in loop)
    assert ridge >= 2 * PH.nozzle - 1e-9  # the font's own spacing leaves 0.4 mm
    assert strokes.width("AB", mt.ABILITY, mt.ABILITY_SPACE) > strokes.width("AB", mt.ABILITY)


def test_a_board_is_watertight_with_a_pocket_per_slot_and_its_lines_inlaid() -> None:
    side = DEFAULT.grids[5]
    parts = {name: (shape, inlay) for name, shape, inlay in mt.board_parts(side, PH)}
    board, _ = parts["board"]
    lines, inlay = parts["lines"]
    assert inlay and mesh(board).watertight() and mesh(lines).watertight()
    width, depth = mt.size(side)
    pocket = 3.14159 * (mt.CRYSTAL / 2 + max(PH.clearance, mt.POCKET_CLEARANCE)) ** 2 * mt.POCKET
    assert board.Volume() < width * depth * mt.PLATE - side.grid.slots * pocket * 0.99
    assert lines.Volume() > 0 and board.intersect(lines).Volume() < 1e-6  # the inlay fills the cuts, no more
    crystal = gem(mt.CRYSTAL, mt.CRYSTAL_H, mt.FOOT)
    lo, hi = crystal.BoundingBox().xmin, crystal.BoundingBox().xmax
    # a crystal fits its pocket with at least 0.3 mm at its corners (the pocket is cut
    # max(clearance, POCKET_CLEARANCE) wider than the crystal's corners)
    assert 2 * (mt.CRYSTAL / 2 + max(PH.clearance, mt.POCKET_CLEARANCE)) - (hi - lo) >= 2 * 0.3 - 1e-9


def test_a_crystal_stands_on_a_chamfered_base() -> None:
    """Its base edges are chamfered (the first layers' squash stays within its outline), so
    the bottom layer is smaller than the one above the chamfer."""
    from cad.common.solids import section

    plain, footed = gem(mt.CRYSTAL, mt.CRYSTAL_H), gem(mt.CRYSTAL, mt.CRYSTAL_H, mt.FOOT)
    assert section(footed, 0.05).Area() < section(plain, 0.05).Area() - 1.0
    assert abs(section(footed, mt.FOOT + 0.2).Area() - section(plain, mt.FOOT + 0.2).Area()) < 1e-6
    assert mesh(footed).watertight()
