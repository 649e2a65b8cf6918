"""The command line through click's CliRunner."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner

from templeforge.cli import main


def _commands() -> list[str]:
    return sorted(main.commands)


@pytest.mark.parametrize("command", _commands())
def test_every_command_has_help(command: str) -> None:
    result = CliRunner().invoke(main, [command, "--help"])
    assert result.exit_code == 0
    cmd = main.commands[command]
    assert isinstance(cmd, click.Command) and cmd.help and "Example" in cmd.help


def test_shapes_lists_presets() -> None:
    result = CliRunner().invoke(main, ["shapes"])
    assert result.exit_code == 0
    assert "ubongo12" in result.output and "pentominoes" in result.output


def test_shapes_json_for_a_preset() -> None:
    result = CliRunner().invoke(main, ["shapes", "tetrominoes", "--no-flips", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert [p["name"] for p in data["pieces"]] == ["I4", "O4", "T4", "S4", "L4", "J4", "Z4"]
    assert [p["orientations"] for p in data["pieces"]] == [2, 1, 4, 2, 4, 4, 2]


def test_unknown_piece_is_a_one_line_error() -> None:
    result = CliRunner().invoke(main, ["shapes", "Q9"])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "unknown piece 'Q9'" in lines[0]
