"""Slice a plate with a real slicer and compare what it did with what the plate file asks.

A 3MF that a slicer opens is not yet a 3MF that prints as meant: the slicer must find every
part, give each part the filament the file names, and change colour where the file says.
PrusaSlicer's command line (Debian's ``prusa-slicer``) slices without a display, so this
module runs it on a plate and reads the G-code back:

- ``planned``: what the plate file asks, read from its own metadata (the extruder of every
  volume in ``Metadata/Slic3r_PE_model.config``, the colour-change heights in
  ``Metadata/Prusa_Slicer_custom_gcode_per_print_z.xml``), not from the code that wrote it;
- ``slice_plate``: the slicer's G-code, reduced to its layers, the extruders that extrude,
  the layer each colour change (``M600``) comes before, and the filament volume per
  extruder that the slicer reports;
- ``problems``: every way the two disagree, in words.

Bambu Studio and OrcaSlicer have no command line on this machine; PrusaSlicer reads the
Bambu layout's geometry and colour changes too, but not its per-part filaments
(``model_settings.config``), so tool use is compared for the PrusaSlicer layout only.
"""

from __future__ import annotations

import dataclasses
import io
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from generators.common.words import plural

if TYPE_CHECKING:
    from cad.common.profile import Printer

#: The slicer's executable, looked up on PATH.
EXECUTABLE = "prusa-slicer"

#: The layer height the plates are sliced at (first layer too), in mm.
LAYER = 0.2

PRUSA_CONFIG = "Metadata/Slic3r_PE_model.config"
PRUSA_CHANGES = "Metadata/Prusa_Slicer_custom_gcode_per_print_z.xml"


class SlicingError(RuntimeError):
    """The slicer refused the plate or could not be run."""


@dataclass(frozen=True, slots=True)
class Planned:
    """What a plate file asks of the slicer."""

    extruders: frozenset[int]          # every volume's extruder (1-based); empty: the layout does not say
    colour_changes: tuple[float, ...]  # the top (mm) of the first layer each change is for


@dataclass(frozen=True, slots=True)
class Sliced:
    """What the slicer did with a plate."""

    layers: tuple[float, ...]                 # the print height of every layer, in order
    extruders: frozenset[int]                 # extruders (1-based) that extrude something
    colour_changes: tuple[float, ...]         # the first layer printed after each M600
    volume_cm3: tuple[float, ...]             # filament volume per extruder, as the slicer reports
    version: str
    seconds: int | None = None                # the slicer's estimate of the printing time
    gcode: bytes = field(default=b"", repr=False, compare=False)  # the G-code itself, when kept


def find() -> str | None:
    """The slicer's path, or None if it is not installed."""
    return shutil.which(EXECUTABLE)


@lru_cache(maxsize=4)
def version(path: str) -> str:
    """The slicer's name and version (``PrusaSlicer-2.5.0+...``)."""
    run = subprocess.run([path, "--help"], capture_output=True, text=True, timeout=60)
    for line in (run.stdout + run.stderr).splitlines():
        if line.startswith("PrusaSlicer-"):
            return line.split()[0]
    return EXECUTABLE


