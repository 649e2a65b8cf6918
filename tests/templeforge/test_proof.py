"""Nothing unproven printed: the seal, tampered decks refused by pdf, cad and build,
``--unverified`` marking every card, plate and page, and hand-written decks proved first."""

from __future__ import annotations

import copy
import io
import json
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from generators.common import seal
from templeforge.cli import main
from tests.data import DATA

PT = DATA / "puzzle-temple-3-seed-11.json"
STONES = DATA / "shifting-stones-12-seed-5.json"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def sealed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Each game's sample deck, sealed by ``verify --seal`` (as generate leaves a deck)."""
    out = {}
    for name, path in (("pt", PT), ("stones", STONES)):
        copy_ = tmp_path_factory.mktemp(name) / "deck.json"
        copy_.write_bytes(path.read_bytes())
        result = run("verify", str(copy_), "--seal")
        assert result.exit_code == 0, result.output + result.stderr
        out[name] = json.loads(copy_.read_text())
    return out


# -- the seal ------------------------------------------------------------------------------------


BY = "toy verifier 1, templeforge 0"


def test_a_seal_holds_until_any_value_changes_and_survives_re_indenting() -> None:
    text = seal.sealed(PT.read_text(), BY)
    data = json.loads(text)
    assert list(data)[:3] == ["format", "game", "seed"] and "seal" in data
    assert seal.state(data, BY) is seal.State.HOLDS
    assert seal.state(json.loads(json.dumps(data, indent=7)), BY) is seal.State.HOLDS
    changed = copy.deepcopy(data)
    changed["cards"][0]["faces"][0]["difficulty"] += 0.01
    assert seal.state(changed, BY) is seal.State.BROKEN
    renamed = copy.deepcopy(data)
    renamed["cards"][0]["id"] = "1"  # the same text, another type
    assert seal.state(renamed, BY) is seal.State.BROKEN
    assert seal.state(data, "toy verifier 2, templeforge 0") is seal.State.STALE
    assert seal.state(seal.unsealed(data), BY) is seal.State.NONE
    assert seal.state({**data, "seal": "yes"}, BY) is seal.State.MALFORMED
    assert seal.sealed(text, BY) == text  # sealing again changes nothing


def test_generate_writes_a_sealed_deck_that_pdf_trusts(tmp_path: Path) -> None:
    deck = tmp_path / "deck.json"
    assert run("generate", "puzzle-temple", "--cards", "2", "--seed", "3", "--workers", "1",
               "--out", str(deck)).exit_code == 0
    assert "seal" in json.loads(deck.read_text())
    result = run("pdf", str(deck), "--out", str(tmp_path / "print"), "--no-previews")
    assert result.exit_code == 0, result.output + result.stderr
    assert "sealed by its verifier: proved, not verified again" in result.output
    assert "UNVERIFIED" not in result.output


# -- tampered decks --------------------------------------------------------------------------------

Tamper = Callable[[dict[str, Any]], None]


def _grow_lock(d: dict[str, Any]) -> None:  # a lock grown by a cell, its proofs dropped
    card = d["cards"][0]
    card["lock"] = [row + "#" if i == 0 else row + "." for i, row in enumerate(card["lock"])]
    for face in card["faces"]:
        for key in ("solution", "solutions", "difficulty"):
            face.pop(key, None)


def _move_a_cell(d: dict[str, Any]) -> None:  # a solution edited
    face = d["cards"][1]["faces"][2]
    name = sorted(face["solution"])[0]
    face["solution"][name][0] = [face["solution"][name][0][0] + 9, face["solution"][name][0][1]]


def _turn_lock(d: dict[str, Any]) -> None:  # the lock turned under its stored solutions
    card = d["cards"][0]
    rows = card["lock"]
    turned = ["".join(col) for col in zip(*rows[::-1])]
    assert turned != rows
    card["lock"] = turned


def _difficulty(d: dict[str, Any]) -> None:
    d["cards"][2]["faces"][5]["difficulty"] = 1.0


def _count(d: dict[str, Any]) -> None:
    d["cards"][0]["faces"][3]["solutions"] += 5


def _same_die(d: dict[str, Any]) -> None:
    d["cards"][1]["faces"][1]["die"] = 1


def _points(d: dict[str, Any]) -> None:  # the easiest card made worth the most
    cards = sorted(d["cards"], key=lambda c: c["difficulty"])
    cards[0]["points"] = max(c["points"] for c in cards) + 1


def _window(d: dict[str, Any]) -> None:  # a window changed under its measured difficulty
    d["cards"][0]["window"] = [["Sun", "Sun"], ["Sun", "Sun"]]


