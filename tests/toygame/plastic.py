"""Toy Tally in plastic (``generators.contract.Plastic``): each card a tile with its dots
debossed, through the shared kit."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import cadquery as cq

from cad.common import kit, threemf
from cad.common.profile import Physical
from cad.common.solids import mesh, prism
from tests.toygame.rules import Deck

CAPTIONS = {"assembled": "A tally tile", "ams": "tiles and dots in their filaments", "no-ams": "one filament"}
SIDE = 30.0
THICK = 3.0


def _square(x: float, y: float, w: float) -> list[tuple[float, float]]:
    return [(x, y), (x + w, y), (x + w, y + w), (x, y + w)]


def steps(deck: Deck) -> int:
    return len(deck.cards)


def make_kit(deck: Deck, ph: Physical, bed: tuple[float, float], *, players: int = 4, ams: bool = True,
             no_ams: bool = True, slicer: str = "bambu", slots: int = 4,
             machine: Any = None, progress: Callable[[str], None] = lambda _: None, mapper: Any = map) -> kit.Kit:
    pieces = []
    d = ph.deboss_depth
    for card in deck.cards:
        body: cq.Shape = prism([_square(0, 0, SIDE)], THICK)
        dots = [prism([_square(3 + x * 9, 3 + y * 9, 6)], d, THICK - d) for x, y in card.cells]
        for dot in dots:
            body = body.cut(dot)
        solids = [kit.Solid("tile", mesh(body), "body")]
        solids += [kit.Solid(f"dot {k + 1}", mesh(dot), "ink", inlay=True) for k, dot in enumerate(dots)]
        pieces.append(kit.Piece(f"card-{card.id}", f"card {card.id}", tuple(solids), change_at=THICK - d))
        progress(f"card {card.id}")
    fils = kit.Filaments((threemf.Filament("tile", "#CBBE9E"), threemf.Filament("dots", "#1A1A1A")),
                         {"body": 1, "ink": 2}, {"body": "tile", "ink": "dots"})
    return kit.make(pieces, fils, bed, gap=ph.part_gap, density=ph.density, ams=ams, no_ams=no_ams,
                    title="Toy Tally", slicer=slicer, layer=ph.layer_height, slots=slots, machine=machine,
                    progress=progress, mapper=mapper)


if TYPE_CHECKING:
    import tests.toygame.plastic as _self
    from generators.contract import Plastic

    _conforms: Plastic = _self
