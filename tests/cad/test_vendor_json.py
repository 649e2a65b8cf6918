"""Bambu Studio's and OrcaSlicer's system presets: a preset resolved through its parent and
its templates, looked up in its own vendor's folder first, and a Bambu-layout project that
carries the presets whole, checked key by key against the presets it came from (so a drift
between the two is caught). The presets are a toy tree of our own in the slicers' form, not
a copy of any vendor's; a machine with Bambu Studio or OrcaSlicer installed also checks
its real presets."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from cad.common import threemf, vendor_json
from cad.common.meshes import box
from cad.common.profile import PRINTERS, Printer
from cad.common.vendor_json import META, Library, ProfileError

#: Where presets are looked for, before the tests' own fixture hides them.
INSTALLED = vendor_json.profile_roots

#: The toy tree: vendor folder -> kind -> presets (each file named for its preset).
TOY: dict[str, dict[str, list[dict[str, Any]]]] = {
    "Toy": {
        "machine": [
            {"type": "machine", "name": "fdm_machine_common", "from": "system", "instantiation": "false",
             "printer_technology": "FFF", "gcode_flavor": "marlin", "machine_start_gcode": "G28",
             "printable_height": "200", "retraction_length": ["0.8"], "nozzle_diameter": ["0.4"]},
            {"type": "machine", "name": "fdm_toy_common", "from": "system", "instantiation": "false",
             "inherits": "fdm_machine_common", "gcode_flavor": "marlin2", "machine_end_gcode": "M84",
             "machine_start_gcode": "G28 ; the parent's"},
            {"name": "Toy One 0.4 nozzle template machine_start_gcode", "instantiation": "false",
             "machine_start_gcode": "M140 S[bed_temperature_initial_layer_single]\nG28 ; the template's",
             "machine_end_gcode": "M84 ; the template's"},
            {"type": "machine", "name": "Toy One 0.4 nozzle", "setting_id": "GM9", "from": "system",
             "instantiation": "true", "inherits": "fdm_toy_common",
             "include": ["Toy One 0.4 nozzle template machine_start_gcode"],
             "printer_model": "Toy One", "machine_end_gcode": "M84 ; its own",
             "default_print_profile": "0.20mm Standard @Toy", "default_filament_profile": ["Toy PLA @Toy"],
             "printable_area": ["0x0", "256x0", "256x256", "0x256"], "printable_height": "256",
             "bed_exclude_area": ["0x0", "18x0", "18x28", "0x28"]},
        ],
        "process": [
            {"type": "process", "name": "fdm_process_common", "from": "system", "instantiation": "false",
             "layer_height": "0.2", "initial_layer_print_height": "0.2", "wall_loops": "2",
             "sparse_infill_density": "15%"},
            {"type": "process", "name": "0.20mm Standard @Toy", "setting_id": "GP9", "from": "system",
             "instantiation": "true", "inherits": "fdm_process_common", "wall_loops": "3",
             "compatible_printers": ["Toy One 0.4 nozzle"]},
        ],
        "filament": [
            {"type": "filament", "name": "Toy PLA @Toy", "filament_id": "GFL9", "setting_id": "GFSL9",
             "from": "system", "instantiation": "true", "inherits": "fdm_filament_pla",
             "hot_plate_temp": ["60"], "filament_vendor": ["Toy"]},
        ],
    },
    # another vendor with a parent of the same name, which the toy's presets must not take
    "Other": {
        "machine": [
            {"type": "machine", "name": "fdm_machine_common", "from": "system", "instantiation": "false",
             "gcode_flavor": "klipper", "machine_start_gcode": "PRINT_START"},
        ],
    },
    # a library vendor whose filament parents every vendor's filaments use (OrcaSlicer's)
    "Library": {
        "filament": [
            {"type": "filament", "name": "fdm_filament_pla", "from": "system", "instantiation": "false",
             "filament_type": ["PLA"], "filament_diameter": ["1.75"], "nozzle_temperature": ["220"],
             "hot_plate_temp": ["55"], "filament_colour": ["#FFFFFF"]},
        ],
    },
}

TOY_PRINTER = Printer("toy-one", "Toy One", 256, 256, 250, (((0.0, 0.0), (18.0, 0.0), (18.0, 28.0), (0.0, 28.0)),),
                      ("Toy One", "Toy One 0.4 nozzle", "0.20mm Standard @Toy", "Toy PLA @Toy"))


def lay_out(root: Path, tree: dict[str, dict[str, list[dict[str, Any]]]] = TOY) -> Path:
    for vendor, kinds in tree.items():
        for kind, presets in kinds.items():
            folder = root / vendor / kind
            folder.mkdir(parents=True, exist_ok=True)
            for preset in presets:
                (folder / f"{preset['name']}.json").write_text(json.dumps(preset, indent=4), "utf-8")
    return root


@pytest.fixture()
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The toy tree, found as an installed copy would be (through the variable)."""
    root = lay_out(tmp_path / "system")
    monkeypatch.setattr(vendor_json, "profile_roots", INSTALLED)
    monkeypatch.setenv(vendor_json.PROFILES_VARIABLE, str(root))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return root


