"""3MF files that slicers open with their parts' filaments and colour changes in place.

Written with the standard library (zip + XML), because CadQuery's own 3MF export carries no
colours and lib3mf rejects it. One file holds one plate:

- the core model (``3D/3dmodel.model``): every part a mesh object with a base material
  named for its filament and coloured with it; every item (a card with its inlays, a
  block) a parent object whose components are its parts, placed on the bed by the build;
- ``Metadata/model_settings.config``: each part's filament (``extruder``), which Bambu
  Studio and OrcaSlicer read for parts of a parent object;
- colour changes at a height, for single-extruder printing:
  ``Metadata/custom_gcode_per_layer.xml`` (Bambu Studio, OrcaSlicer) and
  ``Metadata/Prusa_Slicer_custom_gcode_per_print_z.xml`` (PrusaSlicer), type 0 (a colour
  change, M600). Both slicers change colour *before* the layer whose top the file names
  (PrusaSlicer: the first layer at or above it; Bambu Studio and Orca: the nearest layer),
  so a change meant for the layers above ``z`` names the first of them, ``z + layer``: the
  layer that ends at ``z`` (a deboss floor) still prints in the colour below.

Each file is a project its slicer loads with its filaments' colours and its colour changes
(the readers' conditions are cited in the tests, ``tests/cad/common/test_threemf.py``):

- Bambu Studio and OrcaSlicer treat a 3MF as their own only when its ``Application``
  metadata starts with ``BambuStudio-``, and Bambu Studio loads a project's config, colour
  changes included, only when that version's major number is its own. The Bambu layout is
  therefore a Bambu Studio 2 project (``BambuStudio-02.00.00.00``, ``BambuStudio:3mfVersion``
  1): ``Metadata/project_settings.config`` (JSON) holds the filaments' colours, types and
  presets, the nozzle and the printer's bed with its excluded zone, and names Bambu Lab's
  own printer, process and filament presets for a Bambu Lab printer so that the slicer keeps
  every other setting from them (``different_settings_to_system`` lists what the project
  sets).
- PrusaSlicer (2.8 and later) keeps the colour changes only when it loads the file as a
  project, which a ``Metadata/Slic3r_PE.config`` makes it: the Prusa layout writes one with
  the filaments' colours, the nozzle and the bed.

``slicer="prusa"`` writes the same plate the way PrusaSlicer keeps multi-material objects
instead: each item one object whose mesh holds all its parts' triangles, and
``Metadata/Slic3r_PE_model.config`` naming each part's triangle range (a volume) and its
extruder. The same inputs give the same bytes (fixed zip dates, fixed order, numbers
rounded to the micron).
"""

from __future__ import annotations

import io
import weakref
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from xml.sax.saxutils import quoteattr

import numpy as np

from cad.common.meshes import Mesh, merge

#: Where PrusaSlicer reads a project's colour changes.
PRUSA_CHANGES = "Metadata/Prusa_Slicer_custom_gcode_per_print_z.xml"

