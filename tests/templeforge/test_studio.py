"""``templeforge studio``: the token, the paths, the live proofs and saving, through the
server's routes, and a designer's session in headless Chromium (draw a lock, see it proved,
save, and ``templeforge verify`` accepts the file)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.templeforge.browser import CHROMIUM

DATA = Path(__file__).parents[1] / "data"
SAMPLE = DATA / "puzzle-temple-3-seed-11.json"
CHROMEDRIVER = shutil.which("chromedriver")

# a lock of 2x5 and six faces that tile it (found with the studio's own proof)
FACES = [["I3", "L3", "I4"], ["I2", "I3", "L"], ["I2", "O4", "L4"], ["I2", "I4", "L4"], ["I2", "I3", "P"],
         ["I3", "L3", "L4"]]
LOCK = ["#####", "#####"]


def hand_written(folder: Path) -> Path:
    """A designer's deck: the sample's blocks and its first card, without proofs or parameters."""
    data = json.loads(SAMPLE.read_text("utf-8"))
    first = data["cards"][0]
    deck = {"format": data["format"], "game": data["game"], "blocks": data["blocks"],
            "cards": [{"id": 1, "lock": first["lock"],
                       "faces": [{"die": f["die"], "blocks": f["blocks"]} for f in first["faces"]]}]}
    path = folder / "mine.json"
    path.write_text(json.dumps(deck, indent=1), "utf-8")
    return path


def stones_deck(folder: Path) -> Path:
    """A designer's pattern deck: two windows of the published stones, no points."""
    deck = {"format": "templeforge.deck/1", "game": "shifting-stones",
            "cards": [{"id": 1, "window": [["Tree"], ["Horse"]]}, {"id": 2, "window": [["Sun", "any", "Fish"]]}]}
    path = folder / "stones.json"
    path.write_text(json.dumps(deck, indent=1), "utf-8")
    return path


def structures_deck(folder: Path) -> Path:
    """A designer's structure list: one complete level, targets only."""
    deck = {"format": "templeforge.deck/1", "game": "monolyth", "cards": [{"id": 1, "target": ["1111"] * 4}]}
    path = folder / "structures.json"
    path.write_text(json.dumps(deck, indent=1), "utf-8")
    return path


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[Any]:
    from starlette.testclient import TestClient

    from templeforge.studio.server import application

    hand_written(tmp_path)
    stones_deck(tmp_path)
    structures_deck(tmp_path)
    shutil.copy(SAMPLE, tmp_path / "generated.json")
    (tmp_path / "notes.json").write_text("[1, 2]", "utf-8")
    with TestClient(application(tmp_path, "secret")) as c:
        yield c


def test_every_route_refuses_a_request_without_the_token(client: Any) -> None:
    for method, url in (("get", "/"), ("get", "/static/studio.js"), ("get", "/api/files"),
                        ("get", "/api/deck?path=mine.json"), ("post", "/api/prove"), ("post", "/api/save")):
        assert getattr(client, method)(url).status_code == 403, url
        assert getattr(client, method)(url, headers={"X-Studio-Token": "wrong"}).status_code == 403, url


def test_the_first_page_sets_the_cookie_the_page_then_calls_with(client: Any) -> None:
    page = client.get("/?token=secret")
    assert page.status_code == 200 and "studio.js" in page.text
    files = client.get("/api/files").json()["files"]  # the cookie alone now
    paths = ["generated.json", "mine.json", "stones.json", "structures.json"]
    assert [f["path"] for f in files] == paths  # notes.json: not a deck
    assert [f["game"] for f in files] == ["Puzzle Temple", "Puzzle Temple", "Shifting Stones", "Monolyth"]
    games = client.get("/api/files").json()["games"]
    assert [g["title"] for g in games] == ["Puzzle Temple", "Shifting Stones", "Monolyth", "Mystery of the Temples"]
    assert all(f["editable"] for f in files)


@pytest.mark.parametrize("path", ["../mine.json", "/etc/passwd.json", "sub/../../x.json", "mine.txt", 7])
def test_only_deck_files_under_the_folder_are_read_or_written(client: Any, path: Any) -> None:
    headers = {"X-Studio-Token": "secret"}
    answer = client.post("/api/prove", headers=headers, json={"path": path, "draft": {"grid": [], "lists": []}})
    assert answer.status_code == 400 and "path" in answer.json()["error"]
    saved = client.post("/api/save", headers=headers, json={"path": path, "card": None, "draft": {}})
    assert saved.status_code == 400


def test_a_body_too_large_is_refused(client: Any) -> None:
    answer = client.post("/api/prove", headers={"X-Studio-Token": "secret"},
                         content=b'{"path": "mine.json", "pad": "' + b"x" * 70_000 + b'"}')
    assert answer.status_code == 413


def test_a_draft_is_proved_face_by_face_with_a_solution_to_draw(client: Any) -> None:
    headers = {"X-Studio-Token": "secret"}
    deck = client.get("/api/deck?path=mine.json", headers=headers).json()
    assert deck["editor"]["lists"]["choices"][:3] == ["I2", "I3", "L3"]
    draft = {"grid": LOCK, "lists": FACES}
    answer = client.post("/api/prove", headers=headers, json={"path": "mine.json", "draft": draft, "edit": 4}).json()
    assert answer["verdict"] == "proved" and answer["edit"] == 4
    assert [i["status"] for i in answer["items"]] == ["solved"] * 6
    first = answer["items"][0]
    assert first["solutions"] == 4 and not first["unique"]
    assert sorted((r, c) for r, c, _ in first["overlay"]) == [(r, c) for r in range(2) for c in range(5)]
    # a face whose blocks cannot tile the lock: the solver's proof, not a guess
    draft["lists"] = [["I2", "O4", "T4"]] + FACES[1:]
    answer = client.post("/api/prove", headers=headers, json={"path": "mine.json", "draft": draft}).json()
    assert answer["verdict"] == "not proved"
    assert answer["items"][0]["status"] == "unsolvable" and "cannot be solved" in answer["items"][0]["text"]
    # one the editor cannot read: the field named
    answer = client.post("/api/prove", headers=headers, json={"path": "mine.json",
                                                                "draft": {"grid": ["#x"], "lists": FACES}}).json()
    assert answer["verdict"] == "invalid" and answer["headline"].startswith("grid:")