def test_a_preset_takes_its_parent_then_its_templates_then_its_own_keys(toy: Path) -> None:
    flat = Library(toy).flatten("machine", "Toy One 0.4 nozzle")
    assert flat["gcode_flavor"] == "marlin2", "the parent's parent, overridden by the parent"
    assert flat["retraction_length"] == ["0.8"] and flat["printer_technology"] == "FFF"
    assert flat["machine_start_gcode"].endswith("the template's"), "a template wins over the parent"
    assert flat["machine_end_gcode"] == "M84 ; its own", "the preset's own keys win over its templates"
    assert flat["name"] == "Toy One 0.4 nozzle" and flat["instantiation"] == "true" and flat["setting_id"] == "GM9"
    assert "inherits" not in flat and "include" not in flat


def test_a_parent_is_taken_from_the_presets_own_vendor_first_then_from_any(toy: Path) -> None:
    library = Library(toy)
    assert library.flatten("machine", "fdm_toy_common")["machine_start_gcode"] == "G28 ; the parent's"
    assert "PRINT_START" not in json.dumps(library.flatten("machine", "Toy One 0.4 nozzle"))
    pla = library.flatten("filament", "Toy PLA @Toy")
    assert pla["nozzle_temperature"] == ["220"] and pla["hot_plate_temp"] == ["60"], "the library's, then its own"


def test_a_vendors_index_names_its_presets_and_a_machine_builds_on_its_own_vendors_only(tmp_path: Path) -> None:
    """Bambu Studio's ``PresetBundle::load_vendor_configs_from_json`` reads the files the
    vendor's index lists (``machine_list`` ... of ``name`` and ``sub_path``), looks a
    parent up among the same vendor's presets of the same kind (OrcaSlicer also in its
    filament library, for filaments only) and passes over a template it cannot find."""
    tree = {"V": {"machine": [{"type": "machine", "name": "base", "gcode_flavor": "marlin2"},
                              {"type": "machine", "name": "Mine", "inherits": "base", "include": ["gone"]},
                              {"type": "machine", "name": "Orphan", "inherits": "elsewhere"}]},
            "W": {"machine": [{"type": "machine", "name": "elsewhere", "gcode_flavor": "klipper"}]}}
    root = lay_out(tmp_path, tree)
    (root / "V" / "machine" / "Mine.json").rename(root / "V" / "machine" / "renamed.json")
    (root / "V.json").write_text(json.dumps({"name": "V", "machine_list": [
        {"name": "base", "sub_path": "machine/base.json"}, {"name": "Mine", "sub_path": "machine/renamed.json"},
        {"name": "Orphan", "sub_path": "machine/Orphan.json"}]}), "utf-8")
    library = Library(root)
    assert library.flatten("machine", "Mine")["gcode_flavor"] == "marlin2"
    with pytest.raises(ProfileError, match="no machine preset 'elsewhere'"):
        library.flatten("machine", "Orphan")
    (root / "V.json").write_text(json.dumps({"name": "V", "machine_list": [
        {"name": "Mine", "sub_path": "machine/renamed.json"}]}), "utf-8")
    assert not Library(root).has("machine", "base"), "a file the index does not list is never read"