CORE = "http://schemas.microsoft.com/3dmanufacturing/core/2015/02"
MODEL_PATH = "3D/3dmodel.model"
MODEL_TYPE = "http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"
#: The Bambu Studio project format the Bambu layout follows (its Application metadata and
#: its project config's ``version``): Bambu Studio 2 loads the config of a file of its own
#: major version only.
BAMBU_VERSION = "02.00.00.00"
BAMBU_APPLICATION = f"BambuStudio-{BAMBU_VERSION}"
SLIC3RPE = "http://schemas.slic3r.org/3mf/2017/06"
BAMBU_NAMESPACE = "http://schemas.bambulab.com/package/2021"
SLICERS = ("bambu", "prusa")
DATE = (1980, 1, 1, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class Filament:
    """A filament slot: ``name`` (``PLA white``) and ``colour`` (``#RRGGBB``)."""

    name: str
    colour: str


@dataclass(frozen=True, eq=False)
class Part:
    """One mesh printed in one filament (1-based, into the project's filaments)."""

    name: str
    mesh: Mesh
    filament: int = 1


@dataclass(frozen=True, eq=False)
class Item:
    """An object on the plate: its parts (in the item's own frame) moved by (x, y, z)."""

    name: str
    parts: tuple[Part, ...]
    x: float = 0.0
    y: float = 0.0
    z: float = 0.0


@dataclass(frozen=True, slots=True)
class Machine:
    """The printer a plate is laid out for, as the slicers' project configs name it: the bed
    (mm), its excluded zones (polygons of (x, y) corners: no part may lie there), the nozzle
    and, for a Bambu Lab printer, its model and the system presets of its printer, process
    and filament (empty for other printers)."""

    width: float
    depth: float
    height: float
    excluded: tuple[tuple[tuple[float, float], ...], ...] = ()
    nozzle: float = 0.4
    bambu_model: str = ""
    bambu_printer: str = ""
    bambu_process: str = ""
    bambu_filament: str = ""
    #: PrusaSlicer's settings for this printer (its presets from the slicer's vendor bundle,
    #: or temperatures, G-code flavour, start and end G-code of our own), by config key, as a
    #: config file stores them, written into a Prusa-layout project; and where they came from
    prusa: tuple[tuple[str, str], ...] = ()
    prusa_source: str = ""
    #: Bambu Studio's (or OrcaSlicer's) settings for this printer from an installed copy's
    #: system presets (``cad.common.vendor_json``): the machine and process presets' by key,
    #: the filament preset's (a list each, for one filament), as JSON text; and where they
    #: came from (or why there are none)
    bambu: tuple[tuple[str, str], ...] = ()
    bambu_filament_settings: tuple[tuple[str, str], ...] = ()
    bambu_source: str = ""


GENERIC = Machine(256, 256, 256)


def writer() -> str:
    """``Templeforge-<version>``, as installed."""
    from importlib import metadata

    try:
        return f"Templeforge-{metadata.version('templeforge')}"
    except metadata.PackageNotFoundError:
        return "Templeforge"


@dataclass(frozen=True, slots=True)
class ColourChange:
    """Swap to ``filament`` for the layers above ``z`` mm."""

    z: float
    filament: int


@dataclass(frozen=True, eq=False)
class Project:
    """A plate's worth of items, with the filaments they use and any colour changes."""

    title: str
    items: tuple[Item, ...]
    filaments: tuple[Filament, ...]
    colour_changes: tuple[ColourChange, ...] = field(default=())
    slicer: str = "bambu"
    layer: float = 0.2  # the layer height the plate is meant to be sliced at (mm)
    machine: Machine = GENERIC
    writer: str = field(default_factory=writer)  # who wrote the file (Description; Prusa's Application)
    thumbnail: bytes = b""  # the plate's picture (PNG): the package thumbnail, and Bambu's plate picture

    def problems(self) -> list[str]:
        out = [] if self.slicer in SLICERS else [f"slicer: {self.slicer!r} is not one of {', '.join(SLICERS)}"]
        for item in self.items:
            for part in item.parts:
                if not 1 <= part.filament <= len(self.filaments):
                    out.append(f"{item.name}/{part.name}: filament {part.filament} is not one of the "
                               f"{len(self.filaments)} filaments")
        if not self.layer > 0:
            out.append(f"layer: {self.layer:g} mm is not a layer height")
        for change in self.colour_changes:
            if not 1 <= change.filament <= len(self.filaments):
                out.append(f"colour change at {change.z:g} mm: no filament {change.filament}")
        return out


def _num(value: float) -> str:
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


#: Each mesh's XML, kept while the mesh lives: a kit writes every plate's meshes again into
#: its all-plates project.
_WRITTEN: weakref.WeakKeyDictionary[Mesh, str] = weakref.WeakKeyDictionary()


def _mesh_xml(mesh: Mesh) -> str:
    text = _WRITTEN.get(mesh)
    if text is None:
        text = _WRITTEN[mesh] = _mesh_text(mesh)
    return text


def _mesh_text(mesh: Mesh) -> str:
    # each distinct coordinate written once (a mesh repeats few values many times)
    values, where = np.unique(mesh.vertices, return_inverse=True)
    text = [_num(v) for v in values.tolist()]
    vertices = "".join(f'<vertex x="{text[x]}" y="{text[y]}" z="{text[z]}"/>'
                       for x, y, z in where.reshape(-1, 3).tolist())
    triangles = "".join(f'<triangle v1="{a}" v2="{b}" v3="{c}"/>' for a, b, c in mesh.triangles.tolist())
    return f"<mesh><vertices>{vertices}</vertices><triangles>{triangles}</triangles></mesh>"


def _header(project: Project) -> list[str]:
    prusa = project.slicer == "prusa"
    application = project.writer if prusa else BAMBU_APPLICATION
    space = f' xmlns:slic3rpe="{SLIC3RPE}"' if prusa else f' xmlns:BambuStudio="{BAMBU_NAMESPACE}"'
    what = ("a PrusaSlicer project (3MF version 1 with Metadata/Slic3r_PE.config)" if prusa else
            f"a Bambu Studio {BAMBU_VERSION} project for Bambu Studio 2 and OrcaSlicer")
    out = [f'<?xml version="1.0" encoding="UTF-8"?>\n<model unit="millimeter" xml:lang="en-US" xmlns="{CORE}"{space}>',
           f'<metadata name="Title">{_text(project.title)}</metadata>',
           f'<metadata name="Application">{application}</metadata>',
           f'<metadata name="Description">{_text(f"Written by {project.writer} as {what}")}</metadata>']
    if prusa:
        out.append('<metadata name="slic3rpe:Version3mf">1</metadata>')
    else:
        out.append('<metadata name="BambuStudio:3mfVersion">1</metadata>')
    out += ["<resources>", '<basematerials id="1">']
    out += [f'<base name={quoteattr(f.name)} displaycolor="{f.colour.upper()}FF"/>' for f in project.filaments]
    out.append("</basematerials>")
    return out


def _build(placed: Sequence[tuple[int, Item]]) -> list[str]:
    out = ["</resources>", "<build>"]
    for obj, item in placed:
        out.append(f'<item objectid="{obj}" transform="1 0 0 0 1 0 0 0 1 {_num(item.x)} {_num(item.y)} '
                   f'{_num(item.z)}"/>')
    out += ["</build>", "</model>"]
    return out


def model_xml(project: Project) -> tuple[str, list[tuple[int, Item, list[int]]]]:
    """The core model, and (parent id, item, part ids) for the slicer settings."""
    out = _header(project)
    next_id = 2
    layout = []
    for item in project.items:
        part_ids = []
        for part in item.parts:
            out.append(f'<object id="{next_id}" type="model" name={quoteattr(f"{item.name} {part.name}")} pid="1" '
                       f'pindex="{part.filament - 1}">{_mesh_xml(part.mesh)}</object>')
            part_ids.append(next_id)
            next_id += 1
        components = "".join(f'<component objectid="{i}"/>' for i in part_ids)
        out.append(f'<object id="{next_id}" type="model" name={quoteattr(item.name)}><components>{components}'
                   f"</components></object>")
        layout.append((next_id, item, part_ids))
        next_id += 1
    out += _build([(parent, item) for parent, item, _ in layout])
    return "\n".join(out) + "\n", layout


def prusa_model_xml(project: Project) -> tuple[str, list[tuple[int, Item, list[tuple[int, int]]]]]:
    """The core model for PrusaSlicer (one merged mesh per item), and (object id, item,
    each part's first and last triangle) for ``Slic3r_PE_model.config``."""
    out = _header(project)
    layout = []
    for number, item in enumerate(project.items, start=2):
        ranges = []
        first = 0
        for part in item.parts:
            ranges.append((first, first + len(part.mesh.triangles) - 1))
            first += len(part.mesh.triangles)
        merged = merge([part.mesh for part in item.parts])
        out.append(f'<object id="{number}" type="model" name={quoteattr(item.name)} pid="1" '
                   f'pindex="{item.parts[0].filament - 1}">{_mesh_xml(merged)}</object>')
        layout.append((number, item, ranges))
    out += _build([(number, item) for number, item, _ in layout])
    return "\n".join(out) + "\n", layout


def prusa_model_config(layout: Sequence[tuple[int, Item, list[tuple[int, int]]]]) -> str:
    """``Metadata/Slic3r_PE_model.config``: each item's volumes (triangle ranges) and their
    extruders, for PrusaSlicer."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<config>"]
    for number, item, ranges in layout:
        out.append(f'  <object id="{number}" instances_count="1">')
        out.append(f'    <metadata type="object" key="name" value={quoteattr(item.name)}/>')
        out.append(f'    <metadata type="object" key="extruder" value="{item.parts[0].filament}"/>')
        for (first, last), part in zip(ranges, item.parts):
            out.append(f'    <volume firstid="{first}" lastid="{last}">')
            out.append(f'      <metadata type="volume" key="name" value={quoteattr(part.name)}/>')
            out.append('      <metadata type="volume" key="volume_type" value="ModelPart"/>')
            out.append(f'      <metadata type="volume" key="extruder" value="{part.filament}"/>')
            out.append("    </volume>")
        out.append("  </object>")
    out.append("</config>")
    return "\n".join(out) + "\n"


def _text(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def model_settings(layout: Sequence[tuple[int, Item, list[int]]],
                   plates: Sequence[Sequence[int]] | None = None, thumbnails: bool = False,
                   names: Sequence[str] = ()) -> str:
    """``Metadata/model_settings.config``: each part's filament, for Bambu Studio and Orca,
    and the plates: ``plates`` lists each plate's items (indices into ``layout``; one plate
    of every item by default), each a ``<plate>`` with its number (``plater_id``, from 1),
    its name (``names``: what is on it, which Bambu Studio shows on the plate; else
    ``plate N``), its objects' instances and, with ``thumbnails``, its picture
    ``Metadata/plate_N.png`` (bbs_3mf.cpp reads ``plater_id``, ``plater_name``,
    ``model_instance`` and ``thumbnail_file``)."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<config>"]
    for parent, item, part_ids in layout:
        out.append(f'  <object id="{parent}">')
        out.append(f'    <metadata key="name" value={quoteattr(item.name)}/>')
        out.append(f'    <metadata key="extruder" value="{item.parts[0].filament}"/>')
        for pid, part in zip(part_ids, item.parts):
            out.append(f'    <part id="{pid}" subtype="normal_part">')
            out.append(f'      <metadata key="name" value={quoteattr(part.name)}/>')
            out.append(f'      <metadata key="extruder" value="{part.filament}"/>')
            out.append("    </part>")
        out.append("  </object>")
    for number, members in enumerate(plates if plates is not None else [range(len(layout))], start=1):
        out.append("  <plate>")
        out.append(f'    <metadata key="plater_id" value="{number}"/>')
        if plates is not None:
            title = names[number - 1] if number <= len(names) else f"plate {number}"
            out.append(f'    <metadata key="plater_name" value={quoteattr(title)}/>')
            out.append('    <metadata key="locked" value="false"/>')
        if thumbnails:
            out.append(f'    <metadata key="thumbnail_file" value="{thumbnail_name(number)}"/>')
        for i in members:
            out.append("    <model_instance>")
            out.append(f'      <metadata key="object_id" value="{layout[i][0]}"/>')
            out.append('      <metadata key="instance_id" value="0"/>')
            out.append(f'      <metadata key="identify_id" value="{1000 + i}"/>')
            out.append("    </model_instance>")
        out.append("  </plate>")
    out.append("</config>")
    return "\n".join(out) + "\n"


