"""PrusaSlicer's vendor bundles: presets resolved through what they inherit, the conditions
that tie print and filament presets to printers, the presets chosen for a printer, and a
Prusa-layout project that carries them whole (checked against the bundle installed with
PrusaSlicer, key by key, so a drift between the two is caught)."""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import pytest

from cad.common import vendor
from cad.common.vendor import ConditionError, condition

#: Where bundles are looked for, before the tests' own fixture keeps to the system's.
EVERYWHERE = vendor.bundle_paths

#: A bundle of our own making, in the bundles' form (not a copy of any vendor's).
TOY = """# a toy bundle
[vendor]
name = Toy
config_version = 9.9.9

[printer:*common*]
printer_technology = FFF
bed_shape = 0x0,200x0,200x200,0x200
gcode_flavor = marlin2
printer_notes = keep these\\nPRINTER_VENDOR_TOY\\n
start_gcode = G28 ; home\\nM109 S[first_layer_temperature]
retract_length = 1

[printer:*big*]
retract_length = 2

[printer:Toy One]
inherits = *common*
printer_model = ONE
printer_variant = 0.4
nozzle_diameter = 0.4
printer_notes = keep these\\nPRINTER_VENDOR_TOY\\nPRINTER_MODEL_ONE\\n
default_print_profile = 0.15mm FINE @ONE
default_filament_profile = "Toy PLA"

[printer:Toy One 0.6 nozzle]
inherits = Toy One; *big*
printer_variant = 0.6
nozzle_diameter = 0.6

[print:*layers*]
perimeters = 2
fill_density = 15%

[print:0.15mm FINE @ONE]
inherits = *layers*
layer_height = 0.15
compatible_printers_condition = printer_notes=~/.*PRINTER_MODEL_ONE.*/ and nozzle_diameter[0]==0.4

[print:0.20mm FAST @ONE]
inherits = *layers*
layer_height = 0.2
perimeters = 3
compatible_printers_condition = printer_notes=~/.*PRINTER_MODEL_ONE.*/ and nozzle_diameter[0]==0.4

[print:0.20mm FINE @ONE]
inherits = *layers*
layer_height = 0.2
compatible_printers_condition = printer_notes=~/.*PRINTER_MODEL_ONE.*/ and nozzle_diameter[0]==0.4

[print:0.20mm FINE @OTHER]
inherits = *layers*
layer_height = 0.2
compatible_printers_condition = printer_notes=~/.*PRINTER_MODEL_OTHER.*/

[filament:*PLA*]
filament_type = PLA
temperature = 210
bed_temperature = 60

[filament:Toy PETG]
filament_type = PETG
temperature = 240

[filament:Toy PLA]
inherits = *PLA*
temperature = 205
compatible_printers_condition = num_extruders==1 && ! (printer_model=="TWO")
compatible_prints_condition = layer_height >= 0.1
"""


@pytest.fixture()
def toy(tmp_path: Path) -> vendor.Bundle:
    path = tmp_path / "Toy.ini"
    path.write_text(TOY, "utf-8")
    return vendor.read_bundle(path)


def test_a_preset_is_what_it_inherits_in_order_then_its_own(toy: vendor.Bundle) -> None:
    assert toy.version == "9.9.9"
    one = toy.resolved("printer", "Toy One 0.6 nozzle")
    assert one["retract_length"] == "2"  # *big* after Toy One after *common*
    assert one["nozzle_diameter"] == "0.6" and one["printer_model"] == "ONE"
    assert one["start_gcode"] == "G28 ; home\\nM109 S[first_layer_temperature]"  # as the file stores it
    assert "inherits" not in one
    assert list(toy.names("printer")) == ["Toy One", "Toy One 0.6 nozzle"]  # never the abstract ones
    with pytest.raises(KeyError):
        toy.resolved("printer", "Toy Two")


