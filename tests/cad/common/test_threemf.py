"""The 3MF writer: lib3mf reads every file in strict mode, and the slicer metadata says what
each part is printed in."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
import zipfile
from dataclasses import replace

import lib3mf
import pytest

from cad.common import threemf
from cad.common.meshes import box

WRAPPER = lib3mf.get_wrapper()


def read_strict(data: bytes) -> lib3mf.Model:
    model = WRAPPER.CreateModel()
    reader = model.QueryReader("3mf")
    reader.SetStrictModeActive(True)
    reader.ReadFromBuffer(bytearray(data))
    return model


def project(changes: tuple[threemf.ColourChange, ...] = ()) -> threemf.Project:
    card = threemf.Item("card 1", (threemf.Part("plate", box(40, 60, 4), 1),
                                   threemf.Part("inlay A", box(5, 5, 0.6).translated(5, 5, 3.4), 2)), x=10, y=20)
    block = threemf.Item("block L4 & <1>", (threemf.Part("block", box(15, 30, 6), 2),), x=60, y=20)
    filaments = (threemf.Filament("PLA white", "#F2F2F2"), threemf.Filament("PLA orange", "#E69F00"))
    return threemf.Project("test plate", (card, block), filaments, changes)


def members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {n: z.read(n) for n in z.namelist()}


def test_lib3mf_reads_the_file_in_strict_mode_with_its_objects_materials_and_build() -> None:
    data = threemf.write(project())
    model = read_strict(data)
    meshes = model.GetMeshObjects()
    count = 0
    volumes = []
    while meshes.MoveNext():
        mesh = meshes.GetCurrentMeshObject()
        count += 1
        volumes.append((mesh.GetName(), mesh.GetVertexCount(), mesh.GetTriangleCount()))
    assert count == 3 and all(v == 8 and t == 12 for _, v, t in volumes)
    groups = model.GetBaseMaterialGroups()
    assert groups.MoveNext()
    group = groups.GetCurrentBaseMaterialGroup()
    assert group.GetCount() == 2
    items = model.GetBuildItems()
    placed = 0
    while items.MoveNext():
        placed += 1
    assert placed == 2


def test_every_part_names_its_filament_for_bambu_and_orca() -> None:
    files = members(threemf.write(project()))
    config = ET.fromstring(files["Metadata/model_settings.config"])
    parts = {p.find("metadata[@key='name']").get("value"): p.find("metadata[@key='extruder']").get("value")
             for p in config.iter("part")}
    assert parts == {"plate": "1", "inlay A": "2", "block": "2"}
    assert all(p.get("subtype") == "normal_part" for p in config.iter("part"))
    model = files["3D/3dmodel.model"].decode()
    assert "BambuStudio-" in model and 'displaycolor="#E69F00FF"' in model and "block L4 &amp; &lt;1&gt;" in model
    assert "Metadata/custom_gcode_per_layer.xml" not in files


def test_a_colour_change_is_stored_for_bambu_orca_and_prusa() -> None:
    data = threemf.write(project((threemf.ColourChange(3.4, 2),)))
    read_strict(data)
    files = members(data)
    bambu = ET.fromstring(files["Metadata/custom_gcode_per_layer.xml"])
    layer = bambu.find("plate/layer")
    # both slicers change before the layer the file names: the first layer above 3.4 mm
    assert (layer.get("top_z"), layer.get("type"), layer.get("color")) == ("3.6", "0", "#E69F00")
    assert bambu.find("plate/mode").get("value") == "SingleExtruder"
    prusa = ET.fromstring(files["Metadata/Prusa_Slicer_custom_gcode_per_print_z.xml"])
    code = prusa.find("code")
    assert (code.get("print_z"), code.get("type"), code.get("gcode")) == ("3.6", "0", "M600")
    fine = members(threemf.write(replace(project((threemf.ColourChange(3.4, 2),)), layer=0.1)))
    assert 'print_z="3.5"' in fine["Metadata/Prusa_Slicer_custom_gcode_per_print_z.xml"].decode()


def test_the_same_project_gives_the_same_bytes_and_a_bad_filament_is_refused() -> None:
    assert threemf.write(project()) == threemf.write(project())
    bad = threemf.Project("x", (threemf.Item("i", (threemf.Part("p", box(1, 1, 1), 3),)),),
                          (threemf.Filament("a", "#000000"),))
    with pytest.raises(ValueError, match="filament 3"):
        threemf.write(bad)


def test_the_prusaslicer_flavour_keeps_one_mesh_per_item_with_each_parts_triangles_and_extruder() -> None:
    base = project((threemf.ColourChange(3.4, 2),))
    prusa = threemf.Project(base.title, base.items, base.filaments, base.colour_changes, slicer="prusa")
    data = threemf.write(prusa)
    model = read_strict(data)
    meshes = model.GetMeshObjects()
    triangles = {}
    while meshes.MoveNext():
        mesh = meshes.GetCurrentMeshObject()
        triangles[mesh.GetName()] = mesh.GetTriangleCount()
    assert triangles == {"card 1": 24, "block L4 & <1>": 12}
    files = members(data)
    assert "Metadata/model_settings.config" not in files
    assert "BambuStudio-" not in files["3D/3dmodel.model"].decode()
    config = ET.fromstring(files["Metadata/Slic3r_PE_model.config"])
    volumes = {(o.find("metadata[@key='name']").get("value"), v.find("metadata[@key='name']").get("value")):
               (int(v.get("firstid")), int(v.get("lastid")), v.find("metadata[@key='extruder']").get("value"))
               for o in config.iter("object") for v in o.iter("volume")}
    assert volumes == {("card 1", "plate"): (0, 11, "1"), ("card 1", "inlay A"): (12, 23, "2"),
                       ("block L4 & <1>", "block"): (0, 11, "2")}
    assert "Metadata/Prusa_Slicer_custom_gcode_per_print_z.xml" in files
    with pytest.raises(ValueError, match="slicer"):
        threemf.write(threemf.Project("x", base.items, base.filaments, slicer="cura"))


X1 = threemf.Machine(256, 256, 256, (((0, 0), (18, 0), (18, 28), (0, 28)),), 0.4, "Bambu Lab X1 Carbon",
                     "Bambu Lab X1 Carbon 0.4 nozzle", "0.20mm Standard @BBL X1C", "Bambu PLA Basic @BBL X1C")


def _model_root(files: dict[str, bytes]) -> ET.Element:
    return ET.fromstring(files["3D/3dmodel.model"])


def _metadata(root: ET.Element) -> dict[str, str]:
    return {m.get("name", ""): m.text or "" for m in root.iter(f"{{{threemf.CORE}}}metadata")}


def _display_colours(root: ET.Element) -> list[str]:
    return [b.get("displaycolor", "")[:7] for b in root.iter(f"{{{threemf.CORE}}}base")]


def test_the_bambu_layout_is_a_bambu_studio_2_project_with_its_colours_and_changes() -> None:
    """Mirrors BambuStudio ``src/libslic3r/Format/bbs_3mf.cpp``: ``_handle_end_metadata`` sets
    ``m_is_bbl_3mf`` only when the ``Application`` metadata starts with ``BambuStudio-`` and
    parses the rest as the file's version; ``load_model_from_file`` sets ``dont_load_config``
    when that version's major number is not the app's (Bambu Studio 2: ``02``), and reads
    ``Metadata/custom_gcode_per_layer.xml`` (the colour changes) only when the config loads.
    OrcaSlicer's copy accepts the same prefix and skips the version check. Bambu Studio's
    ``Plater.cpp`` (``load_files``) then keeps the project config only if it passes
    ``is_bbl_vendor_config`` (``printer_model`` a Bambu Lab model) or
    ``check_project_config`` (``nozzle_diameter`` given), else it says "load geometry data
    only"; ``PresetCollection::load_external_preset`` resets every key not listed in
    ``different_settings_to_system`` to the named system preset's (one entry for the
    process, one per filament, one for the printer). The project's ``filament_colour`` is
    what the filament list shows."""
    import json

    proj = replace(project((threemf.ColourChange(3.4, 2),)), machine=X1)
    files = members(threemf.write(proj))
    root = _model_root(files)
    meta = _metadata(root)
    assert meta["Application"] == threemf.BAMBU_APPLICATION and meta["Application"].startswith("BambuStudio-")
    version = meta["Application"].removeprefix("BambuStudio-")
    assert version.split(".")[0] == "02" and meta["BambuStudio:3mfVersion"] == "1"
    assert "Templeforge" in meta["Description"], "the file says who wrote it"
    settings = json.loads(files["Metadata/project_settings.config"])
    assert settings["version"] == version, "the version the model claims is the project config's"
    assert settings["filament_colour"] == _display_colours(root) == ["#F2F2F2", "#E69F00"]
    assert settings["nozzle_diameter"] == ["0.4"] and settings["printer_model"] == "Bambu Lab X1 Carbon"
    count = len(proj.filaments)
    assert len(settings["filament_settings_id"]) == len(settings["filament_type"]) == count
    assert len(settings["different_settings_to_system"]) == len(settings["inherits_group"]) == count + 2
    assert settings["bed_exclude_area"] == ["0x0", "18x0", "18x28", "0x28"]
    assert b'top_z="3.6"' in files["Metadata/custom_gcode_per_layer.xml"]


def test_the_bambu_layout_for_another_printer_still_passes_the_config_check() -> None:
    """``check_project_config`` (Bambu Studio ``Plater.cpp``) accepts a project config that
    gives ``nozzle_diameter``; a printer that is not Bambu Lab's names no Bambu preset."""
    import json

    ender = threemf.Machine(220, 220, 250)
    settings = json.loads(members(threemf.write(replace(project(), machine=ender)))["Metadata/project_settings.config"])
    assert settings["nozzle_diameter"] == ["0.4"] and settings["printable_area"] == ["0x0", "220x0", "220x220", "0x220"]
    assert "printer_model" not in settings and "printer_settings_id" not in settings


