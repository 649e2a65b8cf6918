"""Our 3MF files read back the way the slicers read them, so a kit that a slicer would
misread, refuse or print off its bed is caught before anyone prints it.

Each check stands for a condition in a slicer's reader (cited where it is checked):

- *Bambu Studio and OrcaSlicer* (``src/libslic3r/Format/bbs_3mf.cpp``): the file is theirs
  only when its ``Application`` starts with ``BambuStudio-`` (and Bambu Studio 2 wants its
  own major version, ``02``); ``Metadata/project_settings.config`` is JSON whose
  ``filament_colour`` must be a non-empty list (``PresetBundle::load_config_file_config``:
  "Invalid configuration file" otherwise; it sets the filament count), the per-filament
  lists as long as it, ``inherits_group`` and ``different_settings_to_system`` one entry
  for the process, one a filament and one for the printer; the project passes
  ``check_project_config`` (``nozzle_diameter`` given) or names a Bambu Lab
  ``printer_model``; every part's ``extruder`` in ``Metadata/model_settings.config`` is a
  filament of the project; every plate (``plater_id`` from 1) lists objects of the model and
  its ``thumbnail_file`` is in the package (and the file has a picture); every object lies on its plate's bed in the
  project's grid (``PartPlate.cpp``, ``PartPlateList::compute_shape_position``), clear of
  the bed's excluded zones and under its height; colour changes name filaments the project
  has.
- *PrusaSlicer* (``src/libslic3r/Format/3mf.cpp``): ``slic3rpe:Version3mf`` 1;
  ``Metadata/Slic3r_PE.config`` of ``; key = value`` lines with the bed (``bed_shape``) and
  a nozzle per extruder; ``Metadata/Slic3r_PE_model.config`` gives every object's volumes as
  triangle ranges that cover its mesh exactly, once, in order (the reader refuses a file
  whose volumes do not match the mesh), each volume's ``extruder`` an extruder of the
  config; every object on the bed and under ``max_print_height``; colour changes
  (``M600``) in ascending height, below the plate's top.
"""

from __future__ import annotations

import io
import json
import math
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from cad.common.threemf import BAMBU_VERSION, CORE, MODEL_PATH, PRUSA_CHANGES, THUMBNAIL, plate_origin

#: How far (mm) a part may reach past its bed's edge or into an excluded zone: the meshes'
#: own rounding (to the micron), never a visible overlap.
SLACK = 0.01

_M = f"{{{CORE}}}"


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned box: the lowest and highest corner (x, y, z)."""

    low: tuple[float, float, float]
    high: tuple[float, float, float]

    def within(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        return (self.low[0] >= x0 - SLACK and self.low[1] >= y0 - SLACK and self.high[0] <= x1 + SLACK
                and self.high[1] <= y1 + SLACK)

    def meets(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        return (self.low[0] < x1 - SLACK and self.high[0] > x0 + SLACK and self.low[1] < y1 - SLACK
                and self.high[1] > y0 + SLACK)


def problems(name: str, data: bytes) -> list[str]:
    """Every way a slicer would read the 3MF file ``data`` otherwise than we mean it, each
    naming the file (``name``); none for a good file."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            files = {n: z.read(n) for n in z.namelist()}
    except (zipfile.BadZipFile, OSError) as error:
        return [f"{name}: not a 3MF package: {error}"]
    if MODEL_PATH not in files:
        return [f"{name}: no {MODEL_PATH}"]
    try:
        root = ET.fromstring(files[MODEL_PATH])
    except ET.ParseError as error:
        return [f"{name}: {MODEL_PATH}: {error}"]
    meta = {m.get("name", ""): m.text or "" for m in root.iter(f"{_M}metadata")}
    if meta.get("Application", "").startswith("BambuStudio-"):
        return [f"{name}: {p}" for p in _bambu(files, root, meta)]
    return [f"{name}: {p}" for p in _prusa(files, root, meta)]


def _objects(root: ET.Element) -> dict[str, ET.Element]:
    resources = root.find(f"{_M}resources")
    if resources is None:
        return {}
    return {o.get("id", ""): o for o in resources.iter(f"{_M}object")}


