"""What a curse costs in play (``generators.mystery_of_the_temples.inplay``), and a deck
priced by it (``--price play``): its points follow the turns, and verify plays the chases
again."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from generators.mystery_of_the_temples import engine, inplay
from generators.mystery_of_the_temples import generate as gen
from generators.mystery_of_the_temples.box import DEFAULT, OURS_TEMPLES, runs
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
    for a_points, a_turns in layers:  # no layer worth more than one that clearly costs more turns
        assert all(not (a_points > b_points and a_turns + inplay.CLEARLY_TURNS < b_turns)
                   for b_points, b_turns in layers)
    for count in ("2-3", "4"):
        totals = [sum(layer.points or 0 for layer in c.temple.layers) for c in deck.cards if c.temple.side == count]
        assert max(totals) <= gen.SIDE_RATIO * min(totals)
    yyb = [layer.points for c in deck.cards for layer in c.temple.layers if c.temple.colour == 2 and
           (2, 2, 3) in runs(c.temple, layer)]
    assert yyb == [gen.PUBLISHED_POINTS]
    again = deck_from_json(json.loads(deck.dumps()))
    assert again.dumps() == deck.dumps()
    assert verify_deck(again).rule_problems == ()
    first = again.cards[0]
    assert first.priced is not None and first.priced[0].in_play is not None
    stored = replace(first.priced[0].in_play, turns=first.priced[0].in_play.turns + 1)
    tampered = replace(again, cards=(replace(first, priced=(replace(first.priced[0], in_play=stored),) +
                                             first.priced[1:]),) + again.cards[1:])
    assert any("stored cost in play" in p for p in verify_deck(tampered).rule_problems)
    top = max(again.cards, key=lambda c: sum(layer.points or 0 for layer in c.temple.layers))
    richer = replace(top, temple=replace(top.temple, layers=tuple(replace(layer, points=8)
                                                                  for layer in top.temple.layers)))
    said = verify_deck(replace(again, cards=tuple(richer if c is top else c for c in again.cards))).rule_problems
    assert any(f"card {top.id} totals 40 points" in p for p in said)


def test_points_from_play_keep_the_order_the_sides_balance_and_the_published_curse() -> None:
    """Two sides for one count, one far dearer: the quantile points would total 19 and 34;
    from play they total within SIDE_RATIO, a clearly dearer layer is never worth less, the
    anchor is worth the published points, and sides already in balance keep the quantiles."""
    cheap = [1.0, 1.5, 2.0, 2.5, 3.0]
    dear = [6.0, 6.5, 7.0, 7.5, 8.0]
    values = cheap + dear
    sides = [0] * 5 + [1] * 5
    counts = ["2-3"] * 10
    points = gen.points_in_play(values, sides, counts, [1], 3, 8, 0.5, 0)
    assert sum(gen.points_for(values, 3, 8)[:5]) == 19 and sum(gen.points_for(values, 3, 8)[5:]) == 34
    assert max(sum(points[:5]), sum(points[5:])) <= gen.SIDE_RATIO * min(sum(points[:5]), sum(points[5:]))
    assert points[1] == gen.PUBLISHED_POINTS
    assert all(points[i] <= points[j] for i in range(10) for j in range(10) if values[i] + 0.5 < values[j])
    even = [1.0, 6.0, 2.0, 7.0, 3.0, 6.5, 1.5, 7.5, 2.5, 8.0]
    assert gen.points_in_play(even, sides, counts, [], 3, 8, 0.5, 0) == gen.points_for(even, 3, 8)
    assert gen.points_in_play(values, sides, counts, [1], 3, 8, 0.5, 0) == points  # the same every time
