"""Mystery of the Temples on the command line: generate (and --grids-only), verify, show, pdf
and cad, and bad input named on one line with nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from generators.mystery_of_the_temples.deck import read_deck
from templeforge.cli import main

EXAMPLES = Path(__file__).parents[2] / "examples"
BOX = str(EXAMPLES / "mystery-of-the-temples" / "box.toml")
GAME = "mystery-of-the-temples"


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("temples") / "deck.json"
    result = run("generate", GAME, "--box", BOX, "--attempts", "1", "--seed", "2", "--price", "exact", "--out",
                 str(out))  # (the default, priced by play: test_the_default_deck_is_priced_by_play)
    assert result.exit_code == 0, result.output
    assert "10 cards, 10 temple sides, 50 layers, every one proved and verified" in result.output
    return out


@pytest.mark.slow
def test_the_default_deck_is_priced_by_play(tmp_path: Path) -> None:
    out = tmp_path / "deck.json"
    result = run("generate", GAME, "--box", BOX, "--attempts", "1", "--seed", "2", "--out", str(out))
    assert result.exit_code == 0, result.output
    deck = read_deck(out)
    assert deck.parameters["price"] == "play"
    assert all(p.in_play is not None and p.in_play.chases > 0 for c in deck.cards for p in c.priced or ())
    result = run("verify", str(out))
    assert result.exit_code == 0 and "turns in play" in result.output, result.output
    rows = out.with_name("rows.json")  # read as rows, the published rules do not apply: priced exactly
    result = run("generate", GAME, "--box", BOX, "--attempts", "1", "--reading", "rows", "--out", str(rows))
    assert result.exit_code == 0, result.output
    assert "price" not in read_deck(rows).parameters
    result = run("generate", GAME, "--box", BOX, "--reading", "rows", "--price", "play", "--out", str(rows))
    assert result.exit_code == 2 and "price: play plays the published game" in result.output


def test_generate_verify_and_show_a_deck_for_a_designers_grids(made: Path) -> None:
    deck = read_deck(made)
    assert [s.name for s in deck.box.grids] == ["1A", "3B"] and deck.box.title == "two boards"
    result = run("verify", str(made))
    assert result.exit_code == 0 and "every layer paid again along its paths" in result.output, result.output
    result = run("show", str(made), "--card", "3")
    assert result.exit_code == 0 and "card 3: the yellow temple, 2-3 players" in result.output
    assert "along grid 1A" in result.output


@pytest.mark.slow
def test_print_and_model_the_deck(made: Path, tmp_path: Path) -> None:
    result = run("pdf", str(made), "--duplex", "long", "--out", str(tmp_path / "pdf"))
    assert result.exit_code == 0, result.output
    assert {"cards.pdf", "grids.pdf", "calibration.pdf"} <= {p.name for p in (tmp_path / "pdf").iterdir()}
    assert "grids.pdf: 2 pages, 2 boards" in result.output  # 1A and 3B: two boards, fronts and backs
    result = run("cad", str(made), "--out", str(tmp_path / "cad"))
    assert result.exit_code == 0, result.output
    bom = (tmp_path / "cad" / "bom.csv").read_text()
    assert "colourless crystals" in bom and (tmp_path / "cad" / "stl").is_dir()


def test_grids_designed_for_a_designers_temples(tmp_path: Path) -> None:
    out = tmp_path / "deck.json"
    result = run("generate", GAME, "--box", BOX, "--grids-only", "--attempts", "6", "--out", str(out))
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert [c["colour"] for c in data["cards"]] == ["yellow", "yellow"] and data["parameters"]["grids_only"]
    assert "suggested points" in result.output


@pytest.mark.parametrize("args, message", [
    (["--track", "2"], "--track: expected"),
    (["--layers", "10"], "layers: 10 layers do not fit a track of 9"),
    (["--points", "9-3"], "--points: expected"),
    (["--box", "nope.toml"], "nope.toml"),
    (["--reading", "columns"], "columns"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str, tmp_path: Path) -> None:
    result = run("generate", GAME, *args, "--out", str(tmp_path / "deck.json"))
    assert result.exit_code == 2 and message in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1 and not (tmp_path / "deck.json").exists()


def test_a_box_whose_grid_falls_apart_is_named(tmp_path: Path) -> None:
    box = tmp_path / "box.toml"
    box.write_text('[[grids]]\nslots = [[0, 0], [1, 0], [2, 0]]\nlines = [[0, 1]]\n')
    result = run("generate", GAME, "--box", str(box), "--out", str(tmp_path / "deck.json"))
    assert result.exit_code == 2
    assert "grids[1]: the grid is not connected" in result.output and not (tmp_path / "deck.json").exists()


def test_a_hand_written_deck_gets_its_measures(tmp_path: Path) -> None:
    deck = tmp_path / "mine.json"
    deck.write_text(json.dumps({"format": "templeforge.deck/1", "game": GAME, "cards": [
        {"id": "yellow", "colour": "yellow", "side": "4", "track": ["yellow", "yellow", "blue", "colourless", "red"],
         "layers": [{"position": 3, "points": 3}]}]}))
    result = run("verify", str(deck))
    assert result.exit_code == 0, result.output
    assert "suggested points" in result.output and "1A" in result.output


def test_a_deck_read_as_rows_generates_verifies_shows_and_prints(tmp_path: Path) -> None:
    out = tmp_path / "rows.json"
    result = run("generate", GAME, "--box", BOX, "--reading", "rows", "--attempts", "1", "--seed", "4",
                 "--out", str(out))
    assert result.exit_code == 0, result.output
    deck = read_deck(out)
    assert deck.reading == "rows"
    for card in deck.cards:
        rows = [layer.row for layer in card.temple.layers]
        assert [len(r) for r in rows] == [3, 4, 5, 4, 3]  # as long as the cheaper run to each position
        assert all(any(c != 0 for c in r) for r in rows)  # no free layer: every row asks for a colour
        assert card.temple.track == tuple(c for r in rows for c in r)
    result = run("verify", str(out))
    assert result.exit_code == 0 and "rows.json: OK" in result.output, result.output
    result = run("show", str(out), "--card", "1")
    assert result.exit_code == 0, result.output
    letters = {"colourless": "C", "red": "R", "yellow": "Y", "blue": "B", "green": "G", "purple": "P"}
    names = deck.box.names
    first = deck.cards[0].temple.layers
    drawn = [line for line in result.output.splitlines() if " points |" in line]
    assert [line.split("|")[1].split() for line in drawn] == [[letters[names[c]] for c in layer.row]
                                                              for layer in first]
    assert [int(line.split()[0]) for line in drawn] == [layer.points for layer in first]
    result = run("pdf", str(out), "--out", str(tmp_path / "pdf"))
    assert result.exit_code == 0 and (tmp_path / "pdf" / "cards.pdf").is_file(), result.output


def test_a_free_row_is_named(tmp_path: Path) -> None:
    out = tmp_path / "rows.json"
    result = run("generate", GAME, "--box", BOX, "--reading", "rows", "--attempts", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    layer = data["cards"][0]["layers"][0]
    layer["row"] = ["colourless"] * len(layer["row"])
    out.write_text(json.dumps(data))
    result = run("verify", str(out))
    assert result.exit_code == 1, result.output
    assert "card 1, layer 3: a run of colourless crystals only, paid by any crystals: the layer is free" in (
        result.output)
