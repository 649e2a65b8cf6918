"""Puzzle Temple in 3D: lock cards and blocks as CadQuery solids, and the proof that every
stored solution fits its card's pocket (see the package's docstring for the measures).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import cadquery as cq

from cad.common import strokes
from cad.common.outline import offset
from cad.common.profile import STROKE_PER_CAP, Physical
from cad.common.solids import disc, lead_in, prism, relief, section, val
from cad.common.solids import face as flat_face
from generators.puzzle_temple.deck import Card, Deck, Face
from solver.shapes import lying, plane

Cell = tuple[int, int]

#: The card's measures in mm (the lock's come from the settings).
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
    in the AMS profile (``ink``: every mark is ink, so a card needs two filaments)."""

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
        for _, cells in row:
            r = max(rr for rr, _ in cells) + 1
            c = max(cc for _, cc in cells) + 1
            for square in icon_cells(cells, ph.min_stroke):
                moved = tuple((x + px, cy + r * ICON / 2 + py) for px, py in square)
                features.append(Feature("icon", "ink", (moved,)))
            x += c * ICON + ICON_GAP
        y -= height + ROW_GAP
    return CardPlan(width, depth, lock_x, lock_top, tuple(features), label, stroke)


def icon_cells(cells: Iterable[Cell], gap: float) -> list[tuple[Point, ...]]:
    """A block's icon: a square per cell, ``ICON`` apart and ``gap`` between neighbours, so
    that I3, I4 and L4 read by their cells (the gap is at least the least stroke, so the
    ridge between two cells prints). Origin at the icon's top-left, y down as rows go."""
    side = ICON - gap
    out: list[tuple[Point, ...]] = []
    for r, c in sorted(cells):
        x0, y0 = c * ICON + gap / 2, -r * ICON - gap / 2
        out.append(((x0, y0 - side), (x0 + side, y0 - side), (x0 + side, y0), (x0, y0)))
    return out


def _feature_face(f: Feature) -> cq.Face:
    if f.circle is not None:
        return disc(*f.circle)
    return flat_face(f.loops)


def card_parts(deck: Deck, card: Card, ph: Physical, ams: bool) -> list[tuple[str, cq.Shape]]:
    """The card as parts: ``body`` (the plate with its pocket, its rim chamfered
    ``lead_in``, and its marks cut ``deboss_depth`` deep), and with ``ams`` one flush inlay
    part per filament filling those marks (``ink``, and each block's name)."""
    plan = card_plan(deck, card, ph)
    plate = prism([[(0, 0), (plan.width, 0), (plan.width, plan.depth), (0, plan.depth)]], ph.card_thickness)
    floor = ph.card_thickness - ph.pocket_depth
    outline = pocket_loops(plane(card.lock.cells), ph)
    loops = [[(plan.lock_x + x, plan.lock_top + y) for x, y in loop] for loop in outline]
    pocket = prism(loops, ph.pocket_depth + 1.0).translate(cq.Vector(0, 0, floor))
    z = ph.card_thickness - ph.deboss_depth
    marks: dict[str, list[cq.Face]] = {}
    for f in plan.features:
        marks.setdefault(f.key, []).append(_feature_face(f))
    fused = {key: relief(faces, ph.deboss_depth, z) for key, faces in marks.items()}
    xs = [x for loop in loops for x, _ in loop]
    ys = [y for loop in loops for _, y in loop]
    body = lead_in(plate.cut(pocket), ph.card_thickness, (min(xs) - 0.01, min(ys) - 0.01, max(xs) + 0.01,
                                                          max(ys) + 0.01), ph.lead_in)
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
