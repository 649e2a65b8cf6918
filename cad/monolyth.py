"""Monolyth in 3D: every piece of the pool, the singles, the player boards, the crystal
marker and the level, structure and prophecy tokens.

A piece is its cubes at the kit's ``pitch``, each cube ``clearance`` smaller than its cell
(half on every side) and joined to its neighbours across the gap, so that pieces stacked on a
board's cells sit flush and side by side without binding. It prints lying on its largest
layer (the pool's flat pieces flat). A board is a 4x4 tray: a floor with cells ``pitch`` plus
clearance wide and a low wall on each side. AMS prints each wall's top band in its edge's
colour and the floor with the north wall and the walls below their bands in the north's (four
filaments, one AMS unit, swapped only in the bands' layers); NO-AMS prints a board in one
filament with the initial of each edge's colour cut into the wall's top, and a colour change
at the cut's floor makes the letters show. A token has its value cut in (inlaid in ink by
AMS) and its kind's outline (``TOKEN_SHAPES``: level round, structure a hexagon, prophecy a
rounded square), so the kinds differ in shape as well as colour; the crystal marker is a
hexagonal crystal.

NO-AMS plates hold one colour each (``group``): the pieces of a colour print together.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import cadquery as cq

from cad.common import kit, plates, strokes, threemf
from cad.common.kit import Mapper
from cad.common.meshes import Mesh
from cad.common.profile import Physical
from cad.common.solids import face, fuse, gem, mesh, relief, val
from generators.common.palette import INK
from generators.monolyth.deck import Deck
from generators.monolyth.pool import SIDE, TOKEN_COLOURS, TOKEN_SHAPES, Pool
from solver.heightmap import Kind
from solver.names import slug

CAPTIONS = {"assembled": "Each piece, a board and the crystal",
            "ams": "pieces by colour; each board's walls in its edges' colours; tokens with inlaid values",
            "no-ams": "one colour a plate; board letters and token values show through a colour change"}

FLOOR = 2.0     #: a board's floor
WALL = 8.0      #: a board wall's width: room on its top for a letter
RIM = 4.0       #: a board wall's height above the floor
TOKEN = 24.0    #: a token's diameter
TOKEN_T = 3.0   #: a token's thickness
CRYSTAL = 14.0  #: the crystal marker's width across its corners

SINGLE = (threemf.Filament("first filament: the body", "#2E3A46"),
          threemf.Filament("second filament: above the letters' floor", "#DCE3EA"))


def lying(kind: Kind) -> list[tuple[int, int, int]]:
    """The piece's cubes in the orientation with the most cubes on the bed (the least of
    those orientations, so the choice does not depend on how it was written)."""
    best = min(kind.solid.orientations(flips=False),
               key=lambda o: (-sum(1 for _, _, z in o.cells if z == 0), o.sort_key()))
    return sorted(best.cells)  # type: ignore[arg-type]


def piece_solid(cubes: list[tuple[int, int, int]], ph: Physical) -> cq.Shape:
    """The cubes at ``pitch``, each ``clearance`` smaller than its cell and bridged to its
    neighbours, so the piece is one solid."""
    p, c = ph.pitch, ph.clearance
    edge = p - c
    parts = []
    cells = set(cubes)
    for x, y, z in cubes:
        parts.append(cq.Solid.makeBox(edge, edge, edge, cq.Vector(x * p + c / 2, y * p + c / 2, z * p)))
        for dx, dy, dz in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
            if (x + dx, y + dy, z + dz) in cells:  # fill the gap across the shared face
                size = (c if dx else edge, c if dy else edge, c if dz else edge)
                at = cq.Vector(x * p + c / 2 + dx * edge, y * p + c / 2 + dy * edge, z * p + dz * edge)
                parts.append(cq.Solid.makeBox(*size, at))
    shape = fuse(parts).clean()
    if ph.bottom_chamfer > 0:
        try:
            shape = val(cq.Workplane().add(shape).faces("<Z").edges().chamfer(min(ph.bottom_chamfer, c + 0.2)))
        except Exception:  # pragma: no cover - a shape OCCT cannot chamfer prints without it
            pass
    return shape


def cap_height(ph: Physical) -> float:
    """The height of a wall's top band in its edge's colour: the letter's cut and 0.4 mm
    of floor under it, at least 1.2 mm."""
    return max(1.2, ph.deboss_depth + 0.4)


def board_parts(edges: tuple[str, str, str, str], ph: Physical,
                letters: Mapping[str, str] | None) -> list[tuple[str, cq.Shape, bool]]:
    """A board as (side, solid, inlay) parts that do not overlap: the floor with the north
    wall and the lower part of the other walls (in the north's colour), and the east, south
    and west walls' top bands (``cap_height``), each in its edge's colour: the edge reads
    from above, where the players look, and an AMS print swaps filament only in the bands'
    few layers, not all the way up the walls. With ``letters`` (a letter per colour), each
    wall's colour letter is cut into its top."""
    inner = SIDE * ph.pitch + 2 * ph.clearance
    outer = inner + 2 * WALL
    height = FLOOR + RIM
    cap = cap_height(ph)
    floor = cq.Solid.makeBox(outer, outer, FLOOR)

    def band(x: float, y: float, w: float, d: float, z0: float, z1: float) -> cq.Shape:
        return cq.Solid.makeBox(w, d, z1 - z0, cq.Vector(x, y, z0))

    spans = {"north": (0, outer - WALL, outer, WALL), "south": (0, 0, outer, WALL),
             "east": (outer - WALL, WALL, WALL, inner), "west": (0, WALL, WALL, inner)}
    walls = {"north": band(*spans["north"], FLOOR, height)}
    lower = {side: band(*spans[side], FLOOR, height - cap) for side in ("east", "south", "west")}
    walls.update({side: band(*spans[side], height - cap, height) for side in ("east", "south", "west")})
    cuts = {}
    if letters:
        size = WALL - 2.0
        stroke = max(ph.min_stroke, 0.8)
        spots = {"north": (outer / 2, outer - WALL / 2), "south": (outer / 2, WALL / 2),
                 "east": (outer - WALL / 2, outer / 2), "west": (WALL / 2, outer / 2)}
        for side, colour in zip(("north", "east", "south", "west"), edges):
            letter = letters[colour]
            cx, cy = spots[side]
            loops = strokes.strokes(letter, cx - strokes.width(letter, size) / 2, cy - size / 2, size, stroke)
            if side in ("east", "west"):  # letters on the side walls lie along them
                loops = [[(cx + (py - cy), cy - (px - cx)) for px, py in loop] for loop in loops]
            cuts[side] = relief([face([loop]) for loop in loops], ph.deboss_depth, height - ph.deboss_depth)
    out = []
    body = fuse([floor, walls["north"], *lower.values()])
    if "north" in cuts:
        body = body.cut(cuts["north"]).clean()
    out.append(("north", body, False))
    for side in ("east", "south", "west"):
        wall: cq.Shape = walls[side]
        if side in cuts:
            wall = wall.cut(cuts[side]).clean()
        out.append((side, wall, False))
    return out


def token_blank(kind: str) -> cq.Shape:
    """A token of ``kind`` without its value: ``TOKEN`` mm across, ``TOKEN_T`` thick, its
    bounding box from the origin."""
    shape = TOKEN_SHAPES.get(kind, "round")
    centre = cq.Workplane().center(TOKEN / 2, TOKEN / 2)
    if shape == "hexagon":
        return val(centre.polygon(6, TOKEN * 1.08).extrude(TOKEN_T))
    if shape == "square":
        side = TOKEN * 0.92
        return val(centre.rect(side, side).extrude(TOKEN_T).edges("|Z").fillet(2.5))
    return cq.Solid.makeCylinder(TOKEN / 2, TOKEN_T, cq.Vector(TOKEN / 2, TOKEN / 2, 0))


def token_parts(value: int, ph: Physical, kind: str = "level") -> list[tuple[str, cq.Shape, bool]]:
    """A token of ``kind`` (its outline: ``TOKEN_SHAPES``) with its value cut in, and the
    value as an inlay."""
    disc = token_blank(kind)
    text = str(value)
    size = 8.0
    stroke = max(ph.min_stroke, 1.0)
    loops = strokes.strokes(text, TOKEN / 2 - strokes.width(text, size) / 2, TOKEN / 2 - size / 2, size, stroke)
    cut = relief([face([loop]) for loop in loops], ph.deboss_depth, TOKEN_T - ph.deboss_depth)
    return [("body", disc.cut(cut).clean(), False), ("ink", cut.intersect(disc), True)]


def crystal() -> cq.Shape:
    """The crystal marker: a hexagonal crystal standing on its base, pointed at the top."""
    return gem(CRYSTAL, CRYSTAL * 1.1)


def filaments(pool: Pool) -> kit.Filaments:
    uses = [(f"colour-{name}", f"{name} pieces", rgb) for name, rgb in pool.colours]
    uses += [("ink", "token values and the crystal", INK)]
    uses += [(f"token-{k}", f"{k} tokens", colour) for k, colour in TOKEN_COLOURS.items()]
    return kit.Filaments.by_colour(uses, SINGLE)


def steps(deck: Deck) -> int:
    """How many parts ``pieces`` reports."""
    return len(deck.pool.pieces) + len(deck.pool.singles) + len(deck.pool.boards) + 2


def _wall_key(colour: str) -> str:
    return f"colour-{colour}"


def pieces(deck: Deck, ph: Physical, players: int, progress: Callable[[str], None] = lambda _: None,
           mapper: Mapper = map) -> list[kit.Piece]:
    pool = deck.pool
    out = []
    shapes: dict[tuple[tuple[int, int, int], ...], Mesh] = {}  # one mesh a shape, whatever its colours
    for kind in pool.pieces:
        progress(f"piece {kind.name} {kind.colour}")
        cubes = tuple(lying(kind))
        if cubes not in shapes:
            shapes[cubes] = mesh(piece_solid(list(cubes), ph))
        solid = kit.Solid(f"{kind.name} {kind.colour}", shapes[cubes], _wall_key(kind.colour))
        out.append(kit.Piece(slug("piece", kind.name, kind.colour, lower=True),
                             f"piece {kind.name} ({kind.colour})", (solid,), kind.count or 1,
                             group=f"colour-{kind.colour}"))
    cube = mesh(piece_solid([(0, 0, 0)], ph))
    for colour, n in pool.singles:
        progress(f"singles {colour}")
        if n:
            out.append(kit.Piece(slug("single", colour, lower=True), f"single ({colour})",
                                 (kit.Solid(f"single {colour}", cube, _wall_key(colour)),), n,
                                 group=f"colour-{colour}"))
    for b, edges in enumerate(pool.boards[:max(players, 1)], start=1):
        progress(f"board {b}")
        solids = tuple(kit.Solid(f"{side} wall ({colour})", mesh(shape), _wall_key(colour))
                       for (side, shape, _), colour in zip(board_parts(edges, ph, letters=pool.letters), edges))
        out.append(kit.Piece(f"board-{b}", f"board {b} ({', '.join(edges)})", tuple(solids), 1,
                             change_at=FLOOR + RIM - ph.deboss_depth, group="boards"))
    progress("tokens")
    prophecy = tuple(p.value for p in deck.prophecies for _ in range(p.count))
    for k, values in (("level", pool.level_tokens), ("structure", pool.structure_tokens), ("prophecy", prophecy)):
        for value, count in sorted({v: list(values).count(v) for v in values}.items()):
            parts = [(key, mesh(shape), inlay) for key, shape, inlay in token_parts(value, ph, k)]
            solids = tuple(kit.Solid(f"{k} {value} {key}", made, "ink" if inlay else f"token-{k}", inlay)
                           for key, made, inlay in parts)
            out.append(kit.Piece(f"token-{k}-{value}", f"{k} token {value}", solids, count,
                                 change_at=TOKEN_T - ph.deboss_depth, group="tokens", kind=f"{k} token"))
    progress("crystal")
    out.append(kit.Piece("crystal", "crystal marker", (kit.Solid("crystal", mesh(crystal()), "ink"),), 1,
                         group="crystal"))
    return out


def make_kit(deck: Deck, ph: Physical, bed: tuple[float, float], *, players: int = 4, ams: bool = True,
             no_ams: bool = True, title: str = "Monolyth", slicer: str = "bambu", slots: int = 4,
             machine: Any = None, progress: Callable[[str], None] = lambda _: None, mapper: Mapper = map) -> kit.Kit:
    """STL of every part, AMS and NO-AMS plates, previews and the bill; a board for each of
    ``players`` (the pool's boards, at most)."""
    outer = SIDE * ph.pitch + 2 * ph.clearance + 2 * WALL
    plates.check_fits([plates.Footprint("board", outer, outer)], bed[0], bed[1])
    made = pieces(deck, ph, players, progress, mapper)
    fils = filaments(deck.pool)
    out = kit.make(made, fils, bed, gap=ph.part_gap, density=ph.density, ams=ams, no_ams=no_ams, title=title,
                   slicer=slicer, layer=ph.layer_height, slots=slots, machine=machine,
                   progress=progress, mapper=mapper)
    from cad.common import previews
    from cad.common.solids import png

    shown = [p for p in made if p.key.startswith("piece-")][:8] + [p for p in made if p.key == "board-1"]
    scene = []
    x = 0.0
    for p in shown:
        lo, hi = p.merged().bounds
        for s in p.solids:
            scene.append((s.mesh.translated(x - float(lo[0]), -float(lo[1]), 0), fils.colour(s.key)))
        x += float(hi[0] - lo[0]) + 6
    out.files["previews/assembled.png"] = png(previews.render(scene, 900))
    return out


if TYPE_CHECKING:  # the type checker holds this module to the contract
    import cad.monolyth as _self
    from generators.contract import Plastic as _Contract

    _conforms: _Contract = _self