def thumbnail_name(plate: int) -> str:
    """Where a Bambu project keeps plate ``plate``'s picture (bbs_3mf.hpp's
    ``THUMBNAIL_FILE_FORMAT``)."""
    return f"Metadata/plate_{plate}.png"


def bambu_colour_changes(project: Project, plates: Sequence[Project] = ()) -> str:
    """``Metadata/custom_gcode_per_layer.xml``: a colour change (type 0) before the first layer
    above each change's height, in a ``<plate>`` per plate (``plates``: the plates of a
    multi-plate project, each with its own changes; the project alone by default)."""
    out = ['<?xml version="1.0" encoding="utf-8"?>', "<custom_gcodes_per_layer>"]
    for number, plate in enumerate(plates or [project], start=1):
        if not plate.colour_changes:
            continue
        out += ["<plate>", f'<plate_info id="{number}"/>']
        for c in sorted(plate.colour_changes, key=lambda c: c.z):
            colour = plate.filaments[c.filament - 1].colour.upper()
            top = _num(c.z + plate.layer)
            out.append(f'<layer top_z="{top}" type="0" extruder="1" color="{colour}" extra="" gcode="M600"/>')
        out += ['<mode value="SingleExtruder"/>', "</plate>"]
    out.append("</custom_gcodes_per_layer>")
    return "\n".join(out) + "\n"


