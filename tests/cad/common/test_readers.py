"""Our 3MF files read back as the slicers read them: a good file has no problem, and each
way a slicer would misread, refuse or print off its bed a file is named."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable
from dataclasses import replace

from cad.common import threemf
from cad.common.meshes import box
from cad.common.readers import problems

X1 = threemf.Machine(256, 256, 256, (((0, 0), (18, 0), (18, 28), (0, 28)),), 0.4, "Bambu Lab X1 Carbon",
                     "Bambu Lab X1 Carbon 0.4 nozzle", "0.20mm Standard @BBL X1C", "Bambu PLA Basic @BBL X1C")
MINI = threemf.Machine(180, 180, 180)


def plate(x: float = 40, y: float = 40, slicer: str = "bambu", machine: threemf.Machine = X1,
          changes: tuple[threemf.ColourChange, ...] = (threemf.ColourChange(3.4, 2),)) -> threemf.Project:
    card = threemf.Item("card 1", (threemf.Part("plate", box(40, 60, 4), 1),
                                   threemf.Part("inlay", box(5, 5, 0.6).translated(5, 5, 3.4), 2)), x=x, y=y)
    block = threemf.Item("block", (threemf.Part("block", box(15, 30, 6), 2),), x=x + 50, y=y)
    filaments = (threemf.Filament("PLA white", "#F2F2F2"), threemf.Filament("PLA orange", "#E69F00"))
    return threemf.Project("Game: plate 1, a card", (card, block), filaments, changes, slicer=slicer, machine=machine,
                           thumbnail=b"\x89PNG fake")


def tamper(data: bytes, member: str, change: Callable[[bytes], bytes]) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        files = {n: z.read(n) for n in z.namelist()}
    files[member] = change(files[member])
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, content in files.items():
            z.writestr(name, content)
    return out.getvalue()


def settings(data: bytes, change: Callable[[dict], None]) -> bytes:
    def edit(raw: bytes) -> bytes:
        config = json.loads(raw)
        change(config)
        return json.dumps(config).encode()
    return tamper(data, "Metadata/project_settings.config", edit)


def test_good_files_of_both_layouts_and_a_project_of_plates_read_cleanly() -> None:
    assert problems("a.3mf", threemf.write(plate())) == []
    assert problems("b.3mf", threemf.write(plate(slicer="prusa", machine=MINI))) == []
    plates = [plate(), plate(x=100, y=150)]
    whole = threemf.write_plates("Game", plates, thumbnails=[b"png", b"png"])
    assert problems("c.3mf", whole) == []
    assert b'value="plate 1, a card"' in zipfile.ZipFile(io.BytesIO(whole)).read("Metadata/model_settings.config")


def test_a_part_off_the_bed_in_the_excluded_zone_or_too_tall_is_named() -> None:
    [card, block] = problems("a.3mf", threemf.write(plate(x=230)))
    assert block.startswith("a.3mf: plate 1: object 'block' reaches off the bed (280.0..295.0 x 40.0..70.0 mm")
    assert "object 'card 1' reaches off the bed" in card
    assert any("excluded zone 0,0-18,28" in p for p in problems("a.3mf", threemf.write(plate(x=5, y=5))))
    short = replace(X1, height=5)
    tall = problems("a.3mf", threemf.write(plate(machine=short)))
    assert any("6.0 mm tall, over the printer's 5 mm" in p for p in tall)
    assert any("reaches off the bed" in p for p in problems("b.3mf", threemf.write(plate(x=150, slicer="prusa",
                                                                                           machine=MINI))))


def test_a_plate_in_a_project_of_plates_is_read_on_its_own_bed() -> None:
    """Bambu Studio puts plate 2 of 2 a bed and a fifth to the right of plate 1
    (``PartPlateList::compute_shape_position``): an object that sits at plate 1's place but
    is listed on plate 2 is off plate 2's bed."""
    whole = threemf.write_plates("Game", [plate(), plate()], thumbnails=[b"png", b"png"])
    assert problems("c.3mf", whole) == []

    def swap(raw: bytes) -> bytes:
        first, rest = raw.split(b'"plater_id" value="2"')
        return first.replace(b"plater_id", b"was_id") + b'"plater_id" value="2"' + rest

    # plate 1 loses its number: its objects are listed on no plate the reader knows
    assert any("plate 1 is numbered ''" in p for p in problems("c.3mf", tamper(whole, "Metadata/model_settings.config",
                                                                                 swap)))
    # plate 2 lists plate 1's card (object 4) in place of its own (object 9)
    moved = tamper(whole, "Metadata/model_settings.config",
                   lambda raw: raw.replace(b'"object_id" value="9"', b'"object_id" value="4"'))
    assert any("plate 2: object 'card 1' reaches off the bed" in p for p in problems("c.3mf", moved))


def test_a_bambu_config_the_slicer_would_refuse_or_misread_is_named() -> None:
    data = threemf.write(plate())
    colourless = settings(data, lambda c: c.pop("filament_colour"))
    assert any("filament_colour must list" in p for p in problems("a", colourless))
    assert any("filament_type lists 1 filaments, filament_colour 2" in p
               for p in problems("a", settings(data, lambda c: c.update(filament_type=["PLA"]))))
    assert any("different_settings_to_system has 3 entries, not 4" in p
               for p in problems("a", settings(data, lambda c: c.update(different_settings_to_system=["", "", ""]))))
    bare = settings(data, lambda c: [c.pop("nozzle_diameter"), c.pop("printer_model")])
    assert any("would load the geometry only" in p for p in problems("a", bare))
    old = tamper(data, threemf.MODEL_PATH, lambda raw: raw.replace(b"BambuStudio-02.", b"BambuStudio-01."))
    assert any("not the major version" in p for p in problems("a", old))
    broken = tamper(data, "Metadata/model_settings.config", lambda raw: raw[:40])
    assert any(p.startswith("a: Metadata/model_settings.config: ") for p in problems("a", broken))
    blind = threemf.write(replace(plate(), thumbnail=b""))
    assert problems("a", blind) == ["a: no picture: neither the package's thumbnail nor a plate's"]
    wrong = tamper(data, "Metadata/model_settings.config",
                   lambda raw: raw.replace(b'key="extruder" value="2"', b'key="extruder" value="5"'))
    assert any("prints in filament '5' of 2" in p for p in problems("a", wrong))


def test_prusa_volumes_extruders_and_colour_changes_the_reader_would_refuse_are_named() -> None:
    data = threemf.write(plate(slicer="prusa", machine=MINI))
    gap = tamper(data, "Metadata/Slic3r_PE_model.config", lambda raw: raw.replace(b'firstid="12"', b'firstid="13"'))
    assert any("covers triangles 13-23, expected from 12" in p for p in problems("b", gap))
    extruder = tamper(data, "Metadata/Slic3r_PE_model.config",
                      lambda raw: raw.replace(b'key="extruder" value="2"', b'key="extruder" value="3"'))
    assert any("prints in extruder '3' of 2" in p for p in problems("b", extruder))
    high = tamper(data, threemf.PRUSA_CHANGES, lambda raw: raw.replace(b'print_z="3.6"', b'print_z="9.6"'))
    assert any("a colour change above the plate's top" in p for p in problems("b", high))
    version = tamper(data, threemf.MODEL_PATH, lambda raw: raw.replace(b"Version3mf\">1<", b"Version3mf\">2<"))
    assert any("not 1" in p for p in problems("b", version))
    assert problems("x.3mf", b"not a zip") == ["x.3mf: not a 3MF package: File is not a zip file"]