def planned(data: bytes) -> Planned:
    """What the 3MF ``data`` asks: the extruders its volumes name and its colour changes."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        names = set(z.namelist())
        extruders: set[int] = set()
        if PRUSA_CONFIG in names:
            root = ET.fromstring(z.read(PRUSA_CONFIG))
            for volume in root.iter("volume"):
                for meta in volume.iter("metadata"):
                    if meta.get("key") == "extruder":
                        extruders.add(int(meta.get("value", "1")))
        changes: list[float] = []
        if PRUSA_CHANGES in names:
            root = ET.fromstring(z.read(PRUSA_CHANGES))
            changes = sorted(float(code.get("print_z", "nan")) for code in root.iter("code")
                             if code.get("type") == "0")
    return Planned(frozenset(extruders), tuple(changes))


_Z = re.compile(r";Z:([0-9.]+)")
_TOOL = re.compile(r"T(\d+)\s*(?:;.*)?$")
_EXTRUDE = re.compile(r"G1\b[^;]*\bE([0-9.]+)")
_VOLUME = re.compile(r"; filament used \[cm3\] = (.*)")
_TIME = re.compile(r"; estimated printing time \(normal mode\) = (.*)")
_UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}


def _seconds(text: str) -> int | None:
    parts = re.findall(r"(\d+)([dhms])", text)
    return sum(int(n) * _UNITS[u] for n, u in parts) if parts else None


def read_gcode(text: str, version_text: str = EXECUTABLE) -> Sliced:
    """The layers, extruding tools, colour changes and filament volumes of PrusaSlicer G-code."""
    layers: list[float] = []
    used: set[int] = set()
    changes: list[float] = []
    volumes: tuple[float, ...] = ()
    seconds = None
    tool = 0
    pending_change = False
    for line in text.splitlines():
        if line.startswith(";Z:"):
            m = _Z.match(line)
            if m:
                layers.append(float(m.group(1)))
        elif line.startswith(";COLOR_CHANGE"):
            pending_change = True
        elif line.startswith("M600") and pending_change:
            changes.append(layers[-1] if layers else 0.0)
            pending_change = False
        elif line.startswith("T"):
            m = _TOOL.match(line)
            if m:
                tool = int(m.group(1))
        elif line.startswith("G1") and layers:
            m = _EXTRUDE.match(line)
            if m and float(m.group(1)) > 0:
                used.add(tool + 1)
        elif line.startswith("; filament used [cm3]"):
            m = _VOLUME.match(line)
            if m:
                volumes = tuple(float(v) for v in m.group(1).split(","))
        elif line.startswith("; estimated printing time (normal"):
            m = _TIME.match(line)
            if m:
                seconds = _seconds(m.group(1))
    return Sliced(tuple(layers), frozenset(used), tuple(changes), volumes, version_text, seconds)


def slice_plate(path: str | Path, bed: tuple[float, float], extruders: int, *, slicer: str | None = None,
                infill: int = 100, config: Mapping[str, str] | None = None, keep: bool = False,
                timeout: float = 600) -> Sliced:
    """Slice the 3MF at ``path`` on a ``bed`` (width, depth in mm) with ``extruders`` nozzles,
    ``LAYER`` mm layers and ``infill`` percent infill (100: comparable with a solid bill),
    over a printer's own settings ``config`` (``slicer_config``: its presets, start G-code,
    temperatures ..., as a config file's ``key = value`` lines; the options above win).
    ``keep`` keeps the G-code in ``Sliced.gcode``, its line that says when it was made
    replaced by one that does not change (``steady``).

    Raises:
        SlicingError: the slicer is missing, fails, or writes no G-code (its last line says why).
    """
    exe = slicer or find()
    if exe is None:
        raise SlicingError(f"{EXECUTABLE} is not installed (Debian: apt-get install prusa-slicer)")
    w, d = bed
    nozzles = ",".join(["0.4"] * max(1, extruders))
    with tempfile.TemporaryDirectory(prefix="templeforge-slice-") as tmp:
        out = Path(tmp) / "plate.gcode"
        loaded: list[str] = []
        if config:
            ini = Path(tmp) / "printer.ini"
            ini.write_text("".join(f"{key} = {value}\n" for key, value in sorted(config.items())), "utf-8")
            loaded = ["--load", str(ini)]
        args = [exe, "--export-gcode", "--output", str(out), *loaded,
                "--bed-shape", f"0x0,{w:g}x0,{w:g}x{d:g},0x{d:g}",
                "--nozzle-diameter", nozzles,
                "--layer-height", f"{LAYER:g}", "--first-layer-height", f"{LAYER:g}",
                "--fill-density", f"{infill}%", "--fill-pattern", "rectilinear", "--skirts", "0",
                # classic perimeters: Arachne's (2.5's default) differ from run to run
                "--perimeter-generator", "classic",
                # the parts stay where the plate puts them (the command line arranges them otherwise)
                "--dont-arrange", str(path)]
        try:
            run = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
        except (OSError, subprocess.TimeoutExpired) as err:
            raise SlicingError(f"{EXECUTABLE}: {err}") from err
        if run.returncode != 0 or not out.exists():
            said = [line for line in (run.stderr + run.stdout).splitlines()
                    if line.strip() and "[trace]" not in line and "[debug]" not in line]
            raise SlicingError(f"{EXECUTABLE} refused {Path(path).name}: "
                               f"{said[-1].strip() if said else f'exit {run.returncode}'}")
        text = out.read_text(encoding="utf-8", errors="replace")
        sliced = read_gcode(text, version(exe))
        if keep:
            sliced = dataclasses.replace(sliced, gcode=steady(text, sliced.version).encode())
        return sliced


def steady(text: str, made_by: str) -> str:
    """G-code ``text`` with the slicer's first line (``; generated by PrusaSlicer ... on
    2026-12-04 at 22:40:00 UTC``) replaced by one without the time, so the same plate gives
    the same file byte for byte."""
    first, _, rest = text.partition("\n")
    if first.startswith("; generated by"):
        return f"; generated by {made_by} for Templeforge\n{rest}"
    return text


#: Prusa firmware's printable area reaches 4 mm in front of the bed's Y = 0 for the purge
#: line; the start G-code below purges at Y = -3, clear of every part.
PURGE_Y = -3.0


#: PLA's temperatures (nozzle, bed), in degrees C, for every printer.
PLA = {"temperature": "215", "first_layer_temperature": "215", "bed_temperature": "60",
       "first_layer_bed_temperature": "60"}


def prusa_settings(printer: Printer, nozzle: float = 0.4) -> dict[str, str]:
    """PrusaSlicer's settings for printing PLA on ``printer``, by their config keys: PLA's
    temperatures for every printer; and for a Prusa printer (``Printer.prusa`` names the
    model) Marlin 2 G-code with relative extrusion, as Prusa's firmware takes it, a start
    that checks the printer model and nozzle (the firmware asks before printing G-code meant
    for another), heats, homes, levels the bed and purges a line in front of the bed, and an
    end that cools, lifts and presents the plate. Colour changes stay ``M600``, which the
    firmware turns into a filament change at that layer. Where PrusaSlicer's vendor bundle
    has the printer its presets are used instead (``printer_settings``)."""
    if not printer.prusa:
        return dict(PLA)
    start = "\n".join([
        f'M862.3 P "{printer.prusa}" ; printer model check',
        f"M862.1 P{nozzle:g} ; nozzle diameter check",
        "G90 ; absolute coordinates",
        "M83 ; relative extrusion",
        "M140 S[first_layer_bed_temperature] ; bed",
        "M104 S170 ; nozzle warm enough to probe, too cool to ooze",
        "M190 S[first_layer_bed_temperature]",
        "G28 ; home all axes",
        "G29 ; mesh bed levelling",
        "M104 S{first_layer_temperature[0]}",
        "M109 S{first_layer_temperature[0]}",
        f"G1 X10 Y{PURGE_Y:g} Z0.3 F4800 ; to the purge line, in front of the bed",
        "G1 E3 F600",
        "G1 X110 E8 F1000 ; purge",
        "G1 Z0.6 F720",
        "G92 E0",
    ])
    end = "\n".join([
        "M104 S0 ; nozzle off",
        "M140 S0 ; bed off",
        "M107 ; fan off",
        "G91",
        "G1 Z10 F720 ; lift",
        "G90",
        f"G1 X10 Y{printer.depth:g} F3600 ; present the plate",
        "M84 ; motors off",
    ])
    return {"gcode_flavor": "marlin2", "use_relative_e_distances": "1", **PLA, "retract_length": "0.8",
            "layer_gcode": "G92 E0", "start_gcode": start, "end_gcode": end}


def escaped(value: str) -> str:
    """A value as PrusaSlicer's config files store it (C style: backslashes, new lines)."""
    return value.replace("\\", "\\\\").replace("\n", "\\n")


