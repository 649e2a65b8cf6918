"""``templeforge build`` end to end on a small deck: the files, the manifest, the cache (a
second build does nothing; a changed PDF setting redoes only the PDFs), the same bytes
whatever --jobs, an interrupted build, a deck that fails verification, and the settings."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from generators import GAMES
from generators.common.errors import RequestError
from templeforge.cli import main
from templeforge.pipeline import runner, stages
from templeforge.pipeline.settings import game_settings, read_profile
from tests.templeforge import browser

# AMS plates only: quick to build (NO-AMS splits a kit over ten plates); the stones build
# test builds NO-AMS plates, and tests/cad both profiles
SMALL = """
[kit]
players = 1

[generate]
cards = 3
seed = 4

[pdf]
{pdf}

[cad]
profile = "ams"

[playtest]
games = 6
players = 2
"""


def profile(folder: Path, pdf: str = "") -> Path:
    path = folder / "small.toml"
    path.write_text(SMALL.format(pdf=pdf))
    return path


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def state(folder: Path) -> dict:
    return json.loads((folder / "build.json").read_text())


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small kit built once, in this process (--jobs 1)."""
    root = tmp_path_factory.mktemp("build")
    result = run("build", "--profile", str(profile(root)), "--out", str(root / "out"), "--jobs", "1")
    assert result.exit_code == 0, result.output + result.stderr
    (root / "said.txt").write_text(result.output + result.stderr)
    return root


def test_a_build_writes_the_whole_kit_and_a_manifest_of_it(built: Path) -> None:
    folder = built / "out" / "puzzle-temple"
    have = files(folder)
    for name in ("deck.json", "cards.pdf", "answers.pdf", "blocks.pdf", "report.html", "manifest.json",
                 "models/bom.csv", "models/ams/plate-01.3mf",
                 "previews/contact-sheet.png", "previews/cards-01.png", "models/previews/ams/plate-01.png",
                 "playtest/playtest.json", "playtest/playtest.html", "playtest/games.parquet"):
        assert name in have, name
    assert any(n.startswith("models/stl/card-") for n in have)
    manifest = json.loads(have["manifest.json"])
    listed = {f["path"]: f for f in manifest["files"]}
    assert set(listed) == set(have) - {"manifest.json", "build.json"}
    for name, entry in listed.items():
        assert entry["bytes"] == len(have[name])
        assert entry["sha256"] == hashlib.sha256(have[name]).hexdigest()
    assert manifest["command"].startswith("templeforge build --game puzzle-temple --profile ")
    assert {"templeforge", "python", "cadquery", "reportlab", "ortools"} <= set(manifest["versions"])
    assert not (built / "out" / ".puzzle-temple.partial").exists()
    deck = json.loads(have["deck.json"])
    assert deck["game"] == "puzzle-temple" and len(deck["cards"]) == 3 and deck["seed"] == 4
    assert "seal" in deck, "the build's deck is sealed: pdf and cad print it without proving it twice"
    # card backs for long-edge duplex, and the sheet that calibrates them, by default
    assert "calibration.pdf" in have and "backs: long" in (built / "said.txt").read_text()


def test_the_report_holds_the_verdict_the_cards_the_plots_and_the_bill(built: Path) -> None:
    page = (built / "out" / "puzzle-temple" / "report.html").read_text()
    assert "Verified:" in page and "every face of the 3 cards (18 faces)" in page
    assert page.count('<table class="sortable">') >= 2
    assert "<svg" in page and "faces that use each block" in page and "face difficulty" in page
    assert 'href="models/previews/ams/plate-01.png"' in page and "data:image/png;base64," in page
    assert "models/no-ams/" not in page, "a kit of AMS plates only does not show NO-AMS ones"
    assert "block I2" in page and "grams (solid)" in page
    # each plate's swaps, from bom.csv: one-colour plates (blocks, jewels) swap nothing
    said = re.search(r"AMS: (\d+) filament swaps? in all \(about \d+ g purged\), (\d+) plates? of (\d+) with none",
                     page)
    assert said and int(said[2]) >= 12 and int(said[3]) > int(said[2]), "the card plates swap, the others not"
    assert "templeforge build --game puzzle-temple --profile" in page
    assert "build.json" in page and "seconds" not in page, "the stages' times live in build.json only"
    assert "http://" not in page and "https://" not in page, "the report must open offline"
    # printing guidance from the build's settings, and each plate's filaments from bom.csv
    assert "<h2>How to print</h2>" in page and "<strong>100% scale</strong>" in page
    assert "flipped on the long edge" in page and "Paper: A4 (210 x 297 mm)" in page
    assert "Bambu Lab X1 (256 x 256 mm bed, clear of its excluded front-left corner)" in page
    assert "<td>AMS slot 1</td>" in page and "<td>AMS slot 2</td>" in page
    # tiers sort as easy < medium < hard, not as the alphabet has them
    tiers = re.findall(r'<td class="" data-v="(\d)">(easy|medium|hard|-)</td>', page)
    assert tiers and all(int(rank) == ("-", "easy", "medium", "hard").index(word) for rank, word in tiers)


