"""Puzzle Temple in 3D: blocks and lock cards as CadQuery solids, and the proof that every
stored solution fits its card's pocket.

Measures come from ``cad.common.profile.Physical``. A block is its cells at the pitch,
shrunk by half the clearance on every side (two blocks side by side leave one clearance
between them), extruded to the block height, its bottom edges chamfered against elephant
foot and its top edges softened. A lock pocket is the lock's cells at the pitch grown by the
clearance on every side, cut ``pocket_depth`` into the card plate. So a block lies at least
one clearance from its neighbours and one and a half from a pocket wall.

A card is laid out as data first (``card_plan``: the pocket, the six die rows as pips and
block icons, the card id in a stroke font) and then cut: NO-AMS debosses every mark
``deboss_depth`` deep; AMS fills the same marks with flush inlay parts in their own
filaments. The board, jewels, pawns and the fit-test coupon come next.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import TYPE_CHECKING

import cadquery as cq

from cad.common import kit, plates, previews, strokes, threemf
from cad.common.kit import Mapper
from cad.common.outline import offset
from cad.common.profile import STROKE_PER_CAP, Physical
from cad.common.solids import fuse, mesh, png, prism, section, val
from generators.common import palette
from generators.puzzle_temple.deck import Card, Deck, Face
from solver.shapes import lying, plane

Cell = tuple[int, int]

#: The card's measures in mm (the lock's come from the settings).
#: The report's captions of the kit's previews (see ``generators.contract.Plastic``).
CAPTIONS = {"assembled": "A card with face 1's stored solution in its pocket",
            "ams": "each part in its own filament",
            "no-ams": "one filament; card plates swap filament at the marks' floor"}

RIM = 6.0         #: plate around the lock and the rows
PANEL_GAP = 6.0   #: between the lock pocket and the die rows
DIE = 10.0        #: a die face's square, where its pips go
PIP = 2.2         #: a pip's diameter
ICON = 3.5        #: a block icon's cell
ICON_GAP = 3.0    #: between icons
DIE_GAP = 3.0     #: between the die face and its first icon
ROW_GAP = 2.0     #: between rows
LABEL_GAP = 3.0   #: under the card id

Point = tuple[float, float]


@dataclass(frozen=True)
class Feature:
    """A mark cut into the card's top: a polygon (outer loop and holes) or a circle
    (x, y, radius). ``role`` is ``pip``, ``icon`` or ``label``; ``key`` names its filament
    in the AMS profile (``ink`` or the block's name)."""

    role: str
    key: str
    loops: tuple[tuple[Point, ...], ...] = ()
    circle: tuple[float, float, float] | None = None

    def least_width(self) -> float:
        """The narrowest part of the mark, mm (a circle's diameter; a polygon's shorter
        side for the bars and cells these are made of)."""
        if self.circle is not None:
            return 2 * self.circle[2]
        outer = self.loops[0]
        sides = [math.hypot(x1 - x0, y1 - y0) for (x0, y0), (x1, y1) in zip(outer, outer[1:] + outer[:1])]
        return min(sides)


@dataclass(frozen=True)
class CardPlan:
    """A card as data: the plate ``width`` x ``depth`` (mm, origin at its lower-left), the
    lock's cell (r, c) spanning x from ``lock_x + c * pitch`` and y down from
    ``lock_top - r * pitch``, and the marks cut into the top."""

    width: float
    depth: float
    lock_x: float
    lock_top: float
    features: tuple[Feature, ...]
    label: str
    stroke: float


PIPS = {
    1: [(0.5, 0.5)], 2: [(0.25, 0.75), (0.75, 0.25)], 3: [(0.25, 0.75), (0.5, 0.5), (0.75, 0.25)],
    4: [(0.25, 0.25), (0.25, 0.75), (0.75, 0.25), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.25, 0.75), (0.5, 0.5), (0.75, 0.25), (0.75, 0.75)],
    6: [(0.25, 0.2), (0.25, 0.5), (0.25, 0.8), (0.75, 0.2), (0.75, 0.5), (0.75, 0.8)],
}