def _stone_difficulty(d: dict[str, Any]) -> None:
    d["cards"][3]["difficulty"] = round(d["cards"][3]["difficulty"] + 0.5, 3)


TAMPERED: dict[str, tuple[str, Tamper]] = {
    "a lock grown by a cell, proofs dropped": ("pt", _grow_lock),
    "a solution's cell moved": ("pt", _move_a_cell),
    "the lock turned under its solutions": ("pt", _turn_lock),
    "a difficulty changed": ("pt", _difficulty),
    "a solution count changed": ("pt", _count),
    "a die number repeated": ("pt", _same_die),
    "points changed": ("stones", _points),
    "a window changed": ("stones", _window),
    "a pattern's difficulty changed": ("stones", _stone_difficulty),
}


#: The default run gives pdf every Puzzle Temple tampering and one of Shifting Stones (whose
#: verifier takes seconds), and cad one of Puzzle Temple; ``-m slow`` gives both commands all.
QUICK = {("pdf", h) for h, (g, _) in TAMPERED.items() if g == "pt"} | {
    ("pdf", "points changed"), ("cad", "a solution's cell moved")}


@pytest.mark.parametrize("command, how", [
    pytest.param(c, h, marks=() if (c, h) in QUICK else pytest.mark.slow)
    for c in ("pdf", "cad") for h in sorted(TAMPERED)])
