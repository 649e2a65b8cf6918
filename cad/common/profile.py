"""The physical parameters of a printed kit, and the printers it can be printed on.

Every dimension is declared once (``Parameter``: its unit, default, bounds and the reason for
its default) and read from a TOML settings file whose keys are the parameter names. The
defaults print well on a 0.4 mm nozzle. ``Physical.problems`` checks what no single bound
can: a deboss depth that is not a whole number of layers, text whose strokes are thinner
than the nozzle can draw, a block taller than its pocket is deep.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generators.common.errors import RequestError
from solver.textfiles import parse_toml, read_text

if TYPE_CHECKING:
    from cad.common.threemf import Machine

@dataclass(frozen=True, slots=True)
class Parameter:
    """One physical parameter: ``name`` (the settings key), ``default``, ``unit``, the bounds
    ``low``..``high`` and ``reason`` (why the default is what it is)."""

    name: str
    default: float
    unit: str
    low: float
    high: float
    reason: str


PARAMETERS = (
    Parameter("pitch", 15.0, "mm", 8.0, 30.0, "the cell of blocks and lock pockets: blocks comfortable to pick up, "
              "the same pitch as the paper blocks"),
    Parameter("block_height", 6.0, "mm", 2.0, 20.0, "tall enough to grip, low enough to print without supports"),
    Parameter("card_thickness", 4.0, "mm", 1.5, 12.0, "a card plate stiff enough not to warp"),
    Parameter("pocket_depth", 2.4, "mm", 0.6, 10.0, "holds the blocks in place; a multiple of the layer height"),
    Parameter("clearance", 0.2, "mm", 0.1, 0.4, "slip fit per side between a block and a pocket wall on a "
              "0.4 mm nozzle (print the fit-test coupon to choose yours)"),
    Parameter("deboss_depth", 1.0, "mm", 0.6, 2.0, "indented numbers and icons; in NO-AMS the light filament "
              "above the marks' floor is this thick, and under 1.0 mm a dark body shows through it; a multiple "
              "of the layer height"),
    Parameter("bottom_chamfer", 0.4, "mm", 0.0, 1.0, "counters elephant foot (0.3-0.5 mm suits most printers)"),
    Parameter("top_fillet", 0.6, "mm", 0.0, 2.0, "softens the top edges a hand touches"),
    Parameter("lead_in", 0.4, "mm", 0.0, 1.0, "a chamfer round the rim of every pocket and hole, so a piece finds "
              "its way in"),
    Parameter("stone_size", 30.0, "mm", 20.0, 60.0, "a square tile's side (a stone): its symbol reads across "
              "the table, and nine fit a hand's span"),
    Parameter("stone_thickness", 5.0, "mm", 3.0, 12.0, "a stone thick enough to pick up and to carry a symbol on "
              "each face"),
    Parameter("text_size", 5.0, "mm", 2.0, 20.0, "cap height of numbers and labels"),
    Parameter("min_stroke", 0.8, "mm", 0.4, 3.0, "the thinnest line a 0.4 mm nozzle prints cleanly: two perimeters"),
    Parameter("layer_height", 0.2, "mm", 0.04, 0.4, "the layer height the depths are multiples of"),
    Parameter("nozzle", 0.4, "mm", 0.2, 1.0, "the nozzle diameter the strokes are checked against"),
    Parameter("part_gap", 5.0, "mm", 2.0, 30.0, "space between parts on a plate"),
    Parameter("density", 1.24, "g/cm3", 0.5, 3.0, "filament density for the bill of materials (PLA)"),
)

BY_NAME = {p.name: p for p in PARAMETERS}

#: Bold sans strokes are about this share of the text's cap height.
STROKE_PER_CAP = 0.16


@dataclass(frozen=True, slots=True)
class Printer:
    """A printer preset: its bed, in mm, the zones of the bed no part may enter (polygons;
    the X1 and P1 keep their front-left corner, 18 x 28 mm, for the purge chute and the
    nozzle wiper), for a Bambu Lab printer the model and system presets its slicer knows
    it by (printer, 0.20 mm process, PLA), and for a Prusa printer the model its firmware
    checks G-code against (``M862.3 P "MK4"``): ``templeforge cad --slice`` writes G-code
    ready to print for those (``cad.common.slicing.gcode_setup``)."""

    name: str
    title: str
    width: float
    depth: float
    height: float
    excluded: tuple[tuple[tuple[float, float], ...], ...] = ()
    bambu: tuple[str, str, str, str] = ("", "", "", "")
    prusa: str = ""
    vendor: tuple[str, str] = ("", "")  # PrusaSlicer's bundle with its presets, and its printer_model there
    #: OrcaSlicer's machine preset for a printer not Bambu Lab's (its defaults give the process
    #: and filament): the names it has had, first found first
    orca: tuple[str, ...] = ()

    def machine(self, nozzle: float = 0.4, layer: float = 0.2) -> Machine:
        """The printer as a 3MF project names it (``cad.common.threemf.Machine``), with
        PrusaSlicer's settings for it (``cad.common.slicing.printer_settings``)."""
        from cad.common.slicing import printer_settings
        from cad.common.threemf import Machine
        from cad.common.vendor_json import carried

        model, printer_preset, process, filament = self.bambu
        settings, source = printer_settings(self, nozzle, layer)
        if model:
            own = carried(printer_preset, process, filament, model)
        elif self.orca:
            # another vendor's printer: its OrcaSlicer presets where installed, else no names
            tried = [carried(name) for name in self.orca]
            own = next((c for c in tried if c.settings), None) or replace(
                tried[0], model="", machine="", process="", filament="",
                source=f"no presets (no OrcaSlicer presets for {' or '.join(self.orca)} here: the slicer keeps "
                       f"the project's own settings)")
        else:
            own = None
        return Machine(self.width, self.depth, self.height, self.excluded, nozzle,
                       own.model if own else "", own.machine if own else "", own.process if own else "",
                       own.filament if own else "", tuple(sorted(settings.items())), source,
                       own.settings if own else (), own.material if own else (), own.source if own else "")