def prusa_colour_changes(project: Project) -> str:
    """``Metadata/Prusa_Slicer_custom_gcode_per_print_z.xml``: the same for PrusaSlicer."""
    out = ['<?xml version="1.0" encoding="utf-8"?>', "<custom_gcodes_per_print_z>"]
    for c in sorted(project.colour_changes, key=lambda c: c.z):
        colour = project.filaments[c.filament - 1].colour.upper()
        top = _num(c.z + project.layer)
        out.append(f'<code print_z="{top}" type="0" extruder="1" color="{colour}" extra="" gcode="M600"/>')
    out += ['<mode value="SingleExtruder"/>', "</custom_gcodes_per_print_z>"]
    return "\n".join(out) + "\n"


def _points(corners: Sequence[tuple[float, float]]) -> list[str]:
    return [f"{_num(x)}x{_num(y)}" for x, y in corners]


def bambu_project_settings(project: Project) -> str:
    """``Metadata/project_settings.config``: the project config Bambu Studio and OrcaSlicer
    load with a Bambu project. With the printer's system presets at hand (``Machine.bambu``)
    it is the whole config, as the slicers save one: the machine, process and filament
    presets' settings (the filament's once per filament), then the plate's own (each
    filament's colour, type and diameter; the nozzle, layer height, bed and excluded zone).
    For a Bambu Lab printer it names its model and the system presets, and
    ``different_settings_to_system`` lists, per preset, the keys the project changes, so
    that the slicer takes every other key from its own presets."""
    import json

    m = project.machine
    count = len(project.filaments)
    bed = ((0.0, 0.0), (m.width, 0.0), (m.width, m.depth), (0.0, m.depth))
    system = {k: json.loads(v) for k, v in m.bambu}
    per_filament = {k: json.loads(v) for k, v in m.bambu_filament_settings}
    own_print: dict[str, object] = {"layer_height": _num(project.layer),
                                    "initial_layer_print_height": _num(project.layer)}
    own_printer: dict[str, object] = {"nozzle_diameter": [_num(m.nozzle)], "printable_area": _points(bed),
                                      "printable_height": _num(m.height),
                                      "bed_exclude_area": [p for zone in m.excluded for p in _points(zone)]}
    own_filaments = [{"filament_colour": f.colour.upper(), "filament_type": "PLA", "filament_diameter": "1.75"}
                     for f in project.filaments]
    one_filament = {k: _first(v) for k, v in per_filament.items()}
    data: dict[str, object] = dict(system)
    for key, value in one_filament.items():
        data[key] = [value] * count
    data.update(own_print)
    data.update(own_printer)
    for key in ("filament_colour", "filament_type", "filament_diameter"):
        data[key] = [own[key] for own in own_filaments]
    data.update({"version": BAMBU_VERSION, "name": "project_settings", "from": "project"})
    if m.bambu_model:
        data.update({
            "printer_model": m.bambu_model,
            "printer_settings_id": m.bambu_printer,
            "print_settings_id": m.bambu_process,
            "filament_settings_id": [m.bambu_filament] * count,
            "inherits_group": [""] * (count + 2),
            "different_settings_to_system": ([_changed(own_print, system)]
                                             + [_changed(own, one_filament) for own in own_filaments]
                                             + [_changed(own_printer, system)]),
        })
    return json.dumps(data, indent=4, sort_keys=True) + "\n"


