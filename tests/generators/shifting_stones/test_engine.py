"""Shifting Stones as played (``generators/shifting_stones/engine.py``), rule by rule against
the rules (``../shared/GAMES.md``, ``seeds/003_*.txt``), with the invariants checked after
every move of whole games, and replays."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from generators.common.errors import RequestError
from generators.common.play import GreedyAgent, RandomAgent, RolloutAgent, SearchAgent, play, replay
from generators.shifting_stones import engine
from generators.shifting_stones.deck import Deck, read_deck
from generators.shifting_stones.space import PAIRS

DECK_FILE = Path(__file__).parents[2] / "data" / "shifting-stones-72-seed-1.json"


@pytest.fixture(scope="module")
def deck() -> Deck:
    return read_deck(DECK_FILE)


def shown_card(state: engine.State) -> int:
    """A card of the deck the grid shows now."""
    return next(c for c in range(len(state.table.ids)) if state.table.shows(state.grid, c))


def holding(state: engine.State, seat: int, cards: tuple[int, ...]) -> engine.State:
    """``state`` with ``cards`` moved into ``seat``'s hand from wherever they were."""
    hands = tuple(tuple(c for c in h if c not in cards) for h in state.hands)
    hands = hands[:seat] + (tuple(sorted(hands[seat] + cards)),) + hands[seat + 1:]
    return replace(state, hands=hands, draw=tuple(c for c in state.draw if c not in cards))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_set_up_deals_four_cards_each_and_lays_every_tile(deck: Deck, players: int) -> None:
    state = engine.start(deck, players, seed=1)
    assert [len(h) for h in state.hands] == [4] * players
    assert len(state.draw) == 72 - 4 * players and state.discard == ()
    assert sorted(f // 2 for f in state.grid) == sorted(t for t, n in enumerate(deck.tiles.counts) for _ in range(n))
    assert state.seat == 0 and engine.scores(state) == [0] * players and not engine.check(state)
    assert engine.start(deck, players, seed=1) == state  # the same seed, the same deal
    assert engine.start(deck, players, seed=2) != state


def test_the_rules_player_counts_and_a_playable_deck_are_required(deck: Deck) -> None:
    for players in (1, 6):
        with pytest.raises(RequestError, match="players"):
            engine.start(deck, players, 1)
    with pytest.raises(RequestError, match=r"cards\[1\]\.points"):
        engine.start(replace(deck, cards=(replace(deck.cards[0], points=None),) + deck.cards[1:]), 2, 1)
    with pytest.raises(RequestError, match="at least 22 cards"):
        engine.start(replace(deck, cards=deck.cards[:21]), 5, 1)


def test_a_swap_is_of_orthogonal_neighbours_keeps_their_sides_and_costs_a_card(deck: Deck) -> None:
    state = engine.start(deck, 2, seed=3)
    swaps = [m for m in engine.moves(state) if m[0] == "swap"]
    assert swaps and all((a, b) in PAIRS for _, a, b, _ in swaps)  # never diagonal
    _, a, b, card = swaps[0]
    after = engine.apply(state, swaps[0])
    assert after.grid[a] == state.grid[b] and after.grid[b] == state.grid[a]  # each keeps its face up
    assert card not in after.hands[0] and after.discard[-1] == card
    with pytest.raises(ValueError, match="neighbours"):
        engine.apply(state, ("swap", 0, 4, card))  # diagonal


def test_a_flip_turns_one_tile_to_its_other_face_and_costs_a_card(deck: Deck) -> None:
    state = engine.start(deck, 2, seed=3)
    card = state.hands[0][0]
    after = engine.apply(state, ("flip", 4, card))
    assert after.grid[4] // 2 == state.grid[4] // 2 and after.grid[4] != state.grid[4]
    assert [g for p, g in enumerate(after.grid) if p != 4] == [g for p, g in enumerate(state.grid) if p != 4]
    assert after.discard == (card,) and len(after.hands[0]) == 3


def test_only_a_shown_card_in_hand_scores_and_it_stays_scored(deck: Deck) -> None:
    state = engine.start(deck, 2, seed=4)
    shown = shown_card(state)
    hidden = next(c for c in range(72) if not state.table.shows(state.grid, c))
    state = holding(state, 0, (shown, hidden))
    scoring = [m for m in engine.moves(state) if m[0] == "score"]
    assert ("score", shown) in scoring and ("score", hidden) not in scoring
    with pytest.raises(ValueError, match="not shown"):
        engine.apply(state, ("score", hidden))
    after = engine.apply(state, ("score", shown))
    assert after.scored[0] == (shown,) and shown not in after.hands[0]
    assert engine.scores(after)[0] == deck.cards[shown].points
    assert all(m[-1] != shown for m in engine.moves(after) if m[0] in ("swap", "flip"))  # never discarded


def test_a_turn_ends_by_drawing_up_to_four(deck: Deck) -> None:
    state = engine.start(deck, 3, seed=5)
    state = engine.apply(state, ("flip", 0, state.hands[0][0]))
    state = engine.apply(state, ("flip", 0, state.hands[0][0]))
    assert len(state.hands[0]) == 2
    after = engine.apply(state, engine.END)
    assert len(after.hands[0]) == 4 and after.seat == 1 and engine.turns(after) == 1


def test_a_pass_draws_two_ends_the_turn_and_never_comes_twice_running(deck: Deck) -> None:
    state = engine.start(deck, 2, seed=6)
    assert engine.PASS in engine.moves(state)
    acted = engine.apply(state, ("flip", 0, state.hands[0][0]))
    assert engine.PASS not in engine.moves(acted)  # instead of everything else, not after it
    passed = engine.apply(state, engine.PASS)
    assert len(passed.hands[0]) == 6 and passed.seat == 1
    back = engine.apply(passed, engine.END)  # seat 2's turn
    assert back.seat == 0 and engine.PASS not in engine.moves(back)  # not two turns running
    kept = engine.apply(back, engine.END)
    assert len(kept.hands[0]) == 6  # up to four: a hand of six draws nothing
    again = engine.apply(kept, engine.END)
    assert engine.PASS in engine.moves(again)  # after a turn without it, allowed again


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_game_ends_once_a_seat_has_its_cards_and_every_seat_has_had_as_many_turns(
        deck: Deck, players: int) -> None:
    target = {2: 10, 3: 9, 4: 8, 5: 7}[players]
    state = engine.start(deck, players, seed=7)
    state = replace(state, seat=players - 1 if players > 2 else 1, turn=players * 3 - 1)
    last = state.seat
    almost = replace(state, scored=state.scored[:last] + (tuple(range(100, 100 + target - 1)),)
                     + state.scored[last + 1:])
    assert not engine.over(engine.apply(almost, engine.END))
    enough = replace(state, scored=state.scored[:1] + (tuple(range(100, 100 + target)),) + state.scored[2:], seat=1,
                     turn=players * 3 - players + 1)
    after = engine.apply(enough, engine.END)  # seat 2 triggered the end: the round is finished
    if players == 2:
        assert engine.over(after) and engine.turns(after) % players == 0
    else:
        assert not engine.over(after) and after.ending
        while not engine.over(after):
            after = engine.apply(after, engine.END)
        assert engine.turns(after) % players == 0 and after.seat == 0  # every seat the same number of turns


def test_the_most_one_point_cards_earn_three_more_ties_each(deck: Deck) -> None:
    points = [c.points for c in deck.cards]
    ones = [i for i, p in enumerate(points) if p == 1]
    threes = [i for i, p in enumerate(points) if p == 3]
    state = replace(engine.start(deck, 3, seed=8), finished=True)
    tie = replace(state, scored=((ones[0], ones[1]), (ones[2], ones[3]), (ones[4], threes[0])))
    assert engine.scores(tie) == [2 + 3, 2 + 3, 4]
    alone = replace(state, scored=((ones[0],), (threes[0],), ()))
    assert engine.scores(alone) == [1 + 3, 3, 0]
    none = replace(state, scored=((threes[0],), (), ()))
    assert engine.scores(none) == [3, 0, 0]  # nobody has a 1-point card: nobody gets the bonus


def test_an_empty_draw_pile_is_the_discard_pile_shuffled(deck: Deck) -> None:
    state = engine.start(deck, 2, seed=9)
    state = replace(state, discard=state.draw, draw=())
    state = engine.apply(state, ("flip", 0, state.hands[0][0]))
    after = engine.apply(state, engine.END)
    assert len(after.hands[0]) == 4 and after.shuffles == 1 and after.discard == ()
    assert len(after.draw) == 72 - 8 and not engine.check(after)


def test_a_seat_sees_its_hand_and_the_table_but_not_the_others_hands(deck: Deck) -> None:
    state = engine.start(deck, 3, seed=10)
    other = state.hands[1]
    swapped = replace(state, hands=(state.hands[0], state.draw[:4], state.hands[2]),
                      draw=other + state.draw[4:])
    assert engine.seen(swapped, 0) == engine.seen(state, 0)
    assert engine.seen(swapped, 1) != engine.seen(state, 1)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("agent", [RandomAgent, GreedyAgent])
def test_whole_games_keep_every_invariant_after_every_move_and_replay_to_the_same_end(
        deck: Deck, players: int, agent: type) -> None:
    turns = 200 if agent is RandomAgent else 1000  # random play seldom ends a game: its first 200 turns
    for seed in range(2):
        played = play(engine, deck, players, seed, [agent() for _ in range(players)], checked=True, max_turns=turns)
        assert replay(engine, deck, players, seed, played.moves) == played.final
        assert played == play(engine, deck, players, seed, [agent() for _ in range(players)], max_turns=turns)
        if agent is GreedyAgent:
            assert played.ended and engine.turns(played.final) % players == 0
            scored = Counter(c for s in played.final.scored for c in s)
            assert scored and max(scored.values()) == 1  # a card scores once


def test_a_replay_refuses_a_move_that_is_not_legal_there(deck: Deck) -> None:
    state = engine.start(deck, 2, seed=11)
    stranger = next(c for c in range(72) if c not in state.hands[0])
    with pytest.raises(ValueError, match="move 2"):
        replay(engine, deck, 2, 11, [engine.END, ("flip", 0, stranger)])


def test_the_greedy_agent_beats_the_random_one(deck: Deck) -> None:
    won = 0.0
    for seed in range(10):
        seats = [GreedyAgent(), RandomAgent()] if seed % 2 == 0 else [RandomAgent(), GreedyAgent()]
        won += play(engine, deck, 2, seed, seats).shares[seed % 2]
    assert won >= 0.8 * 10


def test_a_determinised_state_looks_the_same_to_its_seat_and_keeps_every_invariant(deck) -> None:
    state = engine.start(deck, 4, seed=12)
    sample = engine.determinise(state, 2, random.Random(1))
    assert engine.seen(sample, 2) == engine.seen(state, 2) and not engine.check(sample)
    assert sample.hands[2] == state.hands[2] and sample != state  # the others' hands dealt afresh


@pytest.mark.parametrize("agent", [GreedyAgent, SearchAgent, RolloutAgent])
def test_an_agent_chooses_from_what_its_seat_sees_and_never_peeks(deck, agent: type) -> None:
    """Two states alike but for the others' hands and the draw pile: the same choice (an
    agent that read a hidden card, or the next card it would draw, could choose otherwise)."""
    for seed in range(6):
        state = engine.start(deck, 3, seed=seed)
        hidden = engine.determinise(state, 0, random.Random(seed + 100))
        assert engine.seen(hidden, 0) == engine.seen(state, 0)
        assert agent().choose(engine, state, 0, random.Random(7)) == agent().choose(engine, hidden, 0, random.Random(7))


@pytest.mark.slow
def test_the_rollout_agent_beats_the_random_one(deck) -> None:
    """Monte Carlo rollouts on deals of the hidden cards (Python, about 2 s a game)."""
    won = 0.0
    for seed in range(10):
        seats = [RolloutAgent(), RandomAgent()] if seed % 2 == 0 else [RandomAgent(), RolloutAgent()]
        won += play(engine, deck, 2, seed, seats).shares[seed % 2]
    assert won >= 0.8 * 10


def test_the_search_agent_beats_the_random_one_and_the_greedy_one(deck) -> None:
    for weaker in (RandomAgent, GreedyAgent):
        won = 0.0
        for seed in range(8):
            seats = [SearchAgent(), weaker()] if seed % 2 == 0 else [weaker(), SearchAgent()]
            won += play(engine, deck, 2, seed, seats).shares[seed % 2]
        assert won >= 0.8 * 8, weaker.name