#: The X1's and P1's front-left corner, as Bambu Lab's printer presets exclude it.
CHUTE = (((0.0, 0.0), (18.0, 0.0), (18.0, 28.0), (0.0, 28.0)),)

#: Beds and heights as the printers' own presets give them (Bambu Studio's X1 and P1:
#: ``printable_height`` 250 mm on a 256 mm cube).
PRINTERS = {p.name: p for p in (
    Printer("bambu-x1", "Bambu Lab X1", 256, 256, 250, CHUTE,
            ("Bambu Lab X1 Carbon", "Bambu Lab X1 Carbon 0.4 nozzle", "0.20mm Standard @BBL X1C",
             "Bambu PLA Basic @BBL X1C")),
    Printer("bambu-p1", "Bambu Lab P1", 256, 256, 250, CHUTE,
            ("Bambu Lab P1S", "Bambu Lab P1S 0.4 nozzle", "0.20mm Standard @BBL X1C", "Bambu PLA Basic @BBL X1C")),
    Printer("bambu-a1", "Bambu Lab A1", 256, 256, 256, (),
            ("Bambu Lab A1", "Bambu Lab A1 0.4 nozzle", "0.20mm Standard @BBL A1", "Bambu PLA Basic @BBL A1")),
    Printer("bambu-a1-mini", "Bambu Lab A1 mini", 180, 180, 180, (),
            ("Bambu Lab A1 mini", "Bambu Lab A1 mini 0.4 nozzle", "0.20mm Standard @BBL A1M",
             "Bambu PLA Basic @BBL A1M")),
    Printer("prusa-mk4", "Prusa MK4", 250, 210, 220, prusa="MK4", vendor=("PrusaResearch", "MK4"),
            orca=("Prusa MK4 0.4 nozzle",)),
    Printer("prusa-mk4s", "Prusa MK4S", 250, 210, 220, prusa="MK4S", vendor=("PrusaResearch", "MK4S"),
            orca=("Prusa MK4S 0.4 nozzle",)),
    Printer("prusa-mini", "Prusa MINI", 180, 180, 180, prusa="MINI", vendor=("PrusaResearch", "MINI"),
            orca=("Prusa MINI 0.4 nozzle",)),
    Printer("prusa-core-one", "Prusa CORE One", 250, 220, 270, prusa="COREONE", vendor=("PrusaResearch", "COREONE"),
            orca=("Prusa CORE One 0.4 nozzle", "Prusa COREONE 0.4 nozzle")),
    Printer("creality-k1", "Creality K1", 220, 220, 250, vendor=("Creality", "K1"),
            orca=("Creality K1 (0.4 nozzle)", "Creality K1 0.4 nozzle")),
    Printer("ender3", "Creality Ender-3", 220, 220, 250, vendor=("Creality", "ENDER3"),
            orca=("Creality Ender-3 0.4 nozzle", "Creality Ender-3 (0.4 nozzle)")),
    Printer("generic-220", "a generic 220 x 220 mm printer", 220, 220, 250),
)}


def printer(name: str, field: str = "printer") -> Printer:
    """Raises RequestError naming ``field`` for an unknown printer."""
    if name not in PRINTERS:
        raise RequestError(f"{field}: unknown printer {name!r} (expected {', '.join(PRINTERS)})")
    return PRINTERS[name]