def _changed(own: Mapping[str, object], system: Mapping[str, object]) -> str:
    """The keys a project sets otherwise than the system preset does (all of them when the
    preset is not at hand: a key listed needlessly costs nothing, one missed is reset)."""
    return ";".join(sorted(k for k, v in own.items() if system.get(k) != v))


def _first(value: object) -> object:
    """A filament preset's value for its one filament (its settings are lists of one)."""
    return value[0] if isinstance(value, list) and value else value


def extruders(project: Project) -> int:
    """The extruders a project's slicer needs: one for a plate whose every part prints from
    the first filament (a NO-AMS plate, whose later colours come by colour change, ``M600``),
    else one a filament."""
    if all(p.filament == 1 for item in project.items for p in item.parts):
        return 1
    return len(project.filaments)


def prusa_project_config(project: Project) -> str:
    """``Metadata/Slic3r_PE.config``: the project config that makes PrusaSlicer load the file
    as a project (and so keep its colour changes): the printer's settings (``Machine.prusa``:
    its printer, print and PLA presets from PrusaSlicer's vendor bundle where one is
    installed, else PLA's temperatures and for a Prusa printer its G-code flavour and start
    and end G-code), then the plate's own: the bed it is laid out on, the nozzles (one
    extruder for a plate of colour changes), each extruder's colour and the layer height,
    as ``; key = value`` lines, sorted by key."""
    m = project.machine
    count = extruders(project)
    colours = ";".join(f'"{f.colour.upper()}"' for f in project.filaments[:count])
    settings = {
        "printer_technology": "FFF", **dict(m.prusa),
        # the plate's own: the bed it is laid out on, its filaments' colours, one nozzle
        # each, its layer height
        "bed_shape": ",".join(_points(((0, 0), (m.width, 0), (m.width, m.depth), (0, m.depth)))),
        "max_print_height": _num(m.height), "extruder_colour": colours, "filament_colour": colours,
        "first_layer_height": _num(project.layer), "layer_height": _num(project.layer),
        "nozzle_diameter": ",".join([_num(m.nozzle)] * count),
        "single_extruder_multi_material": "1" if count > 1 else "0"}
    lines = [f"; generated by {project.writer}", ""] + [f"; {key} = {settings[key]}" for key in sorted(settings)]
    return "\n".join(lines) + "\n"


