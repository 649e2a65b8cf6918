"""Mystery of the Temples in 3D: a crystal grid board for every grid side and the crystals of
the supply.

A board is a plate with a pocket for a crystal at every slot (``SPACING`` mm between slot
positions one unit apart, each pocket the crystal's width plus ``clearance``, at least
``POCKET_CLEARANCE``), a groove along
every line from pocket to pocket, and, under the slots, the side's ability (in the label
font's capitals; other characters dropped) and its name (``1A``), cut in. AMS inlays the
grooves and the words in ink; NO-AMS prints the plate in one filament and changes colour at
the grooves' floor, so lines and words show in the second filament.

A crystal is a hexagonal gem standing on its base, the base's edges chamfered (``FOOT``);
the kit holds the supply's counts of each colour (24 colourless, 8 red, ...), one colour a
plate.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import cadquery as cq

from cad.common import kit, plates, strokes, threemf
from cad.common.kit import Mapper
from cad.common.profile import Physical
from cad.common.solids import face, fuse, gem, mesh, relief
from generators.common.palette import INK
from generators.mystery_of_the_temples.box import Box, Side
from generators.mystery_of_the_temples.deck import Deck
from solver.names import slug

CAPTIONS = {"assembled": "A grid board with crystals, and a crystal of each colour",
            "ams": "crystals by colour; each board with its lines and name inlaid",
            "no-ams": "one colour a plate; a board's lines and name show through a colour change"}

SPACING = 16.0   #: mm between slots one unit apart on the grid's drawing
MARGIN = 9.0     #: from the outermost pockets' centres to the board's edge
PLATE = 4.0      #: the board's thickness
POCKET = 1.6     #: a pocket's depth
GROOVE = 2.4     #: a line's width
CRYSTAL = 10.0   #: a crystal's width across its corners
CRYSTAL_H = 12.0  #: a crystal's height
POCKET_CLEARANCE = 0.3  #: the least room between a crystal's corners and its pocket's wall
FOOT = 0.4       #: the chamfer on a crystal's base edges
LABEL = 6.0      #: the side name's height
ABILITY = 3.6    #: the ability's letters' height
ABILITY_STROKE = 0.8  #: the ability's strokes: two nozzle widths
#: between two letters' strokes: a stroke and two nozzle widths, so the ridge left between
#: the cuts is 0.8 mm (the font's own spacing left 0.4 mm, which a 0.4 mm nozzle cannot draw)
ABILITY_SPACE = ABILITY_STROKE + 0.8
BOARD = "#D9CFBC"

SINGLE = (threemf.Filament("first filament: the board, or the plate's crystal colour", "#8C7B5B"),
          threemf.Filament("second filament: above the grooves' floor", "#2E2A24"))


def ability_lines(side: Side) -> list[list[str]]:
    """The side's ability as the label font cuts it: capitals, digits, ``-`` and ``.`` (other
    characters dropped), in words wrapped to the board's width."""
    xs = [x for x, _ in side.grid.positions]
    room = (max(xs) - min(xs)) * SPACING + 2 * MARGIN - 4
    words = ["".join(ch for ch in word.upper() if ch in strokes.GLYPHS) for word in side.ability.split()]
    lines: list[list[str]] = []
    for word in (w for w in words if w):
        line = lines[-1] if lines else None
        if line is not None and _width(line + [word]) <= room:
            line.append(word)
        else:
            lines.append([word])
    return lines


def _width(words: list[str]) -> float:
    return sum(strokes.width(w, ABILITY, ABILITY_SPACE) for w in words) + ABILITY * (len(words) - 1)


def size(side: Side) -> tuple[float, float]:
    xs = [x for x, _ in side.grid.positions]
    ys = [y for _, y in side.grid.positions]
    text = len(ability_lines(side)) * (ABILITY + 2.2)
    return (max(xs) - min(xs)) * SPACING + 2 * MARGIN, (max(ys) - min(ys)) * SPACING + 2 * MARGIN + LABEL + 2 + text


def board_parts(side: Side, ph: Physical) -> list[tuple[str, cq.Shape, bool]]:
    """A board as (part, solid, inlay): the plate with its pockets, grooves and name cut,
    and the grooves and name as the inlay."""
    width, depth = size(side)
    xs = [x for x, _ in side.grid.positions]
    ys = [y for _, y in side.grid.positions]

    def at(i: int) -> tuple[float, float]:
        x, y = side.grid.positions[i]
        return MARGIN + (x - min(xs)) * SPACING, depth - MARGIN - (y - min(ys)) * SPACING  # the drawing's top is north

    plate = cq.Solid.makeBox(width, depth, PLATE)
    radius = CRYSTAL / 2 + max(ph.clearance, POCKET_CLEARANCE)
    pockets = [cq.Solid.makeCylinder(radius, POCKET + 1, cq.Vector(*at(i), PLATE - POCKET))
               for i in range(side.grid.slots)]
    grooves = []
    for a, b in side.grid.lines:
        (x0, y0), (x1, y1) = at(a), at(b)
        length = math.hypot(x1 - x0, y1 - y0)
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        nx, ny = -uy * GROOVE / 2, ux * GROOVE / 2
        grooves.append([(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)])
    text = side.name.upper()
    stroke = max(ph.min_stroke, 0.9)
    loops = strokes.strokes(text, MARGIN - 2, 2.5, LABEL, stroke)
    y = 2.5 + LABEL + 2.2 + (len(ability_lines(side)) - 1) * (ABILITY + 2.2)
    for line in ability_lines(side):  # the ability in relief, under the slots, first line on top
        x = 2.0
        for word in line:
            loops += strokes.strokes(word, x, y, ABILITY, max(ph.min_stroke, ABILITY_STROKE), ABILITY_SPACE)
            x += strokes.width(word, ABILITY, ABILITY_SPACE) + ABILITY
        y -= ABILITY + 2.2
    cut = relief([face([loop]) for loop in grooves + loops], ph.deboss_depth, PLATE - ph.deboss_depth)
    holes = fuse(pockets)
    body = plate.cut(cut).cut(holes).clean()
    inlay = cut.cut(holes).clean()
    return [("board", body, False), ("lines", inlay, True)]