def card_plan(deck: Deck, card: Card, ph: Physical) -> CardPlan:
    """Where the pocket, the die rows (pips, then the face's blocks as icons) and the card
    id go. Pips rather than numbers: six dots read at a glance against a real die, need no
    font, and every dot is far wider than the nozzle's least stroke.

    Raises:
        RequestError: the card id has a character the label font cannot cut.
    """
    label = strokes.check(str(card.id), f"card {card.id}: id")
    stroke = max(ph.min_stroke, ph.text_size * STROKE_PER_CAP)
    rows, cols = card.lock.extent()
    lock_w, lock_h = cols * ph.pitch + 2 * ph.clearance, rows * ph.pitch + 2 * ph.clearance
    icons = [[(name, lying(deck.block(name).shape.normalized().cells)) for name in face.blocks]
             for face in card.faces]
    heights = [max([DIE] + [(max(r for r, _ in c) + 1) * ICON for _, c in row]) for row in icons]
    widths = [DIE + DIE_GAP + sum((max(cc for _, cc in c) + 1) * ICON for _, c in row) + ICON_GAP * (len(row) - 1)
              for row in icons]
    panel_w, panel_h = max(widths), sum(heights) + ROW_GAP * (len(heights) - 1)
    band = ph.text_size + stroke + LABEL_GAP
    body_h = max(lock_h, panel_h)
    width = RIM + lock_w + PANEL_GAP + panel_w + RIM
    depth = RIM + body_h + band + RIM
    top = RIM + body_h
    lock_x = RIM + ph.clearance
    lock_top = top - (body_h - lock_h) / 2 - ph.clearance
    features: list[Feature] = []
    label_x, label_y = RIM + stroke / 2, depth - RIM - ph.text_size - stroke / 2
    for loop in strokes.strokes(label, label_x, label_y, ph.text_size, stroke):
        features.append(Feature("label", "ink", (tuple(loop),)))
    y = top - (body_h - panel_h) / 2
    x0 = RIM + lock_w + PANEL_GAP
    for face, row, height in zip(card.faces, icons, heights):
        cy = y - height / 2
        for fx, fy in PIPS[face.die]:
            features.append(Feature("pip", "ink", circle=(x0 + fx * DIE, cy - DIE / 2 + fy * DIE, PIP / 2)))
        x = x0 + DIE + DIE_GAP
        for name, cells in row:
            r = max(rr for rr, _ in cells) + 1
            c = max(cc for _, cc in cells) + 1
            for loop in offset(cells, ICON, 0.0):
                moved = tuple((x + px, cy + r * ICON / 2 + py) for px, py in loop)
                features.append(Feature("icon", name, (moved,)))
            x += c * ICON + ICON_GAP
        y -= height + ROW_GAP
    return CardPlan(width, depth, lock_x, lock_top, tuple(features), label, stroke)


def _feature_solid(f: Feature, depth: float, z: float) -> cq.Shape:
    if f.circle is not None:
        x, y, r = f.circle
        return cq.Solid.makeCylinder(r, depth, cq.Vector(x, y, z))
    return prism(f.loops, depth).translate(cq.Vector(0, 0, z))


def card_parts(deck: Deck, card: Card, ph: Physical, ams: bool) -> list[tuple[str, cq.Shape]]:
    """The card as parts: ``body`` (the plate with its pocket and its marks cut
    ``deboss_depth`` deep), and with ``ams`` one flush inlay part per filament filling those
    marks (``ink``, and each block's name)."""
    plan = card_plan(deck, card, ph)
    plate = prism([[(0, 0), (plan.width, 0), (plan.width, plan.depth), (0, plan.depth)]], ph.card_thickness)
    floor = ph.card_thickness - ph.pocket_depth
    outline = pocket_loops(plane(card.lock.cells), ph)
    loops = [[(plan.lock_x + x, plan.lock_top + y) for x, y in loop] for loop in outline]
    pocket = prism(loops, ph.pocket_depth + 1.0).translate(cq.Vector(0, 0, floor))
    z = ph.card_thickness - ph.deboss_depth
    marks: dict[str, list[cq.Shape]] = {}
    for f in plan.features:
        marks.setdefault(f.key, []).append(_feature_solid(f, ph.deboss_depth, z))
    fused = {key: fuse(solids) for key, solids in marks.items()}
    body = plate.cut(pocket)
    if fused:
        body = body.cut(cq.Compound.makeCompound(list(fused.values())))
    parts = [("body", body.clean())]
    if ams:
        parts += [(key, fused[key]) for key in sorted(fused)]
    return parts