def test_a_generated_decks_rules_are_shown_as_the_designer_draws(client: Any) -> None:
    headers = {"X-Studio-Token": "secret"}
    deck = client.get("/api/deck?path=generated.json", headers=headers).json()
    draft = deck["cards"][0]["draft"]
    draft["lists"][0], draft["lists"][5] = draft["lists"][5], draft["lists"][0]  # hardest face first
    answer = client.post("/api/prove", headers=headers, json={"path": "generated.json", "draft": draft}).json()
    assert answer["verdict"] == "not proved"
    assert "face 1 (difficulty 5.77) is harder than face 2" in answer["headline"]


def test_a_saved_card_is_verified_and_sealed_and_a_failing_one_is_kept_unsealed(client: Any, tmp_path: Path) -> None:
    from generators.common import seal
    from generators.common.proof import verifier
    from generators.puzzle_temple import rules

    headers = {"X-Studio-Token": "secret"}
    answer = client.post("/api/save", headers=headers,
                         json={"path": "mine.json", "card": None, "draft": {"grid": LOCK, "lists": FACES}}).json()
    assert answer["sealed"] and answer["cards"] == 2
    data = json.loads((tmp_path / "mine.json").read_text("utf-8"))
    from generators import GAMES

    assert seal.state(data, verifier(rules, GAMES["puzzle-temple"])) is seal.State.HOLDS
    assert data["cards"][1]["faces"][0]["solutions"] == 4  # the proofs written in
    bad = {"grid": LOCK, "lists": [["I2", "O4", "T4"]] + FACES[1:]}
    answer = client.post("/api/save", headers=headers, json={"path": "mine.json", "card": 2, "draft": bad}).json()
    assert not answer["sealed"] and "card 2, face 1: cannot be solved" in answer["problems"][0]
    data = json.loads((tmp_path / "mine.json").read_text("utf-8"))
    assert "seal" not in data and data["cards"][1]["faces"][0]["blocks"] == ["I2", "O4", "T4"]


def test_a_pattern_is_measured_as_it_is_painted_and_saved_with_its_measures(client: Any, tmp_path: Path) -> None:
    headers = {"X-Studio-Token": "secret"}
    deck = client.get("/api/deck?path=stones.json", headers=headers).json()
    palette = {p["label"]: p["code"] for p in deck["editor"]["grid"]["palette"]}
    assert list(palette)[:3] == ["Sun", "Moon", "Fish"] and palette["any face"] == "*"
    assert deck["cards"][1]["draft"] == {"grid": [palette["Sun"] + "*" + palette["Fish"]]}

    def prove(grid: list[str], card: Any = None) -> dict[str, Any]:
        return client.post("/api/prove", headers=headers, json={"path": "stones.json", "card": card,
                                                                "draft": {"grid": grid}}).json()

    # card 2 measured as itself, and the same window as a new card: it asks for what card 2 does
    assert prove(deck["cards"][1]["draft"]["grid"], 2)["verdict"] == "proved"
    again = prove(deck["cards"][1]["draft"]["grid"])
    assert again["verdict"] == "not proved" and "card 2 asks for the same thing" in again["items"][1]["text"]
    # a place left empty inside the window is a stone of any face: the same window again
    assert "card 2 asks" in prove([palette["Sun"] + "." + palette["Fish"]])["items"][1]["text"]
    # the two faces of one stone cannot both show: the reason, not a number
    assert "2 Sun/Moon tiles face up, the set has 1" in prove([palette["Sun"] + palette["Moon"]])["headline"]
    fish = palette["Fish"]
    answer = prove([fish + "." + fish])
    assert answer["verdict"] == "proved" and answer["headline"].startswith("worth ")
    assert "actions from a random grid on average" in answer["items"][0]["text"]
    assert answer["items"][1]["label"] == "Nearest"
    picture = client.get("/api/front.png?path=stones.json&index=1", headers=headers)
    assert picture.status_code == 200 and picture.content.startswith(b"\x89PNG")
    from PIL import Image

    card = Image.open(io.BytesIO(picture.content))
    assert 0.6 < card.width / card.height < 0.8  # a poker card upright, cut along its trim
    assert client.get("/api/front.png?path=stones.json&index=2", headers=headers).status_code == 400  # 2 cards
    assert client.get("/api/front.png?path=stones.json&index=-1", headers=headers).status_code == 400
    saved = client.post("/api/save", headers=headers,
                        json={"path": "stones.json", "card": None, "draft": {"grid": [fish + "." + fish]}}).json()
    assert saved["sealed"], saved
    data = json.loads((tmp_path / "stones.json").read_text("utf-8"))
    assert data["cards"][2]["window"] == [["Fish", "any", "Fish"]]
    assert all("points" in c and "difficulty" in c for c in data["cards"])  # measured and priced on saving


