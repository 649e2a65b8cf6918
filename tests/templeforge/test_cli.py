"""The command line through click's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from templeforge.cli import main


def _commands() -> list[tuple[str, ...]]:
    from generators import GAMES
    from templeforge.cli import COMMANDS, game_commands

    return [(name,) for name in COMMANDS] + [(name,) for name in game_commands()] + \
        [("generate", game) for game in GAMES] + [("mine", name) for name, game in GAMES.items() if game.mine]


@pytest.mark.parametrize("path", _commands())
def test_every_command_has_help(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(main, [*path, "--help"])
    assert result.exit_code == 0, result.output
    ctx = click.Context(main)
    cmd: click.Command | None = main
    for name in path:
        assert isinstance(cmd, click.Group)
        cmd = cmd.get_command(ctx, name)
    assert isinstance(cmd, click.Command) and cmd.help and "Example" in cmd.help


@pytest.mark.parametrize("path", [(), ("generate",), ("stones",)])
def test_a_group_named_alone_prints_its_help(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(main, list(path), prog_name="templeforge")
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.startswith(f"Usage: {' '.join(('templeforge', *path))} ")
    assert "Commands:" in result.stdout and len(result.stdout.splitlines()) > 5


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


# -- solve ------------------------------------------------------------------------------

EXAMPLES = Path(__file__).parents[2] / "examples"


def solve(*args: str) -> Result:
    return CliRunner().invoke(main, ["solve", *args])


def test_solve_counts_3x20_as_json() -> None:
    result = solve(str(EXAMPLES / "pentominoes-3x20.toml"), "--count", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["status"], data["count"], data["exhaustive"], data["distinct"]) == ("solved", 8, True, False)
    assert isinstance(data["seconds"], float)
    assert sorted(p["piece"] for p in data["solution"]) == sorted("FILNPTUVWXYZ")
    assert all(len(p["cells"]) == 5 and len(p["cells"][0]) == 2 for p in data["solution"])


def test_solve_distinct_and_show() -> None:
    result = solve(str(EXAMPLES / "pentominoes-3x20.toml"), "--distinct", "--show")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert "2 distinct tilings up to the region's 4 symmetries" in lines[0]
    picture = [line for line in lines[1:] if line]
    assert len(picture) == 3 and all(len(row) == 20 for row in picture)
    assert set("".join(picture)) == set("FILNPTUVWXYZ")


def test_solve_unique_and_legend(tmp_path: Path) -> None:
    path = tmp_path / "plus.toml"
    path.write_text('region = """\n.#.\n###\n.#.\n"""\npieces = ["X"]\n')
    result = solve(str(path), "--unique", "--show")
    assert result.exit_code == 0 and "unique" in result.stdout and "not unique" not in result.stdout
    data = json.loads(solve(str(path), "--unique", "--json").stdout)
    assert data["unique"] is True and data["count"] == 1
    lock = solve(str(EXAMPLES / "ubongo-lock.toml"), "--show")
    assert "I = I3, L = L3, P = P, T = T4" in lock.stdout


def test_solve_enumerate_lists_each_tiling(tmp_path: Path) -> None:
    path = tmp_path / "dominoes.toml"
    path.write_text('region = "###\\n###"\npieces = [{ name = "I2", count = 3 }]\n')
    result = solve(str(path), "--enumerate", "--json")
    data = json.loads(result.stdout)
    assert data["count"] == 3 and len(data["solutions"]) == 3
    text = solve(str(path), "--enumerate").stdout
    assert "#3" in text and "#4" not in text


def test_unsolvable_exits_1_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "odd.toml"
    path.write_text('region = "###"\npieces = ["I2"]\n')
    result = solve(str(path), "--count")
    assert result.exit_code == 1
    assert "unsolvable" in result.stdout and "area mismatch" in result.stdout


def test_time_limit_exits_3_as_unknown() -> None:
    result = solve(str(EXAMPLES / "pentominoes-6x10.toml"), "--time-limit", "0.000001",
                   "--engine", "cp-sat", "--json")
    assert result.exit_code == 3
    data = json.loads(result.stdout)
    assert (data["status"], data["stats"]["engine"]) == ("unknown", "cp-sat")


def test_engine_choice(tmp_path: Path) -> None:
    auto = json.loads(solve(str(EXAMPLES / "soma-cube.toml"), "--count", "--json").stdout)
    assert (auto["count"], auto["stats"]["engine"]) == (11520, "counter")
    text = solve(str(EXAMPLES / "ubongo-lock.toml"), "--count", "--engine", "cp-sat").stdout
    assert "6 tilings" in text and "cp-sat" in text
    path = tmp_path / "big.toml"
    path.write_text('region = """\n' + ("#" * 13 + "\n") * 5 + '"""\npieces = ["pentominoes", "I"]\n')
    result = solve(str(path), "--engine", "counter")
    assert result.exit_code == 2 and "at most 64 cells" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('region = "##"\npieces = ["Q7"]\n', "unknown piece or preset 'Q7'"),
        ('region = """\n#a\n"""\npieces = ["I2"]\n', "file line 2"),
        ('region = "##"\npieces = [{ name = "I2", count = "2" }]\n', "pieces[1].count"),
        ('region = "##"\npieces = ["I2"]\nsize = 3\n', "unknown key(s) size"),
        ('region = "..\\n.."\npieces = ["I2"]\n', "the region is empty"),
    ],
)
def test_bad_puzzle_files_give_one_line_and_exit_2(tmp_path: Path, content: str, expected: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(content)
    result = solve(str(path))
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and expected in lines[0]
    assert result.stdout == ""


def test_missing_file_is_a_one_line_error(tmp_path: Path) -> None:
    result = solve(str(tmp_path / "nope.toml"))
    assert result.exit_code == 2 and "cannot read the file" in result.stderr


@pytest.mark.parametrize(
    "args",
    [["solve", str(EXAMPLES / "ubongo-lock.toml"), "--limit", "0"],
     ["solve", str(EXAMPLES / "ubongo-lock.toml"), "--unique", "--count"],
     ["no-such-command"]],
)
def test_usage_errors_are_one_line_and_exit_2(args: list[str]) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("templeforge: error: ")