def _vertices(obj: ET.Element) -> np.ndarray:
    mesh = obj.find(f"{_M}mesh")
    if mesh is None:
        return np.zeros((0, 3))
    return np.array([[float(v.get("x", 0)), float(v.get("y", 0)), float(v.get("z", 0))]
                     for v in mesh.iter(f"{_M}vertex")]).reshape(-1, 3)


def _triangles(obj: ET.Element) -> int:
    mesh = obj.find(f"{_M}mesh")
    return 0 if mesh is None else sum(1 for _ in mesh.iter(f"{_M}triangle"))


def _transform(text: str | None) -> np.ndarray:
    values = [float(v) for v in (text or "1 0 0 0 1 0 0 0 1 0 0 0").split()]
    return np.array(values, dtype=float).reshape(4, 3)


def _points(objects: dict[str, ET.Element], oid: str, matrix: np.ndarray, depth: int = 0) -> Iterator[np.ndarray]:
    obj = objects.get(oid)
    if obj is None or depth > 8:
        return
    own = _vertices(obj)
    if len(own):
        yield own @ matrix[:3] + matrix[3]
    components = obj.find(f"{_M}components")
    for c in components if components is not None else ():
        inner = _transform(c.get("transform"))
        combined = np.vstack([inner[:3] @ matrix[:3], inner[3] @ matrix[:3] + matrix[3]])
        yield from _points(objects, c.get("objectid", ""), combined, depth + 1)


def _boxes(root: ET.Element, objects: dict[str, ET.Element]) -> dict[str, Box]:
    """Each built object's box on the bed, by object id."""
    out = {}
    build = root.find(f"{_M}build")
    for item in build if build is not None else ():
        oid = item.get("objectid", "")
        pts = [p for p in _points(objects, oid, _transform(item.get("transform"))) if len(p)]
        if pts:
            every = np.vstack(pts)
            low, high = every.min(axis=0), every.max(axis=0)
            out[oid] = Box((float(low[0]), float(low[1]), float(low[2])),
                           (float(high[0]), float(high[1]), float(high[2])))
    return out


def _corners(values: object) -> list[tuple[float, float]]:
    out = []
    for point in values if isinstance(values, list) else str(values or "").split(","):
        x, _, y = str(point).partition("x")
        out.append((float(x), float(y)))
    return out