def printer_settings(printer: Printer, nozzle: float = 0.4, layer: float = LAYER) -> tuple[dict[str, str], str]:
    """PrusaSlicer's settings for ``printer`` as a config file stores them (``escaped``), and
    where they come from: the printer's, print and PLA presets from the slicer's vendor bundle
    on this machine (``cad.common.vendor``; ``Printer.vendor`` names the bundle and model),
    complete, with the bundle's version; else Templeforge's own (``prusa_settings``)."""
    from cad.common import vendor

    bundle, model = printer.vendor
    chosen = vendor.presets(bundle, model, nozzle, layer) if model else None
    if chosen is not None:
        return dict(chosen.settings), (f"{chosen.printer}, {chosen.print}, {chosen.filament} "
                                       f"(PrusaSlicer's {bundle} bundle {chosen.version}, {chosen.bundle})")
    own = {key: escaped(value) for key, value in prusa_settings(printer, nozzle).items()}
    why = f"no PrusaSlicer {bundle} bundle with the {model} here" if model else "no slicer presets for it"
    return own, f"Templeforge's own settings for {printer.title} ({why})"


def slicer_config(printer: Printer, nozzle: float = 0.4, layer: float = LAYER) -> dict[str, str]:
    """What ``slice_plate`` loads to make G-code ready to print on a ``ready`` printer
    (``printer_settings``); nothing for the others."""
    return printer_settings(printer, nozzle, layer)[0] if ready(printer) else {}