@dataclass(frozen=True, slots=True)
class Physical:
    """The values of every parameter, in their units (each default is its ``Parameter``'s)."""

    pitch: float = BY_NAME["pitch"].default
    block_height: float = BY_NAME["block_height"].default
    card_thickness: float = BY_NAME["card_thickness"].default
    pocket_depth: float = BY_NAME["pocket_depth"].default
    clearance: float = BY_NAME["clearance"].default
    deboss_depth: float = BY_NAME["deboss_depth"].default
    bottom_chamfer: float = BY_NAME["bottom_chamfer"].default
    top_fillet: float = BY_NAME["top_fillet"].default
    lead_in: float = BY_NAME["lead_in"].default
    stone_size: float = BY_NAME["stone_size"].default
    stone_thickness: float = BY_NAME["stone_thickness"].default
    text_size: float = BY_NAME["text_size"].default
    min_stroke: float = BY_NAME["min_stroke"].default
    layer_height: float = BY_NAME["layer_height"].default
    nozzle: float = BY_NAME["nozzle"].default
    part_gap: float = BY_NAME["part_gap"].default
    density: float = BY_NAME["density"].default

    def problems(self, source: str = "settings") -> list[str]:
        """Every value out of its bounds, and every rule between values that fails."""
        out = []
        for f in fields(self):
            p = BY_NAME[f.name]
            value = getattr(self, f.name)
            if not p.low <= value <= p.high:
                out.append(f"{source}: {p.name}: expected {p.low:g}-{p.high:g} {p.unit}, got {value:g}")
        if out:
            return out
        for name in ("deboss_depth", "pocket_depth"):
            value = getattr(self, name)
            layers = value / self.layer_height
            if abs(layers - round(layers)) > 1e-6:
                out.append(f"{source}: {name}: {value:g} mm is not a whole number of {self.layer_height:g} mm "
                           f"layers (try {math.ceil(layers - 1e-6) * self.layer_height:g})")
        if self.min_stroke < self.nozzle:
            out.append(f"{source}: min_stroke: {self.min_stroke:g} mm is thinner than the {self.nozzle:g} mm nozzle")
        stroke = self.text_size * STROKE_PER_CAP
        if stroke < self.min_stroke - 1e-9:
            least = math.ceil(self.min_stroke / STROKE_PER_CAP * 10) / 10
            out.append(f"{source}: text_size: {self.text_size:g} mm text has {stroke:.2f} mm strokes, thinner than "
                       f"min_stroke {self.min_stroke:g} mm (use text_size >= {least:g})")
        if self.pocket_depth >= self.card_thickness - 0.6:
            out.append(f"{source}: pocket_depth: {self.pocket_depth:g} mm leaves less than 0.6 mm of floor in a "
                       f"{self.card_thickness:g} mm card")
        if self.deboss_depth >= self.card_thickness - self.pocket_depth:
            out.append(f"{source}: deboss_depth: {self.deboss_depth:g} mm would cut through the card's floor")
        if 2 * self.deboss_depth > self.stone_thickness - 1.2:
            out.append(f"{source}: deboss_depth: {self.deboss_depth:g} mm on both faces of a {self.stone_thickness:g} "
                       f"mm stone leaves less than 1.2 mm between the symbols")
        if self.lead_in >= self.pocket_depth / 2:
            out.append(f"{source}: lead_in: {self.lead_in:g} mm is more than half the {self.pocket_depth:g} mm "
                       f"pocket depth")
        if self.bottom_chamfer * 2 >= self.pitch / 2:
            out.append(f"{source}: bottom_chamfer: {self.bottom_chamfer:g} mm is too large for a "
                       f"{self.pitch:g} mm cell")
        return out

    def checked(self, source: str = "settings") -> Physical:
        problems = self.problems(source)
        if problems:
            raise RequestError(problems)
        return self

    def as_table(self) -> list[tuple[str, str, str]]:
        """(name, value with unit, reason) for every parameter, for reports."""
        return [(p.name, f"{getattr(self, p.name):g} {p.unit}", p.reason) for p in PARAMETERS]


def physical_from(data: Mapping[str, Any], source: str = "settings") -> Physical:
    """A ``Physical`` from a settings table: unknown keys and non-numbers are errors, each
    naming the key; missing keys keep their defaults.

    Raises:
        RequestError: every problem found.
    """
    problems = []
    values: dict[str, float] = {}
    for key, value in data.items():
        if key not in BY_NAME:
            problems.append(f"{source}: {key}: not a setting (settings are {', '.join(BY_NAME)})")
        elif isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            problems.append(f"{source}: {key}: expected a number in {BY_NAME[key].unit}, got {value!r}")
        else:
            values[key] = float(value)
    if problems:
        raise RequestError(problems)
    return Physical(**values).checked(source)


def load_settings(path: str | Path) -> Physical:
    """Read a TOML settings file (``pitch = 15.0`` ...; see ``settings_toml``).

    Raises:
        RequestError: the file cannot be read or parsed, or a value is wrong (naming the
            file and key).
    """
    text = read_text(path, RequestError)
    return physical_from(parse_toml(text, str(path), RequestError), str(path))


def settings_toml(physical: Physical | None = None) -> str:
    """A settings file with every parameter, its unit and its reason as comments."""
    physical = physical or Physical()
    lines = ["# Templeforge physical settings: every length in mm", ""]
    for p in PARAMETERS:
        lines.append(f"# {p.reason} ({p.unit}, {p.low:g}-{p.high:g})")
        lines.append(f"{p.name} = {getattr(physical, p.name)!r}")
        lines.append("")
    return "\n".join(lines)