def _bambu(files: dict[str, bytes], root: ET.Element, meta: dict[str, str]) -> list[str]:
    out = []
    version = meta["Application"].removeprefix("BambuStudio-")
    if version.split(".")[0] != BAMBU_VERSION.split(".")[0]:
        out.append(f"Bambu Studio {version} is not the major version Bambu Studio 2 loads a project of")
    try:
        config = json.loads(files.get("Metadata/project_settings.config", b"null"))
    except ValueError as error:
        return out + [f"Metadata/project_settings.config: not JSON: {error}"]
    if not isinstance(config, dict):
        return out + ["no Metadata/project_settings.config: the slicer would load the geometry only"]
    colours = config.get("filament_colour")
    if not isinstance(colours, list) or not colours:
        return out + ["project_settings.config: filament_colour must list the filaments ('Invalid configuration file')"]
    count = len(colours)
    for key in ("filament_type", "filament_diameter", "filament_settings_id"):
        if key in config and len(config[key]) != count:
            out.append(f"project_settings.config: {key} lists {len(config[key])} filaments, filament_colour {count}")
    for key in ("inherits_group", "different_settings_to_system"):
        if key in config and len(config[key]) != count + 2:
            out.append(f"project_settings.config: {key} has {len(config[key])} entries, not {count + 2} "
                       f"(the process, each filament, the printer)")
    if not config.get("nozzle_diameter") and not str(config.get("printer_model", "")).startswith("Bambu Lab"):
        out.append("project_settings.config: no nozzle_diameter and no Bambu Lab printer_model: "
                   "the slicer would load the geometry only")
    objects = _objects(root)
    settings = _xml(files, "Metadata/model_settings.config")
    if isinstance(settings, str):
        return out + [settings]
    for obj in settings.iter("object"):
        for part in obj.iter("part"):
            extruder = _value(part, "extruder")
            if part.get("id", "") not in objects:
                out.append(f"model_settings.config: part {part.get('id')} is no object of the model")
            if not extruder.isdigit() or not 1 <= int(extruder) <= count:
                out.append(f"model_settings.config: part {part.get('id')} prints in filament {extruder!r} of {count}")
    boxes = _boxes(root, objects)
    area = _corners(config.get("printable_area") or ["0x0", "256x0", "256x256", "0x256"])
    x0, y0 = min(x for x, _ in area), min(y for _, y in area)
    x1, y1 = max(x for x, _ in area), max(y for _, y in area)
    flat = _corners(config.get("bed_exclude_area") or [])
    zones = [flat[i:i + 4] for i in range(0, len(flat) - 3, 4)] if len(flat) >= 4 else []
    height = float(config.get("printable_height") or math.inf)
    plates = list(settings.iter("plate")) or []
    placed: set[str] = set()
    for index, plate in enumerate(plates):
        number = _value(plate, "plater_id")
        if number != str(index + 1):
            out.append(f"model_settings.config: plate {index + 1} is numbered {number!r}")
        thumbnail = _value(plate, "thumbnail_file")
        if thumbnail and thumbnail not in files:
            out.append(f"plate {index + 1}: its picture {thumbnail} is not in the file")
        dx, dy = plate_origin(index, len(plates), x1 - x0, y1 - y0)
        for instance in plate.iter("model_instance"):
            oid = _value(instance, "object_id")
            placed.add(oid)
            box = boxes.get(oid)
            if box is None:
                out.append(f"plate {index + 1}: object {oid} is not built")
                continue
            out += _on_bed(f"plate {index + 1}: object {_name(objects, oid)}", box, x0 + dx, y0 + dy, x1 + dx,
                           y1 + dy, [[(x + dx, y + dy) for x, y in z] for z in zones], height)
    for oid, box in boxes.items():
        if oid not in placed:
            out += _on_bed(f"object {_name(objects, oid)}", box, x0, y0, x1, y1, zones, height)
            if plates:
                out.append(f"object {_name(objects, oid)} is on no plate")
    if THUMBNAIL not in files and not any(_value(plate, "thumbnail_file") for plate in plates):
        out.append("no picture: neither the package's thumbnail nor a plate's")
    changes = files.get("Metadata/custom_gcode_per_layer.xml")
    if changes:
        for layer in ET.fromstring(changes).iter("layer"):
            extruder = layer.get("extruder", "")
            if not extruder.isdigit() or not 1 <= int(extruder) <= count:
                out.append(f"custom_gcode_per_layer.xml: a change at {layer.get('top_z')} mm to filament "
                           f"{extruder!r} of {count}")
    return out


def _xml(files: dict[str, bytes], name: str) -> ET.Element | str:
    """The package's XML file ``name`` (an empty ``<config/>`` when it has none), or what is
    wrong with it."""
    try:
        return ET.fromstring(files.get(name, b"<config/>"))
    except ET.ParseError as error:
        return f"{name}: {error}"


def _value(element: ET.Element, key: str) -> str:
    found = element.find(f"metadata[@key='{key}']")
    return "" if found is None else found.get("value", "")


def _name(objects: dict[str, ET.Element], oid: str) -> str:
    obj = objects.get(oid)
    return repr(obj.get("name", oid)) if obj is not None else oid


def _on_bed(what: str, box: Box, x0: float, y0: float, x1: float, y1: float,
            zones: list[list[tuple[float, float]]], height: float) -> list[str]:
    out = []
    if not box.within(x0, y0, x1, y1):
        out.append(f"{what} reaches off the bed ({box.low[0]:.1f}..{box.high[0]:.1f} x {box.low[1]:.1f}.."
                   f"{box.high[1]:.1f} mm on a bed of {x0:.1f}..{x1:.1f} x {y0:.1f}..{y1:.1f})")
    for zone in zones:
        zx0, zy0 = min(x for x, _ in zone), min(y for _, y in zone)
        zx1, zy1 = max(x for x, _ in zone), max(y for _, y in zone)
        if box.meets(zx0, zy0, zx1, zy1):
            out.append(f"{what} lies in the bed's excluded zone {zx0:g},{zy0:g}-{zx1:g},{zy1:g}")
    if box.high[2] > height + SLACK:
        out.append(f"{what} is {box.high[2]:.1f} mm tall, over the printer's {height:g} mm")
    if abs(box.low[2]) > SLACK:
        out.append(f"{what} starts {box.low[2]:.2f} mm off the bed")
    return out