def test_the_prusa_layout_is_a_prusaslicer_project_with_its_colours_and_changes() -> None:
    """Mirrors PrusaSlicer: ``src/libslic3r/Format/3mf.cpp`` reads the project config from
    ``Metadata/Slic3r_PE.config`` (``; key = value`` lines) and the colour changes from
    ``Metadata/Prusa_Slicer_custom_gcode_per_print_z.xml``; ``Plater.cpp`` (``load_files``,
    2.8 and later) copies the colour changes to the plater only when that config is loaded,
    i.e. when the file opens as a project, and colours the extruders from
    ``extruder_colour``. The file claims to be a PrusaSlicer 3MF of version 1
    (``slic3rpe:Version3mf``), the version whose volumes ``Slic3r_PE_model.config`` holds,
    and names its real writer as its Application."""
    proj = replace(project((threemf.ColourChange(3.4, 2),)), slicer="prusa",
                   machine=threemf.Machine(250, 210, 220))
    files = members(threemf.write(proj))
    root = _model_root(files)
    meta = _metadata(root)
    assert meta["Application"].startswith("Templeforge") and meta["slic3rpe:Version3mf"] == "1"
    config = dict(line[2:].split(" = ", 1) for line in files["Metadata/Slic3r_PE.config"].decode().splitlines()
                  if line.startswith("; ") and " = " in line)
    colours = [c.strip('"') for c in config["extruder_colour"].split(";")]
    assert colours == _display_colours(root) == ["#F2F2F2", "#E69F00"]
    assert config["filament_colour"] == config["extruder_colour"]
    assert config["nozzle_diameter"] == "0.4,0.4" and config["bed_shape"] == "0x0,250x0,250x210,0x210"
    assert b'print_z="3.6"' in files["Metadata/Prusa_Slicer_custom_gcode_per_print_z.xml"]
    assert "Metadata/project_settings.config" not in files