def test_a_structure_is_built_and_measured_as_it_is_painted(client: Any, tmp_path: Path) -> None:
    headers = {"X-Studio-Token": "secret"}
    deck = client.get("/api/deck?path=structures.json", headers=headers).json()
    assert [p["code"] for p in deck["editor"]["grid"]["palette"]] == ["1", "2", "3"]  # contain: heights 1-3
    assert deck["table"] == {"columns": ["turns", "bound (perfect play)", "cubes asked"],
                             "rows": [{"id": 1, "values": [None, None, 16]}]}  # a designer's list: not measured

    def prove(grid: list[str], card: Any = None) -> dict[str, Any]:
        return client.post("/api/prove", headers=headers, json={"path": "structures.json", "card": card,
                                                                "draft": {"grid": grid}}).json()

    wall = ["3333", "1111", "1111", "1111"]  # the published card: a level and a wall on one side
    answer = prove(wall)
    assert answer["verdict"] == "proved" and answer["headline"].startswith("buildable; ")
    build = answer["items"][0]
    assert build["status"] == "solved" and len(build["frames"]) >= 6
    last = {(r, c): int(h) for r, c, h, _ in build["frames"][-1]["overlay"]}
    assert last == {(r, c): int(wall[r][c]) for r in range(4) for c in range(4)}  # the build reaches the target
    assert all(any(changed for *_, changed in f["overlay"]) for f in build["frames"])  # each step marks its cubes
    # each step drawn in isometric view: the plate, then three faces a cube (the card's cubes not yet built as
    # pale ghosts), the step's own cubes outlined in red, the finished build in its pieces' colours
    cubes = sum(int(h) for row in wall for h in row)
    for frame in build["frames"]:
        assert frame["picture"].startswith('<svg xmlns="http://www.w3.org/2000/svg"')
        assert frame["picture"].count("<polygon") == 1 + 3 * cubes
        placed = int(frame["caption"].rsplit(", ", 1)[1].split()[0])  # "step 2 of 9: L4 (red), 4 cubes"
        assert frame["picture"].count('stroke="#C0392B"') == 3 * placed
    assert build["picture"] == build["frames"][-1]["picture"] and "#E4E9EE" not in build["picture"]
    assert "#E4E9EE" in build["frames"][0]["picture"]  # after the first step, most of the card still to build
    assert "turns (±" in answer["items"][1]["text"]
    # card 1, turned: the same structure; a column left free is not asked for
    assert "card 1 asks for the same structure" in prove(["1111"] * 4)["items"][-1]["text"]
    assert prove(["1111"] * 4, 1)["verdict"] == "proved"
    assert prove(["1...", "....", "....", "...."])["verdict"] == "proved"
    assert prove(["4111"])["verdict"] == "invalid"  # above the monolith's height: the column named
    # colours, a layer a level: the north wall's top red, drawn tinted on the cubes still to build
    layers = deck["editor"]["grid"]["layers"]
    assert [layer["key"] for layer in layers] == ["grid", "level1", "level2", "level3"]
    assert [p["code"] for p in layers[3]["palette"]] == ["R", "Y", "G", "B", "P"] and layers[3]["reach"] == 3
    red = client.post("/api/prove", headers=headers, json={"path": "structures.json", "card": None, "draft": {
        "grid": wall, "level3": ["RRRR"]}}).json()
    assert red["verdict"] == "proved"
    assert "#ECB78C" in red["items"][0]["frames"][0]["picture"]  # red (#D55E00) made pale: a cube asked red
    low = client.post("/api/prove", headers=headers, json={"path": "structures.json", "card": None, "draft": {
        "grid": wall, "level3": ["R...", "R..."]}}).json()
    assert low["verdict"] == "invalid" and "level its column does not reach" in low["headline"]
    saved = client.post("/api/save", headers=headers,
                        json={"path": "structures.json", "card": None, "draft": {"grid": wall}}).json()
    assert saved["sealed"], saved
    data = json.loads((tmp_path / "structures.json").read_text("utf-8"))
    assert data["cards"][1]["target"] == wall and data["cards"][1]["witness"]


