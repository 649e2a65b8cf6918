"""Exit statuses and one-line errors, for the cases a script needs to tell apart."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from templeforge.cli import EXIT, main

ROOT = Path(__file__).parents[2]


def templeforge(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "templeforge", *args], cwd=kw.pop("cwd", ROOT),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def test_help_loads_no_solver_and_no_printing_library() -> None:
    code = ("import sys; from click.testing import CliRunner; from templeforge.cli import main; "
            "r = CliRunner().invoke(main, ['--help']); assert r.exit_code == 0; "
            "r = CliRunner().invoke(main, ['generate', '--help']); assert r.exit_code == 0; "
            "r = CliRunner().invoke(main, ['pdf', '--help']); assert r.exit_code == 0; "
            "heavy = [m for m in ('ortools', 'numba', 'numpy', 'jsonschema', 'cadquery', 'reportlab', 'pypdfium2', "
            "'PIL') "
            "if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_an_existing_folder_as_out_means_deck_json_in_it(tmp_path: Path) -> None:
    # a one-card pattern deck: the quickest deck to make
    quick = ["generate", "shifting-stones", "--cards", "1", "--attempts", "2", "--workers", "1"]
    result = CliRunner().invoke(main, [*quick, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "deck.json").is_file()
    result = CliRunner().invoke(main, [*quick, "--out", f"{tmp_path}/newdir/"])
    assert result.exit_code == 0 and (tmp_path / "newdir" / "deck.json").is_file()


def test_an_unwritable_out_fails_before_any_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generators.puzzle_temple import generate

    def worked(*args: object) -> None:
        raise AssertionError("the deck was generated before the output was checked")

    monkeypatch.setattr(generate, "generate", worked)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = CliRunner().invoke(main, ["generate", "puzzle-temple", "--out", str(blocker / "deck.json")])
    assert result.exit_code == EXIT["bad input"] and "is not a folder" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_an_internal_error_is_one_line_and_its_own_status(monkeypatch) -> None:
    from templeforge.commands import shapes

    def broken(*args, **kwargs):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(shapes, "PRESETS", property(broken))  # any bug inside a command
    monkeypatch.setattr(shapes, "is_preset", broken)
    result = CliRunner().invoke(main, ["shapes", "I3"])
    assert result.exit_code == EXIT["internal"] == 70
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "internal error: ZeroDivisionError: boom" in lines[0]


def test_a_closed_pipe_is_quiet() -> None:
    proc = templeforge("shapes", "hexominoes")
    proc.stdout.close()  # the reader goes away at once
    proc.wait(timeout=60)
    assert proc.returncode == EXIT["closed pipe"]
    assert "Traceback" not in proc.stderr.read()


@pytest.mark.slow  # tests/templeforge/test_faults.py signals every long command
def test_ctrl_c_during_the_parallel_search_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "deck.json"
    proc = templeforge("generate", "puzzle-temple", "--workers", "2", "--attempts", "100000",
                       "--lock-size", "4x4", "--blocks-per-face", "4", "--locks", "union", "--out", str(out))
    time.sleep(6)  # past start-up, inside the candidate search
    assert proc.poll() is None, proc.stderr.read()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == EXIT["interrupted"] == 130
    assert "Traceback" not in err and err.strip().splitlines() == ["templeforge: interrupted"]
    assert not out.exists() and not list(tmp_path.iterdir())


@pytest.mark.parametrize("args, status", [
    (["solve", "examples/pentominoes-3x20.toml"], 0),
    (["solve", "examples/subset-dominoes.toml", "--unique"], None),
    (["verify", "examples/hand-deck.json"], 1),
    (["verify", "no-such-deck.json"], 2),
])
def test_documented_statuses(args: list[str], status: int | None) -> None:
    proc = templeforge(*args)
    _, err = proc.communicate(timeout=120)
    assert "Traceback" not in err
    if status is not None:
        assert proc.returncode == status, err


def test_unique_on_an_unsolvable_puzzle_says_unsolvable(tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_text('region = "###"\npieces = ["I2"]\n')
    result = CliRunner().invoke(main, ["solve", str(path), "--unique"])
    assert result.exit_code == EXIT["failed"]
    assert "unsolvable" in result.stdout and "not unique" not in result.stdout


def test_a_full_disk_on_standard_output_is_its_own_status() -> None:
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "templeforge", "shapes", "hexominoes"], cwd=ROOT,
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert proc.returncode == EXIT["output"] == 74
    assert proc.stderr.strip().splitlines() == ["templeforge: error: cannot write the output: No space left on device"]


@pytest.mark.slow  # tests/templeforge/test_faults.py signals every long command
def test_sigterm_during_cad_ends_as_ctrl_c_does_with_nothing_written(tmp_path: Path) -> None:
    deck = ROOT / "tests" / "data" / "puzzle-temple-3-seed-11.json"
    out = tmp_path / "models"
    proc = templeforge("cad", str(deck), "--out", str(out), "--players", "1")
    assert proc.stderr is not None
    said = ""
    while proc.poll() is None and "building parts" not in said:
        said += proc.stderr.read(1)
    time.sleep(1.0)  # inside the modelling
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == EXIT["interrupted"], err
    assert err.strip().splitlines()[-1] == "templeforge: interrupted"
    assert not out.exists(), "nothing half-written"


@pytest.mark.slow
def test_a_file_name_that_is_not_utf8_is_printed_escaped(tmp_path: Path) -> None:
    import os

    folder = os.path.join(os.fsencode(tmp_path), b"caf\xe9")  # Latin-1, not UTF-8
    os.mkdir(folder)
    target = os.fsdecode(os.path.join(folder, b"deck.json"))
    proc = subprocess.run([sys.executable, "-m", "templeforge", "generate", "shifting-stones", "--cards", "1",
                           "--attempts", "2", "--workers", "1", "--out", target], cwd=ROOT, capture_output=True,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8", "LC_ALL": "C.UTF-8"})
    assert proc.returncode == 0, proc.stderr
    assert b"caf\\udce9" in proc.stdout and os.path.isfile(os.path.join(folder, b"deck.json"))


def test_generate_says_where_the_deck_went_when_a_profile_sends_it_elsewhere(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    elsewhere = tmp_path / "profiles"
    elsewhere.mkdir()
    profile = elsewhere / "p.toml"
    profile.write_text('cards = 1\nattempts = 2\nworkers = 1\nout = "../decks/"\n')
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    result = CliRunner().invoke(main, ["generate", "shifting-stones", "--profile", str(profile)])
    assert result.exit_code == 0, result.output
    written = tmp_path / "decks" / "deck.json"
    assert written.is_file() and f"wrote {written.resolve()}:" in result.output


def test_cad_print_settings_needs_no_deck() -> None:
    printed = CliRunner().invoke(main, ["cad", "--print-settings"])
    assert printed.exit_code == 0 and "every length in mm" in printed.stdout
    missing = CliRunner().invoke(main, ["cad"])
    assert missing.exit_code == EXIT["bad input"]
    assert "Missing argument 'DECK.json'" in missing.stderr and len(missing.stderr.strip().splitlines()) == 1


def _statuses_in_help(command: list[str]) -> set[int]:
    import re

    import click

    ctx = click.Context(main)
    group: click.Command = main
    for name in command:
        assert isinstance(group, click.Group)
        found = group.get_command(ctx, name)
        assert found is not None, name
        group = found
    text = " ".join((group.help or "").split())
    said = text.split("Exit status:", 1)[1].split("Example:", 1)[0]
    return {int(n) for n in re.findall(r"(?:^|[:,]) (\d+) ", said)}


def test_the_readme_lists_every_status_each_command_can_give() -> None:
    """The documentation's table of statuses per command, row for row what each command's help
    says (its own statuses and the four every command shares)."""
    import re

    readme = (ROOT / "docs" / "reference.md").read_text("utf-8")
    table = readme.split("Which command can give which", 1)[1].split("\n\n")[1]
    rows = re.findall(r"^\| `templeforge ([a-z ]+?)(?: GAME)?` \| ([0-9, ]+) \|$", table, re.M)
    commands = {name: {int(n) for n in said.split(", ")} for name, said in rows}
    assert set(commands) == {"build", "generate", "verify", "show", "pdf", "cad", "mine", "playtest", "solve", "shapes",
                             "stones solve", "export shop", "export tts"}
    for name, statuses in commands.items():
        words = name.split()
        if words[0] in ("generate", "mine"):
            words.append("puzzle-temple")  # each game's command says the same
        assert _statuses_in_help(words) == statuses | {70, 74, 130, 141}, name
