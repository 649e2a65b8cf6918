"""The physical settings: bounds, the rules between values, the TOML file."""

from __future__ import annotations

from pathlib import Path

import pytest

from cad.common.profile import PARAMETERS, PRINTERS, Physical, load_settings, physical_from, printer, settings_toml
from generators.common.errors import RequestError


def test_the_defaults_hold_every_rule_and_name_a_unit_and_reason() -> None:
    assert Physical().problems() == []
    for p in PARAMETERS:
        assert p.low <= getattr(Physical(), p.name) <= p.high and p.unit and len(p.reason) > 20


@pytest.mark.parametrize("values, message", [
    ({"clearance": -0.1}, "clearance: expected 0.1-0.4 mm, got -0.1"),
    ({"deboss_depth": 0.7}, "deboss_depth: 0.7 mm is not a whole number of 0.2 mm layers (try 0.8)"),
    ({"text_size": 3.0}, "text_size: 3 mm text has 0.48 mm strokes, thinner than min_stroke 0.8 mm"),
    ({"min_stroke": 0.4, "nozzle": 0.6}, "min_stroke: 0.4 mm is thinner than the 0.6 mm nozzle"),
    ({"pocket_depth": 3.6}, "pocket_depth: 3.6 mm leaves less than 0.6 mm of floor"),
    ({"nozzle": "0.4"}, "nozzle: expected a number in mm, got '0.4'"),
    ({"colour": 1}, "colour: not a setting"),
])
def test_a_bad_setting_is_named(values: dict, message: str) -> None:
    with pytest.raises(RequestError) as err:
        physical_from(values, "my.toml")
    assert f"my.toml: {message}" in str(err.value)


def test_the_settings_file_round_trips_and_bad_files_name_themselves(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(settings_toml(Physical(clearance=0.25, pitch=16.0)))
    assert load_settings(path) == Physical(clearance=0.25, pitch=16.0)
    path.write_text("pitch = [")
    with pytest.raises(RequestError, match="s.toml: not valid TOML"):
        load_settings(path)
    with pytest.raises(RequestError, match="cannot read the file"):
        load_settings(tmp_path / "missing.toml")


def test_printers_have_their_beds() -> None:
    assert (printer("bambu-x1").width, printer("bambu-a1-mini").width, printer("prusa-mk4").depth) == (256, 180, 210)
    assert set(PRINTERS) >= {"bambu-x1", "bambu-p1", "bambu-a1", "bambu-a1-mini", "prusa-mk4", "prusa-mk4s",
                             "prusa-mini", "prusa-core-one", "creality-k1", "ender3", "generic-220"}
    with pytest.raises(RequestError, match="^--printer: unknown printer 'mk3'"):
        printer("mk3", "--printer")