def test_a_temple_side_is_checked_on_every_grid_side_as_it_is_painted(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from templeforge.studio.server import application

    shutil.copy(DATA / "mystery-of-the-temples-hand-written.json", tmp_path / "temples.json")
    headers = {"X-Studio-Token": "secret"}
    with TestClient(application(tmp_path, "secret")) as client:
        deck = client.get("/api/deck?path=temples.json", headers=headers).json()
        palette = {p["label"]: p["code"] for p in deck["editor"]["grid"]["palette"]}
        first = deck["cards"][0]
        assert first["id"] == "red-2-3" and first["draft"]["grid"][1] == "..34653.."

        def prove(grid: list[str], card: Any = "red-2-3") -> dict[str, Any]:
            return client.post("/api/prove", headers=headers, json={"path": "temples.json", "card": card,
                                                                    "draft": {"grid": grid}}).json()

        answer = prove(first["draft"]["grid"])
        assert answer["verdict"] == "proved" and answer["headline"].startswith("red temple, 2-3 players: 5 of 5")
        layer = answer["items"][0]
        assert layer["label"] == "Layer at 3" and "payable on every grid side" in layer["text"]
        assert "1A " in layer["text"] and "4B " in layer["text"] and "suggests" in layer["text"]
        assert all(i["mean"] > 0 for i in answer["items"])
        red = palette["red"]
        assert prove([red * 9, "....*...."])["items"][0]["text"].startswith("red-red-red-red-red or")
        bad = prove([first["draft"]["grid"][0], "..3" + red + "..."])
        assert bad["verdict"] == "invalid" and bad["headline"].startswith("layer at position 4")
        track = palette["yellow"] * 2 + palette["blue"] + first["draft"]["grid"][0][3:]
        saved = client.post("/api/save", headers=headers, json={
            "path": "temples.json", "card": "red-2-3", "draft": {"grid": [track, first["draft"]["grid"][1]]}}).json()
        assert saved["sealed"], saved
    data = json.loads((tmp_path / "temples.json").read_text("utf-8"))
    assert data["cards"][0]["track"][:3] == ["yellow", "yellow", "blue"]
    assert data["cards"][0]["layers"][0]["difficulty"]["actions"] > 0  # measured by the verifier on saving


def test_a_deck_from_scratch_is_written_when_its_first_card_is_saved(client: Any, tmp_path: Path) -> None:
    headers = {"X-Studio-Token": "secret"}
    games = client.get("/api/files", headers=headers).json()["games"]
    assert {"name": "puzzle-temple", "title": "Puzzle Temple"} in games
    refused = client.post("/api/new", headers=headers, json={"path": "mine.json", "game": "puzzle-temple"})
    assert refused.status_code == 409 and "exists already" in refused.json()["error"]
    unknown = client.post("/api/new", headers=headers, json={"path": "x.json", "game": "chess"})
    assert unknown.status_code == 400 and "'chess'" in unknown.json()["error"]
    fresh = client.post("/api/new", headers=headers, json={"path": "locks.json", "game": "puzzle-temple"}).json()
    assert fresh["cards"] == [] and len(fresh["editor"]["lists"]["choices"]) == 12  # the ubongo12 blocks
    assert not (tmp_path / "locks.json").exists()
    draft = {"grid": LOCK, "lists": FACES}
    answer = client.post("/api/prove", headers=headers,
                         json={"path": "locks.json", "game": "puzzle-temple", "draft": draft}).json()
    assert answer["verdict"] == "proved"
    saved = client.post("/api/save", headers=headers,
                        json={"path": "locks.json", "game": "puzzle-temple", "card": None, "draft": draft}).json()
    assert saved["sealed"] and saved["cards"] == 1
    assert "locks.json" in [f["path"] for f in client.get("/api/files", headers=headers).json()["files"]]
    verified(tmp_path / "locks.json")


def test_a_newer_proof_stops_the_older_one() -> None:
    import threading

    from templeforge.studio.worker import Runner

    runner = Runner()
    try:
        assert runner.run(("time", "sleep", (0,)), 60) == ("ok", None)  # warm
        answers: list[Any] = []
        slow = threading.Thread(target=lambda: answers.append(runner.run(("time", "sleep", (60,)), 120)))
        slow.start()
        while not runner._busy:  # the slow job is in the worker
            time.sleep(0.01)
        assert runner.run(("math", "factorial", (5,)), 60) == ("ok", 120)
        slow.join()
        assert answers == [None]  # superseded, not waited for
        assert runner.run(("math", "sqrt", (-1,)), 60) == ("error", "ValueError: math domain error")
    finally:
        runner.close()


def test_a_proof_the_designer_stops_answers_nothing_and_the_next_one_runs() -> None:
    import threading

    from templeforge.studio.worker import Runner

    runner = Runner()
    try:
        assert runner.stop() is False  # nothing running
        answers: list[Any] = []
        slow = threading.Thread(target=lambda: answers.append(runner.run(("time", "sleep", (60,)), 120)))
        slow.start()
        while not runner._busy:
            time.sleep(0.01)
        assert runner.stop() is True
        slow.join()
        assert answers == [None] and not runner._busy
        assert runner.run(("math", "factorial", (4,)), 60) == ("ok", 24)  # a fresh worker takes the next
    finally:
        runner.close()


def test_stopping_a_proof_through_the_route_says_whether_one_ran(client: Any) -> None:
    assert client.post("/api/prove/stop", json={}, headers=TOKEN).json() == {"stopped": False}
    assert client.post("/api/prove/stop", json={}).status_code == 403


def test_the_worker_warms_every_game_by_proving_its_starting_draft(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    from generators import GAMES
    from templeforge.studio.worker import warm

    for game in GAMES.values():
        proved: list[Any] = []
        studio = importlib.import_module(game.studio)

        def prove(deck: Any, data: Any, *args: Any, real: Any = studio.prove, seen: list[Any] = proved) -> None:
            seen.append(real(deck, data, *args))

        monkeypatch.setattr(studio, "prove", prove)
        assert warm(game.studio)
        assert len(proved) == 1 and proved[0]["verdict"] in ("proved", "not proved"), (game.name, proved)


def test_jobs_in_turn_wait_for_each_other() -> None:
    import threading

    from templeforge.studio.worker import Runner

    runner = Runner(supersede=False)
    try:
        answers: list[Any] = []
        first = threading.Thread(target=lambda: answers.append(runner.run(("time", "sleep", (1,)), 120)))
        first.start()
        while not runner._busy:
            time.sleep(0.01)
        assert runner.run(("time", "sleep", (0,)), 60, polite=True) is None  # a warm-up waits for no one
        assert runner.run(("math", "factorial", (5,)), 120) == ("ok", 120)  # waited its turn
        first.join()
        assert answers == [("ok", None)]  # and stopped nobody
    finally:
        runner.close()


def test_the_command_refuses_a_missing_target_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "templeforge", "studio", str(tmp_path / "none.json"),
                           "--no-browser"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == f"templeforge: error: {tmp_path / 'none.json'}: no such deck file or folder"


@contextlib.contextmanager
def serving(deck: Path) -> Iterator[str]:
    """The studio on ``deck``, as the command starts it: its address."""
    process = subprocess.Popen([sys.executable, "-m", "templeforge", "studio", str(deck), "--no-browser"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        assert first.startswith("studio: http://127.0.0.1:"), first + (process.stderr.read() if process.stderr else "")
        yield first.split(" ", 1)[1].strip()
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture()
def browser() -> Iterator[Any]:
    """Headless Chromium through its driver."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM  # type: ignore[assignment]
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


class Page:
    """What a test does on the studio's page: click (again if the page redrew the element) and
    wait for a verdict (as long as a busy machine needs: the answer's time is not tested)."""

    def __init__(self, driver: Any) -> None:
        from selenium.webdriver.support.ui import WebDriverWait

        self.driver = driver
        self.wait = WebDriverWait(driver, 120)

    def click(self, css: str) -> None:
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.common.by import By

        for _ in range(20):
            try:
                self.driver.find_element(By.CSS_SELECTOR, css).click()
                return
            except StaleElementReferenceException:
                time.sleep(0.05)
        raise AssertionError(f"{css}: kept going stale")

    def texts(self, css: str) -> list[str]:
        from selenium.webdriver.common.by import By

        return [e.text for e in self.driver.find_elements(By.CSS_SELECTOR, css)]

    def verdict(self, text: str) -> None:
        from selenium.webdriver.common.by import By

        self.wait.until(lambda d: d.find_element(By.ID, "verdict").get_attribute("data-verdict") == text)

    def saved(self) -> None:
        from selenium.webdriver.common.by import By

        self.wait.until(lambda d: d.find_element(By.ID, "saved").get_attribute("data-sealed") == "true")


NEEDS_BROWSER = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="needs Chromium and its driver (Debian: apt-get install chromium chromium-driver); .ci/run installs them")


@contextlib.contextmanager
def opened(browser: Any, deck: Path) -> Iterator[Page]:
    """The studio on ``deck``, open in the browser, its first card proved."""
    page = Page(browser)
    with serving(deck) as url:
        browser.get(url)
        page.verdict("proved")
        yield page


@contextlib.contextmanager
def temples_open(browser: Any, tmp_path: Path) -> Iterator[tuple[Page, Path]]:
    """The hand-written temples deck copied to ``tmp_path``, open in the studio."""
    deck = tmp_path / "temples.json"
    shutil.copy(DATA / "mystery-of-the-temples-hand-written.json", deck)
    with opened(browser, deck) as page:
        yield page, deck


def verified(deck: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "templeforge", "verify", str(deck)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


@NEEDS_BROWSER
def test_a_designer_draws_a_lock_sees_it_proved_saves_and_verify_accepts_the_file(browser: Any,
                                                                                   tmp_path: Path) -> None:
    deck = hand_written(tmp_path)
    with opened(browser, deck) as page:  # card 1 of the file, proved on opening
        assert "6 of 6 faces proved solvable" in page.texts("#headline")[0]
        page.wait.until(lambda d: d.execute_script(  # the card as it prints, drawn by its PDF
            "const i = document.getElementById('printed-img'); return i.complete && i.naturalWidth > 100"))
        page.click("#new-card")
        start = browser.execute_script("return state.draft.grid")
        for r, row in enumerate(start):  # clear the starting lock
            for c, x in enumerate(row):
                if x == "#":
                    page.click(f'#grid .cell[data-r="{r}"][data-c="{c}"]')
        for r, row in enumerate(LOCK):
            for c, x in enumerate(row):
                if x == "#":
                    page.click(f'#grid .cell[data-r="{r}"][data-c="{c}"]')
        for i, blocks in enumerate(FACES):
            for name in blocks:
                page.click(f'#lists .item[data-i="{i}"] .chip[data-name="{name}"]')
        page.verdict("proved")
        assert page.texts("#lists .item .status") == ["solved"] * 6
        letters = page.texts("#grid .cell.on")
        assert len(letters) == 10 and all(letters)  # face 1's solution drawn over the lock
        # an edit that makes a face unsolvable is shown as such
        for name in ("L3", "I4", "I2", "O4", "T4"):
            page.click(f'#lists .item[data-i="0"] .chip[data-name="{name}"]')
        page.verdict("not proved")
        assert page.texts('#lists .item[data-i="0"] .status') == ["unsolvable"]
        for _ in range(5):  # undone, one step at a time, to face 1's tiling blocks
            page.click("#undo")
        page.verdict("proved")
        assert browser.execute_script("return state.draft.lists[0]") == FACES[0]
        page.click("#save")
        page.saved()
    verified(deck)
    saved = json.loads(deck.read_text("utf-8"))
    assert [c["id"] for c in saved["cards"]] == [1, 2] and saved["cards"][1]["lock"] == LOCK


@pytest.mark.slow  # (under -m slow: the default run keeps within its three minutes)
@NEEDS_BROWSER
def test_a_designer_paints_a_pattern_sees_it_measured_saves_and_verify_accepts_the_file(browser: Any,
                                                                                         tmp_path: Path) -> None:
    deck = stones_deck(tmp_path)
    with opened(browser, deck) as page:
        page.click("#new-card")  # a new card starts as one stone of the first face, top left
        page.verdict("proved")
        page.click('#palette .paint[data-code="2"]')  # Fish
        page.click('#grid .cell[data-r="0"][data-c="2"]')
        page.verdict("not proved")  # Sun any Fish: card 2's window
        assert "card 2 asks for the same thing" in " ".join(page.texts("#lists .item .text"))
        assert page.texts('#grid .cell[data-r="0"][data-c="1"]') == ["?"]  # a stone of any face
        page.click('#palette .paint[data-code="6"]')  # Seed
        page.click('#grid .cell[data-r="1"][data-c="1"]')
        page.verdict("proved")
        assert page.texts("#headline")[0].startswith("worth ")
        page.click("#save")
        page.saved()
        # the deck's spread: each figure's histogram beside the published deck's
        page.click("#show-deck")
        page.wait.until(lambda d: len(page.texts("#charts .chart h4")) == 3)
        assert page.texts("#charts .chart h4") == ["points", "difficulty (actions)", "stones"]
        keys = page.texts("#charts .chart .key")
        assert "the published deck (72 cards), mean 2.15" in keys[2] and "this deck, mean" in keys[2]
        assert "published" not in keys[1]  # the published deck's difficulty is not known
        stones = page.texts('#charts .chart[data-column="stones"] .label')
        assert stones == ["1", "2", "3", "4"]  # the values of both decks, one bin each
    verified(deck)
    saved = json.loads(deck.read_text("utf-8"))
    assert saved["cards"][2]["window"] == [["Sun", "any", "Fish"], ["any", "Seed", "any"]]


#: Twelve windows as a designer paints them: (row, column, the palette's code) for each stone.
WINDOWS = [[(0, 0, "7"), (1, 0, "4")], [(0, 0, "2"), (0, 2, "5")], [(0, 1, "6"), (1, 0, "3"), (1, 2, "3")],
           [(0, 0, "1"), (0, 1, "7")], [(0, 0, "0"), (1, 1, "2")], [(0, 0, "3"), (0, 1, "0"), (0, 2, "4")],
           [(0, 0, "5"), (1, 0, "6"), (2, 0, "7")], [(0, 0, "3"), (1, 1, "3")],
           [(0, 0, "4"), (0, 1, "6"), (1, 0, "2"), (1, 1, "7")], [(0, 2, "6"), (1, 1, "7"), (2, 0, "5")],
           [(0, 0, "1"), (2, 0, "2")], [(0, 0, "0"), (0, 1, "5"), (1, 1, "4")]]


def new_deck(browser: Any, page: Page, game: str, name: str) -> None:
    """Start a new deck of ``game`` called ``name`` from the page's header."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element(By.ID, "new-game")).select_by_visible_text(game)
    field = browser.find_element(By.ID, "new-path")
    field.clear()
    field.send_keys(name)
    page.click("#create")
    page.wait.until(lambda d: "a new deck" in d.find_element(By.ID, "status").text)


def saved_as_card(browser: Any, page: Page, n: int) -> None:
    """Save the card on show and wait until it is the deck's ``n``-th, sealed."""
    from selenium.webdriver.common.by import By

    page.click("#save")
    page.saved()
    page.wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#cards li")) == n)


def built_from_the_page(browser: Any, page: Page, kit: Path, game: str) -> None:
    """Open the deck view, press Build the kit and wait for it (as long as a busy machine
    needs); the kit's report, cards and bill of materials are then on the page as links."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    page.click("#show-deck")
    page.click('#run button[data-command="build"]')
    WebDriverWait(browser, 1500).until(
        lambda d: d.find_element(By.ID, "run-state").get_attribute("data-state") in ("done", "failed"))
    state = browser.find_element(By.ID, "run-state")
    assert state.get_attribute("data-state") == "done", state.text + browser.find_element(By.ID, "run-log").text
    links = page.texts("#run-files .open a")
    assert {f"{game}/report.html", f"{game}/cards.pdf", f"{game}/models/bom.csv"} <= set(links), links
    for name in ("report.html", "cards.pdf", "models/bom.csv", "deck.json"):
        assert (kit / game / name).is_file(), name


@pytest.mark.slow  # (under -m slow: the default run keeps within its three minutes)
@NEEDS_BROWSER
def test_a_designer_makes_a_12_card_pattern_deck_from_scratch_and_builds_its_kit(browser: Any,
                                                                                 tmp_path: Path) -> None:
    with opened(browser, stones_deck(tmp_path)) as page:  # the folder holds another deck: the new one goes beside it
        new_deck(browser, page, "Shifting Stones", "patterns.json")
        for n, window in enumerate(WINDOWS, start=1):
            if n > 1:
                page.click("#new-card")
            page.click('#palette .paint[data-code="0"]')  # the starting stone's face: a click clears it
            page.click('#grid .cell[data-r="0"][data-c="0"]')
            for r, c, code in window:
                page.click(f'#palette .paint[data-code="{code}"]')
                page.click(f'#grid .cell[data-r="{r}"][data-c="{c}"]')
            page.verdict("proved")
            saved_as_card(browser, page, n)
        built_from_the_page(browser, page, tmp_path / "patterns.kit", "shifting-stones")
    made = tmp_path / "patterns.json"
    verified(made)
    saved = json.loads(made.read_text("utf-8"))
    assert len(saved["cards"]) == 12 and [c["window"] for c in saved["cards"][:3]] == [
        [["Tree"], ["Horse"]], [["Fish", "any", "Boat"]], [["any", "Seed", "any"], ["Bird", "any", "Bird"]]]
    assert all(isinstance(c["points"], int) for c in saved["cards"])  # priced on the absolute scale


@pytest.mark.slow  # (under -m slow: the default run keeps within its three minutes)
@NEEDS_BROWSER
def test_a_designer_makes_a_12_card_lock_deck_from_scratch_and_builds_its_kit(browser: Any, tmp_path: Path) -> None:
    cards = json.loads((DATA / "puzzle-temple-36-seed-1.json").read_text("utf-8"))["cards"][:12]
    with opened(browser, stones_deck(tmp_path)) as page:
        new_deck(browser, page, "Puzzle Temple", "locks.json")
        for n, card in enumerate(cards, start=1):
            if n > 1:
                page.click("#new-card")
            for r, row in enumerate(browser.execute_script("return state.draft.grid")):  # clear the starting lock
                for c, x in enumerate(row):
                    if x == "#":
                        page.click(f'#grid .cell[data-r="{r}"][data-c="{c}"]')
            for r, row in enumerate(card["lock"]):
                for c, x in enumerate(row):
                    if x == "#":
                        page.click(f'#grid .cell[data-r="{r}"][data-c="{c}"]')
            for i, face in enumerate(card["faces"]):
                for name in face["blocks"]:
                    page.click(f'#lists .item[data-i="{i}"] .chip[data-name="{name}"]')
            page.verdict("proved")
            assert page.texts("#lists .item .status") == ["solved"] * 6
            saved_as_card(browser, page, n)
        built_from_the_page(browser, page, tmp_path / "locks.kit", "puzzle-temple")
    made = tmp_path / "locks.json"
    verified(made)
    saved = json.loads(made.read_text("utf-8"))
    assert [c["lock"] for c in saved["cards"]] == [c["lock"] for c in cards]
    assert [[f["blocks"] for f in c["faces"]] for c in saved["cards"]] == [
        [f["blocks"] for f in c["faces"]] for c in cards]


@pytest.mark.slow  # (under -m slow: the default run keeps within its three minutes)
@NEEDS_BROWSER
def test_a_designer_paints_a_structure_steps_through_its_build_and_saves_it(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    deck = structures_deck(tmp_path)
    with opened(browser, deck) as page:
        page.click("#new-card")  # one full level: the same structure as card 1
        page.verdict("not proved")
        page.click('#palette .paint[data-code="3"]')
        for c in range(4):  # a wall of three on the north side
            page.click(f'#grid .cell[data-r="0"][data-c="{c}"]')
        page.verdict("proved")
        caption = page.texts("#step-caption")[0]
        assert caption.startswith("step ") and " of " in caption
        total = int(caption.split(" of ")[1].split(":")[0])
        page.click("#step-back")
        assert page.texts("#step-caption")[0].startswith(f"step {total - 1} of {total}")
        assert page.texts("#grid .cell.later")  # what is not yet as high as the card asks, faded
        assert page.texts("#grid .cell.fresh")  # what the step placed, marked
        before = browser.find_element(By.ID, "picture").get_attribute("src")
        assert before.startswith("data:image/svg+xml") and browser.find_element(By.ID, "picture").is_displayed()
        page.click("#step-back")  # the isometric view follows the steps
        assert browser.find_element(By.ID, "picture").get_attribute("src") != before
        # the colour of the wall's top: the level 3 layer, where only the wall's columns reach
        page.click('#palette .layer[data-layer="level3"]')
        assert len(page.texts("#grid .cell.low")) == 12
        page.click('#palette .paint[data-code="R"]')
        for c in range(4):
            page.click(f'#grid .cell[data-r="0"][data-c="{c}"]')
        page.click('#grid .cell[data-r="1"][data-c="0"]')  # a column of height 1: no colour at level 3
        page.verdict("proved")
        assert page.texts("#grid .cell.on") == ["R"] * 4
        page.click("#save")
        page.saved()
        # the deck view: every card as it prints, sorted by a figure (the saved deck carries its measures)
        page.click("#show-deck")
        page.click('#deck-table th[data-column="2"]')  # cubes asked, fewest first
        page.click('#deck-table th[data-column="2"]')  # then most first
        assert [r.split()[0] for r in page.texts("#deck-table tbody tr")] == ["2", "1"]
        page.wait.until(lambda d: d.execute_script(
            "return [...document.querySelectorAll('#deck-table img')].every(i => i.complete && i.naturalWidth > 50)"))
        page.click('#deck-table tr.card[data-card="1"]')
        page.verdict("proved")
    verified(deck)
    saved = json.loads(deck.read_text("utf-8"))
    assert saved["cards"][1]["target"] == ["3333", "1111", "1111", "1111"]
    assert saved["cards"][1]["colours"] == {"red": [[0, 0, 2], [1, 0, 2], [2, 0, 2], [3, 0, 2]]}


@pytest.mark.slow  # (under -m slow: the default run keeps within its three minutes)
@NEEDS_BROWSER
def test_a_designer_repaints_a_temple_track_sees_every_grid_side_pay_it_and_saves_it(browser: Any,
                                                                                      tmp_path: Path) -> None:
    with temples_open(browser, tmp_path) as (page, deck):
        assert page.texts("#headline")[0].startswith("red temple, 2-3 players: 5 of 5 layers payable")
        page.click('#palette .paint[data-code="b"]')  # red
        page.click('#grid .cell[data-r="0"][data-c="0"]')
        page.click('#palette .paint[data-code="7"]')  # a layer worth 7 under position 5
        page.click('#grid .cell[data-r="1"][data-c="4"]')
        page.verdict("proved")
        texts = page.texts("#lists .item .text")
        assert len(texts) == 5 and all("payable on every grid side" in t for t in texts)
        assert "painted 7" in texts[2]
        page.click("#save")
        page.saved()
    verified(deck)
    saved = json.loads(deck.read_text("utf-8"))
    assert saved["cards"][0]["track"][0] == "red" and saved["cards"][0]["layers"][2]["points"] == 7


def test_a_crystal_grid_is_redrawn_checked_against_every_temple_and_saved(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from templeforge.studio.server import application

    shutil.copy(DATA / "mystery-of-the-temples-hand-written.json", tmp_path / "temples.json")
    with TestClient(application(tmp_path, "secret")) as client:
        deck = client.get("/api/deck?path=temples.json", headers=TOKEN).json()
        parts = {p["id"]: p for p in deck["parts"]}
        assert list(parts) == [f"grid {b}{s}" for b in range(1, 5) for s in "AB"]
        chain = parts["grid 1B"]["draft"]["graph"]
        assert len(chain["slots"]) == 12 and len(chain["lines"]) == 11  # one path through all twelve slots

        def prove(graph: dict[str, Any]) -> dict[str, Any]:
            return client.post("/api/prove", headers=TOKEN, json={"path": "temples.json", "card": "grid 1B",
                                                                  "draft": {"graph": graph}}).json()

        joined = {"slots": chain["slots"], "lines": sorted(chain["lines"] + [[0, 5]])}
        answer = prove(joined)
        assert answer["verdict"] == "proved" and answer["headline"].startswith("grid side 1B, 12 lines: pays every "
                                                                               "layer of 10 of 10 temple sides")
        assert len(answer["items"]) == 10 and all(i["status"] == "solved" for i in answer["items"])
        assert all("(saved grid: " in i["text"] for i in answer["items"])
        cut = prove({"slots": chain["slots"], "lines": chain["lines"][1:]})
        assert cut["verdict"] == "invalid" and "not connected" in cut["headline"]
        close = prove({"slots": [[0, 0.25]] + chain["slots"][1:], "lines": chain["lines"]})
        assert close["verdict"] == "invalid" and close["headline"].startswith("slots 1 and 5 are closer than 0.8")
        crossed = prove({"slots": chain["slots"], "lines": sorted(chain["lines"] + [[0, 5], [1, 4]])})
        assert crossed["items"][-1]["status"] == "note" and "1 pair of lines cross" in crossed["items"][-1]["text"]
        assert prove({"slots": chain["slots"][:11], "lines": []})["headline"] == \
            "graph.slots: expected 12 slot positions [x, y]"
        saved = client.post("/api/save", headers=TOKEN,
                            json={"path": "temples.json", "card": "grid 1B", "draft": {"graph": joined}}).json()
        assert saved["sealed"], saved
    data = json.loads((tmp_path / "temples.json").read_text("utf-8"))
    side = next(g for g in data["grids"] if g["board"] == 1 and g["side"] == "B")
    assert side["lines"] == joined["lines"] and len(data["grids"]) == 8  # (sealed: the verifier passed it)


@pytest.mark.slow  # (under -m slow: the default run keeps within its three minutes)
@NEEDS_BROWSER
def test_a_designer_joins_two_slots_of_a_crystal_grid_sees_every_temple_paid_and_saves_it(browser: Any,
                                                                                         tmp_path: Path) -> None:
    with temples_open(browser, tmp_path) as (page, deck):
        page.click('#parts button[data-card="grid 1B"]')
        page.verdict("proved")
        assert len(page.texts("#graph circle")) == 12
        assert len(browser.find_elements("css selector", "#graph line")) == 11
        page.click('#graph circle[data-slot="0"]')
        page.click('#graph circle[data-slot="5"]')
        page.wait.until(lambda d: len(d.find_elements("css selector", "#graph line")) == 12)
        page.verdict("proved")
        assert page.texts("#headline")[0].startswith("grid side 1B, 12 lines: pays every layer of 10 of 10")
        page.click("#undo")  # undone and done again
        page.wait.until(lambda d: len(d.find_elements("css selector", "#graph line")) == 11)
        page.click("#redo")
        page.verdict("proved")
        page.click("#save")
        page.saved()
    verified(deck)
    side = next(g for g in json.loads(deck.read_text("utf-8"))["grids"] if g["board"] == 1 and g["side"] == "B")
    assert [0, 5] in side["lines"] and len(side["lines"]) == 12


def finished(client: Any, task: dict[str, Any]) -> dict[str, Any]:
    """The command's description once it has ended (however long a busy machine takes)."""
    while task["running"]:
        time.sleep(0.2)
        task = client.get(f"/api/run?id={task['id']}", headers=TOKEN).json()
    return task


TOKEN = {"X-Studio-Token": "secret"}


def test_a_command_runs_on_the_deck_its_output_and_files_are_shown_and_served(client: Any, tmp_path: Path) -> None:
    started = client.post("/api/run", json={"path": "generated.json", "command": "verify"}, headers=TOKEN)
    assert started.status_code == 202 and started.json()["line"] == "templeforge verify generated.json"
    done = finished(client, started.json())
    assert done["status"] == 0 and done["state"] == "done: the deck verifies" and done["files"] == []
    said = [line for line in done["lines"] if ": working: " not in line]  # a busy machine adds progress lines
    assert said[0] == "generated.json: Puzzle Temple, 3 cards, 18 faces (generated, seed 11)", done["lines"]
    printed = finished(client, client.post("/api/run", json={"path": "generated.json", "command": "pdf"},
                                           headers=TOKEN).json())
    assert printed["status"] == 0, printed["lines"]
    listed = {f["path"] for f in printed["files"]}
    assert "generated.kit/pdf/cards.pdf" in listed and all(p.startswith("generated.kit/pdf/") for p in listed)
    pdf = client.get("/files/generated.kit/pdf/cards.pdf", headers=TOKEN)
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    assert pdf.content == (tmp_path / "generated.kit" / "pdf" / "cards.pdf").read_bytes()
    assert client.get("/files/generated.kit/pdf/cards.pdf").status_code == 403
    assert client.get("/files/generated.kit/none.pdf", headers=TOKEN).status_code == 404
    assert client.get("/files/generated.kit/pdf", headers=TOKEN).status_code == 404  # a folder is not listed
    (tmp_path / "outside.txt").write_text("x")
    (tmp_path / "generated.kit" / "link.txt").symlink_to(tmp_path.parent)
    assert client.get("/files/generated.kit/link.txt/etc", headers=TOKEN).status_code == 400
    latest = client.get("/api/run?path=generated.json", headers=TOKEN).json()["tasks"]
    assert [t["command"] for t in latest] == ["verify", "pdf"]
    # the deck's own output is not offered as a deck (a build copies the deck into it)
    shutil.copy(tmp_path / "generated.json", tmp_path / "generated.kit" / "deck.json")
    offered = client.get("/api/files", headers=TOKEN).json()["files"]
    assert not any(f["path"].startswith("generated.kit/") for f in offered)


def test_one_command_runs_at_a_time_and_stop_ends_it_leaving_nothing(client: Any, tmp_path: Path) -> None:
    build = client.post("/api/run", json={"path": "generated.json", "command": "build"}, headers=TOKEN)
    assert build.status_code == 202
    assert build.json()["line"] == "templeforge build --deck generated.json --out generated.kit"
    second = client.post("/api/run", json={"path": "mine.json", "command": "verify"}, headers=TOKEN)
    assert second.status_code == 409
    assert second.json()["error"] == "templeforge build is running on generated.json: wait for it, or stop it"
    assert client.post("/api/stop", json={"id": build.json()["id"]}, headers=TOKEN).json() == {"stopping": True}
    done = finished(client, build.json())
    assert done["state"] == "stopped" and done["status"] in (130, -15), done["lines"]
    assert not (tmp_path / "generated.kit" / "puzzle-temple").exists()
    assert client.post("/api/stop", json={"id": done["id"]}, headers=TOKEN).json() == {"stopping": False}
    assert client.post("/api/stop", json={"id": 999}, headers=TOKEN).status_code == 404


@pytest.mark.parametrize(("body", "said"), [
    ({"path": "generated.json", "command": "rm"}, "command: expected one of verify, pdf, cad, build, playtest, "
                                                  "got 'rm'"),
    ({"path": "../generated.json", "command": "verify"}, "path: '../generated.json' leads outside"),
    ({"path": "generated.json", "command": "playtest", "players": "4; rm"}, "players: expected the number of "
                                                                            "players at the table, 1 to 8"),
])
def test_a_command_the_studio_does_not_run_is_refused(client: Any, body: dict[str, Any], said: str) -> None:
    answer = client.post("/api/run", json=body, headers=TOKEN)
    assert answer.status_code == 400 and answer.json()["error"].startswith(said)
    assert client.get("/api/run?path=generated.json", headers=TOKEN).json()["tasks"] == []


def test_a_playtest_from_the_page_is_shown_with_the_deck_until_the_deck_changes(client: Any, tmp_path: Path) -> None:
    deck = client.get("/api/deck?path=generated.json", headers=TOKEN).json()
    assert deck["players"] == [2, 3] and deck["played"] is None  # three cards: at most three at the table
    run = client.post("/api/run", json={"path": "generated.json", "command": "playtest", "players": 3}, headers=TOKEN)
    done = finished(client, run.json())
    assert done["status"] == 0, done["lines"]
    assert "generated.kit/playtest/playtest.html" in {f["path"] for f in done["files"]}
    played = client.get("/api/deck?path=generated.json", headers=TOKEN).json()["played"]
    assert played["file"] == "generated.kit/playtest/playtest.json" and played["players"] == 3
    assert played["current"] and len(played["seats"]) == 3 and played["findings"]
    # each card's part in play, for the editor: how often dealt and scored, and what a scoring cost
    assert set(played["cards"]) == {"1", "2", "3"} and played["effort"]
    assert all(c["dealt"] >= c["scored"] >= 0 for c in played["cards"].values())
    later = time.time() + 5
    os.utime(tmp_path / "generated.json", (later, later))
    assert client.get("/api/deck?path=generated.json", headers=TOKEN).json()["played"]["current"] is False
