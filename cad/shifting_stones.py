"""Shifting Stones in 3D: the nine double-sided stones.

A stone is a square of ``stone_size`` with rounded corners, ``stone_thickness`` thick, its
bottom edges chamfered against elephant foot and its top edges softened. Each face carries
its symbol (``generators.shifting_stones.symbols``, the outlines the cards print), cut
``deboss_depth`` deep: the up face's on top, the down face's on the bottom, mirrored so that
it reads the right way round once the stone is turned over (about its left-right axis,
as a player flips it).

NO-AMS prints the stone in one filament with two colour changes: the first filament for
the bottom layers, the second from the bottom symbol's ceiling up to the top symbol's floor,
and the first again for the top layers, so each symbol shows in the second colour on a face
of the first. AMS prints each half of the stone in its face's colour and fills both symbols
with flush inlays in the ink that reads on that colour.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import cadquery as cq

from cad.common import kit, plates, threemf
from cad.common.kit import Mapper
from cad.common.profile import Physical
from cad.common.solids import face, mesh, relief, val
from generators.common.palette import INK, colour_name, text_on
from generators.shifting_stones.deck import Deck
from generators.shifting_stones.symbols import Symbol, symbols
from generators.shifting_stones.tiles import TileSet
from solver.names import slug

#: The report's captions of the kit's previews (see ``generators.contract.Plastic``).
CAPTIONS = {"assembled": "Each stone from above and turned over",
            "ams": "each half in its face's colour, the symbols inlaid in ink",
            "no-ams": "one filament; a colour change at each symbol's floor shows the symbols"}

CORNER = 0.18   #: the corner radius, a share of the stone's side
MARK = 0.31     #: the symbol's half-width, a share of the stone's side
INKS = (("ink-dark", "ink: black", "#1A1A1A"), ("ink-light", "ink: white", "#F5F5F5"))

SINGLE = (threemf.Filament("first filament: both faces", "#3B352C"),
          threemf.Filament("second filament: the core, seen in every symbol", "#EFE6D2"))


@dataclass(frozen=True, slots=True)
class StonePlan:
    """One stone: its side, thickness, and each face's symbol as outlines in mm (centred on
    the stone, as seen from above for the top, and as cut from below for the bottom)."""

    size: float
    thickness: float
    top: tuple[tuple[tuple[float, float], ...], ...]
    bottom: tuple[tuple[tuple[float, float], ...], ...]


def _outline(symbol: Symbol, half: float, centre: float, mirrored: bool) -> tuple[tuple[tuple[float, float], ...], ...]:
    out = []
    for polygon in symbol:
        points = [(centre + (-x if mirrored else x) * half, centre + y * half) for x, y in polygon]
        out.append(tuple(reversed(points)) if mirrored else tuple(points))
    return tuple(out)


def stone_plan(tiles: TileSet, tile: int, ph: Physical) -> StonePlan:
    marks = symbols(tiles.faces)
    half, centre = ph.stone_size * MARK, ph.stone_size / 2
    return StonePlan(ph.stone_size, ph.stone_thickness, _outline(marks[2 * tile], half, centre, False),
                     _outline(marks[2 * tile + 1], half, centre, True))


def _blank(plan: StonePlan, ph: Physical, z0: float, z1: float) -> cq.Shape:
    """The rounded square from ``z0`` to ``z1``, chamfered at the bottom and softened at the
    top where those are the stone's own faces."""
    work = (cq.Workplane().rect(plan.size, plan.size, centered=False).extrude(z1 - z0)
            .edges("|Z").fillet(plan.size * CORNER))
    if z0 == 0 and ph.bottom_chamfer > 0:
        work = work.faces("<Z").edges().chamfer(ph.bottom_chamfer)
    if z1 == plan.thickness and ph.top_fillet > 0:
        work = work.faces(">Z").edges().fillet(min(ph.top_fillet, (z1 - z0) / 3))
    return val(work).translate(cq.Vector(0, 0, z0))


def _marks(outlines: Sequence[Sequence[tuple[float, float]]], depth: float, z: float) -> cq.Shape:
    return relief([face([list(p)]) for p in outlines], depth, z)


def stone_parts(tiles: TileSet, tile: int, ph: Physical) -> list[tuple[str, cq.Shape, bool]]:
    """The stone as (key, solid, inlay) parts: the upper and lower halves of the body, each
    with its symbol cut, and the two symbols as inlays."""
    plan = stone_plan(tiles, tile, ph)
    t, d = plan.thickness, ph.deboss_depth
    top = _marks(plan.top, d, t - d)
    bottom = _marks(plan.bottom, d, 0.0)
    upper = _blank(plan, ph, t / 2, t).cut(top).clean()
    lower = _blank(plan, ph, 0.0, t / 2).cut(bottom).clean()
    up, down = 2 * tile, 2 * tile + 1
    return [(f"face-{up}", upper, False), (f"face-{down}", lower, False),
            (f"ink-{up}", top.intersect(_blank(plan, ph, t / 2, t)), True),
            (f"ink-{down}", bottom.intersect(_blank(plan, ph, 0.0, t / 2)), True)]


