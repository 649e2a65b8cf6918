"""``templeforge playtest``: whole games of a deck, and what they say (the checked-in
72-card Shifting Stones sample)."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from generators.common.playtest import wilson
from generators.monolyth import engine
from templeforge.cli import main
from tests.templeforge import browser

DATA = Path(__file__).parents[1] / "data"
DECK = DATA / "shifting-stones-72-seed-1.json"


def playtest(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["playtest", *args], prog_name="templeforge")
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("playtest") / "p"
    status, said = playtest(str(DECK), "--players", "3", "--games", "8", "--seed", "4", "--workers", "1",
                            "--out", str(out))
    assert status == 0, said
    return out


def test_a_playtest_writes_the_seats_the_length_and_every_cards_worth(played: Path) -> None:
    said = json.loads((played / "playtest.json").read_text("utf-8"))
    assert said["game"] == "shifting-stones" and said["players"] == 3 and said["games"] == 8
    assert [s["seat"] for s in said["seats"]] == [1, 2, 3]
    assert sum(s["wins"] for s in said["seats"]) == pytest.approx(8, abs=1e-3)  # ties split, every game won
    for seat in said["seats"]:
        low, high = seat["ci95"]
        assert low <= seat["win_rate"] <= high and (low, high) == pytest.approx(wilson(seat["wins"], 8), abs=1e-4)
    length = said["length"]
    assert length["p10"] <= length["mean_turns"] <= length["p90"] and length["unended"] == 0
    deck = json.loads(DECK.read_text("utf-8"))
    assert [c["id"] for c in said["cards"]] == [c["id"] for c in deck["cards"]]
    assert sorted(c["suggested_points"] for c in said["cards"]) == sorted(c["points"] for c in deck["cards"])
    scored = [c for c in said["cards"] if c["scored"]]
    assert scored and all(c["value"] > 0 for c in scored)
    assert all(c["value"] is None for c in said["cards"] if not c["scored"])
    # the easiest cards in play carry the fewest points
    easiest = min(scored, key=lambda c: c["value"])
    assert easiest["suggested_points"] == min(c["suggested_points"] for c in said["cards"])
    assert {"equal", "near", "spearman", "widest"} <= set(said["agreement"])
    assert all(isinstance(f, str) and f.endswith(".") for f in said["findings"])


def test_the_tables_hold_every_game_and_every_card(played: Path) -> None:
    games = pq.read_table(played / "games.parquet").to_pylist()
    assert [g["kind"] for g in games] == ["seat"] * 8 + ["pricing"] * 8
    assert all(len(g["scores"]) == 3 and g["winners"] and g["ended"] and g["seats"] == 3 for g in games)
    assert all(g["winner"] == g["winners"][0] if len(g["winners"]) == 1 else g["winner"] is None for g in games)
    cards = pq.read_table(played / "cards.parquet").to_pylist()
    said = json.loads((played / "playtest.json").read_text("utf-8"))
    assert [(c["id"], c["scored"]) for c in cards] == [(str(c["id"]), c["scored"]) for c in said["cards"]]


def test_the_same_request_gives_the_same_bytes_on_any_number_of_workers(played: Path, tmp_path: Path) -> None:
    status, said = playtest(str(DECK), "--players", "3", "--games", "8", "--seed", "4", "--workers", "2",
                            "--out", str(tmp_path / "two"))
    assert status == 0, said
    for name in ("playtest.json", "playtest.html", "games.parquet", "cards.parquet"):
        assert (tmp_path / "two" / name).read_bytes() == (played / name).read_bytes(), name
    status, said = playtest(str(DECK), "--players", "3", "--games", "8", "--seed", "5", "--workers", "1",
                            "--out", str(tmp_path / "other"))
    assert (tmp_path / "other" / "games.parquet").read_bytes() != (played / "games.parquet").read_bytes()


@pytest.mark.parametrize("args, named", [
    (["--players", "6"], "players"),
    (["--agents", "greedy,clever"], "agents: clever"),
    ([str(DATA / "shifting-stones-12-seed-5.json"), "--players", "3"], "at least 14 cards"),
])
def test_a_request_that_cannot_be_played_is_one_line_and_writes_nothing(args: list[str], named: str,
                                                                        tmp_path: Path) -> None:
    deck = [] if args[0].endswith(".json") else [str(DECK)]
    status, said = playtest(*deck, *args, "--games", "2", "--out", str(tmp_path / "p"))
    assert status == 2, said
    assert named in said and len(said.strip().splitlines()) == 1
    assert not (tmp_path / "p").exists()


def test_a_puzzle_temple_playtest_says_how_often_speed_wins_and_which_cards_decide(tmp_path: Path) -> None:
    deck = DATA / "puzzle-temple-36-seed-1.json"
    status, said = playtest(str(deck), "--players", "4", "--games", "12", "--seed", "2", "--workers", "1",
                            "--out", str(tmp_path / "p"))
    assert status == 0, said
    report = json.loads((tmp_path / "p" / "playtest.json").read_text("utf-8"))
    assert report["game"] == "puzzle-temple" and report["length"]["mean_turns"] == 9  # nine rounds
    assert sum(s["wins"] for s in report["seats"]) == pytest.approx(12, abs=1e-3)
    assert report["pricing"]["points_from"] is None and "seconds" in report["pricing"]["value"]
    assert all(c["suggested_points"] is None and c["dealt"] == 12 for c in report["cards"])  # 36 cards, 4 players
    assert report["agreement"] is None
    insights = report["insights"]
    assert 0 <= insights["fastest_solver"]["win_rate"] <= 1 and len(insights["faces"]) == 6
    assert [c["id"] for c in insights["cards"]] == [c["id"] for c in report["cards"]]
    assert any("fastest solver" in f for f in report["findings"])
    assert "fastest solver" in said



CHECK = """<script>window.__errors = [];
addEventListener("error", function (e) { __errors.push(String(e.message)); }, true);
addEventListener("load", function () {
  var table = document.querySelector("table.sortable");
  var heads = [].slice.call(table.tHead.rows[0].cells);
  var column = heads.findIndex(function (th) { return th.textContent === "value in play"; });
  heads[column].click();
  var sorted = [].map.call(table.tBodies[0].rows, function (r) { return r.cells[column].dataset.v; });
  var svgs = [].map.call(document.querySelectorAll("svg"), function (s) {
    var box = s.getBoundingClientRect(); return [box.width, box.height, s.querySelectorAll("rect, circle").length];
  });
  document.title = "CHECK " + JSON.stringify({errors: __errors, sorted: sorted, svgs: svgs,
                                               findings: document.querySelectorAll("ul.findings li").length});
});</script>"""


@pytest.mark.skipif(browser.CHROMIUM is None, reason=browser.NEEDS)
def test_the_page_draws_every_plot_in_headless_chromium_and_its_table_sorts(played: Path) -> None:
    page = (played / "playtest.html").read_text("utf-8")
    assert "http://" not in page and "https://" not in page  # nothing from the network
    result = browser.probe(played / "playtest.html", head=CHECK)
    assert result["errors"] == []
    # wins, length, each card's value, and a score chart per seat (3): each drawn, none empty
    assert len(result["svgs"]) == 3 + 3
    assert all(w > 100 and h > 60 and marks > 0 for w, h, marks in result["svgs"])
    said = json.loads((played / "playtest.json").read_text("utf-8"))
    assert result["findings"] == max(1, len(said["findings"]))
    values = [float(v) for v in result["sorted"] if v != "-"]
    assert values == sorted(values) and len(values) == sum(1 for c in said["cards"] if c["value"] is not None)


@pytest.mark.slow
def test_a_dask_cluster_plays_the_same_games(played: Path, tmp_path: Path) -> None:
    status, said = playtest(str(DECK), "--players", "3", "--games", "8", "--seed", "4", "--workers", "2",
                            "--cluster", "dask", "--out", str(tmp_path / "dask"))
    assert status == 0, said
    for name in ("playtest.json", "playtest.html", "games.parquet", "cards.parquet"):
        assert (tmp_path / "dask" / name).read_bytes() == (played / name).read_bytes(), name


@pytest.mark.slow
def test_mystery_of_the_temples_plays_and_says_which_grid_sides_and_curses_win(tmp_path: Path) -> None:
    from generators.mystery_of_the_temples.box import OURS_TEMPLES
    from generators.mystery_of_the_temples.deck import Card, Deck, write_deck

    deck = write_deck(Deck(tuple(Card(i + 1, t) for i, t in enumerate(OURS_TEMPLES))), tmp_path / "temples.json")
    status, said = playtest(str(deck), "--players", "2", "--games", "4", "--workers", "1", "--out",
                            str(tmp_path / "p"))
    assert status == 0, said
    report = json.loads((tmp_path / "p" / "playtest.json").read_text("utf-8"))
    assert report["game"] == "mystery-of-the-temples" and report["length"]["unended"] == 0
    assert sum(s["wins"] for s in report["seats"]) == pytest.approx(4, abs=1e-3)
    sides = report["insights"]["grid_sides"]
    assert sum(s["seats"] for s in sides) == 8 and all(s["fair"] == 0.5 for s in sides)
    assert len(report["insights"]["curses"]) == 20  # five temples of five layers, one covered at 2 players
    assert all(c["suggested_points"] is None for c in report["cards"])  # temple cards print no one value


def test_monolyth_plays_and_says_how_often_each_structure_token_is_claimed(tmp_path: Path) -> None:
    deck = DATA / "monolyth-3-seed-2.json"
    status, said = playtest(str(deck), "--players", "3", "--games", "6", "--seed", "1", "--workers", "1",
                            "--out", str(tmp_path / "p"))
    assert status == 0, said
    report = json.loads((tmp_path / "p" / "playtest.json").read_text("utf-8"))
    assert report["game"] == "monolyth" and report["length"]["unended"] == 0
    assert sum(s["wins"] for s in report["seats"]) == pytest.approx(6, abs=1e-3)
    cards = report["insights"]["cards"]
    assert [c["id"] for c in cards] == [1, 2, 3] and sum(c["games"] for c in cards) == 6
    for card in cards:
        if card["games"]:
            assert list(card["claimed"]) == ["10", "8", "6"]  # the three highest, for three players
            rates = list(card["claimed"].values())
            assert all(lo <= card["claimed"][t] <= hi for t, (lo, hi) in card["claimed_ci95"].items())
            assert rates == sorted(rates, reverse=True)  # the highest is always claimed first
            assert card["first_claim_round"] >= 1
    rounds = [c["first_claim_round"] for c in cards if c["games"]]
    if len(rounds) > 1:
        assert report["insights"]["first_claim_ratio"] == pytest.approx(max(rounds) / min(rounds), abs=0.01)
    points = report["insights"]["points"]
    assert points["levels"] > 0 and points["structure"] > 0
    assert any("level tokens" in f for f in report["findings"])
    tokens = report["insights"]["prophecy_tokens"]  # every prophecy taken, by value, with what it scored
    assert tokens and sum(t["taken"] for t in tokens) <= 6 * 3 * engine.PROPHECIES_EACH
    scored = sum(t["value"] * t["fulfilled"] * t["taken"] for t in tokens) / 6 / 3
    assert scored == pytest.approx(points["prophecies"], abs=0.01)  # the same points, counted per token
    page = (tmp_path / "p" / "playtest.html").read_text("utf-8")
    assert "10: 1" in page or "10: 0." in page  # each token's claim rate as token: rate, not a record's repr
    assert "{&#x27;" not in page and "{'" not in page
