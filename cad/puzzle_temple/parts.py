"""Puzzle Temple in 3D: the pieces every kit has whatever the deck (the fit-test coupon,
jewels, pawns and the board).
"""

from __future__ import annotations

import math

import cadquery as cq

from cad.common import strokes
from cad.common.outline import offset
from cad.common.profile import STROKE_PER_CAP, Physical
from cad.common.solids import face, fuse, lead_in, prism, relief, val
from cad.puzzle_temple.cards import LABEL_GAP, RIM

Cell = tuple[int, int]

# -- the fit-test coupon, jewels and pawns -----------------------------------------------------------

COUPON_CLEARANCES = (0.1, 0.2, 0.3, 0.4)
COUPON_CELLS = ((0, 0), (0, 1))  #: a domino: small to print, long enough to feel the fit
COUPON_GAP = 7.0


def ladder(ph: Physical) -> list[float]:
    """The clearances the coupon tries: ``COUPON_CLEARANCES`` and the settings' own."""
    return sorted({*COUPON_CLEARANCES, round(ph.clearance, 2)})


def coupon_parts(ph: Physical) -> tuple[list[tuple[str, cq.Shape]], list[tuple[float, cq.Shape]], list[float]]:
    """The fit-test coupon, built exactly as a kit is at each clearance of ``ladder``: a
    plate with a domino pocket per clearance (the domino's cells grown by it, with the
    pockets' lead-in, as a card's pocket is), each labelled with it, the settings' own
    underlined; and a domino per clearance (shrunk by half of it, chamfered and rounded, as
    a block is) with its clearance cut into its top. Print it first: the smallest clearance
    whose domino drops into its pocket freely is the one to set (``clearance`` in the
    settings, or in ``[cad]`` of a build profile). Returns the plate's parts (``body``, and
    ``ink`` for its labels), the dominoes with their clearances, and the clearances in order."""
    from dataclasses import replace

    from cad.puzzle_temple.cards import block_solid

    rungs = ladder(ph)
    widest = max(rungs)
    stroke = max(ph.min_stroke, ph.text_size * STROKE_PER_CAP)
    slot = 2 * ph.pitch + 2 * widest
    width = RIM + len(rungs) * slot + (len(rungs) - 1) * COUPON_GAP + RIM
    depth = RIM + ph.pitch + 2 * widest + LABEL_GAP + ph.text_size + 2.5 * stroke + RIM
    plate = prism([[(0, 0), (width, 0), (width, depth), (0, depth)]], ph.card_thickness)
    floor = ph.card_thickness - ph.pocket_depth
    top = depth - RIM - widest
    labels = []
    pockets = []
    for i, c in enumerate(rungs):
        x = RIM + widest + i * (slot + COUPON_GAP)
        loops = [[(x + px, top + py) for px, py in loop] for loop in offset(COUPON_CELLS, ph.pitch, c)]
        pockets.append(prism(loops, ph.pocket_depth + 1.0, floor))
        text = f"{c:g}"
        tx = x + ph.pitch - strokes.width(text, ph.text_size) / 2
        ty = RIM + 2 * stroke
        for loop in strokes.strokes(text, tx, ty, ph.text_size, stroke):
            labels.append(face([loop]))
        if abs(c - ph.clearance) < 1e-9:  # the settings' own: underlined
            bar = [(tx, RIM), (tx + strokes.width(text, ph.text_size), RIM),
                   (tx + strokes.width(text, ph.text_size), RIM + stroke), (tx, RIM + stroke)]
            labels.append(face([bar]))
    ink = relief(labels, ph.deboss_depth, ph.card_thickness - ph.deboss_depth)
    body = lead_in(plate.cut(cq.Compound.makeCompound(pockets)), ph.card_thickness,
                   (RIM, top - ph.pitch - widest, width - RIM, top + widest + 1e-3), ph.lead_in)
    body = body.cut(ink).clean()
    dominoes = []
    for c in rungs:
        domino = block_solid(COUPON_CELLS, replace(ph, clearance=c))
        text = f"{c:g}"
        tx = ph.pitch - strokes.width(text, ph.text_size) / 2
        cut = [prism([loop], ph.deboss_depth + 1.0, ph.block_height - ph.deboss_depth)
               for loop in strokes.strokes(text, tx, -ph.pitch / 2 - ph.text_size / 2, ph.text_size, stroke)]
        dominoes.append((c, domino.cut(fuse(cut)).clean()))
    return [("body", body), ("ink", ink)], dominoes, rungs


#: The six jewel colours (13 of each), named.
JEWELS = (("ruby", "#C0392B"), ("sapphire", "#2E86C1"), ("emerald", "#27AE60"), ("topaz", "#F1C40F"),
          ("pearl", "#F4F1EA"), ("amethyst", "#8E44AD"))
JEWELS_EACH = 13
JEWEL_RADIUS = 4.0   #: the gem's hexagon, corner to centre
JEWEL_BASE = 3.0     #: the straight part that sits in a hole
JEWEL_CROWN = 3.5    #: the faceted top


def _hexagon(r: float, x: float = 0.0, y: float = 0.0) -> list[tuple[float, float]]:
    return [(x + r * math.cos(math.pi / 3 * k), y + r * math.sin(math.pi / 3 * k)) for k in range(6)]