def filaments(box: Box) -> kit.Filaments:
    uses = [(f"crystal-{c.name}", f"{c.name} crystals", c.rgb) for c in box.colours]
    uses += [("board", "grid boards", BOARD), ("ink", "grid lines and names", INK)]
    return kit.Filaments.by_colour(uses, SINGLE)


def steps(deck: Deck) -> int:
    """How many parts ``pieces`` reports."""
    return len(deck.box.grids) + len(deck.box.colours)


def _board_solids(ph: Physical, side: Side) -> tuple[kit.Solid, ...]:
    """A grid side's board, meshed: what a worker makes of it."""
    return tuple(kit.Solid(f"grid {side.name} {part}", mesh(shape), "ink" if inlay else "board", inlay)
                 for part, shape, inlay in board_parts(side, ph))


def pieces(deck: Deck, ph: Physical, players: int, progress: Callable[[str], None] = lambda _: None,
           mapper: Mapper = map) -> list[kit.Piece]:
    from functools import partial

    box = deck.box
    out = []
    for side, solids in zip(box.grids, mapper(partial(_board_solids, ph), box.grids)):  # boards in the pool
        progress(f"grid {side.name}")
        out.append(kit.Piece(slug("grid", side.name, lower=True), f"crystal grid {side.name}", solids, 1,
                             change_at=PLATE - ph.deboss_depth, group="boards", kind="crystal grid"))
    crystal = mesh(gem(CRYSTAL, CRYSTAL_H, FOOT))
    for colour in box.colours:
        progress(f"crystals {colour.name}")
        out.append(kit.Piece(slug("crystal", colour.name), f"crystal ({colour.name})",
                             (kit.Solid(f"crystal {colour.name}", crystal, f"crystal-{colour.name}"),), colour.supply,
                             group=f"crystal-{colour.name}"))
    return out


def make_kit(deck: Deck, ph: Physical, bed: tuple[float, float], *, players: int = 4, ams: bool = True,
             no_ams: bool = True, title: str = "Mystery of the Temples", slicer: str = "bambu", slots: int = 4,
             machine: Any = None, progress: Callable[[str], None] = lambda _: None, mapper: Mapper = map) -> kit.Kit:
    """STL of every part, AMS and NO-AMS plates, previews and the bill: a board for every grid
    side of the deck and the supply's crystals."""
    plates.check_fits([plates.Footprint(f"grid {s.name}", *size(s)) for s in deck.box.grids], bed[0], bed[1])
    made = pieces(deck, ph, players, progress, mapper)
    fils = filaments(deck.box)
    out = kit.make(made, fils, bed, gap=ph.part_gap, density=ph.density, ams=ams, no_ams=no_ams, title=title,
                   slicer=slicer, layer=ph.layer_height, slots=slots, machine=machine,
                   progress=progress, mapper=mapper)
    from cad.common import previews
    from cad.common.solids import png

    board = next(p for p in made if p.key.startswith("grid-"))
    scene = []
    for s in board.solids:
        scene.append((s.mesh, fils.colour(s.key)))
    side = deck.box.grids[0]
    width, depth = size(side)
    crystals = [p for p in made if p.key.startswith("crystal-")]
    xs = [x for x, _ in side.grid.positions]
    ys = [y for _, y in side.grid.positions]
    for i, (x, y) in enumerate(side.grid.positions[:len(crystals)]):  # a crystal of each colour in a pocket
        cx = MARGIN + (x - min(xs)) * SPACING - CRYSTAL / 2
        cy = depth - MARGIN - (y - min(ys)) * SPACING - CRYSTAL / 2
        solid = crystals[i].solids[0]
        scene.append((solid.mesh.translated(cx, cy, PLATE - POCKET), fils.colour(solid.key)))
    out.files["previews/assembled.png"] = png(previews.render(scene, 900))
    return out


if TYPE_CHECKING:  # the type checker holds this module to the contract
    import cad.mystery_of_the_temples as _self
    from generators.contract import Plastic as _Contract

    _conforms: _Contract = _self