def _prusa_config(text: str) -> dict[str, str]:
    out = {}
    for line in text.splitlines():
        if line.startswith("; ") and " = " in line:
            key, _, value = line[2:].partition(" = ")
            out[key.strip()] = value
    return out


def _prusa(files: dict[str, bytes], root: ET.Element, meta: dict[str, str]) -> list[str]:
    out = []
    if meta.get("slic3rpe:Version3mf") != "1":
        out.append(f"slic3rpe:Version3mf is {meta.get('slic3rpe:Version3mf')!r}, not 1: PrusaSlicer reads the "
                   f"volumes of version 1")
    if "Metadata/Slic3r_PE.config" not in files:
        return out + ["no Metadata/Slic3r_PE.config: PrusaSlicer would not open it as a project (no colour changes)"]
    config = _prusa_config(files["Metadata/Slic3r_PE.config"].decode("utf-8", "replace"))
    nozzles = [n for n in config.get("nozzle_diameter", "").split(",") if n]
    if not nozzles:
        out.append("Slic3r_PE.config: no nozzle_diameter")
    count = max(len(nozzles), 1)
    for key in ("extruder_colour", "filament_colour"):
        if len(config.get(key, "").split(";")) != count:
            out.append(f"Slic3r_PE.config: {key} names {len(config.get(key, '').split(';'))} extruders, "
                       f"nozzle_diameter {count}")
    objects = _objects(root)
    model = _xml(files, "Metadata/Slic3r_PE_model.config")
    if isinstance(model, str):
        return out + [model]
    for obj in model.iter("object"):
        oid = obj.get("id", "")
        mesh = objects.get(oid)
        if mesh is None:
            out.append(f"Slic3r_PE_model.config: object {oid} is no object of the model")
            continue
        expected = 0
        for volume in obj.iter("volume"):
            first, last = int(volume.get("firstid", -1)), int(volume.get("lastid", -1))
            if first != expected or last < first:
                out.append(f"object {_name(objects, oid)}: a volume covers triangles {first}-{last}, "
                           f"expected from {expected}")
            expected = last + 1
            extruder = _value(volume, "extruder")
            if not extruder.isdigit() or not 1 <= int(extruder) <= count:
                out.append(f"object {_name(objects, oid)}: a volume prints in extruder {extruder!r} of {count}")
        if expected and expected != _triangles(mesh):
            out.append(f"object {_name(objects, oid)}: its volumes cover {expected} of {_triangles(mesh)} triangles")
    bed = _corners(config.get("bed_shape", "0x0,250x0,250x210,0x210"))
    x0, y0 = min(x for x, _ in bed), min(y for _, y in bed)
    x1, y1 = max(x for x, _ in bed), max(y for _, y in bed)
    height = float(config.get("max_print_height") or math.inf)
    boxes = _boxes(root, objects)
    for oid, box in boxes.items():
        out += _on_bed(f"object {_name(objects, oid)}", box, x0, y0, x1, y1, [], height)
    changes = files.get(PRUSA_CHANGES)
    if changes:
        top = max((b.high[2] for b in boxes.values()), default=0.0)
        heights = [float(c.get("print_z", 0)) for c in ET.fromstring(changes).iter("code")]
        if heights != sorted(heights):
            out.append(f"{PRUSA_CHANGES}: colour changes out of order: {heights}")
        if any(z > top + SLACK for z in heights):
            out.append(f"{PRUSA_CHANGES}: a colour change above the plate's top ({top:.2f} mm): {heights}")
    if THUMBNAIL not in files:
        out.append(f"no {THUMBNAIL}: the file shows no picture")
    return out
