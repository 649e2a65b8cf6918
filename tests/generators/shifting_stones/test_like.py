""""A deck like mine" for Shifting Stones: a reference's shape, difficulties and points mix
followed, its patterns left alone, and the references it cannot follow refused in one line."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from generators.common import grading
from generators.common.errors import RequestError
from generators.common.like import AIM
from generators.common.options import resolve
from generators.shifting_stones.deck import read_deck
from generators.shifting_stones.generate import generate, like_cells, measure
from generators.shifting_stones.reference import read_reference, window_of
from generators.shifting_stones.spec import OPTIONS, Spec
from generators.shifting_stones.verify import verify_deck

REFERENCE = str(Path(__file__).parents[3] / "examples" / "shifting-stones" / "like-reference.json")


@pytest.fixture(scope="module")
def reference():
    return read_reference(REFERENCE, "--like")


def spec_of(**values: str) -> Spec:
    resolved = resolve(OPTIONS, values)
    return Spec.from_values(resolved.values, resolved.given)


@pytest.fixture(scope="module")
def like_deck(reference):
    return generate(spec_of(like=reference, cards="24", workers="2"))


def test_the_reference_is_measured_as_the_generator_measures(reference) -> None:
    deck = read_deck(REFERENCE)
    assert len(reference.difficulties) == len(deck.cards) == 36 and reference.skipped == 0
    first = deck.cards[0]
    assert reference.difficulties[0] == measure(deck.tiles, first.pattern)[1].difficulty
    assert reference.mix == ((1, 14), (2, 13), (3, 7), (5, 2))
    assert Counter(reference.windows) == Counter(window_of(c.pattern) for c in deck.cards)
    cells, weights = like_cells(reference)
    drawn = {((c.pattern.height, c.pattern.width), c.pattern.stones) for c in deck.cards}
    assert {(w, k) for w, k, _ in cells} == drawn
    assert len(weights) == len(cells) and all(w > 0 for w in weights)
    for (h, w), k, layouts in cells:  # every reference layout can be drawn again
        assert all(len(rows) == h and len(rows[0]) == w and sum(map(sum, rows)) == k for rows in layouts)


def test_the_reference_sets_the_defaults(reference) -> None:
    spec = spec_of(like=reference, cards="18")
    assert spec.mix == ((1, 7), (2, 7), (3, 3), (5, 1)) and spec.tiles == reference.tiles
    assert spec.parameters()["like"] == REFERENCE and spec.parameters()["stones"] == "like"
    assert spec.budget == 200  # a small deck still gets a wide pool
    assert spec_of(like=reference, mix="1:3,2:3").mix == ((1, 3), (2, 3))


@pytest.mark.slow
def test_a_deck_like_the_reference(like_deck, reference) -> None:
    mine = [c.difficulty for c in like_deck.cards]
    assert grading.ks_distance(mine, reference.difficulties) <= AIM
    profile = reference.profile
    windows = Counter(window_of(c.pattern) for c in like_deck.cards)
    stones = Counter(str(c.pattern.stones) for c in like_deck.cards)
    # the shape follows the reference's, scaled: within a card per class
    for name, got in (("window", windows), ("stones", stones)):
        for label, n in profile.class_targets(name, 24).items():
            assert abs(got[label] - n) <= 1, (name, label, got, n)
    assert Counter(c.points for c in like_deck.cards) == Counter({1: 9, 2: 9, 3: 5, 5: 1})
    keys = {measure(like_deck.tiles, c.pattern)[0] for c in like_deck.cards}
    assert not keys & reference.keys, "a reference pattern repeated"
    check = verify_deck(like_deck)
    assert check.ok, check.problems
    assert like_deck.parameters["stones"] == "like"


@pytest.mark.slow
def test_the_command_prints_both_sides(tmp_path: Path) -> None:
    from templeforge.cli import main

    out = tmp_path / "like.json"
    result = CliRunner().invoke(main, ["generate", "shifting-stones", "--like", REFERENCE, "--cards", "12",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    for name in ("window", "stones", "points"):
        assert re.search(rf"^{name} +here +in the reference$", result.output, re.M), name
    assert "KS distance" in result.output
    assert read_deck(out).parameters["like"] == REFERENCE
    assert CliRunner().invoke(main, ["verify", str(out)]).exit_code == 0


def _write(path: Path, cards: list[dict], tiles: dict | None = None) -> str:
    data: dict = {"format": "templeforge.deck/1", "game": "shifting-stones", "cards": cards}
    if tiles is not None:
        data["tiles"] = tiles
    path.write_text(json.dumps(data))
    return str(path)


def test_references_it_cannot_follow_are_refused_in_one_line(tmp_path: Path, reference) -> None:
    with pytest.raises(RequestError, match="^--like: .*missing.json"):
        read_reference(str(tmp_path / "missing.json"), "--like")
    other = str(Path(__file__).parents[3] / "examples" / "like-reference.json")
    with pytest.raises(RequestError, match="^--like: .*shifting-stones"):
        read_reference(other, "--like")
    never = _write(tmp_path / "never.json", [{"window": [["Sun", "Moon"]]}, {"window": [["Sun", "Sun"]]}])
    with pytest.raises(RequestError, match="^--like: cannot make a deck like .*never.json: none of its 2 patterns"):
        read_reference(never, "--like")
    seasons = str(Path(__file__).parents[3] / "examples" / "shifting-stones" / "seasons.toml")
    with pytest.raises(RequestError, match="^--like: cannot make a deck like .*: its tiles are published, the "
                                           "request's"):
        spec_of(like=reference, tiles=seasons)
    with pytest.raises(RequestError, match="^--stones: .*leave --stones out"):
        spec_of(like=reference, stones="2-3")


def test_a_reference_without_points_takes_the_published_mix(tmp_path: Path) -> None:
    plain = _write(tmp_path / "plain.json", [{"window": [["Fish", "Bird"]]}, {"window": [["Tree"], ["Seed"]]}])
    spec = spec_of(like=read_reference(plain, "--like"), cards="72")
    assert spec.mix == ((1, 28), (2, 26), (3, 13), (5, 5))
