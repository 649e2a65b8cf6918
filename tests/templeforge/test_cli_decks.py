"""generate puzzle-temple, verify and show through click's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from templeforge.cli import main


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def deck_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("deck") / "deck.json"
    result = run("generate", "puzzle-temple", "--cards", "6", "--seed", "4", "--workers", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert f"wrote {out}: 6 cards, 36 faces" in result.output
    assert "max/min" in result.output and "face difficulty (bits" in result.output
    return out


def test_generate_writes_a_deck_that_verifies(deck_file: Path) -> None:
    result = run("verify", str(deck_file))
    assert result.exit_code == 0, result.output
    assert "OK, every face proved and every rule holds" in result.output
    assert len([line for line in result.output.splitlines() if line.rstrip().endswith(" ok")]) == 6


def test_show_draws_the_lock_and_every_face(deck_file: Path) -> None:
    result = run("show", str(deck_file), "--card", "2")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("card 2: lock of ")
    assert [line.split(":")[0] for line in result.output.splitlines() if line.startswith("face ")] == \
        [f"face {d}" for d in range(1, 7)]


def test_show_an_unknown_card_is_a_one_line_error(deck_file: Path) -> None:
    result = run("show", str(deck_file), "--card", "99")
    assert result.exit_code == 2 and "no card 99 in the deck" in result.stderr


def test_verify_names_the_card_and_face_that_fail(deck_file: Path, tmp_path: Path) -> None:
    data = json.loads(deck_file.read_text())
    data["cards"][2]["faces"][3]["solutions"] += 5
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = run("verify", str(bad))
    assert result.exit_code == 1
    assert "card 3, face 4: stores" in result.stderr and "FAIL" in result.output


def test_verify_a_hand_written_deck_draws_its_faces(tmp_path: Path) -> None:
    hand = tmp_path / "hand.json"
    hand.write_text(json.dumps({
        "format": "templeforge.deck/1", "game": "puzzle-temple",
        "cards": [{"id": 7, "lock": ".###.\n#####\n####.\n.###.", "faces": [
            {"die": d, "blocks": blocks} for d, blocks in enumerate(
                [["I3", "L3", "T4", "P"], ["I2", "I3", "L", "Y"], ["O4", "L3", "T4", "I4"],
                 ["I3", "L3", "T4", "N"], ["S4", "L4", "I3", "L3"], ["X", "O4", "I2", "I4"]],
                start=1)]}],
    }))
    result = run("verify", str(hand))
    assert "card 7, face 1: I3 L3 T4 P: solvable, 6 solutions, not unique" in result.output
    assert "hand-written" in result.output
    assert "card 7, face 6: X O4 I2 I4: cannot be solved:" in result.output
    assert result.exit_code == 1 and "card 7, face 6: cannot be solved" in result.stderr


def test_impossible_request_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "deck.json"
    result = run("generate", "puzzle-temple", "--blocks", "tetrominoes", "--blocks-per-face", "6",
                 "--out", str(out))
    assert result.exit_code == 2 and not out.exists()
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "blocks-per-face: 6 is more than the 5 blocks in tetrominoes" in lines[0]


def test_a_budget_shortfall_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "deck.json"
    result = run("generate", "puzzle-temple", "--attempts", "20", "--designs", "1", "--workers", "1",
                 "--out", str(out))
    assert result.exit_code == 3 and not out.exists() and not list(tmp_path.iterdir())
    assert "of 36 cards" in result.stderr and "nothing written" in result.stderr


def test_a_profile_with_options_winning(tmp_path: Path) -> None:
    profile = tmp_path / "p.toml"
    profile.write_text('cards = 99\nblocks_per_face = "3"\nlock_size = [7, 5]\nseed = 2\ndifficulty = "any"\n')
    out = tmp_path / "deck.json"
    result = run("generate", "puzzle-temple", "--profile", str(profile), "--cards", "2", "--workers", "1",
                 "--out", str(out))
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["seed"] == 2 and len(data["cards"]) == 2 and data["parameters"]["difficulty"] == "any"


@pytest.mark.parametrize("text, message", [
    ("colour = 1\n", "p.toml: unknown key 'colour'"),
    ('blocks_per_face = "three"\n', "p.toml: blocks_per_face: expected N or MIN-MAX"),
    ("cards = true\n", "p.toml: cards: expected a whole number"),
    ('blocks = "hexaminoes"\n', "p.toml: blocks: unknown block set 'hexaminoes'"),
])
def test_bad_profiles_name_the_file_and_key(tmp_path: Path, text: str, message: str) -> None:
    profile = tmp_path / "p.toml"
    profile.write_text(text)
    result = run("generate", "puzzle-temple", "--profile", str(profile), "--out", str(tmp_path / "d.json"))
    assert result.exit_code == 2 and message in result.stderr


def test_a_block_set_file(tmp_path: Path) -> None:
    blocks = tmp_path / "blocks.toml"
    blocks.write_text('pieces = ["pentominoes"]\n')
    out = tmp_path / "deck.json"
    result = run("generate", "puzzle-temple", "--blocks", str(blocks), "--cards", "1", "--lock-size", "8x6",
                 "--difficulty", "any", "--workers", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert set(json.loads(out.read_text())["blocks"]) == set("FILNPTUVWXYZ")


def test_the_example_profile_and_hand_deck_read(tmp_path: Path) -> None:
    from generators.common.options import resolve
    from generators.puzzle_temple.spec import OPTIONS
    examples = Path(__file__).parents[2] / "examples"
    assert resolve(OPTIONS, {}, examples / "profiles" / "puzzle-temple-hard.toml").values["blocks_per_face"] == (4, 4)
    result = run("verify", str(examples / "hand-deck.json"))
    assert result.exit_code == 1 and "card 1, face 3: cannot be solved" in result.stderr