def card_solid(deck: Deck, card: Card, ph: Physical) -> cq.Shape:
    """The card's body: the plate with its pocket and its marks cut."""
    return card_parts(deck, card, ph, ams=False)[0][1]


@lru_cache(maxsize=512)
def block_solid(cells: tuple[Cell, ...], ph: Physical) -> cq.Shape:
    """A block: ``cells`` (row, column) at the pitch, shrunk by half the clearance, with a
    chamfered bottom and a softened top. Cached: each shape is built once."""
    solid = prism(offset(cells, ph.pitch, -ph.clearance / 2), ph.block_height)
    work = cq.Workplane().add(solid)
    if ph.bottom_chamfer > 0:
        work = work.faces("<Z").edges().chamfer(ph.bottom_chamfer)
    if ph.top_fillet > 0:
        work = work.faces(">Z").edges().fillet(ph.top_fillet)
    return val(work)


def pocket_loops(lock: Iterable[Cell], ph: Physical) -> list[list[tuple[float, float]]]:
    """The pocket's outline: the lock's cells at the pitch grown by the clearance."""
    return offset(lock, ph.pitch, ph.clearance)


@dataclass(frozen=True)
class Fit:
    """How a face's stored solution sits in its pocket: the least gap between two blocks,
    the least gap between a block and a pocket wall, and the overlapping volume (mm3)."""

    block_gap: float
    wall_gap: float
    overlap: float


def assembled(deck: Deck, card: Card, face: Face, ph: Physical) -> list[tuple[str, cq.Shape]]:
    """The face's blocks as solids lying in the pocket as its stored solution places them."""
    if face.solution is None:
        raise ValueError(f"card {card.id}, face {face.die}: no stored solution to assemble")
    plan = card_plan(deck, card, ph)
    floor = ph.card_thickness - ph.pocket_depth
    out = []
    for p in face.solution.placements:
        r0 = min(r for r, _ in p.cells)
        c0 = min(c for _, c in p.cells)
        local = tuple(sorted((r - r0, c - c0) for r, c in p.cells))
        at = cq.Vector(plan.lock_x + c0 * ph.pitch, plan.lock_top - r0 * ph.pitch, floor)
        solid = block_solid(local, ph).translate(at)
        out.append((p.piece, solid))
    return out


def fit(deck: Deck, card: Card, face: Face, ph: Physical, plate: cq.Shape | None = None) -> Fit:
    """Measure a face's assembly with OCCT: the solids' distances, taken on a section
    through the pocket at half its depth, and the volume the blocks share with the card
    (``plate``: the card's body, when already built)."""
    plate = plate if plate is not None else card_solid(deck, card, ph)
    blocks = assembled(deck, card, face, ph)
    z = ph.card_thickness - ph.pocket_depth / 2
    wall = section(plate, z)
    cuts = [section(s, z) for _, s in blocks]
    block_gap = min((a.distance(b) for i, a in enumerate(cuts) for b in cuts[i + 1:]), default=float("inf"))
    wall_gap = min(c.distance(wall) for c in cuts)
    overlap = sum(plate.intersect(s).Volume() for _, s in blocks)
    for i, (_, a) in enumerate(blocks):
        for _, b in blocks[i + 1:]:
            overlap += a.intersect(b).Volume()
    return Fit(block_gap, wall_gap, overlap)


def block_shapes(deck: Deck) -> dict[str, tuple[Cell, ...]]:
    """Each block of the deck's set as cells in its stored orientation."""
    return {b.name: plane(b.shape.normalized().cells) for b in deck.blocks}


# -- the fit-test coupon, jewels and pawns -----------------------------------------------------------