def jewel_solid(ph: Physical) -> cq.Shape:
    """A gem: a round foot that sits in a board hole whichever way it is turned (its bottom
    edge chamfered against elephant foot), under a faceted hexagonal crown inside the
    foot's circle."""
    work = cq.Workplane().add(cq.Solid.makeCylinder(JEWEL_RADIUS, JEWEL_BASE))
    if ph.bottom_chamfer > 0:
        work = work.faces("<Z").edges().chamfer(ph.bottom_chamfer)
    inner = JEWEL_RADIUS - 0.2
    crown = cq.Solid.makeLoft([cq.Wire.makePolygon([cq.Vector(x, y, JEWEL_BASE) for x, y in _hexagon(inner)],
                                                   close=True),
                               cq.Wire.makePolygon([cq.Vector(x, y, JEWEL_BASE + JEWEL_CROWN)
                                                    for x, y in _hexagon(inner * 0.45)], close=True)], True)
    return fuse([val(work), crown])


#: Four pawns, told apart by shape as well as colour.
PAWNS = (("round", "#E69F00"), ("square", "#56B4E9"), ("triangle", "#009E73"), ("hexagon", "#CC79A7"))
PAWN_RADIUS = 8.0
PAWN_HEIGHT = 22.0


def pawn_solid(shape: str) -> cq.Shape:
    """A pawn: a body of its shape on a round foot."""
    foot = cq.Solid.makeCylinder(PAWN_RADIUS, 3.0)
    r, h = PAWN_RADIUS * 0.8, PAWN_HEIGHT - 3.0
    if shape == "round":
        body = fuse([cq.Solid.makeCylinder(r * 0.8, h - 6, cq.Vector(0, 0, 3)),
                     cq.Solid.makeSphere(5.5, cq.Vector(0, 0, PAWN_HEIGHT - 5.5))])
    elif shape == "square":
        body = cq.Solid.makeBox(r * 1.4, r * 1.4, h, cq.Vector(-r * 0.7, -r * 0.7, 3))
    elif shape == "triangle":
        body = prism([[(r * math.cos(a), r * math.sin(a)) for a in (math.pi / 2, math.pi * 7 / 6, math.pi * 11 / 6)]],
                     h, 3.0)
    elif shape == "hexagon":
        body = prism([_hexagon(r)], h, 3.0)
    else:
        raise ValueError(f"no pawn shape {shape!r}")
    return fuse([foot, body])


# -- the board -----------------------------------------------------------------------------------

HEX = 20.0          #: a temple level's hexagon, flat to flat: a pawn's foot stands on it
HEX_GAP = 3.0       #: between the hexagons of the column
HOLE_PITCH = 10.0   #: jewel holes along a row
RING = 1.2          #: the hexagon's outline stroke
LEVELS = 6


def hole_radius(ph: Physical) -> float:
    """A jewel hole: round, the gem's round foot grown by the clearance."""
    return JEWEL_RADIUS + ph.clearance


def board_plan(ph: Physical) -> tuple[float, float, list[tuple[float, float]], list[tuple[float, float]]]:
    """The board's size, its seven hexagon centres (the start at the bottom, then levels 1-6
    upwards) and its 78 jewel hole centres: beside each level a row of 13 running away from
    its hexagon, so the jewels nearest the hexagon are taken first. Sized to fit the
    smallest printer preset (the A1 mini's 180 mm bed) whole."""
    radius = HEX / math.sqrt(3)  # corner to centre of a flat-topped hexagon
    hole = hole_radius(ph)
    width = RIM + 2 * radius + 4.0 + (JEWELS_EACH - 1) * HOLE_PITCH + 2 * hole + RIM
    depth = RIM + (LEVELS + 1) * HEX + LEVELS * HEX_GAP + RIM
    hexes = [(RIM + radius, RIM + HEX / 2 + k * (HEX + HEX_GAP)) for k in range(LEVELS + 1)]
    holes = [(RIM + 2 * radius + 4.0 + hole + i * HOLE_PITCH, y) for _, y in hexes[1:] for i in range(JEWELS_EACH)]
    return width, depth, hexes, holes


def board_parts(ph: Physical) -> list[tuple[str, cq.Shape]]:
    """The board: a plate with the 78 round jewel holes (a jewel's foot grown by the
    clearance, ``pocket_depth`` deep, their rims chamfered ``lead_in``) and each hexagon's
    outline and number (S for the start) cut in as ``ink`` marks."""
    width, depth, hexes, holes = board_plan(ph)
    plate = prism([[(0, 0), (width, 0), (width, depth), (0, depth)]], ph.card_thickness)
    floor = ph.card_thickness - ph.pocket_depth
    hole_r = hole_radius(ph)
    cutters = [cq.Solid.makeCylinder(hole_r, ph.pocket_depth + 1.0, cq.Vector(x, y, floor)) for x, y in holes]
    radius = HEX / math.sqrt(3)
    stroke = max(ph.min_stroke, ph.text_size * STROKE_PER_CAP)
    z = ph.card_thickness - ph.deboss_depth
    marks = []
    for k, (x, y) in enumerate(hexes):
        ring = [_hexagon(radius - 0.6, x, y), list(reversed(_hexagon(radius - 0.6 - RING, x, y)))]
        marks.append(face(ring))
        text = "S" if k == 0 else str(k)
        tx = x - strokes.width(text, ph.text_size) / 2
        for loop in strokes.strokes(text, tx, y - ph.text_size / 2, ph.text_size, stroke):
            marks.append(face([loop]))
    ink = relief(marks, ph.deboss_depth, z)
    xs, ys = [x for x, _ in holes], [y for _, y in holes]
    region = (min(xs) - hole_r - 0.01, min(ys) - hole_r - 0.01, max(xs) + hole_r + 0.01, max(ys) + hole_r + 0.01)
    body = lead_in(plate.cut(cq.Compound.makeCompound(cutters)), ph.card_thickness, region, ph.lead_in)
    body = body.cut(ink).clean()
    return [("body", body), ("ink", ink)]
