"""Monolyth structure decks: the pool, targets, the generator's promises, the verifier's
replay, and hand-written structure lists."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from generators.common.errors import RequestError
from generators.common.figures import Fact
from generators.common.grading import TARGETS, Tier
from generators.monolyth import generate as gen
from generators.monolyth.deck import Card, Deck, deck_from_json
from generators.monolyth.figures import cards, summary
from generators.monolyth.measure import difficulty
from generators.monolyth.pool import DEFAULT, pool_from
from generators.monolyth.spec import Spec
from generators.monolyth.structure import canonical, rows_of, symmetries, target_from
from generators.monolyth.verify import OURS_BOUNDS, verify_deck
from solver.heightmap import CONTAIN, EQUAL, Board, Step, Target

BOARD = Board(4, 4, 3)


@pytest.fixture(scope="module")
def deck() -> Deck:
    return gen.generate(Spec(cards=3, attempts=6, difficulty=TARGETS["thirds"], seed=2, workers=1))


@pytest.fixture(scope="module")
def deck_check(deck: Deck):  # type: ignore[no-untyped-def]
    return verify_deck(deck)


def test_our_pool_is_eighty_pieces_in_five_colours() -> None:
    assert sum(k.count or 0 for k in DEFAULT.pieces) == 65 and sum(n for _, n in DEFAULT.singles) == 15
    # enough for four 4x4x3 monoliths (192 cubes) with pieces swapped for singles and the ring's last left
    assert DEFAULT.cubes == 235
    assert {k.colour for k in DEFAULT.pieces} == set(DEFAULT.colour_names) and len(DEFAULT.colour_names) == 5
    assert len(DEFAULT.boards) == 5 and len({frozenset(b) for b in DEFAULT.boards}) == 5
    assert all(len(set(b)) == 4 for b in DEFAULT.boards)
    assert len(DEFAULT.level_tokens) == 14 and len(DEFAULT.structure_tokens) == 4
    assert pool_from(DEFAULT.as_json(), "again") == DEFAULT


@pytest.mark.parametrize("change, words", [
    ({"pieces": [{"name": "U", "colour": "red", "cells": [[0, 0, 0], [2, 0, 0]]}]}, "not a connected polycube"),
    ({"pieces": [{"name": "I2", "colour": "pink"}]}, "colour: expected one of"),
    ({"pieces": [{"name": "long", "colour": "red", "cells": [[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0],
                                                             [4, 0, 0]]}]}, "does not fit the 4x4 board"),
    ({"singles": {"red": -1}}, "singles.red: expected a whole number"),
    ({"boards": [["red", "red", "blue"]]}, "boards[1]: expected four colours"),
    ({"level_tokens": [3, "x"]}, "level_tokens: expected a list of whole numbers"),
    ({"shape": 1}, "shape: not a pool field"),
])
def test_a_bad_pool_is_named_by_field(change: dict, words: str) -> None:
    data = {**DEFAULT.as_json(), **change}
    with pytest.raises(RequestError) as err:
        pool_from(data, "my.toml")
    assert any(words in p for p in err.value.problems), err.value.problems


def test_a_pool_too_small_for_the_monolith_is_refused() -> None:
    data = {**DEFAULT.as_json(), "pieces": [{"name": "I2", "colour": "red", "count": 3}], "singles": {}}
    small = pool_from(data, "small.toml")
    assert any("fewer than the 4x4x3 monolith's 48" in p for p in Spec(pool=small).problems())


def test_targets_read_and_turn() -> None:
    t = target_from(["3333", "1111", "1..1", "1111"], BOARD, CONTAIN, "t")
    assert t.heights[:4] == (3, 3, 3, 3) and t.heights[9] is None and rows_of(t, BOARD)[2] == "1..1"
    assert len(symmetries(t.heights, BOARD)) == 4  # a wall on one side: four turns, mirrors coincide
    east = target_from(["1113", "1.13", "1.13", "1113"], BOARD, CONTAIN, "t")
    assert canonical(east.heights, BOARD, True) == canonical(
        target_from(["3333", "1111", "1..1", "1111"], BOARD, CONTAIN, "t").heights, BOARD, True)
    for rows, words in ((["4444"] * 4, "expected a height 0-3"), (["333"] * 4, "expected 4 rows of 4"),
                        (["...."] * 4, "asks for nothing")):
        with pytest.raises(RequestError, match=words):
            target_from(rows, BOARD, CONTAIN, "cards[0].target")


def test_the_generated_deck_keeps_its_promises(deck: Deck, deck_check) -> None:  # type: ignore[no-untyped-def]
    assert len(deck.cards) == 3
    keys = {canonical(c.target.heights, deck.board, True) for c in deck.cards}
    assert len(keys) == 3, "no two cards alike up to turning"
    difficulties = [c.difficulty for c in deck.cards]
    assert difficulties == sorted(difficulties)
    for c in deck.cards:
        assert c.witness and c.method == "simulated"  # one scale
        # perfect play is never slower than the greedy player (within the games' noise)
        assert c.bound is None or c.bound <= c.difficulty + 3 * (c.error or 0)
        volume = sum(h or 0 for h in c.target.heights)
        assert sum(len(s.cubes) for s in c.witness) == volume  # nothing wasted under contain
        assert c.difficulty is not None and volume / 4 <= c.difficulty
    assert deck_check.ok, deck_check.problems
    assert deck_from_json(json.loads(deck.dumps())) == deck


@pytest.mark.slow
def _candidate(index: int, turns: float, colours: bool = False) -> gen.Candidate:
    target = Target((1,) * 16, (((0, 0, 0), "red"),) if colours else ())
    return gen.Candidate(index, "levels", target, (), 0, turns, "simulated", 0.01, None)


def test_comparable_cards_are_the_nearest_run_round_the_median() -> None:
    ranked = [_candidate(i, v) for i, v in enumerate([2.0, 3.0, 5.0, 5.2, 5.3, 6.0, 9.0, 12.0])]
    assert [c.difficulty for c in gen.comparable(ranked, 3)] == [5.0, 5.2, 5.3]
    # a tighter run far from the median is not taken: the cards stay about as hard as the pool's middle
    ranked = [_candidate(i, v) for i, v in enumerate([1.0, 1.01, 1.02, 4.0, 5.0, 6.0, 7.0])]
    assert [c.difficulty for c in gen.comparable(ranked, 3)] == [4.0, 5.0, 6.0]
    assert len(gen.comparable(ranked[:2], 3)) == 2 and gen.comparable(ranked, 0) == []
    painted = [_candidate(10 + i, v, colours=True) for i, v in enumerate([3.0, 4.4, 5.1, 8.0])]
    chosen = gen.comparable(ranked, 3)
    assert [c.difficulty for c in gen.nearest(painted, 2, chosen)] == [5.1, 4.4]  # nearest 4.9, the run's middle


def test_the_default_deck_is_comparable_not_tiered(monkeypatch: pytest.MonkeyPatch) -> None:
    from generators.monolyth import pace

    monkeypatch.setattr(pace, "GAMES", 3)  # the choice, not the figures: three games a candidate
    assert Spec().difficulty == "comparable"
    spread = gen.generate(Spec(cards=3, attempts=9, difficulty=TARGETS["thirds"], seed=4, workers=1))
    alike = gen.generate(Spec(cards=3, attempts=9, seed=4, workers=1))
    assert alike.parameters["difficulty"] == "comparable"

    def ratio(d: Deck) -> float:
        values = [c.difficulty or 0 for c in d.cards]
        return max(values) / min(values)

    assert ratio(alike) < ratio(spread)
    assert ratio(alike) <= 1.5, [c.difficulty for c in alike.cards]


def test_a_card_whose_cubes_stand_high_comes_later_in_play() -> None:
    from generators.monolyth.pace import pace

    low = target_from(["2222", "2222", "2222", "...."], BOARD, CONTAIN, "t")  # 24 cubes, two high
    high = target_from(["333.", "333.", "33..", "...."], BOARD, CONTAIN, "t")  # 24 cubes, three high
    # built alone the high block is the easier (fewer columns to fill) ...
    assert difficulty(DEFAULT, BOARD, high)[0] < difficulty(DEFAULT, BOARD, low)[0]
    # ... but in play, where everyone builds level by level, it comes later
    quick, slow = (pace(DEFAULT, 3, CONTAIN, True, t, (), games=4) for t in (low, high))
    assert quick[0] + 1 < slow[0] and quick[1] >= 0
    assert pace(DEFAULT, 3, CONTAIN, True, low, (), games=4) == quick  # seeded from the structure


def test_the_same_seed_gives_the_same_deck(deck: Deck) -> None:
    again = gen.generate(Spec(cards=3, attempts=6, difficulty=TARGETS["thirds"], seed=2, workers=2))
    assert again.dumps() == deck.dumps()


def _with_card(deck: Deck, card: Card) -> Deck:
    """The deck with only ``card`` (and no recorded card count): quick to verify."""
    params = {k: v for k, v in deck.parameters.items() if k not in ("cards", "prophecies")}
    return replace(deck, cards=(card,), parameters=params, prophecies=())


def test_the_verifier_names_each_fault(deck: Deck) -> None:
    first = deck.cards[0]
    assert first.witness is not None
    short = _with_card(deck, replace(first, witness=first.witness[:-1]))
    assert any("do not match the target" in p for p in verify_deck(short).problems)
    lifted = first.witness[0]
    moved = Step(lifted.piece, lifted.colour, tuple((x, y, z + 1) for x, y, z in lifted.cubes))
    hanging = _with_card(deck, replace(first, witness=(moved, *first.witness[1:])))
    assert any("hangs over an empty space" in p for p in verify_deck(hanging).problems)
    wrong = _with_card(deck, replace(first, difficulty=(first.difficulty or 0) + 1))
    assert any("difficulty: stored" in p for p in verify_deck(wrong).problems)
    twice = replace(_with_card(deck, first), cards=(first, replace(first, id=99)))
    assert any("card 99 asks for the same structure as card 1" in p for p in verify_deck(twice).problems)
    recoloured = Step(lifted.piece, "black", lifted.cubes)
    with pytest.raises(Exception, match="not a piece of the pool"):
        data = json.loads(_with_card(deck, replace(first, witness=(recoloured, *first.witness[1:]))).dumps())
        deck_from_json(data)


def test_a_hand_written_list_gets_builds_or_is_told_why_not(tmp_path: Path) -> None:
    data = {"format": "templeforge.deck/1", "game": "monolyth",
            "cards": [{"id": "level", "target": ["1111", "1111", "1111", "1111"]},
                      {"id": "wall", "target": ["3333", "1111", "1111", "1111"]}]}
    hand = deck_from_json(data, "hand.json")
    check = verify_deck(hand)
    assert check.ok, check.problems
    for k in check.cards:
        assert k.buildable and k.witness and k.difficulty is not None
    level = check.check("level")
    assert level.method == "simulated" and level.bound is not None and level.bound < level.difficulty
    only_squares = {**DEFAULT.as_json(), "pieces": [{"name": "O4", "colour": "red", "count": 20}], "singles": {}}
    odd = deck_from_json({**data, "pool": only_squares, "cards": [{"id": "odd", "target": ["3...", "....", "....",
                                                                                          "...."]}]}, "odd.json")
    check = verify_deck(odd)
    assert not check.ok and "no ordered build" in check.problems[0]


def test_a_hand_written_list_is_placed_on_our_scale_not_on_its_own_thirds() -> None:
    level = {"id": "level", "target": ["1111", "1111", "1111", "1111"]}
    wall = {"id": "wall", "target": ["3333", "1111", "1111", "1111"]}
    tall = {"id": "tall", "target": ["3333", "3333", "3333", "3333"]}
    tiny = {"id": "tiny", "target": ["11..", "....", "....", "...."]}
    tiers = {}
    for listed in ([level, wall], [wall, tall]):
        hand = deck_from_json({"format": "templeforge.deck/1", "game": "monolyth", "cards": listed}, "hand.json")
        check = verify_deck(hand)
        assert check.bounds == OURS_BOUNDS and check.scale.startswith("our scale")
        for k in check.cards:
            assert tiers.setdefault(k.card, k.tier) == k.tier  # the same tier whatever its neighbours
    assert tiers["level"] is Tier.EASY and tiers["wall"] is Tier.MEDIUM and tiers["tall"] is Tier.HARD
    hand = deck_from_json({"format": "templeforge.deck/1", "game": "monolyth", "cards": [tiny, wall]}, "hand.json")
    check = verify_deck(hand)
    assert check.ok and len(check.notes) == 1 and "card tiny" in check.notes[0] and "easier than" in check.notes[0]
    assert any(f.label == "on our scale" for f in summary(hand, check) if isinstance(f, Fact))
    strict = verify_deck(hand, strict=True)
    assert not strict.ok and any("card tiny" in p for p in strict.problems)
    other = deck_from_json({"format": "templeforge.deck/1", "game": "monolyth", "rule": "equal",
                            "cards": [level, wall]}, "hand.json")
    assert verify_deck(other).scale == "the thirds of these structures"  # another rule: no scale of ours


def test_equal_and_free_columns() -> None:
    board = Board(4, 4, 3)
    t = Target((1, None, 0, 1) * 4, (), EQUAL)
    assert t.limits(board) == (1, 3, 0, 1) * 4
    assert Target((1, None, 0, 1) * 4, (), CONTAIN).limits(board) == (1, 0, 0, 1) * 4


def test_show_draws_the_target_and_every_step(deck: Deck, deck_check) -> None:  # type: ignore[no-untyped-def]
    figures = cards(deck, deck.cards[:1])
    assert figures[0].title.startswith("card 1:")
    steps = [f for f in figures[1:]]
    assert len(steps) == len(deck.cards[0].witness or ())
    assert all(f.title.startswith(f"step {n}:") for n, f in enumerate(steps, start=1))
    facts = summary(deck, deck_check)
    assert any(f.label == "match rule" for f in facts if hasattr(f, "label"))


def test_prophecies_are_priced_by_their_chances_and_checked(deck: Deck, deck_check) -> None:  # type: ignore[no-untyped-def]
    from generators.monolyth.prophecy import shares

    tokens = deck.prophecies
    assert sum(p.count for p in tokens) == 20 and [p.value for p in tokens] == list(range(4, 13))
    chances = [p.chance for p in tokens]
    assert chances == sorted(chances, reverse=True) and all(0 < p.low <= p.chance <= p.high <= 1 for p in tokens)
    # each value's tokens are worth about the same expected points: no value's total is twice another's
    totals = [p.expected * p.count for p in tokens]
    assert max(totals) < 2 * min(totals)
    assert shares({p.value: (p.chance, p.error, p.low, p.high) for p in tokens}, 20) == {p.value: p.count
                                                                                      for p in tokens}
    assert deck_check.ok
    wrong = replace(deck, prophecies=(replace(tokens[0], chance=0.5), *tokens[1:]), cards=deck.cards)
    problems = verify_deck(wrong).problems
    assert any("prophecies: value 4: stored chance 0.5" in p for p in problems)


def test_a_designers_prophecy_values_must_fit_the_wall() -> None:
    data = {**DEFAULT.as_json(), "prophecy_tokens": [4, 8, 13]}
    pool = pool_from(data, "mine.toml")
    assert any("prophecy_tokens: 13 is more than the 12 squares" in p for p in Spec(pool=pool).problems())
    assert not any("prophecy_tokens" in p for p in Spec(pool=pool, height=4).problems())


@pytest.mark.slow
def test_a_deck_like_a_designers_structures() -> None:
    from generators.common.grading import ks_distance
    from generators.common.options import resolve
    from generators.monolyth.reference import cubes_band, read_reference
    from generators.monolyth.spec import OPTIONS

    source = str(Path(__file__).parents[3] / "examples" / "monolyth-structures.json")
    reference = read_reference(source, "--like")
    assert len(reference.difficulties) == 8 and reference.cubes[0] == "9-16"
    values = resolve(OPTIONS, {"like": reference, "cards": "4", "attempts": "30", "prophecies": "0", "workers": "1"})
    spec = Spec.from_values(values.values, values.given)
    assert spec.difficulty is None and spec.height == 3 and spec.parameters()["like"] == source
    deck = gen.generate(spec)
    mine = [c.difficulty or 0.0 for c in deck.cards]
    # four cards against eight: the distribution functions cannot come closer than an eighth
    assert ks_distance(mine, reference.difficulties) <= 0.25
    assert not {canonical(c.target.heights, deck.board, True) for c in deck.cards} & reference.keys
    # the cubes per structure follow the reference's, but the difficulties weigh more: one card may
    # leave the reference's bands where that brings the distributions together
    assert sum(cubes_band(c.target.heights) in set(reference.cubes) for c in deck.cards) >= len(deck.cards) - 1
    with pytest.raises(RequestError, match="--like: .*game"):
        read_reference(str(Path(__file__).parents[3] / "examples" / "like-reference.json"), "--like")