@pytest.mark.slow
def test_a_second_build_does_nothing_and_a_pdf_setting_redoes_only_the_pdfs(built: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    shutil.copytree(built / "out", out, copy_function=shutil.copy2)
    folder = out / "puzzle-temple"
    before = files(folder)
    result = run("build", "--profile", str(profile(built)), "--out", str(out), "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    assert "nothing to redo" in result.output  # how fast: bench/build.py (no test reads a clock)
    assert files(folder) == before
    cad_file = folder / "models" / "ams" / "plate-01.3mf"
    inode = cad_file.stat().st_ino
    changed = profile(tmp_path, pdf='paper = "letter"')
    result = run("build", "--profile", str(changed), "--out", str(out), "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    assert "redid pdf, report" in result.output, result.output
    after = files(folder)
    assert after["cards.pdf"] != before["cards.pdf"]
    assert {n: d for n, d in after.items() if n.startswith("models/")} == \
           {n: d for n, d in before.items() if n.startswith("models/")}
    assert cad_file.stat().st_ino == inode, "the 3D kit was carried over, not rebuilt"
    assert after["deck.json"] == before["deck.json"]


@pytest.mark.slow
def test_two_jobs_give_the_same_bytes_as_one(built: Path, tmp_path: Path) -> None:
    result = run("build", "--profile", str(profile(built)), "--out", str(tmp_path / "out"), "--jobs", "2")
    assert result.exit_code == 0, result.output + result.stderr
    one = files(built / "out" / "puzzle-temple")
    two = files(tmp_path / "out" / "puzzle-temple")
    assert set(one) == set(two)
    for name in one:
        if name != "build.json":  # the stages' times; every other file, report and manifest included, is the same
            assert one[name] == two[name], name


@pytest.mark.parametrize(("jobs", "delay", "sent"), [
    pytest.param(2, 0.3, signal.SIGINT, marks=pytest.mark.slow),  # test_faults.py signals builds at random
    pytest.param(2, 3.0, signal.SIGINT, marks=pytest.mark.slow),  # later, in the 3D stage
    pytest.param(1, 1.0, signal.SIGTERM, marks=pytest.mark.slow)])
def test_an_interrupted_build_leaves_the_previous_one_intact(built: Path, tmp_path: Path, jobs: int, delay: float,
                                                             sent: int) -> None:
    """Early in the 3D stage the main process is still importing CadQuery: a signal must
    not break that (it is held until the next part), nor anything later."""
    out = tmp_path / "out"
    shutil.copytree(built / "out", out)
    before = files(out / "puzzle-temple")
    command = [sys.executable, "-m", "templeforge", "build", "--profile", str(profile(built)), "--out", str(out),
               "--jobs", str(jobs), "--force"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stderr is not None
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if "cad: started" in line:
            time.sleep(delay)
            proc.send_signal(sent)
            break
    rest, tail = proc.communicate(timeout=120)
    assert proc.returncode == 130, (seen, tail)
    message = tail.strip().splitlines()[-1]
    assert "stopped: interrupted" in message and "keeps the previous build" in message
    assert re.search(r"the (cad|pdf) stage", message), message
    assert files(out / "puzzle-temple") == before
    assert sorted(p.name for p in out.iterdir()) == ["puzzle-temple"], "no partial folder left"


def test_a_deck_that_fails_verification_stops_the_build_naming_the_card_and_face(
        built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deck = json.loads((built / "out" / "puzzle-temple" / "deck.json").read_text())
    card = deck["cards"][1]
    face = card["faces"][2]
    face["blocks"] = [face["blocks"][0]]  # one block cannot fill the lock
    face.pop("solution", None)
    face.pop("solutions", None)
    face.pop("difficulty", None)
    broken = (json.dumps(deck) + "\n").encode()
    monkeypatch.setattr(stages, "generate", lambda settings, progress: (
        stages.Made({"deck.json": broken}), stages.Checked(*stages.checked(settings.game, broken))))
    sections = read_profile(profile(built))
    settings = game_settings(GAMES["puzzle-temple"], sections, "small.toml", built, jobs=1)
    with pytest.raises(runner.StageFailed) as failed:
        runner.build_game(settings, tmp_path / "out", command="test", jobs=1)
    assert failed.value.stage == "verify" and failed.value.status == 1
    assert f"card {card['id']}" in str(failed.value) and "face 3" in str(failed.value)
    assert not (tmp_path / "out" / "puzzle-temple").exists()
    assert not (tmp_path / "out" / ".puzzle-temple.partial").exists()


def test_the_profile_names_every_unknown_section_key_and_bad_value(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[generate]\ncards = 3\ncolour = 'red'\nout = 'x'\n[pdf]\npaper = 'a9'\n[cad]\nclearance = -1\n"
                   "printer = 'mk9'\n[paint]\nx = 1\n")
    result = run("build", "--profile", str(bad), "--out", str(tmp_path / "o"))
    assert result.exit_code == 2 and "unknown section [paint]" in result.stderr
    bad.write_text("[generate]\ncards = 3\ncolour = 'red'\nout = 'x'\n[pdf]\npaper = 'a9'\n[cad]\nclearance = -1\n"
                   "printer = 'mk9'\n")
    with pytest.raises(RequestError) as err:
        game_settings(GAMES["puzzle-temple"], read_profile(bad), str(bad), tmp_path)
    text = "\n".join(err.value.problems)
    for expected in ("[generate] out: the build sets it (use --out)", "unknown key 'colour'", "paper",
                     "clearance", "mk9"):
        assert expected in text, expected
    result = run("build", "--profile", str(bad), "--out", str(tmp_path / "o"))
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()


def test_the_command_line_seed_wins_over_the_profile(tmp_path: Path) -> None:
    sections = read_profile(profile(tmp_path))
    settings = game_settings(GAMES["puzzle-temple"], sections, "small.toml", tmp_path, seed=9)
    assert settings.generate.values["seed"] == 9 and settings.generate.raw["seed"] == 9
    assert game_settings(GAMES["puzzle-temple"], sections, "small.toml", tmp_path).generate.values["seed"] == 4


def test_a_games_own_sub_table_wins_and_shared_keys_go_to_the_games_that_have_them(tmp_path: Path) -> None:
    path = tmp_path / "both.toml"
    path.write_text('[generate]\ncards = 6\nblocks = "tetrominoes"\n[generate.shifting-stones]\nmix = "1:2,2:2,5:1"\n'
                    'cards = 5\n[kit.puzzle-temple]\nplayers = 2\n[cad.shifting-stones]\nstone_size = 40\n')
    sections = read_profile(path)
    temple = game_settings(GAMES["puzzle-temple"], sections, str(path), tmp_path)
    stones = game_settings(GAMES["shifting-stones"], sections, str(path), tmp_path)
    assert temple.generate.values["cards"] == 6 and temple.generate.values["blocks"].name == "tetrominoes"
    assert stones.generate.values["cards"] == 5 and "blocks" not in stones.generate.values
    assert (temple.pdf.values["players"], stones.pdf.values["players"]) == (2, 4)
    assert (temple.cad.values["players"], stones.cad.values["players"]) == (2, 4), "[kit] reaches paper and plastic"
    assert stones.cad.values["physical"].stone_size == 40 and temple.cad.values["physical"].stone_size == 30
    path.write_text("[generate]\ncards = 6\n[generate.chess]\ncards = 2\n")
    with pytest.raises(RequestError, match=r"\[generate.chess\]: not a game"):
        game_settings(GAMES["shifting-stones"], read_profile(path), str(path), tmp_path)
    path.write_text("[generate.shifting-stones]\nblocks = 'ubongo12'\n")
    with pytest.raises(RequestError, match=r"\[generate.shifting-stones\]: unknown key 'blocks'"):
        game_settings(GAMES["shifting-stones"], read_profile(path), str(path), tmp_path)


def test_a_folder_that_no_build_made_is_not_replaced(tmp_path: Path) -> None:
    mine = tmp_path / "out" / "puzzle-temple"
    mine.mkdir(parents=True)
    (mine / "notes.txt").write_text("mine")
    result = run("build", "--profile", str(profile(tmp_path)), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2 and "notes.txt: not made by the build" in result.stderr
    assert (mine / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize("where", ["models/photo-of-my-print.jpg", "previews/notes.txt", "models/ams/mine.3mf",
                                   "notes.txt", ".old"])
def test_a_file_the_build_did_not_make_is_never_lost_even_with_force(built: Path, tmp_path: Path,
                                                                     where: str) -> None:
    out = tmp_path / "out"
    shutil.copytree(built / "out", out)
    folder = out / "puzzle-temple"
    mine = out / ".puzzle-temple.old" / "notes.txt" if where == ".old" else folder / where
    mine.parent.mkdir(parents=True, exist_ok=True)
    mine.write_text("mine")
    before = files(out)
    for extra in ([], ["--force"]):
        result = run("build", "--profile", str(profile(built)), "--out", str(out), "--jobs", "1", *extra)
        assert result.exit_code == 2, result.output + result.stderr
        assert f"{mine}: not made by the" in result.stderr and len(result.stderr.strip().splitlines()) == 1
        assert files(out) == before, "nothing touched"


@pytest.mark.parametrize("where", [".puzzle-temple.partial", ".puzzle-temple.old", "puzzle-temple",
                                   "puzzle-temple/models"])
def test_a_symlink_where_the_build_writes_is_refused_and_never_followed(built: Path, tmp_path: Path,
                                                                        where: str) -> None:
    out = tmp_path / "out"
    shutil.copytree(built / "out", out)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "precious.txt").write_text("keep me")
    link = out / where
    if link.exists():
        shutil.rmtree(link)
    link.symlink_to(elsewhere, target_is_directory=True)
    result = run("build", "--profile", str(profile(built)), "--out", str(out), "--jobs", "1", "--force")
    assert result.exit_code == 2 and f"{link}: a symlink where a build writes" in result.stderr, result.stderr
    assert (elsewhere / "precious.txt").read_text() == "keep me" and link.is_symlink()


def test_a_second_build_into_the_same_folder_is_refused_while_one_runs(built: Path, tmp_path: Path) -> None:
    from templeforge.pipeline import guard

    out = tmp_path / "out"
    shutil.copytree(built / "out", out)
    before = files(out)
    with guard.locked(out):  # a build holding the folder
        result = run("build", "--profile", str(profile(built)), "--out", str(out), "--jobs", "1")
        assert result.exit_code == 2 and "another build is writing there (process" in result.stderr
        assert files(out) == {**before, guard.LOCK: str(os.getpid()).encode()}
    assert not (out / guard.LOCK).exists(), "the lock goes with the build"
    result = run("build", "--profile", str(profile(built)), "--out", str(out), "--jobs", "1")
    assert result.exit_code == 0 and not (out / guard.LOCK).exists()



PROBE = """<script>window.__errors = [];
addEventListener("error", function (e) { __errors.push(String(e.message || (e.target && e.target.src))); }, true);
var __error = console.error;
console.error = function () { __errors.push([].join.call(arguments, " ")); __error.apply(console, arguments); };
</script>"""

CHECK = """<script>addEventListener("load", function () {
  // after "load" every image has loaded or failed: complete, and decoded if it has a width
  var images = [].slice.call(document.images);
  var bad = images.filter(function (i) { return !i.complete || i.naturalWidth === 0; })
                  .map(function (i) { return "not decoded: " + i.alt; });
  var table = document.querySelector("table.sortable");
  var heads = [].slice.call(table.tHead.rows[0].cells);
  var column = heads.findIndex(function (th) { return th.textContent === "mean difficulty"; });
  heads[column].click();
  var sorted = [].map.call(table.tBodies[0].rows, function (r) { return parseFloat(r.cells[column].dataset.v); });
  document.title = "CHECK " + JSON.stringify({errors: __errors, bad: bad, images: images.length,
                                               svgs: document.querySelectorAll("svg").length, sorted: sorted});
});</script>"""


@pytest.mark.skipif(browser.CHROMIUM is None, reason=browser.NEEDS)
def test_the_report_opens_in_headless_chromium_with_no_errors_and_every_image_decoded(built: Path) -> None:
    result = browser.probe(built / "out" / "puzzle-temple" / "report.html", head=PROBE, body=CHECK)
    assert result["errors"] == [] and result["bad"] == []
    assert result["images"] >= 5 and result["svgs"] >= 5
    assert result["sorted"] == sorted(result["sorted"]) and len(result["sorted"]) == 3


@pytest.mark.slow
def test_the_default_build_makes_the_whole_default_kit(tmp_path: Path) -> None:
    result = run("build", "--game", "all", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output + result.stderr
    folder = tmp_path / "puzzle-temple"
    deck = json.loads((folder / "deck.json").read_text())
    assert len(deck["cards"]) == 36 and deck["seed"] == 0
    manifest = json.loads((folder / "manifest.json").read_text())
    names = {f["path"] for f in manifest["files"]}
    assert {"cards.pdf", "answers.pdf", "blocks.pdf", "report.html", "models/bom.csv"} <= names
    assert sum(n.startswith("models/ams/plate-") for n in names) >= 10
    assert "every face of the 36 cards (216 faces)" in (folder / "report.html").read_text()
    stones = json.loads((tmp_path / "shifting-stones" / "deck.json").read_text())
    assert len(stones["cards"]) == 72 and stones["parameters"]["mix"] == "1:28,2:26,3:13,5:5"
    # Monolyth's own scale (the verifier's OURS_BOUNDS and OURS_BAND) is its default deck's
    from generators.monolyth.verify import OURS_BAND, OURS_BOUNDS

    monolyth = json.loads((tmp_path / "monolyth" / "deck.json").read_text())
    turns = [c["difficulty"]["turns"] for c in monolyth["cards"]]
    assert tuple(monolyth["parameters"]["tier_bounds"]) == OURS_BOUNDS and (min(turns), max(turns)) == OURS_BAND


def test_what_paper_and_plastic_share_is_set_once_in_kit(tmp_path: Path) -> None:
    path = tmp_path / "kit.toml"
    path.write_text("[kit]\npitch = 18\nplayers = 3\n")
    settings = game_settings(GAMES["puzzle-temple"], read_profile(path), str(path), tmp_path)
    assert settings.pdf.values["pitch"] == 18 == settings.cad.values["physical"].pitch
    assert settings.pdf.values["players"] == 3 == settings.cad.values["players"]
    path.write_text("[pdf]\npitch = 12\n[cad]\npitch = 20\nplayers = 2\n[kit]\ncolour = 'red'\n")
    with pytest.raises(RequestError) as err:
        game_settings(GAMES["puzzle-temple"], read_profile(path), str(path), tmp_path)
    said = "\n".join(err.value.problems)
    assert "[pdf] pitch: paper and plastic share it: set it once, in [kit]" in said
    assert "[cad] pitch: paper and plastic share it" in said and "[cad] players: paper and plastic" in said
    assert "[kit]: unknown key 'colour' (expected players, pitch)" in said
    path.write_text("[kit]\npitch = 40\n")
    with pytest.raises(RequestError, match=r"\[kit\] pitch: expected at most 30"):
        game_settings(GAMES["puzzle-temple"], read_profile(path), str(path), tmp_path)


@pytest.mark.parametrize("game", ["puzzle-temple", "monolyth"])
def test_a_profile_is_checked_whole_whichever_game_is_built(game: str, tmp_path: Path) -> None:
    """Another game's sub-table is held to the same rules (``[pdf.monolyth] players`` was
    accepted by a Puzzle Temple build), and a number written as text is refused, not read
    (``cards = "2"`` made two cards)."""
    def refused(profile: str) -> str:
        path = tmp_path / "p.toml"
        path.write_text(profile)
        with pytest.raises(RequestError) as err:
            game_settings(GAMES[game], read_profile(path), str(path), tmp_path)
        return "\n".join(err.value.problems)

    said = refused('[pdf.monolyth]\nplayers = 2\n[cad.shifting-stones]\nout = "x"\n')
    assert "[pdf.monolyth] players: paper and plastic share it: set it once, in [kit]" in said
    assert "[cad.shifting-stones] out: the build sets it (use --out)" in said
    said = refused('[generate]\ncards = "2"\nseed = 3\n[kit]\nplayers = "2"\n')
    assert "cards: expected a number, got the text '2' (write cards = 2, without quotes)" in said
    assert "[kit] players: expected a number, got the text '2'" in said


def test_without_a_terminal_a_long_stage_says_what_it_is_doing_every_so_often() -> None:
    import io

    from templeforge.pipeline.display import Plain
    from templeforge.pipeline.runner import Record

    out = io.StringIO()
    shown = Plain("toy", out, every=0.2)
    shown.start("cad")
    shown.update("cad", 3, 40, "card 3")
    # wait for two beats however long a busy machine takes to give the beat its turns (no
    # wall-clock expectation): what is tested is what the beat says, and that it repeats
    while out.getvalue().count("[toy] cad: working") < 2:
        time.sleep(0.05)
    shown.finish("cad", Record("key", lines=["made"], seconds=0.9))
    shown.close()
    lines = out.getvalue().splitlines()
    assert lines[0] == "[toy] cad: started" and lines[-1] == "[toy] cad: made (0.9 s)"
    beats = [line for line in lines[1:-1] if line.startswith("[toy] cad: working: card 3, 3 of 40 (")]
    assert len(beats) >= 2, lines


def test_the_seed_is_the_same_integer_from_the_command_line_or_the_profile(tmp_path: Path) -> None:
    path = tmp_path / "seed.toml"
    path.write_text("[generate]\nseed = 7\n")
    from_profile = game_settings(GAMES["puzzle-temple"], read_profile(path), str(path), tmp_path)
    from_option = game_settings(GAMES["puzzle-temple"], {}, "profile", tmp_path, seed=7)
    assert from_profile.generate.raw["seed"] == from_option.generate.raw["seed"] == 7
    assert runner.key_of("generate", from_profile.generate.raw) == runner.key_of("generate", from_option.generate.raw)


def test_a_full_disk_in_the_middle_of_a_stage_keeps_the_previous_build_and_names_the_file(
        built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    out = tmp_path / "out"
    shutil.copytree(built / "out", out)
    before = files(out)
    real = runner._write

    def full(folder: Path, made: dict[str, bytes]) -> list[str]:
        if "cards.pdf" in made:  # the PDF stage's files: the disk fills up half-way
            raise OSError(errno.ENOSPC, "No space left on device", str(folder / "cards.pdf"))
        return real(folder, made)

    monkeypatch.setattr(runner, "_write", full)
    changed = profile(tmp_path, pdf='paper = "letter"')
    result = run("build", "--profile", str(changed), "--out", str(out), "--jobs", "1")
    assert result.exit_code == 73, result.output + result.stderr
    said = result.stderr.strip().splitlines()[-1]
    assert "the pdf stage stopped: cannot write" in said and "cards.pdf: No space left on device" in said
    assert "keeps the previous build" in said
    assert files(out) == before and not (out / ".puzzle-temple.partial").exists()


def test_a_build_killed_between_its_two_renames_gets_its_previous_build_back(built: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    shutil.copytree(built / "out", out)
    before = files(out / "puzzle-temple")
    (out / "puzzle-temple").rename(out / ".puzzle-temple.old")  # where SIGKILL would leave it
    result = run("build", "--profile", str(profile(built)), "--out", str(out), "--jobs", "1")
    assert result.exit_code == 0 and "nothing to redo" in result.output, result.output + result.stderr
    assert files(out / "puzzle-temple") == before and not (out / ".puzzle-temple.old").exists()


def test_duplex_on_the_command_line_wins_over_the_profile_and_is_in_the_command(tmp_path: Path) -> None:
    from generators import GAMES
    from templeforge.commands.build import canonical
    from templeforge.pipeline.settings import game_settings

    sections = {"pdf": {"duplex": "short"}}
    info = GAMES["puzzle-temple"]
    assert game_settings(info, {}, "p.toml", tmp_path).pdf.values["duplex"] == "long"
    assert game_settings(info, sections, "p.toml", tmp_path).pdf.values["duplex"] == "short"
    assert game_settings(info, sections, "p.toml", tmp_path, duplex="fold").pdf.values["duplex"] == "gutter"
    assert game_settings(info, sections, "p.toml", tmp_path, duplex="none").pdf.values["duplex"] == "none"
    assert canonical("puzzle-temple", None, 3, duplex="none") == "templeforge build --game puzzle-temple --seed 3 " \
                                                                   "--duplex none"


def test_a_full_disk_while_taking_the_lock_names_it_and_leaves_no_lock(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A rebuild on a full disk once exited 74 ("standard output") and left .templeforge.lock
    behind: writing the holder's number into the lock failed, with no file named."""
    import errno

    from generators.common.files import CannotWrite
    from templeforge.pipeline import guard

    def full(*args: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(guard.os, "pwrite", full)
    with pytest.raises(CannotWrite, match=r"\.templeforge\.lock: cannot write: No space left on device"):
        with guard.locked(tmp_path / "out"):
            pass
    assert list((tmp_path / "out").iterdir()) == []


def test_a_write_that_fails_part_way_names_its_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk mid-build said "cannot write None": write() names no file, the build does."""
    import errno

    def full(self: Path, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", full)
    with pytest.raises(OSError) as caught:
        runner._write(tmp_path / "kit", {"models/plate.3mf": b"x"})
    assert caught.value.errno == errno.ENOSPC
    assert caught.value.filename == str(tmp_path / "kit" / "models" / "plate.3mf")


def test_a_build_plays_its_deck_when_the_profile_asks_and_the_report_says_what_it_found(built: Path) -> None:
    folder = built / "out" / "puzzle-temple"
    said = json.loads((folder / "playtest" / "playtest.json").read_text())
    deck = (folder / "deck.json").read_bytes()
    assert said["games"] == 6 and said["players"] == 2 and said["seed"] == 4  # the deck's seed by default
    assert said["deck_sha256"] == hashlib.sha256(deck).hexdigest()
    page = (folder / "report.html").read_text()
    assert "<h2>Playtests</h2>" in page and 'href="playtest/playtest.html"' in page
    assert all(f in page for f in said["findings"][:1])
    assert "playtest" in state(folder)["stages"]


def test_the_playtest_section_is_checked_and_off_for_a_game_without_rules_yet(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[playtest]\ngames = -1\nplayers = 7\nagents = "clever"\nlength = 3\n')
    with pytest.raises(RequestError) as caught:
        game_settings(GAMES["puzzle-temple"], read_profile(bad), str(bad), tmp_path)
    said = " ".join(caught.value.problems)
    for named in ("unknown key 'length'", "[playtest] games", "[playtest] agents", "[playtest] players"):
        assert named in said, named
    good = tmp_path / "good.toml"
    good.write_text("[kit]\nplayers = 3\n[playtest]\ngames = 10\n")
    settings = game_settings(GAMES["puzzle-temple"], read_profile(good), str(good), tmp_path)
    assert settings.playtest.values == {"games": 10, "players": 3, "agents": "greedy", "seed": 0}
    assert game_settings(GAMES["monolyth"], read_profile(good), str(good), tmp_path).playtest.values == {
        "games": 10, "players": 3, "agents": "greedy", "seed": 0}
    unplayed = dataclasses.replace(GAMES["monolyth"], engine="")  # a game with no rules engine yet
    assert game_settings(unplayed, read_profile(good), str(good), tmp_path).playtest.values == {"games": 0}
    assert game_settings(GAMES["puzzle-temple"], {}, "none", tmp_path).playtest.values == {"games": 0}


def hand_written(deck: dict) -> dict:
    """A deck as a designer writes it: each face only its die and blocks, no seal."""
    plain = {k: v for k, v in deck.items() if k != "seal"}
    plain["cards"] = [{**card, "faces": [{"die": f["die"], "blocks": f["blocks"]} for f in card["faces"]]}
                      for card in deck["cards"]]
    return plain


@pytest.mark.slow  # three builds (about 27 s): the default run stays within its three minutes
def test_build_takes_a_designers_deck_proves_completes_and_seals_it(built: Path, tmp_path: Path) -> None:
    made = json.loads((built / "out" / "puzzle-temple" / "deck.json").read_text())
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(hand_written(made), indent=1) + "\n")
    out = tmp_path / "out"
    result = run("build", "--deck", str(mine), "--profile", str(profile(built)), "--out", str(out), "--jobs", "1")
    assert result.exit_code == 0, result.output + result.stderr
    folder = out / "puzzle-temple"
    kit = json.loads((folder / "deck.json").read_text())
    assert "seal" in kit and [c["id"] for c in kit["cards"]] == [c["id"] for c in made["cards"]]
    assert all("solutions" in f and "difficulty" in f for c in kit["cards"] for f in c["faces"])
    assert json.loads(mine.read_text()) == hand_written(made)  # the designer's file is left as it was
    assert f"3 cards from {mine} (verified and sealed)" in result.stderr
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["command"] == f"templeforge build --deck {mine} --profile {profile(built)}"
    assert "3 cards, from mine.json, built by" in (folder / "report.html").read_text()
    again = run("build", "--deck", str(mine), "--profile", str(profile(built)), "--out", str(out), "--jobs", "1")
    assert "nothing to redo" in again.output, again.output + again.stderr
    mine.write_text(json.dumps(made) + "\n")  # now the generated deck, sealed: kept as it is
    third = run("build", "--deck", str(mine), "--profile", str(profile(built)), "--out", str(out), "--jobs", "1")
    assert third.exit_code == 0 and "redid generate" in third.output, third.output + third.stderr
    assert "3 cards from" in third.stderr and "(sealed)" in third.stderr
    assert (folder / "deck.json").read_bytes() == mine.read_bytes()


def test_build_of_a_designers_deck_that_fails_names_the_card_and_writes_nothing(built: Path, tmp_path: Path) -> None:
    deck = hand_written(json.loads((built / "out" / "puzzle-temple" / "deck.json").read_text()))
    card = deck["cards"][1]
    card["faces"][2]["blocks"] = [card["faces"][2]["blocks"][0]]  # one block cannot fill the lock
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(deck))
    result = run("build", "--deck", str(mine), "--profile", str(profile(built)), "--out", str(tmp_path / "out"))
    assert result.exit_code == 1
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith("templeforge: puzzle-temple: the verify stage stopped:") and f"card {card['id']}" in line
    assert not (tmp_path / "out" / "puzzle-temple").exists()


@pytest.mark.parametrize(("extra", "said"), [
    (["--game", "monolyth"], "--game monolyth: {deck} is a puzzle-temple deck; leave --game out or name that game"),
    (["--game", "all"], "--game all: {deck} is a puzzle-temple deck; leave --game out or name that game"),
    (["--seed", "3"], "--seed: {deck} is built as it is, not generated: leave --seed out"),
])
def test_build_of_a_designers_deck_refuses_a_game_or_seed_it_cannot_follow(built: Path, tmp_path: Path,
                                                                           extra: list[str], said: str) -> None:
    deck = built / "out" / "puzzle-temple" / "deck.json"
    result = run("build", "--deck", str(deck), *extra, "--out", str(tmp_path / "out"))
    assert result.exit_code == 2 and result.stderr == f"templeforge: {said.format(deck=deck)}\n"
    assert not (tmp_path / "out").exists()


def test_build_of_a_deck_file_that_is_not_a_deck_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "notes.json"
    bad.write_text('{"format": "templeforge.deck/1", "game": "chess", "cards": []}')
    result = run("build", "--deck", str(bad), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2 and str(bad) in result.stderr and "game: expected one of" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not (tmp_path / "out").exists()