def stone_solid(tiles: TileSet, tile: int, ph: Physical) -> cq.Shape:
    """The stone as NO-AMS prints it: one body with both symbols cut."""
    upper, lower = (shape for _, shape, inlay in stone_parts(tiles, tile, ph) if not inlay)
    return upper.fuse(lower).clean()


def filaments(tiles: TileSet) -> kit.Filaments:
    """The AMS filaments (each face's colour, then the two inks) and the NO-AMS pair."""

    keys = [(f"face-{i}", f"{face}: {colour_name(tiles.colour(i))}", tiles.colour(i))
            for i, face in enumerate(tiles.faces)]
    keys += list(INKS)
    fils = tuple(threemf.Filament(name, colour) for _, name, colour in keys)
    number = {k: i + 1 for i, (k, _, _) in enumerate(keys)}
    for i in range(len(tiles.faces)):  # a symbol's inlay takes the ink that reads on its face
        number[f"ink-{i}"] = number["ink-dark" if text_on(tiles.colour(i)) == INK else "ink-light"]
    names = {k: fils[n - 1].name for k, n in number.items()}
    return kit.Filaments(fils, number, names, SINGLE)


def steps(deck: Deck) -> int:
    """How many parts ``pieces`` reports: one per kind of stone."""
    return len(deck.tiles.tiles)


def _stone_piece(tiles: TileSet, ph: Physical, tile: int) -> tuple[kit.Solid, ...]:
    return tuple(kit.Solid(key, mesh(shape), key, inlay) for key, shape, inlay in stone_parts(tiles, tile, ph))


def pieces(deck: Deck, ph: Physical, progress: Callable[[str], None] = lambda _: None,
           mapper: Mapper = map) -> list[kit.Piece]:
    """One piece per kind of stone, in its count; each changes colour at both symbols' floors."""
    from functools import partial

    tiles = deck.tiles
    d, t = ph.deboss_depth, ph.stone_thickness
    changes = (threemf.ColourChange(d, 2), threemf.ColourChange(t - d, 1))
    out = []
    made = mapper(partial(_stone_piece, tiles, ph), range(len(tiles.tiles)))
    for k, (tile, solids) in enumerate(zip(tiles.tiles, made)):
        progress(f"stone {tile.name}")
        out.append(kit.Piece(slug("stone", str(k + 1), *tile.faces, lower=True),
                             f"stone {tile.name}", solids, tile.count, changes=changes))
    return out


def make_kit(deck: Deck, ph: Physical, bed: tuple[float, float], *, players: int = 4, ams: bool = True,
             no_ams: bool = True, title: str = "Shifting Stones", slicer: str = "bambu", slots: int = 4,
             machine: Any = None, progress: Callable[[str], None] = lambda _: None, mapper: Mapper = map) -> kit.Kit:
    """STL of every part, AMS and NO-AMS plates, previews of the plates and of one stone
    from above and below, and the bill. ``players`` is not used: the game has one set."""
    del players
    plates.check_fits([plates.Footprint("stone", ph.stone_size, ph.stone_size)], bed[0], bed[1])
    made = pieces(deck, ph, progress, mapper)
    fils = filaments(deck.tiles)
    out = kit.make(made, fils, bed, gap=ph.part_gap, density=ph.density, ams=ams, no_ams=no_ams, title=title,
                   slicer=slicer, layer=ph.layer_height, slots=slots, machine=machine,
                   progress=progress, mapper=mapper)
    from cad.common import previews
    from cad.common.solids import png

    for k, piece in enumerate(made):
        out.files[f"stl/{piece.key}.stl"] = mesh(stone_solid(deck.tiles, k, ph)).stl()  # the whole stone, NO-AMS
        turned = [(s.mesh.turned_over(ph.stone_size, ph.stone_thickness), fils.colour(s.key)) for s in piece.solids]
        seen = [(s.mesh, fils.colour(s.key)) for s in piece.solids]
        both = seen + [(m.translated(ph.stone_size * 1.25, 0, 0), c) for m, c in turned]
        out.files[f"previews/{piece.key}.png"] = png(previews.render(both, 700))
    return out


if TYPE_CHECKING:  # the type checker holds this module to the contract
    import cad.shifting_stones as _self
    from generators.contract import Plastic as _Contract

    _conforms: _Contract = _self
