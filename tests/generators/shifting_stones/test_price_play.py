"""``generate shifting-stones --price play``: the mix's points given out by each card's
effort in play, and a verifier that plays the pricing games again."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from generators.common import playtest as pt
from generators.shifting_stones import verify
from generators.shifting_stones.deck import Deck, read_deck
from generators.shifting_stones.generate import generate, priced_by_play
from generators.shifting_stones.spec import PUBLISHED_MIX, Spec, scaled
from templeforge.cli import main

DECK_FILE = Path(__file__).parents[2] / "data" / "shifting-stones-72-seed-1.json"


@pytest.fixture(scope="module")
def played() -> Deck:
    """The 72-card sample priced by play as ``generate --price play:120`` prices a deck."""
    deck = read_deck(DECK_FILE)
    return priced_by_play(replace(deck, parameters={**deck.parameters, "price": "play:120"}), 120)


@pytest.mark.slow
def test_generate_prices_by_play_keeping_the_mix_and_records_it() -> None:
    made = generate(Spec(cards=24, mix=scaled(PUBLISHED_MIX, 24), seed=3, price=("play", 120)))
    assert sorted(c.points for c in made.cards) == [p for p, n in scaled(PUBLISHED_MIX, 24) for _ in range(n)]
    assert made.parameters["price"] == "play:120" and verify.verify_deck(made).ok
    exact = generate(Spec(cards=24, mix=scaled(PUBLISHED_MIX, 24), seed=3))
    assert [c.pattern for c in made.cards] == [c.pattern for c in exact.cards]  # the same cards, in order
    assert [c.points for c in priced_by_play(exact, 120).cards] == [c.points for c in made.cards]


def test_play_pricing_ignores_the_points_it_replaces(played: Deck) -> None:
    points = [c.points for c in played.cards]
    shuffled = replace(played, cards=tuple(replace(c, points=p) for c, p in zip(played.cards, points[1:] + points[:1])))
    again = priced_by_play(shuffled, 120)
    assert [c.points for c in again.cards] == [c.points for c in played.cards]  # the printed points play no part


def test_the_same_cards_priced_exactly_record_no_price() -> None:
    assert "price" not in read_deck(DECK_FILE).parameters  # (tests/test_samples.py verifies it)


def test_the_points_are_the_playtests_prices_easiest_in_play_cheapest(played: Deck) -> None:
    rows = pt.play_all("generators.shifting_stones.engine", played, pt.Request(4, 120, played.seed, ("greedy",)),
                       kinds=("pricing",))
    dealt, _, value = pt.efforts(rows, len(played.cards))
    ranked = sorted((v, c.points) for v, c in zip(value, played.cards) if v is not None)
    assert [p for _, p in ranked] == sorted(p for _, p in ranked)  # less effort never worth more


@pytest.mark.slow
def test_the_verifier_plays_the_pricing_games_again(played: Deck) -> None:
    assert verify.verify_deck(played).ok
    cheap = next(i for i, c in enumerate(played.cards) if c.points == 1)
    dear = next(i for i, c in enumerate(played.cards) if c.points > 1)
    cards = list(played.cards)
    cards[cheap], cards[dear] = (replace(cards[cheap], points=cards[dear].points),
                                 replace(cards[dear], points=cards[cheap].points))
    check = verify.verify_deck(replace(played, cards=tuple(cards)))
    assert not check.ok
    assert any("its effort in 120 pricing games gives it" in p for p in check.problems)


def test_a_price_that_is_neither_is_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["generate", "shifting-stones", "--cards", "24", "--price", "play:0",
                                       "--out", str(tmp_path / "d.json")])
    assert result.exit_code == 2 and "--price" in result.output and len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "d.json").exists()


def test_a_hand_made_price_in_the_file_is_checked_by_the_schema(tmp_path: Path) -> None:
    data = json.loads(DECK_FILE.read_text())
    data["parameters"]["price"] = "guess"
    path = tmp_path / "d.json"
    path.write_text(json.dumps(data))
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert result.exit_code == 2 and "price" in result.output
    assert read_deck(DECK_FILE).parameters.get("price") is None