COUPON_CLEARANCES = (0.1, 0.2, 0.3, 0.4)
COUPON_CELLS = ((0, 0), (0, 1))  #: a domino: small to print, long enough to feel the fit
COUPON_GAP = 7.0


def coupon_parts(ph: Physical) -> tuple[list[tuple[str, cq.Shape]], cq.Shape, list[float]]:
    """The fit-test coupon: a plate with a domino pocket at each of ``COUPON_CLEARANCES``
    (the domino's cells grown by that clearance), each labelled with it, and the domino
    itself at its nominal size. Print it first: the tightest pocket the domino drops into
    freely is the clearance to set. Returns the plate's parts (``body``, and ``ink`` for its
    labels), the domino, and each pocket's clearance in order."""
    stroke = max(ph.min_stroke, ph.text_size * STROKE_PER_CAP)
    slot = 2 * ph.pitch + 2 * max(COUPON_CLEARANCES)
    width = RIM + len(COUPON_CLEARANCES) * slot + (len(COUPON_CLEARANCES) - 1) * COUPON_GAP + RIM
    depth = RIM + ph.pitch + 2 * max(COUPON_CLEARANCES) + LABEL_GAP + ph.text_size + stroke + RIM
    plate = prism([[(0, 0), (width, 0), (width, depth), (0, depth)]], ph.card_thickness)
    floor = ph.card_thickness - ph.pocket_depth
    top = depth - RIM - max(COUPON_CLEARANCES)
    labels = []
    pockets = []
    for i, c in enumerate(COUPON_CLEARANCES):
        x = RIM + max(COUPON_CLEARANCES) + i * (slot + COUPON_GAP)
        loops = [[(x + px, top + py) for px, py in loop] for loop in offset(COUPON_CELLS, ph.pitch, c)]
        pockets.append(prism(loops, ph.pocket_depth + 1.0, floor))
        text = f"{c:.1f}"
        tx = x + ph.pitch - strokes.width(text, ph.text_size) / 2
        for loop in strokes.strokes(text, tx, RIM + stroke / 2, ph.text_size, stroke):
            labels.append(prism([loop], ph.deboss_depth, ph.card_thickness - ph.deboss_depth))
    ink = fuse(labels)
    body = plate.cut(cq.Compound.makeCompound(pockets)).cut(ink).clean()
    block = cq.Workplane().add(prism(offset(COUPON_CELLS, ph.pitch, 0.0), ph.block_height))
    if ph.bottom_chamfer > 0:
        block = block.faces("<Z").edges().chamfer(ph.bottom_chamfer)
    return [("body", body), ("ink", ink)], val(block), list(COUPON_CLEARANCES)


#: The six jewel colours (13 of each), named.
JEWELS = (("ruby", "#C0392B"), ("sapphire", "#2E86C1"), ("emerald", "#27AE60"), ("topaz", "#F1C40F"),
          ("pearl", "#F4F1EA"), ("amethyst", "#8E44AD"))
JEWELS_EACH = 13
JEWEL_RADIUS = 4.0   #: the gem's hexagon, corner to centre
JEWEL_BASE = 3.0     #: the straight part that sits in a hole
JEWEL_CROWN = 3.5    #: the faceted top


def _hexagon(r: float, x: float = 0.0, y: float = 0.0) -> list[tuple[float, float]]:
    return [(x + r * math.cos(math.pi / 3 * k), y + r * math.sin(math.pi / 3 * k)) for k in range(6)]