CONTENT_TYPES = """<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/>
<Default Extension="config" ContentType="text/xml"/>
<Default Extension="xml" ContentType="text/xml"/>
<Default Extension="png" ContentType="image/png"/>
</Types>
"""

RELS = f"""<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Target="/{MODEL_PATH}" Id="rel0" Type="{MODEL_TYPE}"/>
</Relationships>
"""

#: The package thumbnail (3MF core spec, 2.1: OPC's thumbnail relationship), which file
#: managers and slicers show for a file; PrusaSlicer writes and reads the same name.
THUMBNAIL = "Metadata/thumbnail.png"
THUMBNAIL_TYPE = "http://schemas.openxmlformats.org/package/2006/relationships/metadata/thumbnail"
RELS_WITH_THUMBNAIL = RELS.replace("</Relationships>", f'<Relationship Target="/{THUMBNAIL}" Id="rel1" '
                                                       f'Type="{THUMBNAIL_TYPE}"/>\n</Relationships>')


def write(project: Project) -> bytes:
    """The 3MF file's bytes.

    Raises:
        ValueError: a part or colour change names a filament the project does not have.
    """
    problems = project.problems()
    if problems:
        raise ValueError("; ".join(problems))
    rels = RELS_WITH_THUMBNAIL if project.thumbnail else RELS
    files: list[tuple[str, str | bytes]]
    if project.slicer == "prusa":
        model, ranges = prusa_model_xml(project)
        files = [("[Content_Types].xml", CONTENT_TYPES), ("_rels/.rels", rels), (MODEL_PATH, model),
                 ("Metadata/Slic3r_PE.config", prusa_project_config(project)),
                 ("Metadata/Slic3r_PE_model.config", prusa_model_config(ranges))]
    else:
        model, layout = model_xml(project)
        files = [("[Content_Types].xml", CONTENT_TYPES), ("_rels/.rels", rels), (MODEL_PATH, model),
                 ("Metadata/model_settings.config", model_settings(layout, thumbnails=bool(project.thumbnail))),
                 ("Metadata/project_settings.config", bambu_project_settings(project))]
    if project.colour_changes:
        files.append(("Metadata/custom_gcode_per_layer.xml", bambu_colour_changes(project)))
        files.append((PRUSA_CHANGES, prusa_colour_changes(project)))
    if project.thumbnail:
        files.append((THUMBNAIL, project.thumbnail))
        if project.slicer == "bambu":
            files.append((thumbnail_name(1), project.thumbnail))
    return _zip(files)


