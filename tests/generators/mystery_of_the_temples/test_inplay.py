"""What a curse costs in play (``generators.mystery_of_the_temples.inplay``), and a deck
priced by it (``--price play``): its points follow the turns, and verify plays the chases
again."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from generators.mystery_of_the_temples import engine, inplay
from generators.mystery_of_the_temples import generate as gen
from generators.mystery_of_the_temples.box import DEFAULT, OURS_TEMPLES
from generators.mystery_of_the_temples.deck import Card, Deck, deck_from_json
from generators.mystery_of_the_temples.spec import Spec
from generators.mystery_of_the_temples.verify import verify_deck

DECK = Deck(tuple(Card(i + 1, t) for i, t in enumerate(OURS_TEMPLES)))
E = engine.EMPTY


def test_a_curse_the_grid_already_pays_costs_one_turn() -> None:
    s = engine.start(DECK, 3, 1)
    t = s.table.temples[0]
    run = engine._runs(t, 0)[0]
    path = engine._paths(engine._grid(s, 0), len(run))[0]
    grid = [E] * engine.SLOTS
    supply = list(s.supply)
    supply[0] += 2
    for slot, c in zip(path, run):
        grid[int(slot)] = c
        supply[c] -= 1
    temple_at = s.table.circle.index((0, 1))
    s = replace(s, grids=(tuple(grid),) + s.grids[1:], supply=tuple(supply), at=((temple_at - 1) % len(
        s.table.circle), -1, -1))  # just before the temple
    assert inplay.chase(s, 0, 0) == 1  # a step there and break it
    assert 1 <= inplay.chase(s, 0, 2) <= inplay.CAP


@pytest.mark.slow
def test_costs_are_the_same_for_the_same_seed_and_count_every_layer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(inplay, "GAMES", 1)
    monkeypatch.setattr(inplay, "STATES", 2)
    first = inplay.costs(DECK, 3, 4)
    assert first == inplay.costs(DECK, 3, 4)
    sides = {c.id for c in DECK.cards if c.temple.side == "2-3"}
    assert {card for card, _ in first} == sides and len(first) == 25
    assert all(1 <= c.turns <= inplay.CAP and c.chases == 2 and 0 <= c.capped <= 1 for c in first.values())


@pytest.mark.slow
def test_a_deck_priced_by_play_follows_its_costs_and_verify_plays_them_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(inplay, "GAMES", 1)
    monkeypatch.setattr(inplay, "STATES", 2)
    small = replace(DEFAULT, grids=(DEFAULT.grids[1], DEFAULT.grids[5]))
    deck = gen.generate(Spec(box=small, attempts=1, seed=3, workers=1, price="play"))
    assert deck.parameters["price"] == "play"
    layers = [(layer.points, p.in_play.turns) for c in deck.cards for layer, p in zip(c.temple.layers, c.priced or ())
              if p.in_play is not None]
    assert len(layers) == 50
    for a_points, a_turns in layers:  # no layer worth more than one that costs more turns
        assert all(not (a_points > b_points and a_turns < b_turns) for b_points, b_turns in layers)
    again = deck_from_json(json.loads(deck.dumps()))
    assert again.dumps() == deck.dumps()
    assert verify_deck(again).rule_problems == ()
    first = again.cards[0]
    assert first.priced is not None and first.priced[0].in_play is not None
    stored = replace(first.priced[0].in_play, turns=first.priced[0].in_play.turns + 1)
    tampered = replace(again, cards=(replace(first, priced=(replace(first.priced[0], in_play=stored),) +
                                             first.priced[1:]),) + again.cards[1:])
    assert any("stored cost in play" in p for p in verify_deck(tampered).rule_problems)
