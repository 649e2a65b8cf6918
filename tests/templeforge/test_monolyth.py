"""Monolyth on the command line: generate, verify, show, and bad input named on one line
with nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generators.monolyth.deck import read_deck
from templeforge.cli import main

EXAMPLES = Path(__file__).parents[2] / "examples"


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args))


@pytest.mark.slow
def test_generate_verify_and_show_a_small_deck(tmp_path: Path) -> None:
    out = tmp_path / "deck.json"
    result = run("generate", "monolyth", "--cards", "2", "--attempts", "4", "--prophecies", "0", "--seed", "3",
                 "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "2 cards, 2 structures, every one proved and verified" in result.output and "match rule" in result.output
    deck = read_deck(out)
    assert all(c.witness for c in deck.cards) and not deck.prophecies
    result = run("verify", str(out))
    assert result.exit_code == 0 and "every structure built again" in result.output
    result = run("show", str(out), "--card", "1")
    assert result.exit_code == 0 and "card 1:" in result.output and "step 1:" in result.output


def test_a_hand_written_list_is_verified_and_shown(tmp_path: Path) -> None:
    result = run("verify", str(EXAMPLES / "monolyth-structures.json"))
    assert result.exit_code == 0, result.output
    result = run("show", str(EXAMPLES / "monolyth-structures.json"), "--card", "towers")
    assert result.exit_code == 0 and "3 . . 3" in result.output and "step 4:" in result.output


@pytest.mark.parametrize("args, message", [
    (["generate", "monolyth", "--height", "5"], "--height: expected"),
    (["generate", "monolyth", "--rule", "touch"], "touch"),
    (["generate", "monolyth", "--pool", "nope.toml"], "nope.toml"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str, tmp_path: Path) -> None:
    result = run(*args, "--out", str(tmp_path / "deck.json"))
    assert result.exit_code == 2 and message in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1 and not (tmp_path / "deck.json").exists()


def test_a_pool_whose_piece_is_not_connected_is_named(tmp_path: Path) -> None:
    pool = tmp_path / "pool.toml"
    pool.write_text('title = "mine"\n[[pieces]]\nname = "gap"\ncolour = "red"\ncells = [[0, 0, 0], [2, 0, 0]]\n')
    result = run("generate", "monolyth", "--pool", str(pool), "--out", str(tmp_path / "deck.json"))
    assert result.exit_code == 2
    assert "pieces[1]: cells: the cubes of 'gap' are not a connected polycube" in result.output
    assert not (tmp_path / "deck.json").exists()


@pytest.mark.slow
def test_a_coloured_list_is_verified_shown_and_printed_with_its_colours_in_words(tmp_path: Path) -> None:
    from pypdf import PdfReader

    deck = str(EXAMPLES / "monolyth-coloured.json")
    result = run("verify", deck)
    assert result.exit_code == 0, result.output
    assert "12 red" in result.output and "1 yellow, 4 blue" in result.output
    result = run("show", deck, "--card", "blue top")
    assert result.exit_code == 0 and "Y yellow, B blue; . any colour" in result.output
    result = run("pdf", deck, "--out", str(tmp_path / "pdf"))
    assert result.exit_code == 0, result.output
    text = " ".join(p.extract_text() for p in PdfReader(tmp_path / "pdf" / "cards.pdf").pages)
    assert "every cube of the north wall red (R)" in " ".join(text.split())
    assert "R" in text.split()  # the letters on the red cubes


def test_more_coloured_cards_than_cards_is_one_line(tmp_path: Path) -> None:
    result = run("generate", "monolyth", "--cards", "2", "--coloured", "3", "--out", str(tmp_path / "deck.json"))
    assert result.exit_code == 2 and "coloured: 3 coloured cards, but the deck has only 2 cards" in result.output
    assert len(result.output.strip().splitlines()) == 1 and not (tmp_path / "deck.json").exists()