def _zip(files: Sequence[tuple[str, str | bytes]]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        for name, content in files:
            info = zipfile.ZipInfo(name, DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, content.encode("utf-8") if isinstance(content, str) else content)
    return buf.getvalue()


#: Bambu Studio lays a project's plates out in a grid, each a bed plus a fifth apart
#: (PartPlate.cpp's ``LOGICAL_PART_PLATE_GAP``), in ``ceil(sqrt(plates))`` columns, the
#: rows going towards -Y (``PartPlateList::compute_shape_position``).
PLATE_GAP = 1 / 5


def plate_origin(index: int, count: int, width: float, depth: float) -> tuple[float, float]:
    """Where Bambu Studio puts the bed of plate ``index`` (from 0) of ``count``."""
    import math

    columns = math.ceil(math.sqrt(count) - 1e-9)
    row, column = divmod(index, columns)
    return column * width * (1 + PLATE_GAP), -row * depth * (1 + PLATE_GAP)


def write_plates(title: str, plates: Sequence[Project], thumbnails: Sequence[bytes] = ()) -> bytes:
    """One Bambu Studio project holding every plate of ``plates`` (Bambu layout, each laid
    out on its own bed): each plate's objects moved onto that plate's bed in the project's
    grid (``plate_origin``), one filament list for the project (every plate's filaments,
    each once, in order of first use: a plate still uses only its own, which the slicer maps
    to AMS slots when it prints), each plate's colour changes under its number, and its
    picture ``thumbnails[i]`` (PNG) as ``Metadata/plate_N.png``.

    Raises:
        ValueError: no plates, a plate for another slicer, or a plate's own problems.
    """
    if not plates:
        raise ValueError("no plates")
    for plate in plates:
        if plate.slicer != "bambu":
            raise ValueError("a multi-plate project is Bambu Studio's: every plate must be in the bambu layout")
        if plate.problems():
            raise ValueError("; ".join(plate.problems()))
    if thumbnails and len(thumbnails) != len(plates):
        raise ValueError(f"{len(thumbnails)} thumbnails for {len(plates)} plates")
    filaments: list[Filament] = []
    for plate in plates:
        filaments += [f for f in plate.filaments if f not in filaments]
    first = plates[0]
    items: list[Item] = []
    members: list[list[int]] = []
    moved: list[Project] = []
    for index, plate in enumerate(plates):
        dx, dy = plate_origin(index, len(plates), first.machine.width, first.machine.depth)
        number = {i + 1: filaments.index(f) + 1 for i, f in enumerate(plate.filaments)}
        mine = []
        for item in plate.items:
            parts = tuple(Part(p.name, p.mesh, number[p.filament]) for p in item.parts)
            mine.append(len(items))
            items.append(Item(item.name, parts, item.x + dx, item.y + dy, item.z))
        members.append(mine)
        moved.append(Project(plate.title, (), tuple(filaments),
                             tuple(ColourChange(c.z, number[c.filament]) for c in plate.colour_changes),
                             layer=plate.layer, machine=plate.machine, writer=plate.writer))
    whole = Project(title, tuple(items), tuple(filaments), slicer="bambu", layer=first.layer, machine=first.machine,
                    writer=first.writer)
    model, layout = model_xml(whole)
    files: list[tuple[str, str | bytes]] = [
        ("[Content_Types].xml", CONTENT_TYPES), ("_rels/.rels", RELS), (MODEL_PATH, model),
        ("Metadata/model_settings.config", model_settings(layout, members, thumbnails=bool(thumbnails),
                                                          names=[_plate_name(p.title) for p in plates])),
        ("Metadata/project_settings.config", bambu_project_settings(whole))]
    if any(p.colour_changes for p in moved):
        files.append(("Metadata/custom_gcode_per_layer.xml", bambu_colour_changes(whole, moved)))
    files += [(thumbnail_name(n), png) for n, png in enumerate(thumbnails, start=1)]
    return _zip(files)


def _plate_name(title: str) -> str:
    """A plate's name in a project of plates: its title without the project's own prefix
    (``Game: plate 3, 12 pieces, red`` -> ``plate 3, 12 pieces, red``)."""
    return title.partition(": ")[2] or title


def colour_changes(data: bytes) -> tuple[tuple[float, str], ...]:
    """A plate file's colour changes as (the top of the first layer printed after it, in mm;
    the colour then loaded, ``#RRGGBB``), read back from its PrusaSlicer list, which both
    layouts write (an empty tuple for a file without one)."""
    from xml.etree import ElementTree

    with zipfile.ZipFile(io.BytesIO(data)) as z:
        if PRUSA_CHANGES not in z.namelist():
            return ()
        root = ElementTree.fromstring(z.read(PRUSA_CHANGES))
    return tuple(sorted((float(c.get("print_z", "nan")), c.get("color", "")) for c in root.iter("code")
                        if c.get("type") == "0"))