@pytest.mark.parametrize(("text", "met"), [
    ("", True),
    ("printer_notes=~/.*PRINTER_MODEL_ONE.*/", True),
    ("printer_notes=~/PRINTER_MODEL_ONE/", False),  # matched whole
    ("printer_notes!~/.*PRINTER_MODEL_(TWO|THREE).*/", True),
    ("nozzle_diameter[0]==0.4 and printer_model==\"ONE\"", True),
    ("nozzle_diameter[0]>0.4 or printer_model!=\"ONE\"", False),
    ("num_extruders==1 && ! (printer_model==\"ONE\" and nozzle_diameter[0]!=0.4)", True),
    ("not (nozzle_diameter[0]>=0.25) || nozzle_diameter[0]<0.3", False),
    ("single_extruder_multi_material", False),
])
def test_a_condition_is_evaluated_over_the_printers_settings(toy: vendor.Bundle, text: str, met: bool) -> None:
    printer = {**toy.resolved("printer", "Toy One"), "single_extruder_multi_material": "0"}
    assert condition(text, printer) is met


@pytest.mark.parametrize("text", ["hotend_count==1", "printer_model==", "(nozzle_diameter[0]==0.4", "a ? b"])
def test_a_condition_this_reader_cannot_evaluate_says_so(toy: vendor.Bundle, text: str) -> None:
    with pytest.raises(ConditionError):
        condition(text, toy.resolved("printer", "Toy One"))


def test_the_printers_presets_are_chosen_as_the_slicer_offers_them(toy: vendor.Bundle) -> None:
    at_default = vendor.choose(toy, "ONE", 0.4, 0.15)
    assert at_default is not None and (at_default.printer, at_default.print, at_default.filament) == (
        "Toy One", "0.15mm FINE @ONE", "Toy PLA")
    other = vendor.choose(toy, "ONE", 0.4, 0.2)  # the default's kind (FINE) at 0.2 mm, for this printer
    assert other is not None and other.print == "0.20mm FINE @ONE"
    settings = dict(other.settings)
    assert settings["temperature"] == "205" and settings["perimeters"] == "2" and settings["layer_height"] == "0.2"
    assert settings["print_settings_id"] == "0.20mm FINE @ONE" and settings["printer_settings_id"] == "Toy One"
    assert vendor.choose(toy, "ONE", 0.6, 0.2) is None  # no print preset takes the 0.6 nozzle
    assert vendor.choose(toy, "TWO", 0.4, 0.2) is None
    assert vendor.choose(toy, "ONE", 0.4, 0.05) is None


def test_the_bundles_named_by_the_variable_come_first(toy: vendor.Bundle, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vendor, "bundle_paths", EVERYWHERE)
    monkeypatch.setenv(vendor.BUNDLE_VARIABLE, str(toy.path.parent))
    assert vendor.bundle_paths("Toy")[0] == toy.path
    chosen = vendor.presets("Toy", "ONE", 0.4, 0.2)
    assert chosen is not None and chosen.version == "9.9.9" and chosen.bundle == toy.path


# -- against the bundle installed with PrusaSlicer -------------------------------------------------


def installed(name: str) -> Path | None:
    return next((p for p in vendor.bundle_paths(name) if p.is_file()), None)


def own_resolution(path: Path, kind: str, name: str) -> dict[str, str]:
    """The test's own reading of a bundle: sections of ``key = value``; what a preset
    inherits, in order, then its own keys."""
    sections: dict[tuple[str, str], dict[str, str]] = {}
    current: dict[str, str] = {}
    for line in path.read_text("utf-8").splitlines():
        if line.startswith("["):
            kind_, _, name_ = line.strip()[1:-1].partition(":")
            current = sections.setdefault((kind_, name_), {})
        elif "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            current[key.strip()] = value.strip()

    def resolve(n: str) -> dict[str, str]:
        own = sections[(kind, n)]
        out: dict[str, str] = {}
        for parent in (p.strip().strip('"') for p in own.get("inherits", "").split(";") if p.strip()):
            out.update(resolve(parent))
        out.update(own)
        return out

    found = resolve(name)
    for key in ("inherits", "renamed_from", "alias"):
        found.pop(key, None)
    return found


#: The names of the presets a project carries (empty in the bundle).
NAMES = {"printer_settings_id", "print_settings_id", "filament_settings_id"}
#: Keys of a project config that are the plate's own, not its presets'.
PLATE_OWN = {"bed_shape", "max_print_height", "extruder_colour", "filament_colour", "first_layer_height",
             "layer_height", "nozzle_diameter", "single_extruder_multi_material"}


