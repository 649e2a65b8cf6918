"""``templeforge pdf`` through click's CliRunner: the files, bad options, rebuilds."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from templeforge.cli import main

ROOT = Path(__file__).parents[2]


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def deck_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("deck") / "deck.json"
    result = run("generate", "puzzle-temple", "--cards", "3", "--seed", "2", "--workers", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_pdf_writes_cards_answers_blocks_and_previews(deck_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "print"
    result = run("pdf", str(deck_file), "--out", str(out))
    assert result.exit_code == 0, result.output
    written = files(out)
    assert {"cards.pdf", "answers.pdf", "blocks.pdf", "previews/contact-sheet.png", "previews/cards-01.png",
            "previews/answers-01.png", "previews/blocks-01.png"} <= set(written)
    assert "calibration.pdf" not in written
    assert all(data.startswith(b"%PDF-") for name, data in written.items() if name.endswith(".pdf"))
    assert all(data.startswith(b"\x89PNG") for name, data in written.items() if name.endswith(".png"))
    assert "cards.pdf: " in result.output and "a page on a4" in result.output
    assert f"to {out}/" in result.output


def test_a_rebuild_gives_the_same_bytes_and_drops_stale_previews(deck_file: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    assert run("pdf", str(deck_file), "--out", str(first), "--duplex", "gutter").exit_code == 0
    (second / "previews").mkdir(parents=True)
    (second / "previews" / "cards-99.png").write_bytes(b"old")
    assert run("pdf", str(deck_file), "--out", str(second), "--duplex", "gutter").exit_code == 0
    assert files(first) == files(second)


def test_duplex_printing_comes_with_a_calibration_sheet(deck_file: Path, tmp_path: Path) -> None:
    result = run("pdf", str(deck_file), "--out", str(tmp_path), "--duplex", "short", "--back-offset", "0.5,-1",
                 "--no-previews")
    assert result.exit_code == 0, result.output
    assert sorted(files(tmp_path)) == ["answers.pdf", "blocks.pdf", "calibration.pdf", "cards.pdf"]
    assert "calibration.pdf: print it duplex" in result.output


def test_an_unverified_hand_written_deck_is_printed_with_answers_found_here(tmp_path: Path) -> None:
    # two of its faces cannot be solved: only --unverified prints it (tests/templeforge/test_proof.py)
    result = run("pdf", str(ROOT / "examples" / "hand-deck.json"), "--out", str(tmp_path), "--no-previews",
                 "--players", "0", "--unverified")
    assert result.exit_code == 0, result.output
    assert "solved here" in result.output and "with no solution (marked)" in result.output
    assert "blocks.pdf" not in files(tmp_path)


@pytest.mark.parametrize("args, message", [
    (["--size", "huge"], "--size: unknown card size 'huge'"),
    (["--size", "mini-euro"], "size: card 1 needs at least"),
    (["--size", "a5", "--duplex", "gutter"], "do not fit on a4"),
    (["--paper", "a9"], "--paper: unknown paper 'a9'"),
    (["--bleed", "-1"], "--bleed: expected at least 0, got -1"),
    (["--pitch", "5"], "--pitch: expected at least 8, got 5"),
    (["--players", "-2"], "--players: expected at least 0, got -2"),
    (["--margin", "31"], "--margin: expected auto or a margin of 0-30 mm, got '31'"),
    (["--safe", "-1"], "--safe: expected at least 0, got -1"),
    (["--duplex", "both"], "--duplex: expected one of none, long, short, gutter"),
    (["--back-offset", "9,0", "--duplex", "long"], "--back-offset: expected each of X,Y within +-5 mm"),
    (["--back-offset", "1,0"], "back-offset: shifts duplex backs; it has no effect with --duplex none"),
    (["--back-offset", "x"], "--back-offset: expected X,Y in millimetres"),
])
def test_a_bad_option_fails_at_once_with_one_line_and_writes_nothing(deck_file: Path, tmp_path: Path,
                                                                    args: list[str], message: str) -> None:
    out = tmp_path / "print"
    result = run("pdf", str(deck_file), "--out", str(out), *args)
    assert result.exit_code == 2, result.output
    assert len(result.stderr.strip().splitlines()) == 1
    assert message in result.stderr
    assert not out.exists()


def test_a_file_that_is_not_a_deck_is_bad_input(tmp_path: Path) -> None:
    bad = tmp_path / "deck.json"
    bad.write_text("{\"format\": \"templeforge.deck/1\", \"game\": \"chess\", \"cards\": []}")
    result = run("pdf", str(bad), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2 and "chess" in result.stderr
    assert not (tmp_path / "out").exists()


def test_braces_in_out_are_only_characters(deck_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--out 'o{x}'`` is a folder of that name, not a format string (it gave exit 70)."""
    monkeypatch.chdir(tmp_path)
    result = run("pdf", str(deck_file), "--out", "o{x}", "--no-previews")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "o{x}" / "cards.pdf").is_file()
