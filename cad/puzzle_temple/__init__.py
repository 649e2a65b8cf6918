"""Puzzle Temple in 3D, the game's cad module (``generators.contract.Plastic``): ``cards``
(lock cards and blocks as CadQuery solids, and the proof that every stored solution fits
its card's pocket), ``parts`` (the coupon, jewels, pawns and board) and, here, the kit.

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

from collections.abc import Callable
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

from cad.common import kit, plates, previews
from cad.common.kit import Mapper
from cad.common.profile import Physical
from cad.common.solids import mesh, png
from cad.puzzle_temple.cards import (  # noqa: F401 - the package is the game's cad module
    DIE,
    DIE_GAP,
    ICON,
    ICON_GAP,
    LABEL_GAP,
    PANEL_GAP,
    PIP,
    PIPS,
    RIM,
    ROW_GAP,
    CardPlan,
    Cell,
    Feature,
    Fit,
    Point,
    assembled,
    block_shapes,
    block_solid,
    card_parts,
    card_plan,
    card_solid,
    fit,
    icon_cells,
    pocket_loops,
)
from cad.puzzle_temple.parts import (  # noqa: F401 - the package is the game's cad module
    COUPON_CELLS,
    COUPON_CLEARANCES,
    COUPON_GAP,
    HEX,
    HEX_GAP,
    HOLE_PITCH,
    JEWEL_BASE,
    JEWEL_CROWN,
    JEWEL_RADIUS,
    JEWELS,
    JEWELS_EACH,
    LEVELS,
    PAWN_HEIGHT,
    PAWN_RADIUS,
    PAWNS,
    RING,
    _hexagon,
    board_parts,
    board_plan,
    coupon_parts,
    hole_radius,
    jewel_solid,
    ladder,
    pawn_solid,
)
from generators.common import palette
from generators.puzzle_temple.deck import Card, Deck
from solver.names import slug

#: The report's captions of the kit's previews (see ``generators.contract.Plastic``).
CAPTIONS = {"assembled": "A card with face 1's stored solution in its pocket",
            "ams": "each part in its own filament",
            "no-ams": "one filament; card plates swap filament at the marks' floor"}

# -- the kit ----------------------------------------------------------------------------------------

BODY = "#CBBE9E"   #: card plates: temple stone
INK_COLOUR = "#1A1A1A"


def filaments(deck: Deck) -> kit.Filaments:
    """The AMS filaments: card body, ink, then the blocks', the fit-test domino's, the
    jewels' and the pawns' colours, one filament per colour (a pawn the colour of a block
    shares its spool)."""
    colours = palette.assign([b.name for b in deck.blocks])
    uses = [("body", "card body", BODY), ("ink", "ink (pips, icons, ids)", INK_COLOUR)]
    uses += [(b.name, f"block {b.name}", colours[b.name]) for b in deck.blocks]
    uses += [("block", "fit-test domino", palette.PALETTE[0])]
    uses += [(f"jewel-{n}", f"jewel {n}", c) for n, c in JEWELS]
    uses += [(f"pawn-{n}", f"pawn {n}", c) for n, c in PAWNS]
    return kit.Filaments.by_colour(uses)


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
        out.append(kit.Piece(slug("block", name), f"block {name}", (solid,), players))
    floor = ph.card_thickness - ph.deboss_depth
    for card, solids in zip(deck.cards, mapper(partial(card_solids, deck, ph), deck.cards)):
        progress(f"card {card.id}")
        out.append(kit.Piece(slug("card", str(card.id)), f"card {card.id}", solids, 1, floor))
    progress("board, coupon, jewels and pawns")
    return out + list(fixed_pieces(ph))


@lru_cache(maxsize=8)
def fixed_pieces(ph: Physical) -> tuple[kit.Piece, ...]:
    """The pieces every deck's kit has (the board, the fit-test coupon, jewels and pawns),
    made once per set of physical settings: they do not depend on the deck."""
    floor = ph.card_thickness - ph.deboss_depth
    out = [kit.Piece("board", "board", tuple(kit.Solid(k, mesh(s), k, inlay=k != "body")
                                             for k, s in board_parts(ph)), 1, floor)]
    plate, dominoes, _ = coupon_parts(ph)
    out.append(kit.Piece("coupon", "fit-test coupon", tuple(kit.Solid(k, mesh(s), k, inlay=k != "body")
                                                            for k, s in plate), 1, floor))
    for clearance, domino in dominoes:
        out.append(kit.Piece(f"coupon-block-{clearance:g}", f"fit-test domino {clearance:g}",
                             (kit.Solid("domino", mesh(domino), "block"),)))
    gem = mesh(jewel_solid(ph))
    for name, _ in JEWELS:
        out.append(kit.Piece(f"jewel-{name}", f"jewel {name}", (kit.Solid("jewel", gem, f"jewel-{name}"),),
                             JEWELS_EACH, group=f"jewel-{name}"))
    for name, _ in PAWNS:
        out.append(kit.Piece(f"pawn-{name}", f"pawn {name}", (kit.Solid("pawn", mesh(pawn_solid(name)),
                                                                        f"pawn-{name}"),)))
    return tuple(out)


def make_kit(deck: Deck, ph: Physical, bed: tuple[float, float], *, players: int = 4, ams: bool = True,
             no_ams: bool = True, title: str = "Puzzle Temple", slicer: str = "bambu", slots: int = 4,
             machine: Any = None, progress: Callable[[str], None] = lambda _: None, mapper: Mapper = map) -> kit.Kit:
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
                   slicer=slicer, layer=ph.layer_height, slots=slots, machine=machine,
                   progress=progress, mapper=mapper)
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