def jewel_solid() -> cq.Shape:
    """A gem: a hexagonal prism that sits in a board hole, under a faceted crown."""
    base = prism([_hexagon(JEWEL_RADIUS)], JEWEL_BASE)
    crown = cq.Solid.makeLoft([cq.Wire.makePolygon([cq.Vector(x, y, JEWEL_BASE) for x, y in _hexagon(JEWEL_RADIUS)],
                                                   close=True),
                               cq.Wire.makePolygon([cq.Vector(x, y, JEWEL_BASE + JEWEL_CROWN)
                                                    for x, y in _hexagon(JEWEL_RADIUS * 0.45)], close=True)], True)
    return fuse([base, crown])


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
    """A jewel hole: the gem's hexagonal foot grown by the clearance on every flat side
    (corner to centre, so divided by cos 30 degrees)."""
    return JEWEL_RADIUS + ph.clearance * 2 / math.sqrt(3)


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
    """The board: a plate with the 78 jewel holes (a jewel's foot grown by the clearance,
    ``pocket_depth`` deep) and each hexagon's outline and number (S for the start) cut in
    as ``ink`` marks."""
    width, depth, hexes, holes = board_plan(ph)
    plate = prism([[(0, 0), (width, 0), (width, depth), (0, depth)]], ph.card_thickness)
    floor = ph.card_thickness - ph.pocket_depth
    hole_r = hole_radius(ph)
    cutters = [prism([_hexagon(hole_r, x, y)], ph.pocket_depth + 1.0, floor) for x, y in holes]
    radius = HEX / math.sqrt(3)
    stroke = max(ph.min_stroke, ph.text_size * STROKE_PER_CAP)
    z = ph.card_thickness - ph.deboss_depth
    marks = []
    for k, (x, y) in enumerate(hexes):
        ring = [_hexagon(radius - 0.6, x, y), list(reversed(_hexagon(radius - 0.6 - RING, x, y)))]
        marks.append(prism(ring, ph.deboss_depth, z))
        text = "S" if k == 0 else str(k)
        tx = x - strokes.width(text, ph.text_size) / 2
        for loop in strokes.strokes(text, tx, y - ph.text_size / 2, ph.text_size, stroke):
            marks.append(prism([loop], ph.deboss_depth, z))
    ink = fuse(marks)
    body = plate.cut(cq.Compound.makeCompound(cutters)).cut(ink).clean()
    return [("body", body), ("ink", ink)]


# -- the kit ----------------------------------------------------------------------------------------

BODY = "#CBBE9E"   #: card plates: temple stone
INK_COLOUR = "#1A1A1A"


def filaments(deck: Deck) -> kit.Filaments:
    """The AMS filaments (card body, ink, then one per block in deck order), each solid key's
    filament number, and each key's filament name."""
    colours = palette.assign([b.name for b in deck.blocks])
    keys = [("body", "card body", BODY), ("ink", "ink (pips, ids)", INK_COLOUR)]
    keys += [(b.name, f"block {b.name}", colours[b.name]) for b in deck.blocks]
    keys += [("block", "fit-test domino", palette.PALETTE[0])]
    keys += [(f"jewel-{n}", f"jewel {n}", c) for n, c in JEWELS]
    keys += [(f"pawn-{n}", f"pawn {n}", c) for n, c in PAWNS]
    out = [threemf.Filament(name if name.startswith(("jewel", "pawn")) else f"{name}: {palette.colour_name(colour)}",
                            colour) for _, name, colour in keys]
    return kit.Filaments(tuple(out), {k: i + 1 for i, (k, _, _) in enumerate(keys)},
                         {k: f.name for (k, _, _), f in zip(keys, out)})


def steps(deck: Deck) -> int:
    """How many parts ``pieces`` reports to its ``progress``: each block, each card, and the
    board with the coupon, jewels and pawns."""
    return len(deck.blocks) + len(deck.cards) + 1


def card_solids(deck: Deck, ph: Physical, card: Card) -> tuple[kit.Solid, ...]:
    """A card's body and inlays as meshes (a function of its own, so that workers can build
    cards side by side)."""
    return tuple(kit.Solid(key if key != "body" else "card", mesh(shape), key, inlay=key != "body")
                 for key, shape in card_parts(deck, card, ph, ams=True))


