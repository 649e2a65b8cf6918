"""3D models from decks: CadQuery solids, STL and 3MF export (AMS and NO-AMS), plates.

Reads decks made by ``generators``; nothing in ``solver`` or ``generators`` imports it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, cast

from cad.common.options import Profile, Slicer
from cad.common.profile import Physical, Printer
from generators.contract import Game, Plastic


def plastic_of(game: Game) -> Plastic:
    """A game's cad module (``Game.plastic``), imported now."""
    return cast(Plastic, importlib.import_module(game.plastic))


def kit_files(game: Game, deck: Any, *, physical: Physical, bed: Printer, players: int, profile: Profile,
              slicer: Slicer, slots: int = 4, progress: Callable[[str], None] = lambda _: None, mapper: Any = map,
              stamp: str | None = None) -> tuple[dict[str, bytes], list[str]]:
    """A deck's whole printable kit as files (STL, 3MF plates for ``profile`` ``ams``,
    ``no-ams`` or ``both``, laid out for ``slicer``, AMS plates with at most ``slots``
    filaments), previews, ``bom.csv``) and the lines that tell a designer what
    was made. ``progress`` hears of each part as it is built; ``mapper`` (a pool's
    ``imap``) spreads cards and previews over worker processes. ``stamp`` (``UNVERIFIED``,
    for a deck modelled without proof) heads every plate's title and object names, as a
    slicer shows them, and is drawn across every preview."""
    from cad.common import kit
    from generators.common.proof import stamped

    machine = bed.machine(physical.nozzle, physical.layer_height)
    layout = slicer.for_printer(bed).value
    with stamped(stamp):
        made = plastic_of(game).make_kit(deck, physical, (bed.width, bed.depth), players=players, ams=profile.ams,
                                         no_ams=profile.no_ams, slicer=layout, slots=slots, machine=machine,
                                         progress=progress, mapper=mapper)
    files = dict(made.files)
    files["bom.csv"] = kit.bom_csv(made).encode()  # type: ignore[arg-type]
    lines = kit.summary(made, bed, slots)  # type: ignore[arg-type]
    if layout == "prusa":
        lines.append(f"PrusaSlicer projects carry {machine.prusa_source}")
    elif machine.bambu_source:
        lines.append(f"Bambu Studio projects carry {machine.bambu_source}")
    if stamp:
        from cad.common.previews import stamp_png

        for name in sorted(files):
            if name.endswith(".png"):
                files[name] = stamp_png(files[name], stamp)
        lines.append(f"every plate, object and preview says {stamp}: the deck was not proved")
    return files, lines


def kit_steps(game: Game, deck: Any) -> int:
    """How many times ``kit_files`` calls ``progress`` before its plate previews."""
    return plastic_of(game).steps(deck)


def kit_models(game: Game, deck: Any, *, physical: Physical, bed: Printer, players: int,
               progress: Callable[[str], None] = lambda _: None) -> tuple[Any, ...]:
    """Every piece of a deck's kit as it looks printed in many colours
    (``cad.common.kit.Model``), for virtual tables: the kit made without plate pictures."""
    from cad.common import kit

    with kit.without_pictures():
        made = plastic_of(game).make_kit(deck, physical, (bed.width, bed.depth), players=players, ams=True,
                                         no_ams=False, slicer="bambu", slots=64,
                                         machine=bed.machine(physical.nozzle, physical.layer_height),
                                         progress=progress)
    return tuple(getattr(made, "models", ()))