@pytest.mark.skipif(installed("PrusaResearch") is None, reason="needs PrusaSlicer's vendor bundle "
                    "(Debian: apt-get install prusa-slicer); .ci/run installs it")
def test_a_prusa_project_carries_the_bundles_presets_key_by_key(tmp_path: Path) -> None:
    from cad.common.profile import PRINTERS
    from tests.cad.projects import card_plate

    mini = PRINTERS["prusa-mini"]
    machine = mini.machine(0.4, 0.2)
    chosen = vendor.presets("PrusaResearch", "MINI", 0.4, 0.2)
    assert chosen is not None, "Debian's bundle has the MINI"
    assert chosen.printer in machine.prusa_source and chosen.version in machine.prusa_source
    with zipfile.ZipFile(card_plate(mini, tmp_path)) as z:
        text = z.read("Metadata/Slic3r_PE.config").decode()
    written = dict(re.findall(r"^; (\w+) = (.*)$", text, re.M))
    path = installed("PrusaResearch")
    assert path is not None
    expected = {**own_resolution(path, "printer", chosen.printer), **own_resolution(path, "print", chosen.print),
                **own_resolution(path, "filament", chosen.filament)}
    drift = {k: (written.get(k), v) for k, v in expected.items() if k not in PLATE_OWN | NAMES and written.get(k) != v}
    assert not drift, drift
    assert (written["printer_settings_id"], written["print_settings_id"], written["filament_settings_id"]) == (
        chosen.printer, chosen.print, f'"{chosen.filament}"')
    assert written["layer_height"] == "0.2"
    # the bed we lay plates out on is the bundle's
    corners = [tuple(float(v) for v in c.split("x")) for c in expected["bed_shape"].split(",")]
    assert (max(x for x, _ in corners) - min(x for x, _ in corners),
            max(y for _, y in corners) - min(y for _, y in corners)) == (mini.width, mini.depth)


def test_a_printer_without_a_bundle_keeps_our_own_settings_and_says_so(own_settings: None) -> None:
    from cad.common.profile import PRINTERS

    machine = PRINTERS["prusa-mini"].machine(0.4, 0.2)
    assert "Templeforge's own settings" in machine.prusa_source and "no PrusaSlicer" in machine.prusa_source
    settings = dict(machine.prusa)
    assert settings["temperature"] == "215" and 'M862.3 P "MINI"' in settings["start_gcode"]
    assert "\n" not in settings["start_gcode"]  # stored escaped, as a config file stores it


@pytest.mark.skipif(installed("PrusaResearch") is None or shutil.which("prusa-slicer") is None,
                    reason="needs PrusaSlicer and its vendor bundle (Debian: apt-get install prusa-slicer); "
                    ".ci/run installs it")
def test_a_minis_project_sliced_alone_and_by_slice_prints_with_the_bundles_presets(tmp_path: Path) -> None:
    """PrusaSlicer's command line, given the project file and nothing else, prints it with the
    MINI's presets from the bundle: its model check, its bed and nozzle temperatures, its print
    preset; ``--slice`` loads the same presets, so its time is theirs."""
    from cad.common import slicing
    from cad.common.profile import PRINTERS
    from tests.cad.projects import card_plate, sliced_alone

    mini = PRINTERS["prusa-mini"]
    path = card_plate(mini, tmp_path)
    alone = sliced_alone(path)
    head = alone[:alone.index(";Z:")]
    order = [head.index(code) for code in ('M862.3 P "MINI"', "M140 S60", "M190 S60", "G28", "G29", "M109 S215")]
    assert order == sorted(order)
    assert "; print_settings_id = 0.20mm QUALITY @MINI" in alone
    sliced = slicing.slice_plate(path, (mini.width, mini.depth), 1, infill=15, config=slicing.slicer_config(mini),
                                 keep=True)
    text = sliced.gcode.decode()
    assert 'M862.3 P "MINI"' in text and "; print_settings_id = 0.20mm QUALITY @MINI" in text
    assert sliced.seconds is not None and 5 * 60 < sliced.seconds < 60 * 60  # a 4 mm card, not hours
