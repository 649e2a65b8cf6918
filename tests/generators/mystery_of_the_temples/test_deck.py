"""Mystery of the Temples decks: our box, a designer's box named field by field, the
generator's promises, the verifier's replay of every path and measure, hand-written temples,
the measures compared, and grids designed for given temples."""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import replace

import pytest

from generators.common.deckfile import DeckError
from generators.common.errors import RequestError, Shortfall
from generators.common.grading import spearman
from generators.mystery_of_the_temples import generate as gen
from generators.mystery_of_the_temples.box import DEFAULT, SIDES, Box, Layer, Temple, box_from, runs
from generators.mystery_of_the_temples.deck import Deck, deck_from_json
from generators.mystery_of_the_temples.figures import cards, grid_picture, report, summary, temple_picture
from generators.mystery_of_the_temples.spec import Spec
from generators.mystery_of_the_temples.verify import follows, verify_deck
from solver.paths import longest, measure, paths

#: Two of our grid sides, to keep the tests quick: 1A's rings and 3B's (the lines across differ).
SMALL = replace(DEFAULT, grids=(DEFAULT.grids[0], DEFAULT.grids[5]))


@pytest.fixture(scope="module")
def deck() -> Deck:
    return gen.generate(Spec(box=SMALL, attempts=2, seed=5, workers=1, price="exact"))  # (play: test_inplay)


@pytest.fixture(scope="module")
def deck_check(deck: Deck):  # type: ignore[no-untyped-def]
    return verify_deck(deck_from_json(json.loads(deck.dumps())))