def problems(plan: Planned, sliced: Sliced, name: str = "plate") -> list[str]:
    """Every way the slicer's G-code disagrees with the plate file."""
    out = []
    if not sliced.layers:
        out.append(f"{name}: the slicer printed no layer")
    if plan.extruders and sliced.extruders != plan.extruders:
        out.append(f"{name}: the file names extruders {sorted(plan.extruders)}, the slicer used "
                   f"{sorted(sliced.extruders)}")
    expected = []
    for z in plan.colour_changes:
        at = [layer for layer in sliced.layers if layer >= z - 1e-6]
        if at:
            expected.append(at[0])
    if tuple(expected) != sliced.colour_changes:
        out.append(f"{name}: the file asks for colour changes before the layers at {list(plan.colour_changes)} "
                   f"mm; the slicer changed before {list(sliced.colour_changes)}")
    return out


# -- a whole kit -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlateSlice:
    """One plate as the slicer printed it, and where it disagreed with its file."""

    profile: str
    plate: int
    sliced: Sliced
    problems: tuple[str, ...]


def bambu_ams(name: str, data: bytes) -> bool:
    """Whether a plate is an AMS plate in the Bambu Studio layout, whose parts PrusaSlicer
    cannot read (it takes each part for an object and drops it on the bed)."""
    if not name.startswith("ams/"):
        return False
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return PRUSA_CONFIG not in z.namelist()


def sliceable(files: Mapping[str, bytes]) -> list[str]:
    """The plates of a kit that PrusaSlicer reads as they are meant: every NO-AMS plate, and
    AMS plates in its own layout."""
    return sorted(n for n, data in files.items() if n.endswith(".3mf") and n.split("/")[0] in ("ams", "no-ams")
                  and not bambu_ams(n, data))


def ready(printer: Printer | None) -> bool:
    """Whether the NO-AMS plates' G-code is ready to print on ``printer`` (``slicer_config``):
    a Prusa printer (its presets from PrusaSlicer's vendor bundle, else our own, which check
    the model and nozzle), or another whose presets the vendor bundle on this machine has
    (the Ender-3 in ``Creality.ini``: its own start and end G-code and temperatures)."""
    from cad.common import vendor

    if printer is None:
        return False
    bundle, model = printer.vendor
    return bool(printer.prusa) or bool(model) and vendor.presets(bundle, model, 0.4, LAYER) is not None


