"""Shifting Stones on the command line: generate, verify, show, pdf, cad and stones solve,
and bad input named on one line with nothing written."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from generators.shifting_stones.deck import Deck, read_deck, write_deck
from generators.shifting_stones.pattern import parse_grid, parse_pattern
from generators.shifting_stones.space import space
from generators.shifting_stones.tiles import PUBLISHED
from templeforge.cli import main

GRID = "Sun Fish Bird / Horse Boat Seed / Tree Seed Horse"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.mark.slow  # a 16-card deck generated and verified twice; the small decks cover the command
def test_generate_a_solo_deck_from_its_mix_and_verify_it(tmp_path: Path) -> None:
    out = tmp_path / "solo.json"
    result = run("generate", "shifting-stones", "--mix", "1:8,2:4,3:3,5:1", "--seed", "2", "--attempts", "40",
                 "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "16 cards, 16 patterns" in result.output and "Spearman" in result.output
    deck = read_deck(out)
    assert [c.points for c in deck.cards].count(5) == 1 and len(deck.cards) == 16
    result = run("verify", str(out))
    assert result.exit_code == 0 and "OK, every pattern feasible" in result.output


def test_verify_a_hand_written_list_and_show_it(tmp_path: Path) -> None:
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps({"format": "templeforge.deck/1", "game": "shifting-stones", "cards": [
        {"id": "A", "window": [["Sun", "any"], ["any", "Fish"]]},
        {"id": "B", "window": [["Horse", "Horse", "Horse"]]}]}))
    result = run("verify", str(mine))
    assert result.exit_code == 0, result.output
    assert "would earn" in result.output and "absolute scale" in result.output
    result = run("show", str(mine), "--card", "B")
    assert result.exit_code == 0 and "Horse  Horse  Horse" in result.output


def test_a_hand_written_list_with_its_own_points_gets_an_agreement_report(tmp_path: Path) -> None:
    """A designer's points that run against difficulty are reported beside the absolute
    scale (shares, Spearman, each inverted pair with its gap) with exit 0; --strict fails
    them."""
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps({"format": "templeforge.deck/1", "game": "shifting-stones", "cards": [
        {"id": "A", "window": [["Horse", "Seed"]], "points": 2},       # 1.212 actions: the scale says 1
        {"id": "B", "window": [["Sun", "any", "Fish"]], "points": 1},  # 2.991: harder than A, worth less
        {"id": "C", "window": [["Horse", "Horse", "Horse"]], "points": 3},
        {"id": "E", "window": [["Tree", "Boat"]], "points": 1}]}))
    result = run("verify", str(mine))
    assert result.exit_code == 0, result.output
    assert "your points beside the absolute scale: 50% of 4 cards worth what the scale gives them, 75% " \
           "within one step" in result.output
    assert "1 inverted pair" in result.output
    row = next(line for line in result.output.splitlines() if line.startswith("B "))
    assert row.split() == ["B", "1", "2.991", "A", "2", "1.212", "1.779"]
    strict = run("verify", str(mine), "--strict")
    assert strict.exit_code == 1 and "card B is worth 1 but harder (2.991) than card A, worth 2" in strict.stderr


def test_verify_fails_a_deck_whose_points_run_against_difficulty(small_stones_deck: Deck, tmp_path: Path) -> None:
    from dataclasses import replace

    cards = list(small_stones_deck.cards)
    cards[0], cards[-1] = replace(cards[0], points=cards[-1].points), replace(cards[-1], points=cards[0].points)
    bad = tmp_path / "bad.json"
    write_deck(replace(small_stones_deck, cards=tuple(cards)), bad)
    result = run("verify", str(bad))
    assert result.exit_code == 1 and "harder" in result.output


@pytest.mark.parametrize("args, message", [
    (["generate", "shifting-stones", "--cards", "10", "--mix", "1:5,2:6"], "mix: 1:5,2:6 adds up to 11 cards"),
    (["generate", "shifting-stones", "--mix", "1-5"], "--mix: expected POINTS:CARDS"),
    (["generate", "shifting-stones", "--stones", "0-3"], "--stones: expected 1 <= MIN"),
    (["generate", "shifting-stones", "--tiles", "nope.toml"], "nope.toml"),
    (["stones", "solve", "--grid", GRID, "--pattern", "Sun Dog"], "--pattern: row 1, column 2: unknown face 'Dog'"),
    (["stones", "solve", "--grid", "Sun Fish / Bird Boat", "--pattern", "Sun"], "--grid: a grid is 3 rows of 3"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str, tmp_path: Path) -> None:
    result = run(*args, *(["--out", str(tmp_path / "d.json")] if args[0] == "generate" else []))
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert not list(tmp_path.iterdir())


def test_a_tile_set_that_does_not_fill_nine_places_is_named(tmp_path: Path) -> None:
    tiles = tmp_path / "tiles.toml"
    tiles.write_text('title = "few"\n[[tiles]]\nfaces = ["Ash", "Elm"]\ncount = 4\n[[tiles]]\nfaces = ["Oak", "Yew"]\n'
                     'count = 4\n')
    result = run("generate", "shifting-stones", "--tiles", str(tiles), "--out", str(tmp_path / "d.json"))
    assert result.exit_code == 2 and "counts add up to 8, not the grid's 9 places" in result.output


def test_a_mix_the_patterns_cannot_fill_is_a_shortfall(tmp_path: Path) -> None:
    result = run("generate", "shifting-stones", "--stones", "1", "--cards", "9", "--mix", "1:9", "--attempts", "20",
                 "--out", str(tmp_path / "d.json"))
    assert result.exit_code == 3 and "nothing written" in result.output
    assert not list(tmp_path.iterdir())


def test_solve_prints_the_fewest_actions_each_drawn_and_ends_showing_the_pattern() -> None:
    result = run("stones", "solve", "--grid", GRID, "--pattern", "Moon any / Fish Fish")
    assert result.exit_code == 0, result.output
    moves = int(re.search(r"(\d+) actions?, the fewest", result.output).group(1))
    sp = space(PUBLISHED)
    pattern = parse_pattern("Moon any / Fish Fish", PUBLISHED, "p")
    dist = sp.distances(sp.shows(pattern.rows))
    assert moves == dist[sp.state(parse_grid(GRID, PUBLISHED, "g"))] > 0
    assert len(re.findall(r"^\d+\. (swap|flip) ", result.output, re.M)) == moves
    last = result.output.rsplit("here:", 1)[1]
    assert last.count("[") == 3   # the three stones of the pattern, marked


def test_solve_says_when_no_grid_can_show_the_pattern() -> None:
    result = run("stones", "solve", "--grid", "random", "--pattern", "Sun Moon")
    assert result.exit_code == 1 and "it needs 2 Sun/Moon tiles" in result.output


@pytest.mark.slow  # the stones build test prints and models a deck too
def test_pdf_and_cad_for_a_stones_deck(small_stones_deck: Deck, tmp_path: Path) -> None:
    deck = tmp_path / "deck.json"
    write_deck(small_stones_deck, deck)
    result = run("pdf", str(deck), "--out", str(tmp_path / "pdf"), "--no-previews")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "pdf" / "cards.pdf").is_file() and (tmp_path / "pdf" / "stones.pdf").is_file()
    result = run("pdf", str(deck), "--pitch", "12", "--out", str(tmp_path / "pdf2"))
    assert result.exit_code == 2 and "--pitch: not used for Shifting Stones decks" in result.output
    result = run("cad", str(deck), "--profile", "no-ams", "--out", str(tmp_path / "models"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "models" / "no-ams" / "plate-01.3mf").is_file()


@pytest.mark.slow  # verifies every example through the CLI
def test_the_examples_read_and_verify(tmp_path: Path) -> None:
    from generators.shifting_stones.tiles import read_tiles

    root = Path(__file__).parents[2] / "examples" / "shifting-stones"
    seasons = read_tiles(root / "seasons.toml")
    assert seasons.title == "Seasons" and sum(seasons.counts) == 9 and len(seasons.faces) == 8
    result = run("verify", str(root / "patterns.json"))
    assert result.exit_code == 0 and "would earn" in result.output
    result = run("generate", "shifting-stones", "--tiles", str(root / "seasons.toml"), "--cards", "8",
                 "--attempts", "24", "--out", str(tmp_path / "d.json"))
    assert result.exit_code == 0 and "Spring" in result.output
    assert read_deck(tmp_path / "d.json").tiles == seasons