def test_one_bambu_project_holds_every_plate_each_on_its_bed_with_its_picture_and_changes() -> None:
    """A multi-plate Bambu Studio project, as BambuStudio's bbs_3mf.cpp reads one: each
    ``<plate>`` of ``Metadata/model_settings.config`` (``plater_id``, its objects'
    ``model_instance``s, ``thumbnail_file`` pointing at ``Metadata/plate_N.png``) claims its
    objects, and each object's build transform must already put it on that plate's bed in
    the plate grid of PartPlate.cpp (``compute_shape_position``: ``ceil(sqrt(n))`` columns,
    a bed and a fifth apart, rows towards -Y); ``custom_gcode_per_layer.xml`` keeps each
    plate's colour changes under ``<plate_info id="N"/>``; the project's filament list
    (``project_settings.config``'s ``filament_colour``) holds every plate's filaments once."""
    machine = threemf.Machine(200, 150, 200)
    other = (threemf.Filament("PLA black", "#1A1A1A"), threemf.Filament("PLA white", "#F2F2F2"))
    plates = [replace(project(), machine=machine) for _ in range(4)]
    plates.append(replace(project((threemf.ColourChange(3.4, 2),)), filaments=other, machine=machine))
    data = threemf.write_plates("kit", plates, [b"\x89PNG one"] * 5)
    read_strict(data)
    got = members(data)
    assert got["Metadata/plate_5.png"] == b"\x89PNG one"
    root = ET.fromstring(got["Metadata/model_settings.config"])
    found = root.findall("plate")
    assert [p.find("metadata[@key='plater_id']").get("value") for p in found] == ["1", "2", "3", "4", "5"]
    assert [p.find("metadata[@key='thumbnail_file']").get("value") for p in found][-1] == "Metadata/plate_5.png"
    model = ET.fromstring(got[threemf.MODEL_PATH])
    ns = {"m": threemf.CORE}
    moved = {item.get("objectid"): [float(v) for v in item.get("transform").split()[9:11]]
             for item in model.find("m:build", ns)}
    # five plates: three columns; plate 5 (index 4) is row 1, column 1
    assert threemf.plate_origin(4, 5, 200, 150) == pytest.approx((240.0, -180.0))
    for index, plate in enumerate(found):
        dx, dy = threemf.plate_origin(index, 5, 200, 150)
        ids = [i.find("metadata[@key='object_id']").get("value") for i in plate.findall("model_instance")]
        assert len(ids) == 2
        assert [v for i in sorted(ids, key=lambda i: moved[i]) for v in moved[i]] == \
            pytest.approx([10 + dx, 20 + dy, 60 + dx, 20 + dy])
    changes = ET.fromstring(got["Metadata/custom_gcode_per_layer.xml"])
    (plate,) = changes.findall("plate")
    assert plate.find("plate_info").get("id") == "5"
    assert [(c.get("top_z"), c.get("color")) for c in plate.findall("layer")] == [("3.6", "#F2F2F2")]
    import json
    colours = json.loads(got["Metadata/project_settings.config"])["filament_colour"]
    assert colours == ["#F2F2F2", "#E69F00", "#1A1A1A"]
    # the last plate's parts use the project's numbers for its own filaments
    extruders = {m.get("value") for o in root.findall("object") for m in o.iter("metadata")
                 if m.get("key") == "extruder"}
    assert extruders == {"1", "2", "3"}
    with pytest.raises(ValueError, match="bambu layout"):
        threemf.write_plates("kit", [replace(project(), slicer="prusa")])


@pytest.mark.parametrize("slicer", ["bambu", "prusa"])
def test_a_plate_file_carries_its_picture_as_the_package_thumbnail(slicer: str) -> None:
    """Every plate file has a thumbnail: the 3MF package thumbnail (OPC's relationship, which
    lib3mf reads and file managers show) and, in the Bambu layout, the plate's own picture."""
    import dataclasses

    from PIL import Image

    picture = io.BytesIO()
    Image.new("RGB", (8, 8), "#E69F00").save(picture, "PNG")
    data = threemf.write(dataclasses.replace(project(), slicer=slicer, thumbnail=picture.getvalue()))
    files = members(data)
    assert files[threemf.THUMBNAIL] == picture.getvalue()
    assert threemf.THUMBNAIL_TYPE in files["_rels/.rels"].decode()
    model = read_strict(data)
    assert model.HasPackageThumbnailAttachment()
    if slicer == "bambu":
        assert files["Metadata/plate_1.png"] == picture.getvalue()
        assert 'key="thumbnail_file" value="Metadata/plate_1.png"' in files["Metadata/model_settings.config"].decode()
    assert threemf.THUMBNAIL not in members(threemf.write(dataclasses.replace(project(), slicer=slicer)))
