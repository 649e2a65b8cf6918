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

import io
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
import zipfile
from dataclasses import dataclass
from pathlib import Path

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


def find() -> str | None:
    """The slicer's path, or None if it is not installed."""
    return shutil.which(EXECUTABLE)


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


def read_gcode(text: str, version_text: str = EXECUTABLE) -> Sliced:
    """The layers, extruding tools, colour changes and filament volumes of PrusaSlicer G-code."""
    layers: list[float] = []
    used: set[int] = set()
    changes: list[float] = []
    volumes: tuple[float, ...] = ()
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
    return Sliced(tuple(layers), frozenset(used), tuple(changes), volumes, version_text)


def slice_plate(path: str | Path, bed: tuple[float, float], extruders: int, *, slicer: str | None = None,
                infill: int = 100, timeout: float = 600) -> Sliced:
    """Slice the 3MF at ``path`` on a ``bed`` (width, depth in mm) with ``extruders`` nozzles,
    ``LAYER`` mm layers and ``infill`` percent infill (100: comparable with a solid bill).

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
        args = [exe, "--export-gcode", "--output", str(out),
                "--bed-shape", f"0x0,{w:g}x0,{w:g}x{d:g},0x{d:g}",
                "--nozzle-diameter", nozzles,
                "--layer-height", f"{LAYER:g}", "--first-layer-height", f"{LAYER:g}",
                "--fill-density", f"{infill}%", "--fill-pattern", "rectilinear", "--skirts", "0",
                str(path)]
        try:
            run = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
        except (OSError, subprocess.TimeoutExpired) as err:
            raise SlicingError(f"{EXECUTABLE}: {err}") from err
        if run.returncode != 0 or not out.exists():
            said = [line for line in (run.stderr + run.stdout).splitlines()
                    if line.strip() and "[trace]" not in line and "[debug]" not in line]
            raise SlicingError(f"{EXECUTABLE} refused {Path(path).name}: "
                               f"{said[-1].strip() if said else f'exit {run.returncode}'}")
        return read_gcode(out.read_text(encoding="utf-8", errors="replace"), version(exe))


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
