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

Bambu Studio reads the colour-change file only from a model whose Application metadata
starts with ``BambuStudio-``; ``bambu_application=True`` writes that.

``slicer="prusa"`` writes the same plate the way PrusaSlicer keeps multi-material objects
instead: each item one object whose mesh holds all its parts' triangles, and
``Metadata/Slic3r_PE_model.config`` naming each part's triangle range (a volume) and its
extruder. The same inputs give the same bytes (fixed zip dates, fixed order, numbers
rounded to the micron).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from xml.sax.saxutils import quoteattr

from cad.common.meshes import Mesh, merge

CORE = "http://schemas.microsoft.com/3dmanufacturing/core/2015/02"
MODEL_PATH = "3D/3dmodel.model"
MODEL_TYPE = "http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"
BAMBU_APPLICATION = "BambuStudio-01.10.01.50"
SLIC3RPE = "http://schemas.slic3r.org/3mf/2017/06"
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
    bambu_application: bool = True
    slicer: str = "bambu"
    layer: float = 0.2  # the layer height the plate is meant to be sliced at (mm)

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


def _mesh_xml(mesh: Mesh) -> str:
    vertices = "".join(f'<vertex x="{_num(x)}" y="{_num(y)}" z="{_num(z)}"/>' for x, y, z in mesh.vertices)
    triangles = "".join(f'<triangle v1="{a}" v2="{b}" v3="{c}"/>' for a, b, c in mesh.triangles.tolist())
    return f"<mesh><vertices>{vertices}</vertices><triangles>{triangles}</triangles></mesh>"


def _header(project: Project) -> list[str]:
    prusa = project.slicer == "prusa"
    application = BAMBU_APPLICATION if project.bambu_application and not prusa else "Templeforge"
    space = f' xmlns:slic3rpe="{SLIC3RPE}"' if prusa else ""
    out = [f'<?xml version="1.0" encoding="UTF-8"?>\n<model unit="millimeter" xml:lang="en-US" xmlns="{CORE}"{space}>',
           f'<metadata name="Title">{_text(project.title)}</metadata>',
           f'<metadata name="Application">{application}</metadata>']
    if prusa:
        out.append('<metadata name="slic3rpe:Version3mf">1</metadata>')
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


def model_settings(layout: Sequence[tuple[int, Item, list[int]]]) -> str:
    """``Metadata/model_settings.config``: each part's filament, for Bambu Studio and Orca."""
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
    out.append("  <plate>")
    out.append('    <metadata key="plater_id" value="1"/>')
    for i, (parent, _, _) in enumerate(layout):
        out.append("    <model_instance>")
        out.append(f'      <metadata key="object_id" value="{parent}"/>')
        out.append('      <metadata key="instance_id" value="0"/>')
        out.append(f'      <metadata key="identify_id" value="{1000 + i}"/>')
        out.append("    </model_instance>")
    out.append("  </plate>")
    out.append("</config>")
    return "\n".join(out) + "\n"


def bambu_colour_changes(project: Project) -> str:
    """``Metadata/custom_gcode_per_layer.xml``: a colour change (type 0) before the first layer
    above each change's height."""
    out = ['<?xml version="1.0" encoding="utf-8"?>', "<custom_gcodes_per_layer>", "<plate>", '<plate_info id="1"/>']
    for c in sorted(project.colour_changes, key=lambda c: c.z):
        colour = project.filaments[c.filament - 1].colour.upper()
        top = _num(c.z + project.layer)
        out.append(f'<layer top_z="{top}" type="0" extruder="1" color="{colour}" extra="" gcode="M600"/>')
    out += ['<mode value="SingleExtruder"/>', "</plate>", "</custom_gcodes_per_layer>"]
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


CONTENT_TYPES = """<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/>
<Default Extension="config" ContentType="text/xml"/>
<Default Extension="xml" ContentType="text/xml"/>
</Types>
"""

RELS = f"""<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Target="/{MODEL_PATH}" Id="rel0" Type="{MODEL_TYPE}"/>
</Relationships>
"""


def write(project: Project) -> bytes:
    """The 3MF file's bytes.

    Raises:
        ValueError: a part or colour change names a filament the project does not have.
    """
    problems = project.problems()
    if problems:
        raise ValueError("; ".join(problems))
    if project.slicer == "prusa":
        model, ranges = prusa_model_xml(project)
        files = [("[Content_Types].xml", CONTENT_TYPES), ("_rels/.rels", RELS), (MODEL_PATH, model),
                 ("Metadata/Slic3r_PE_model.config", prusa_model_config(ranges))]
    else:
        model, layout = model_xml(project)
        files = [("[Content_Types].xml", CONTENT_TYPES), ("_rels/.rels", RELS), (MODEL_PATH, model),
                 ("Metadata/model_settings.config", model_settings(layout))]
    if project.colour_changes:
        files.append(("Metadata/custom_gcode_per_layer.xml", bambu_colour_changes(project)))
        files.append(("Metadata/Prusa_Slicer_custom_gcode_per_print_z.xml", prusa_colour_changes(project)))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        for name, text in files:
            info = zipfile.ZipInfo(name, DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, text.encode("utf-8"))
    return buf.getvalue()
