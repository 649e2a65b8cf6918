"""The 3D kit's options, declared once (``generators.common.options.Option``): from them
come the options of ``templeforge cad``, the keys of a build profile's ``[cad]`` section and
the documentation's table. The physical settings (``cad.common.profile``) are the other keys of
``[cad]``."""

from __future__ import annotations

from enum import Enum
from typing import Any

from cad.common.profile import PRINTERS, Printer, printer
from generators.common import parse
from generators.common.options import Option, enum_choice

MAX_PLAYERS = 12
OUT = "output/{game}/models"


class Profile(Enum):
    """Which plates a kit has: AMS (each part in its own filament), NO-AMS (one filament,
    marks debossed, colour changes at their floors), or both."""

    BOTH = "both"
    AMS = "ams"
    NO_AMS = "no-ams"

    @property
    def ams(self) -> bool:
        return self is not Profile.NO_AMS

    @property
    def no_ams(self) -> bool:
        return self is not Profile.AMS


class Slicer(Enum):
    """How a 3MF file keeps each part's filament: Bambu Studio's layout (which OrcaSlicer
    reads too), PrusaSlicer's, or the one that suits the printer."""

    AUTO = "auto"
    BAMBU = "bambu"
    PRUSA = "prusa"

    def for_printer(self, bed: Printer) -> Slicer:
        """``auto`` settled: PrusaSlicer's layout for Prusa printers, Bambu Studio's for the rest."""
        if self is not Slicer.AUTO:
            return self
        return Slicer.PRUSA if bed.name.startswith("prusa-") else Slicer.BAMBU


def _printer(value: Any, name: str) -> Printer:
    if isinstance(value, Printer):
        return value
    return printer(value if isinstance(value, str) else repr(value), name)


OPTIONS = (
    enum_choice("profile", Profile, Profile.BOTH, "AMS: every part and mark in its own filament; NO-AMS: one "
                "filament, marks debossed, with a colour change at the deboss floor; or both"),
    Option("printer", _printer, "bambu-x1", "the printer whose bed the plates are laid out for",
           metavar="|".join(PRINTERS), choices=tuple(PRINTERS)),
    enum_choice("slicer", Slicer, Slicer.AUTO, "how the 3MF files keep each part's filament: bambu (Bambu Studio, "
                "OrcaSlicer) or prusa (PrusaSlicer); auto picks prusa for Prusa printers, bambu for the rest"),
    Option("ams_slots", lambda v, n: parse.parse_int(v, n, low=1, high=32), 4,
           "filament slots the printer's AMS has (4: one AMS or AMS lite, 8 and 16: two and four units); every "
           "AMS plate uses at most this many filaments", metavar="N"),
    Option("players", lambda v, n: parse.parse_int(v, n, low=1, high=MAX_PLAYERS), 4,
           f"player sets of the pieces each player has (1-{MAX_PLAYERS}; a game with one shared set ignores it)",
           metavar="N"),
    Option("out", lambda v, n: str(v), OUT, "output folder", metavar="DIR", default_text="output/GAME/models",
           path=True, recorded=False),
)