def pieces(deck: Deck, ph: Physical, players: int, progress: Callable[[str], None] = lambda _: None,
           mapper: Mapper = map) -> list[kit.Piece]:
    """The kit's pieces: every block ``players`` times, every card once, then the board,
    coupon, jewels and pawns. ``mapper`` builds the cards (``map``, or a process pool's
    ``imap``: the same pieces in the same order either way)."""
    out = []
    for name, cells in block_shapes(deck).items():
        progress(f"block {name}")
        solid = kit.Solid("block", mesh(block_solid(cells, ph)), name)
        out.append(kit.Piece(f"block-{name}", f"block {name}", (solid,), players))
    floor = ph.card_thickness - ph.deboss_depth
    for card, solids in zip(deck.cards, mapper(partial(card_solids, deck, ph), deck.cards)):
        progress(f"card {card.id}")
        out.append(kit.Piece(f"card-{card.id}", f"card {card.id}", solids, 1, floor))
    progress("board, coupon, jewels and pawns")
    return out + list(fixed_pieces(ph))


@lru_cache(maxsize=8)
def fixed_pieces(ph: Physical) -> tuple[kit.Piece, ...]:
    """The pieces every deck's kit has (the board, the fit-test coupon, jewels and pawns),
    made once per set of physical settings: they do not depend on the deck."""
    floor = ph.card_thickness - ph.deboss_depth
    out = [kit.Piece("board", "board", tuple(kit.Solid(k, mesh(s), k, inlay=k != "body")
                                             for k, s in board_parts(ph)), 1, floor)]
    plate, domino, _ = coupon_parts(ph)
    out.append(kit.Piece("coupon", "fit-test coupon", tuple(kit.Solid(k, mesh(s), k, inlay=k != "body")
                                                            for k, s in plate), 1, floor))
    out.append(kit.Piece("coupon-block", "fit-test domino", (kit.Solid("domino", mesh(domino), "block"),)))
    gem = mesh(jewel_solid())
    for name, _ in JEWELS:
        out.append(kit.Piece(f"jewel-{name}", f"jewel {name}", (kit.Solid("jewel", gem, f"jewel-{name}"),),
                             JEWELS_EACH, group=f"jewel-{name}"))
    for name, _ in PAWNS:
        out.append(kit.Piece(f"pawn-{name}", f"pawn {name}", (kit.Solid("pawn", mesh(pawn_solid(name)),
                                                                        f"pawn-{name}"),)))
    return tuple(out)


def make_kit(deck: Deck, ph: Physical, bed: tuple[float, float], *, players: int = 4, ams: bool = True,
             no_ams: bool = True, title: str = "Puzzle Temple", slicer: str = "bambu",
             progress: Callable[[str], None] = lambda _: None, mapper: Mapper = map) -> kit.Kit:
    """STL of every distinct part, AMS and NO-AMS 3MF plates (laid out for ``slicer``:
    ``bambu`` for Bambu Studio and OrcaSlicer, ``prusa`` for PrusaSlicer), previews and the
    bill. ``mapper`` builds the cards and renders the plate previews (``map``, or a process
    pool's ``imap`` to spread them over workers; the files are the same)."""
    board_w, board_d, _, _ = board_plan(ph)
    plates.check_fits([plates.Footprint("board", board_w, board_d)] +
                      [plates.Footprint(f"card-{c.id}", p.width, p.depth)
                       for c in deck.cards for p in (card_plan(deck, c, ph),)], bed[0], bed[1])  # before any work
    made = pieces(deck, ph, players, progress, mapper)
    fils = filaments(deck)
    out = kit.make(made, fils, bed, gap=ph.part_gap, density=ph.density, ams=ams, no_ams=no_ams, title=title,
                   slicer=slicer, layer=ph.layer_height, progress=progress, mapper=mapper)
    files = out.files
    by_key = {p.key: p for p in made}
    first = next((c for c in deck.cards if c.faces and c.faces[0].solution is not None), None)
    if first is not None:
        card_piece = by_key[f"card-{first.id}"]
        shown = [(s.mesh, fils.colour(s.key)) for s in card_piece.solids]
        shown += [(mesh(solid), fils.colour(name)) for name, solid in assembled(deck, first, first.faces[0], ph)]
        files[f"previews/card-{first.id}-face-1.png"] = png(previews.render(shown, 900))
    return out


if TYPE_CHECKING:  # the type checker holds this module to the contract
    import cad.puzzle_temple as _self
    from generators.contract import Plastic as _Contract

    _conforms: _Contract = _self
