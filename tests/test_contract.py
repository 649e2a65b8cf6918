"""The game contract (``generators.contract``): the shared layers name no game, and a toy
game defined only here, only through the contract, goes through every command.

Toy Tally (``tests/toygame/``) has its rules, paper and plastic modules and one command of
its own, and nothing else: no edit to a shared module. If generate, verify, show, pdf, cad,
build or the report needed more than the contract, these tests would fail. That is the proof
that a fifth game costs only its own files.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from generators import GAMES, register
from templeforge.cli import main
from tests.toygame import GAME

ROOT = Path(__file__).parents[1]
PACKAGES = ("solver", "generators", "cad", "print", "templeforge")


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def owned_by_games() -> set[Path]:
    """The registry, and every game's own files: its rules package, its print and cad
    modules and its commands."""
    out = {ROOT / "generators" / "__init__.py"}
    for g in GAMES.values():
        out.add(ROOT.joinpath(*g.rules.split(".")[:-1]))
        for path in (g.paper, g.plastic, *(p for _, p in g.commands)):
            where = ROOT.joinpath(*path.split("."))
            out.add(where if where.is_dir() else where.with_suffix(".py"))  # a package, or a module
    return out


def game_words() -> set[str]:
    """What naming a game looks like: its deck name, its title and its package's name."""
    return {w.lower() for g in GAMES.values() for w in (g.name, g.title, g.rules.split(".")[1])}


def naming(path: Path, words: set[str], root: Path = ROOT) -> list[str]:
    return [f"{path.relative_to(root)}:{i}: {w!r}" for i, line in enumerate(path.read_text().lower().splitlines(), 1)
            for w in sorted(words) if w in line]


def test_only_the_registry_and_the_games_own_files_name_a_game() -> None:
    owned = owned_by_games()
    words = game_words()
    found = [hit for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))
             if not any(p == o or o in p.parents for o in owned) for hit in naming(p, words)]
    assert not found, "shared modules name a game (reach it through its descriptor):\n" + "\n".join(found)


def test_the_name_check_catches_a_shared_module_naming_a_game(tmp_path: Path) -> None:
    title = next(iter(GAMES.values())).title
    shared = tmp_path / "report.py"
    shared.write_text(f'"""A report."""\nHELP = "the {title} deck"\n')
    assert naming(shared, game_words(), tmp_path) == [f"report.py:2: {title.lower()!r}"]


def test_the_toy_game_goes_through_every_command(toy: None, tmp_path: Path) -> None:
    deck = tmp_path / "deck.json"
    result = run("generate", "toy-tally", "--cards", "3", "--seed", "2", "--out", str(deck))
    assert result.exit_code == 0, result.output + result.stderr
    assert "3 tallies, every one proved and verified" in result.output
    data = json.loads(deck.read_text())
    assert data["game"] == "toy-tally" and len(data["cards"]) == 3

    result = run("verify", str(deck))
    assert result.exit_code == 0, result.output + result.stderr
    assert "Toy Tally" in result.output and "every tally counted again" in result.output

    result = run("show", str(deck), "--card", "2")
    assert result.exit_code == 0 and "card 2:" in result.output

    result = run("tally", "count", str(deck))
    assert result.exit_code == 0 and result.output.endswith("dots\n")

    result = run("pdf", str(deck), "--out", str(tmp_path / "pdf"), "--duplex", "long")
    assert result.exit_code == 0, result.output + result.stderr
    assert {"cards.pdf", "calibration.pdf"} <= {p.name for p in (tmp_path / "pdf").iterdir()}
    result = run("pdf", str(deck), "--out", str(tmp_path / "pdf"), "--players", "2")
    assert result.exit_code == 2 and "--players: not used for Toy Tally decks" in result.stderr

    result = run("cad", str(deck), "--out", str(tmp_path / "models"))
    assert result.exit_code == 0, result.output + result.stderr
    assert (tmp_path / "models" / "ams" / "plate-01.3mf").is_file()
    assert (tmp_path / "models" / "no-ams" / "plate-01.3mf").is_file()

    result = run("playtest", str(deck), "--games", "2", "--out", str(tmp_path / "played"))
    assert result.exit_code == 2 and "Toy Tally has no rules engine yet" in result.stderr
    assert not (tmp_path / "played").exists()

    result = run("mine", "toy-tally", "--most", "2", "--out", str(tmp_path / "tallies.parquet"))
    assert result.exit_code == 0, result.output + result.stderr
    assert "45 rows from 2 chunks" in result.output  # 9 cards of one dot, 36 of two

    data["cards"][0]["dots"] += 1  # tampered: one dot more than its cells
    deck.write_text(json.dumps(data))
    result = run("verify", str(deck))
    assert result.exit_code == 1 and "card 1:" in result.stderr


@pytest.mark.slow
def test_the_toy_game_builds_its_kit_and_report(toy: None, tmp_path: Path) -> None:
    profile = tmp_path / "toy.toml"
    profile.write_text('[generate]\ncards = 2\n[pdf]\nduplex = "long"\n[cad]\nprofile = "ams"\n')
    result = run("build", "--game", "toy-tally", "--profile", str(profile), "--out", str(tmp_path / "out"),
                 "--jobs", "1")
    assert result.exit_code == 0, result.output + result.stderr
    folder = tmp_path / "out" / "toy-tally"
    names = {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}
    assert {"deck.json", "cards.pdf", "calibration.pdf", "report.html", "manifest.json", "models/bom.csv",
            "models/ams/plate-01.3mf"} <= names
    page = (folder / "report.html").read_text()
    assert "Toy Tally: the kit" in page and "every dot of the 2 cards counted again" in page
    assert "the tally cards" in page and "tiles and dots in their filaments" in page
    assert not re.search(r"\b(lock|locks|stones?|jewels?|pockets?)\b", page, re.I), "another game's words"


def test_a_registered_name_is_taken_once(toy: None) -> None:
    from dataclasses import replace

    with pytest.raises(ValueError, match="already registered"):
        register(replace(GAME, title="Another"))