def gcode_name(plate: str) -> str:
    """Where a NO-AMS plate's G-code goes in a kit: ``no-ams/plate-03.3mf`` -> ``gcode/plate-03.gcode``."""
    return "gcode/" + plate.split("/", 1)[1].rsplit(".", 1)[0] + ".gcode"


def slice_kit(files: Mapping[str, bytes], bed: tuple[float, float], *, infill: int = 15, workers: int = 2,
              printer: Printer | None = None, nozzle: float = 0.4,
              progress: Callable[[str], None] = lambda _: None) -> list[PlateSlice]:
    """Slice every ``sliceable`` plate of a kit's ``files`` (``workers`` slicer processes at
    once), each compared with its file (``problems``). On a Prusa ``printer`` (``ready``)
    the NO-AMS plates are sliced with its start G-code and temperatures and each keeps its
    G-code (``Sliced.gcode``).

    Raises:
        SlicingError: the slicer is missing or refuses a plate.
    """
    from concurrent.futures import ThreadPoolExecutor

    exe = find()
    if exe is None:
        raise SlicingError(f"{EXECUTABLE} is not installed (Debian: apt-get install prusa-slicer)")
    plates = sliceable(files)
    setup = slicer_config(printer, nozzle) if printer is not None else {}
    with tempfile.TemporaryDirectory(prefix="templeforge-kit-") as tmp:
        def one(name: str) -> PlateSlice:
            profile = name.split("/")[0]
            plan = planned(files[name])
            path = Path(tmp) / name.replace("/", "-")
            path.write_bytes(files[name])
            extruders = max(plan.extruders, default=1) if profile == "ams" else 1
            mine = setup if profile == "no-ams" else {}
            result = slice_plate(path, bed, extruders, slicer=exe, infill=infill, config=mine, keep=bool(mine))
            number = int(name.rsplit("plate-", 1)[1].split(".")[0])
            progress(f"sliced {name}")
            return PlateSlice(profile, number, result, tuple(problems(plan, result, name)))

        with ThreadPoolExecutor(max(1, workers)) as pool:
            return list(pool.map(one, plates))


def _clock(seconds: int | None) -> str:
    if seconds is None:
        return ""
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def sliced_csv(rows: Sequence[PlateSlice], density: float) -> str:
    """One line per plate: its layers, extruders, colour changes, grams and time."""
    lines = ["profile,plate,layers,extruders,colour_changes_mm,grams,print_time,as_its_file_says"]
    for r in rows:
        s = r.sliced
        lines.append(f"{r.profile},{r.plate},{len(s.layers)},{' '.join(map(str, sorted(s.extruders)))},"
                     f"{' '.join(f'{z:g}' for z in s.colour_changes)},{sum(s.volume_cm3) * density:.1f},"
                     f"{_clock(s.seconds)},{'yes' if not r.problems else 'no'}")
    return "\n".join(lines) + "\n"


def _plates(n: int) -> str:
    return plural(n, "plate")


def summary(rows: Sequence[PlateSlice], density: float, infill: int, skipped: int = 0) -> list[str]:
    """What the command says about a sliced kit, a line per profile (``skipped``: AMS plates
    in the Bambu layout, not sliced)."""
    out = []
    if skipped:
        out.append(f"ams: {_plates(skipped)} in the Bambu Studio layout not sliced: PrusaSlicer does not read "
                   f"their parts (--slicer prusa writes plates it can check)")
    for profile in ("ams", "no-ams"):
        mine = [r for r in rows if r.profile == profile]
        if not mine:
            continue
        grams = sum(sum(r.sliced.volume_cm3) for r in mine) * density
        seconds = sum(r.sliced.seconds or 0 for r in mine)
        bad = sum(1 for r in mine if r.problems)
        verdict = "every one as its file says" if not bad else f"{bad} NOT as their files say"
        note = " (filament changes not counted)" if profile == "ams" else ""
        out.append(f"{profile}: sliced {_plates(len(mine))} with {mine[0].sliced.version}, {verdict}; "
                   f"{grams:.0f} g at {infill}% infill, about {seconds / 3600:.1f} h of printing{note}")
    return out