def crossing(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float], s: tuple[float, float]) -> bool:
    def turn(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return turn(p, q, r) * turn(p, q, s) < -1e-9 and turn(r, s, p) * turn(r, s, q) < -1e-9


def test_our_box_is_the_published_supply_and_eight_grid_sides_that_draw_cleanly() -> None:
    assert dict(zip(DEFAULT.names, DEFAULT.supply)) == {"colourless": 24, "red": 8, "yellow": 8, "blue": 8,
                                                        "green": 6, "purple": 6}
    assert [s.name for s in DEFAULT.grids] == ["1A", "1B", "2A", "2B", "3A", "3B", "4A", "4B"]
    for side in DEFAULT.grids:
        grid = side.grid
        assert grid.slots == 12 and grid.connected() and longest(grid) == 12 and side.ability
        at = grid.positions
        assert min(math.dist(at[a], at[b]) for a, b in itertools.combinations(range(12), 2)) >= 0.8
        for (a, b), (c, d) in itertools.combinations(grid.lines, 2):
            assert not crossing(at[a], at[b], at[c], at[d]), (side.name, (a, b), (c, d))
    assert len({s.grid.lines for s in DEFAULT.grids}) == 8
    assert [(t.colour, t.side) for t in DEFAULT.temples] == [(c, s) for c in range(1, 6) for s in SIDES]
    assert DEFAULT.letters == {"colourless": "C", "red": "R", "yellow": "Y", "blue": "B", "green": "G",
                               "purple": "P"}


@pytest.mark.parametrize("change, words", [
    ({"grids": [{"slots": [[0, 0], [1, 0], [2, 0]], "lines": [[0, 1]]}]}, "grids[1]: the grid is not connected"),
    ({"grids": [{"slots": [[0, 0], [1, 0]], "lines": [[0, 5]]}]}, "grids[1].lines: expected pairs of slot indices"),
    ({"grids": [{"slots": [[0, 0], [0.5, 0]], "lines": [[0, 1]]}]}, "grids[1].slots: slots 0 and 1 are 0.50 apart"),
    ({"temples": [{"colour": "red", "side": "4", "track": ["red", "pink"], "layers": [{"position": 1}]}]},
     "temples[1].track: 'pink' is not a colour of the supply"),
    ({"temples": [{"colour": "red", "side": "4", "track": ["red", "blue"], "layers": [{"position": 3}]}]},
     "temples[1].layers[1].position: 3 is beyond the track (positions 1-2)"),
    ({"temples": [{"colour": "red", "side": "5", "track": ["red", "blue"], "layers": [{"position": 1}]}]},
     "temples[1].side: expected \"2-3\" or \"4\""),
    ({"temples": [{"colour": "red", "side": "4", "track": ["red", "blue"], "layers": [{"position": 1,
                                                                                       "points": -2}]}]},
     "temples[1].layers[1].points: expected a whole number 0-99"),
    ({"temples": [{"colour": "red", "side": "4", "track": ["red", "blue"], "layers": [{"position": 1,
                                                                                       "blocked": True}]}]},
     "temples[1].layers: a layer is blocked at 2 players on a side for 4 players"),
    ({"temples": [{"colour": "red", "side": "2-3", "track": ["red", "blue"], "layers": [{"position": 1,
                                                                                         "blocked": "yes"}]}]},
     "temples[1].layers[1].blocked: expected true or false"),
    ({"shape": 1}, "shape: not a field"),
])
def test_a_bad_box_is_named_by_field(change: dict, words: str) -> None:
    with pytest.raises(RequestError) as err:
        box_from(change, "my.toml")
    assert any(words in p for p in err.value.problems), err.value.problems


def test_a_layer_is_paid_from_either_end_or_as_its_own_row() -> None:
    temple = Temple(1, "4", (1, 0, 2, 3, 0, 1), (Layer(3, None, (4, 5)),))
    assert runs(temple, temple.layers[0]) == [(1, 0, 2), (1, 0, 3, 2)]
    assert runs(temple, temple.layers[0], "rows") == [(4, 5)]


def test_the_generated_deck_keeps_its_promises(deck: Deck, deck_check) -> None:  # type: ignore[no-untyped-def]
    assert deck_check.ok, deck_check.problems
    assert len(deck.cards) == 10 and {(c.temple.colour, c.temple.side) for c in deck.cards} == {
        (c, s) for c in range(1, 6) for s in SIDES}
    layers = [(layer, p) for c in deck.cards for layer, p in zip(c.temple.layers, c.priced or ())]
    assert len(layers) == 50
    for layer, p in layers:
        assert 3 <= (layer.points or 0) <= 8 and p.actions > 0  # no free layer: each run holds a colour
        assert len(p.grids) == 2
    for (a, pa), (b, pb) in itertools.combinations(layers, 2):  # no layer worth more than a harder one
        if pa.actions < pb.actions:
            assert (a.points or 0) <= (b.points or 0)
    for card in deck.cards:
        for layer, p in zip(card.temple.layers, card.priced or ()):
            for paid, side in zip(p.grids, SMALL.grids):
                for run, path in zip(runs(card.temple, layer), paid.witness):
                    assert path is not None and follows(path, side.grid, len(run)) is None
    assert deck.parameters["spearman"] > 0.9 and deck.parameters["balance_ratio"] <= 1.15
    # shaped like the game's tracks: each side 5 of 9 its own colour, one colourless at the top of the arch
    assert all(c.temple.track.count(c.temple.colour) == 5 for c in deck.cards)
    assert all(c.temple.track.count(0) == 1 and c.temple.track[4] == 0 for c in deck.cards)
    assert sum(c.temple.track.count(0) for c in deck.cards) <= 0.15 * 90
    yellow = next(c for c in deck.cards if c.temple.colour == 2 and c.temple.side == "2-3")
    assert yellow.temple.track[:3] == (2, 2, 3)  # the published curse: yellow, yellow, blue
    assert deck.parameters["tracks"] == "game"
    for card in deck.cards:  # at 2 players a spare marker covers one layer a side for 2-3, of median points
        blocked = [layer for layer in card.temple.layers if layer.blocked]
        if card.temple.side == "4":
            assert blocked == []
            continue
        assert len(blocked) == 1 and deck.parameters["two_players"] == "median"
        points = [layer.points or 0 for layer in card.temple.layers]
        assert sum(p < (blocked[0].points or 0) for p in points) <= 2 < sum(p <= (blocked[0].points or 0)
                                                                             for p in points)


@pytest.mark.slow
def test_the_same_seed_gives_the_same_deck(deck: Deck) -> None:
    again = gen.generate(Spec(box=SMALL, attempts=2, seed=5, workers=2, price="exact"))
    assert again.dumps() == deck.dumps()
    assert deck_from_json(json.loads(deck.dumps())).dumps() == deck.dumps()


def test_the_verifier_names_each_fault(deck: Deck) -> None:
    data = json.loads(deck.dumps())
    data["cards"][0]["layers"][1]["grids"][0]["witness"][0] = [0, 5, 11][:len(
        data["cards"][0]["layers"][1]["grids"][0]["witness"][0])]
    data["cards"][2]["layers"][0]["grids"][1]["actions"] += 1
    data["cards"][3]["track"][0], data["cards"][3]["track"][-1] = "red", "red"
    low = min(range(50), key=lambda i: data["cards"][i // 5]["layers"][i % 5]["difficulty"]["actions"])
    data["cards"][low // 5]["layers"][low % 5]["points"] = 8
    check = verify_deck(deck_from_json(data))
    text = "\n".join(check.problems)
    assert "card 1: layer 4, grid 1A: the left run's path" in text
    assert "card 3: layer 3, grid 3B: stored" in text
    assert "is worth 8 points at" in text
    assert "measured" in text


def test_the_verifier_holds_the_layers_blocked_at_two_players(deck: Deck) -> None:
    data = json.loads(deck.dumps())
    first = next(c for c in data["cards"] if c["side"] == "2-3")
    for layer in first["layers"]:
        layer["blocked"] = not layer.get("blocked", False)  # four blocked, the generator's one open
    text = "\n".join(verify_deck(deck_from_json(data)).problems)
    assert f"card {first['id']}: blocks layer" in text and "the generator blocks layer" in text
    for card in data["cards"]:
        for layer in card["layers"]:
            layer["blocked"] = card["side"] == "2-3"  # every layer of the sides for 2-3: no markers to spare
    text = "\n".join(verify_deck(deck_from_json(data)).problems)
    assert "cards: 25 layers blocked at 2 players; a game of two has 12 spare markers" in text
    assert "leave 0 open on the sides for 2-3" in text
    four = next(c for c in data["cards"] if c["side"] == "4")
    four["layers"][0]["blocked"] = True
    with pytest.raises(DeckError, match=r"cards\[\d+\]\.layers\[1\]\.blocked: only a side for 2-3 players"):
        deck_from_json(data)


def test_hand_written_temples_get_measures_and_suggested_points() -> None:
    # the published curse: yellow, yellow, blue from the left end (layer 3)
    temple = Temple(2, "4", (2, 2, 3, 0, 1, 0, 2), (Layer(3, 3), Layer(4, 8), Layer(5, 5)))
    deck = Deck((gen.Card(1, temple),), SMALL, listed=True)
    assert runs(temple, temple.layers[0])[0] == (2, 2, 3)
    check = verify_deck(deck)
    actions = [p.actions for p in check.cards[0].priced]
    assert actions[0] > actions[2] > actions[1]  # YYB is the dearest, then YCR from the right, then YYBC / YCRC
    assert check.ok and check.suggested == ((7, 3, 5),)
    assert any("layer 4 is worth 8 points" in n for n in check.notes)  # reported, not failed
    strict = verify_deck(deck, strict=True)
    assert not strict.ok and any("layer 4 is worth 8 points" in p for p in strict.problems)


def test_show_draws_the_temple_and_a_paying_path(deck: Deck, deck_check) -> None:  # type: ignore[no-untyped-def]
    figures = cards(deck, deck.cards[:1])
    assert figures[0].picture.splitlines()[1].split() == list(DEFAULT.track_text(deck.cards[0].temple.track))
    picture = figures[1].picture
    assert "1" in picture and "2" in picture and "3" in picture and "o" in picture and "-" in picture
    assert report(deck, deck_check) and summary(deck, deck_check)
    assert temple_picture(DEFAULT, DEFAULT.temples[0]).splitlines()[0].split() == ["3", "5", "8", "5", "3"]
    assert grid_picture(DEFAULT.grids[1].grid, (0, 1, 2)).splitlines()[0].startswith(" 1-----2-----3")  # 1B's chain


@pytest.mark.slow
def test_actions_order_layers_more_consistently_across_grids_than_the_share_already_paid() -> None:
    layers = [(t, layer) for t in DEFAULT.temples for layer in t.layers]
    grids = [DEFAULT.grids[0], DEFAULT.grids[3], DEFAULT.grids[6]]
    figures = {g.name: [measure(g.grid, runs(t, layer), DEFAULT.supply, games=1000, seed=1) for t, layer in layers]
               for g in grids}
    actions = [spearman([m.mean for m in figures[a]], [m.mean for m in figures[b]])
               for a, b in itertools.combinations(figures, 2)]
    shares = [spearman([m.paid for m in figures[a]], [m.paid for m in figures[b]])
              for a, b in itertools.combinations(figures, 2)]
    assert min(actions) > 0.98 and min(actions) > min(shares)  # the kept measure: expected actions
    assert all(a is not None and s is not None for a, s in zip(actions, shares))


def test_grids_designed_for_given_temples_are_balanced_and_pay_every_layer() -> None:
    box = replace(SMALL, temples=DEFAULT.temples[:2])
    deck = gen.generate(Spec(box=box, grids_only=True, attempts=6, seed=1, workers=1))
    assert [s.name for s in deck.box.grids] == ["1A", "3B"]
    assert all(s.ability == t.ability for s, t in zip(deck.box.grids, SMALL.grids))
    assert [layer.points for c in deck.cards for layer in c.temple.layers] == [3, 5, 8, 5, 3] * 2
    check = verify_deck(deck_from_json(json.loads(deck.dumps())))
    assert check.ok, check.problems
    assert check.balance.ratio <= 1.15


def test_impossible_requests_are_refused_before_any_work() -> None:
    assert any("layers: 10 layers do not fit a track of 9" in p for p in Spec(layers=10).problems())
    assert any("--grids-only designs grids for the box's temples" in p
               for p in Spec(box=replace(DEFAULT, temples=()), grids_only=True).problems())
    assert any("temples[1].layers[3].points: 8, outside --points 3-6" in p
               for p in Spec(grids_only=True, points=(3, 6)).problems())
    short = Box("short", DEFAULT.colours, (replace(DEFAULT.grids[0], grid=replace(
        DEFAULT.grids[0].grid, positions=DEFAULT.grids[0].grid.positions[:3], lines=((0, 1), (1, 2)))),))
    assert any("longest path holds 3 slots, fewer than the 5 crystals" in p for p in Spec(box=short).problems())
    with pytest.raises(RequestError):
        Spec(box=short).checked()
    assert paths(short.grids[0].grid, 3).shape == (2, 3)


@pytest.mark.slow
def test_grids_out_of_balance_are_a_shortfall() -> None:
    lopsided = replace(DEFAULT, grids=(DEFAULT.grids[0], DEFAULT.grids[2]))
    with pytest.raises(Shortfall, match="out of balance"):
        gen.generate(Spec(box=lopsided, attempts=1, balance=1.0001, workers=1))


def test_verify_holds_a_generated_deck_to_the_games_track_shape(deck: Deck) -> None:
    from generators.mystery_of_the_temples.verify import shape_problems

    assert shape_problems(deck) == []
    first = deck.cards[0]
    track = (0, 0) + tuple(c for c in first.temple.track[2:])
    worse = replace(deck, cards=(replace(first, temple=replace(first.temple, track=track)),) + deck.cards[1:])
    said = shape_problems(worse)
    assert any(f"card {first.id}: 3 colourless positions" in s for s in said)
    assert any(f"card {first.id}: " in s and "crystals are its temple's colour" in s for s in said) or \
        first.temple.track[:2].count(first.temple.colour) == 0


def test_the_studio_keeps_a_layer_blocked_at_two_players_where_the_layer_stays() -> None:
    from generators.mystery_of_the_temples.box import OURS_TEMPLES
    from generators.mystery_of_the_temples.deck import Card
    from generators.mystery_of_the_temples.studio import card_of, codes, draft

    deck = Deck(tuple(Card(i + 1, t) for i, t in enumerate(OURS_TEMPLES)))
    grid = draft(deck, 1)["grid"]
    assert [layer.position for layer in deck.card(1).temple.layers if layer.blocked] == [4]
    repainted = card_of(deck, {"grid": [codes(deck)[3] + grid[0][1:], grid[1]]}, 1)  # a track repainted
    assert [layer.position for layer in repainted.temple.layers if layer.blocked] == [4]
    moved = card_of(deck, {"grid": [grid[0], grid[1][:3] + "." + grid[1][4:]]}, 1)  # layer 4 taken away
    assert not any(layer.blocked for layer in moved.temple.layers)