def test_a_missing_parent_a_loop_or_a_broken_file_is_named(tmp_path: Path) -> None:
    tree = {"V": {"process": [{"type": "process", "name": "a", "inherits": "b"},
                              {"type": "process", "name": "b", "inherits": "a"},
                              {"type": "process", "name": "c", "inherits": "gone"}]}}
    library = Library(lay_out(tmp_path, tree))
    with pytest.raises(ProfileError, match="loop: a -> b -> a"):
        library.flatten("process", "a")
    with pytest.raises(ProfileError, match="no process preset 'gone'"):
        library.flatten("process", "c")
    (tmp_path / "V" / "process" / "d.json").write_text("{not json", "utf-8")
    with pytest.raises(ProfileError, match=r"d\.json: not a preset"):
        Library(tmp_path).flatten("process", "d")


def test_presets_are_found_in_the_named_folders_and_the_slicers_own(tmp_path: Path, toy: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    studio = tmp_path / "config" / "BambuStudio" / "system"
    studio.mkdir(parents=True)
    assert vendor_json.profile_roots() == [toy, studio]
    monkeypatch.delenv(vendor_json.PROFILES_VARIABLE)
    assert vendor_json.profile_roots() == [studio]
    assert vendor_json.presets("Toy One 0.4 nozzle", "0.20mm Standard @Toy", "Toy PLA @Toy") is None


def project_settings(printer: Printer, colours: tuple[str, ...] = ("#F2F2F2", "#E69F00")) -> dict[str, Any]:
    machine = printer.machine(0.4, 0.2)
    filaments = tuple(threemf.Filament(f"f{i}", c) for i, c in enumerate(colours))
    part = threemf.Part("p", box(10, 10, 10), 1)
    project = threemf.Project("toy", (threemf.Item("item", (part,), 50, 50),), filaments, machine=machine)
    with zipfile.ZipFile(io.BytesIO(threemf.write(project))) as z:
        return dict(json.loads(z.read("Metadata/project_settings.config")))


def test_a_bambu_project_carries_its_presets_whole_and_lists_what_it_changes(toy: Path) -> None:
    """Bambu Studio's ``PresetCollection::load_external_preset`` resets every key of a
    project not listed in ``different_settings_to_system`` to the named system preset's:
    every key of the presets is in the project with the preset's value (the filament's once
    per filament), and each key the project sets otherwise is listed."""
    library = Library(toy)
    system = {**vendor_json.settings(library.flatten("process", "0.20mm Standard @Toy")),
              **vendor_json.settings(library.flatten("machine", "Toy One 0.4 nozzle"))}
    material = vendor_json.settings(library.flatten("filament", "Toy PLA @Toy"))
    data = project_settings(TOY_PRINTER)
    process_diff, first, second, printer_diff = data["different_settings_to_system"]
    listed = set(process_diff.split(";") + printer_diff.split(";")) - {""}
    for key, value in system.items():
        assert (data[key] == value) != (key in listed), key
    for i, changed in enumerate((first, second)):
        for key, value in material.items():
            assert (data[key][i] == value[0]) != (key in changed.split(";")), key
    assert listed == {"printable_height"} and first == second == "filament_colour", "only what differs"
    assert data["filament_colour"] == ["#F2F2F2", "#E69F00"] and data["hot_plate_temp"] == ["60", "60"]
    assert data["machine_start_gcode"].endswith("the template's") and data["wall_loops"] == "3"
    assert data["printer_settings_id"] == "Toy One 0.4 nozzle" and data["print_settings_id"] == "0.20mm Standard @Toy"
    assert data["filament_settings_id"] == ["Toy PLA @Toy"] * 2 and data["name"] == "project_settings"
    assert not set(data) & (META - {"name", "from", "version"}), "no key that says what a preset is"
    assert str(toy) in TOY_PRINTER.machine().bambu_source


def test_without_presets_a_bambu_project_names_them_and_lists_every_key_it_sets(
        toy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(vendor_json.PROFILES_VARIABLE)
    data = project_settings(TOY_PRINTER)
    assert data["print_settings_id"] == "0.20mm Standard @Toy" and "wall_loops" not in data
    assert data["different_settings_to_system"][0] == "initial_layer_print_height;layer_height"
    assert data["different_settings_to_system"][1] == "filament_colour;filament_diameter;filament_type"
    assert "the names of the presets Toy One 0.4 nozzle" in TOY_PRINTER.machine().bambu_source


def test_presets_that_cannot_be_resolved_are_passed_over_and_named(toy: Path) -> None:
    (toy / "Toy" / "process" / "fdm_process_common.json").unlink()
    source = TOY_PRINTER.machine().bambu_source
    assert "could not be read" in source and "no process preset 'fdm_process_common'" in source
    assert "wall_loops" not in project_settings(TOY_PRINTER)


def test_a_machine_presets_defaults_give_its_process_and_filament(toy: Path) -> None:
    found = vendor_json.presets("Toy One 0.4 nozzle")
    assert found is not None and (found.process, found.filament) == ("0.20mm Standard @Toy", "Toy PLA @Toy")
    renamed = vendor_json.presets("Toy One 0.4 nozzle", "0.20mm Standard @Toy One", "Toy PLA @Toy One")
    assert renamed is not None and (renamed.process, renamed.filament) == ("0.20mm Standard @Toy", "Toy PLA @Toy")


def test_another_vendors_printer_names_its_orcaslicer_presets_only_where_they_are_installed(
        toy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = Printer("toy-two", "Toy Two", 256, 256, 250, orca=("Toy Two 0.4 nozzle", "Toy One 0.4 nozzle"))
    data = project_settings(other)
    assert data["printer_settings_id"] == "Toy One 0.4 nozzle" and data["printer_model"] == "Toy One"
    assert data["print_settings_id"] == "0.20mm Standard @Toy" and data["wall_loops"] == "3"
    monkeypatch.delenv(vendor_json.PROFILES_VARIABLE)
    data = project_settings(other)
    assert "printer_settings_id" not in data and "printer_model" not in data and "wall_loops" not in data
    assert "no OrcaSlicer presets for Toy Two 0.4 nozzle or Toy One 0.4 nozzle" in other.machine().bambu_source


@pytest.mark.parametrize("name", [n for n, p in PRINTERS.items() if p.bambu[0] or p.orca])
def test_an_installed_slicers_presets_for_our_printers_resolve_and_are_carried(name: str,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Where Bambu Studio or OrcaSlicer is installed, our printers' presets are found and
    resolved, and the project carries the printer's start G-code from them."""
    monkeypatch.setattr(vendor_json, "profile_roots", INSTALLED)
    printer = PRINTERS[name]
    names = [printer.bambu[1:]] if printer.bambu[0] else [(n, "", "") for n in printer.orca]
    found = next((f for f in (vendor_json.presets(*n) for n in names) if f is not None), None)
    if found is None:
        pytest.skip("no Bambu Studio or OrcaSlicer system presets for it on this machine")
    data = project_settings(printer)
    assert data["machine_start_gcode"] == found.printer["machine_start_gcode"]
    assert data["printer_settings_id"] == found.machine and data["print_settings_id"] == found.process
    assert data["printer_model"] == found.printer["printer_model"]