def test_a_tampered_deck_is_refused_with_verifys_first_failing_line(sealed: dict[str, dict[str, Any]],
                                                                   tmp_path: Path, how: str, command: str) -> None:
    game, tamper = TAMPERED[how]
    data = copy.deepcopy(sealed[game])
    tamper(data)
    deck = tmp_path / "deck.json"
    deck.write_text(json.dumps(data, indent=1))
    out = tmp_path / "out"
    result = run(command, str(deck), "--out", str(out))
    assert result.exit_code == 1, (how, result.output, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "changed since it was sealed" in lines[0] and ": FAIL " in lines[0], lines
    assert "nothing printed" in lines[0]
    assert not out.exists(), "nothing written"
    said = run("verify", str(deck))
    assert said.exit_code == 1
    first = said.stderr.splitlines()[0].removeprefix("templeforge: FAIL ")
    assert f"FAIL {first}" in lines[0], "the same first failing line as verify's"


# -- hand-written decks ----------------------------------------------------------------------------


def test_a_hand_written_deck_is_verified_and_printed_with_its_proofs(sealed: dict[str, dict[str, Any]],
                                                                    tmp_path: Path) -> None:
    data = seal.unsealed(copy.deepcopy(sealed["pt"]))
    for key in ("seed", "parameters", "versions"):
        data.pop(key, None)
    for card in data["cards"]:
        for face in card["faces"]:
            for key in ("solution", "solutions", "difficulty"):
                face.pop(key)
    deck = tmp_path / "hand.json"
    deck.write_text(json.dumps(data))
    result = run("pdf", str(deck), "--out", str(tmp_path / "print"), "--no-previews")
    assert result.exit_code == 0, result.output + result.stderr
    assert "not sealed; verified now: 18 faces proved (the proofs it lacked written in)" in result.output
    assert "solved here" not in result.output, "the answer key draws the proofs the verifier found"
    assert json.loads(deck.read_text()) == data, "the designer's file is left as it was"

    result = run("verify", str(deck), "--seal")
    assert result.exit_code == 0 and "sealed with the proofs it lacked" in result.output
    faces = [f for c in json.loads(deck.read_text())["cards"] for f in c["faces"]]
    assert all("solution" in f and "difficulty" in f for f in faces)
    result = run("pdf", str(deck), "--out", str(tmp_path / "again"), "--no-previews")
    assert "sealed by its verifier" in result.output


def test_a_hand_written_pattern_list_gets_its_points_before_printing(tmp_path: Path) -> None:
    root = Path(__file__).parents[2]
    result = run("pdf", str(root / "examples" / "shifting-stones" / "patterns.json"), "--out", str(tmp_path),
                 "--no-previews")
    assert result.exit_code == 0, result.output + result.stderr
    assert "5 patterns proved (the proofs it lacked written in)" in result.output


def test_a_hand_written_deck_that_fails_is_refused_unless_unverified(tmp_path: Path) -> None:
    hand = Path(__file__).parents[2] / "examples" / "hand-deck.json"
    result = run("pdf", str(hand), "--out", str(tmp_path / "refused"), "--no-previews")
    assert result.exit_code == 1
    assert "FAIL card 1, face 3: cannot be solved" in result.stderr and not (tmp_path / "refused").exists()
    result = run("pdf", str(hand), "--out", str(tmp_path / "sketch"), "--no-previews", "--unverified")
    assert result.exit_code == 0, result.output + result.stderr
    assert "not verified (--unverified)" in result.output and "says UNVERIFIED" in result.output
    for name in ("cards.pdf", "answers.pdf", "blocks.pdf"):
        assert all("UNVERIFIED" in text for text in page_texts(tmp_path / "sketch" / name)), name


def page_texts(pdf: Path) -> list[str]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    try:
        return [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()


def test_unverified_marks_every_card_front(sealed: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    data = copy.deepcopy(sealed["stones"])
    _points(data)
    deck = tmp_path / "deck.json"
    deck.write_text(json.dumps(data))
    result = run("pdf", str(deck), "--out", str(tmp_path / "print"), "--unverified", "--no-previews")
    assert result.exit_code == 0, result.output + result.stderr
    fronts = page_texts(tmp_path / "print" / "cards.pdf")
    assert sum(t.count("UNVERIFIED") for t in fronts) >= len(data["cards"])
    # a sealed deck is proved: --unverified leaves it unmarked
    sealed_deck = tmp_path / "sealed.json"
    sealed_deck.write_text(json.dumps(sealed["stones"]))
    result = run("pdf", str(sealed_deck), "--out", str(tmp_path / "plain"), "--unverified", "--no-previews")
    assert "sealed by its verifier" in result.output
    assert not any("UNVERIFIED" in t for t in page_texts(tmp_path / "plain" / "cards.pdf"))


# -- through the toy game: cad's plates and the build's report -------------------------------------


@pytest.mark.slow
def test_unverified_plates_say_so_in_the_slicer_and_in_their_previews(toy: None, tmp_path: Path) -> None:
    deck = tmp_path / "deck.json"
    assert run("generate", "toy-tally", "--cards", "2", "--out", str(deck)).exit_code == 0
    data = json.loads(deck.read_text())
    data["cards"][0]["dots"] += 1
    deck.write_text(json.dumps(data))
    assert run("cad", str(deck), "--out", str(tmp_path / "refused")).exit_code == 1
    result = run("cad", str(deck), "--out", str(tmp_path / "models"), "--unverified")
    assert result.exit_code == 0, result.output + result.stderr
    plates = sorted((tmp_path / "models").glob("*/plate-*.3mf"))
    assert plates
    for plate in plates:
        with zipfile.ZipFile(plate) as z:
            model = z.read("3D/3dmodel.model").decode()
            assert '<metadata name="Title">UNVERIFIED: ' in model
            names = [n for n in z.namelist() if n.endswith(".config")]
            said = "".join(z.read(n).decode() for n in names) + model
            assert said.count("UNVERIFIED") >= 2
    from PIL import Image

    for png in sorted((tmp_path / "models" / "previews").rglob("*.png")):
        top = Image.open(io.BytesIO(png.read_bytes())).convert("RGB").getpixel((2, 2))
        assert top == (198, 40, 40), png


@pytest.mark.slow
def test_a_build_with_unverified_marks_the_report_and_refuses_without(toy: None, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import tests.toygame.rules as rules

    honest = rules.verify

    def failing(deck: Any, **kw: Any) -> Any:
        check = honest(deck, **kw)
        return rules.Check(check.problems + ("card 1: a dot too many (a broken verifier, for the test)",),
                           check.cards)

    monkeypatch.setattr(rules, "verify", failing)
    profile = tmp_path / "toy.toml"
    profile.write_text('[generate]\ncards = 2\n[cad]\nprofile = "ams"\n')
    args = ["build", "--game", "toy-tally", "--profile", str(profile), "--out", str(tmp_path / "out"), "--jobs", "1"]
    result = run(*args)
    assert result.exit_code == 1 and "the verify stage stopped" in result.stderr
    assert not (tmp_path / "out" / "toy-tally").exists()
    result = run(*args, "--unverified")
    assert result.exit_code == 0, result.output + result.stderr
    folder = tmp_path / "out" / "toy-tally"
    page = (folder / "report.html").read_text()
    assert '<div class="stamp">UNVERIFIED' in page and "<title>UNVERIFIED: " in page
    assert "seal" not in json.loads((folder / "deck.json").read_text()), "a deck that failed is never sealed"
    assert all("UNVERIFIED" in t for t in page_texts(folder / "cards.pdf"))
    assert "--unverified" in json.loads((folder / "manifest.json").read_text())["command"]
