"""Puzzle Temple as played (``generators/puzzle_temple/engine.py``), rule by rule against the
rules (``../shared/GAMES.md``, ``seeds/000_*.txt``), with the invariants checked after every
move of whole games, and replays. The race's times are scripted where a rule is about them."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from generators.common.errors import RequestError
from generators.common.play import GreedyAgent, RandomAgent, RolloutAgent, SearchAgent, play, replay
from generators.puzzle_temple import engine
from generators.puzzle_temple.deck import Deck, read_deck

DECK_FILE = Path(__file__).parents[2] / "data" / "puzzle-temple-36-seed-1.json"


@pytest.fixture(scope="module")
def deck() -> Deck:
    return read_deck(DECK_FILE)


@pytest.fixture
def race(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """Scripted times: each solve takes the next figure of the list (seat 0 first, round by
    round); once it runs out, 30 s."""
    times: list[float] = []

    def scripted(bits: float, skill: float, rng: random.Random) -> float:
        return times.pop(0) if times else 30.0

    monkeypatch.setattr(engine, "solve_time", scripted)
    yield times


def started(deck: Deck, players: int, times: list[float], race: list[float], seed: int = 1) -> engine.State:
    race[:] = times
    return engine.start(deck, players, seed)


@pytest.mark.parametrize("players, kept", [(2, 18), (3, 27), (4, 36)])
def test_set_up_spreads_the_jewels_keeps_nine_cards_a_player_and_starts_every_pawn_below(
        deck: Deck, players: int, kept: int) -> None:
    state = engine.start(deck, players, seed=3)
    assert [len(level) for level in state.levels] == [13] * 6
    assert Counter(c for level in state.levels for c in level) == Counter({c: 13 for c in range(6)})
    assert state.at == (0,) * players and state.rounds == 9
    assert len(state.pile) + len(state.played) * players == kept  # 36 less 18 for 2, less 9 for 3
    assert not engine.check(state)
    assert engine.start(deck, players, seed=3) == state and engine.start(deck, players, seed=4) != state


def test_the_rules_player_counts_and_a_rated_deck_are_required(deck: Deck) -> None:
    for players in (1, 5):
        with pytest.raises(RequestError, match="players"):
            engine.start(deck, players, 1)
    card = deck.cards[0]
    unrated = replace(card, faces=(replace(card.faces[0], difficulty=None),) + card.faces[1:])
    with pytest.raises(RequestError, match=r"cards\[1\]\.faces.*die 1"):
        engine.start(replace(deck, cards=(unrated,) + deck.cards[1:]), 2, 1)
    with pytest.raises(RequestError, match="at least 3 cards"):
        engine.start(replace(deck, cards=deck.cards[:2]), 3, 1)
    # a deck smaller than the game's plays as many whole rounds as it deals
    assert engine.start(replace(deck, cards=deck.cards[:7]), 2, 1).rounds == 3


def test_each_seat_draws_a_card_and_the_die_sets_every_seats_blocks(deck: Deck, race: list[float]) -> None:
    state = started(deck, 4, [], race)
    first = state.played[0]
    assert len(set(first.cards)) == 4 and 1 <= first.die <= 6
    assert all(state.dealt[c] == 1 for c in first.cards) and sum(state.dealt) == 4


@pytest.mark.parametrize("players, times, steps", [
    (4, [40.0, 10.0, 30.0, 20.0], [(1, 3), (3, 2), (2, 1), (0, 0)]),
    (3, [50.0, 12.0, 31.0], [(1, 3), (2, 2), (0, 1)]),
    (2, [9.0, 44.0], [(0, 3), (1, 1)]),
])
def test_finishers_move_in_the_order_they_finished_with_their_steps(
        deck: Deck, race: list[float], players: int, times: list[float], steps: list[tuple[int, int]]) -> None:
    state = started(deck, players, times, race)
    assert list(state.queue) == steps
    assert state.played[0].order == tuple(s for s, _ in steps)
    assert engine.to_act(state) == steps[0][0]


def test_a_move_is_up_to_its_steps_either_way_along_the_levels(deck: Deck, race: list[float]) -> None:
    state = started(deck, 4, [10.0, 20.0, 30.0, 40.0], race)
    assert engine.moves(state) == [("move", n) for n in range(4)]  # from the hexagon: 0-3 steps up
    state = replace(state, at=(5,) + state.at[1:])
    assert engine.moves(state) == [("move", n) for n in (2, 3, 4, 5, 6)]  # down or up, never past level 6
    with pytest.raises(ValueError, match="more than 3 steps"):
        engine.apply(state, ("move", 1))
    last = replace(state, queue=((3, 0),))
    assert engine.moves(last) == [("move", 0)]  # the fourth finisher stays (and collects there)


def test_a_mover_takes_the_two_outermost_jewels_and_the_next_mover_there_the_next_two(
        deck: Deck, race: list[float]) -> None:
    state = started(deck, 2, [10.0, 20.0], race)
    line = state.levels[1]
    state = engine.apply(state, ("move", 2))
    assert state.levels[1] == line[2:] and sum(state.jewels[0]) == 2
    assert Counter({c: n for c, n in enumerate(state.jewels[0]) if n}) == Counter(line[:2])
    state = engine.apply(state, ("move", 1))  # seat 1 has one step: level 1
    assert sum(state.jewels[1]) == 2 and state.levels[0] == engine.start(deck, 2, 1).levels[0][2:]
    assert not engine.check(state)


def test_a_player_who_stays_collects_where_they_stand_and_the_hexagon_gives_nothing(
        deck: Deck, race: list[float]) -> None:
    state = started(deck, 4, [10.0, 20.0, 30.0, 40.0], race)
    state = engine.apply(state, ("move", 0))
    assert sum(state.jewels[0]) == 0
    state = replace(state, at=(0, 4, 0, 0))
    line = state.levels[3]
    state = engine.apply(state, ("move", 4))
    assert state.levels[3] == line[2:] and sum(state.jewels[1]) == 2


def test_nobody_in_the_minute_runs_a_second_minute_and_nobody_then_sets_the_cards_aside(
        deck: Deck, race: list[float]) -> None:
    # round 1: nobody in 60 s, seat 1 in the second minute; round 2: nobody in 120 s at all
    state = started(deck, 2, [121.0, 70.0, 130.0, 125.0], race)
    assert state.queue == ((1, 3),) and state.played[0].times == (None, 70.0)
    state = engine.apply(state, ("move", 1))
    assert state.played[1].order == () and state.played[2].order  # round 2 void, round 3 played
    assert state.dealt == tuple(int(c in {c for r in state.played for c in r.cards}) for c in range(36))
    assert engine.turns(state) == 2


def test_a_gate_unlocked_too_late_to_move_still_takes_its_place_in_the_order(deck: Deck, race: list[float]) -> None:
    state = started(deck, 3, [20.0, 57.0, 40.0], race)  # seat 1 unlocks 3 s before the end: no time to move
    assert state.played[0].order == (0, 2, 1) and state.queue == ((0, 3), (2, 2))
    assert state.unlocked[state.played[0].cards[1]] == 0 and state.unlocked[state.played[0].cards[0]] == 1


def test_the_game_ends_after_nine_rounds_with_every_kept_card_used(deck: Deck) -> None:
    played = play(engine, deck, 3, 5, [GreedyAgent() for _ in range(3)], checked=True)
    assert played.ended and len(played.final.played) == 9 and engine.turns(played.final) == 9
    assert played.final.pile == () and sum(played.final.dealt) == 27
    assert engine.moves(played.final) == []


def test_the_most_jewels_of_one_colour_wins_and_a_tie_goes_to_the_next_colour(deck: Deck) -> None:
    state = engine.start(deck, 3, 1)
    # the seed's example: 7 green beaten by 8 yellow although 18 jewels in all
    state = replace(state, jewels=((7, 5, 3, 2, 0, 1), (4, 1, 0, 1, 2, 3), (2, 3, 2, 8, 0, 0)))
    assert engine.scores(state) == [7, 4, 8] and engine.shares(state) == (0.0, 0.0, 1.0)
    state = replace(state, jewels=((5, 4, 0, 0, 0, 0), (0, 5, 3, 0, 0, 0), (5, 0, 0, 4, 0, 0)))
    assert engine.shares(state) == (0.5, 0.0, 0.5)  # 5+4 twice beats 5+3; level in everything: shared


def test_whole_games_keep_every_invariant_after_every_move_and_replay_to_the_same_end(deck: Deck) -> None:
    for players in engine.PLAYERS:
        for agent in (RandomAgent, GreedyAgent, SearchAgent):
            played = play(engine, deck, players, players, [agent() for _ in range(players)], checked=True)
            assert played.ended
            assert replay(engine, deck, players, players, played.moves) == played.final
            assert played == play(engine, deck, players, players, [agent() for _ in range(players)])


def test_a_determinised_state_hides_the_pile_and_the_race_to_come_and_nothing_else(deck: Deck) -> None:
    state = engine.start(deck, 4, seed=12)
    sample = engine.determinise(state, 2, random.Random(1))
    assert engine.seen(sample, 2) == engine.seen(state, 2) and not engine.check(sample)
    assert sample.pile == state.pile and sample.chance != state.chance  # the pile is drawn from at random
    move = engine.moves(state)[0]
    while engine.to_act(state) == engine.to_act(sample) and not engine.over(state):  # to the next round
        if len(engine.apply(state, move).played) > len(state.played):
            break
        state, sample = engine.apply(state, move), engine.apply(sample, move)
        move = engine.moves(state)[0]
    assert engine.apply(state, move).played[-1] != engine.apply(sample, move).played[-1]  # another draw, die, race


def test_an_agent_chooses_from_what_its_seat_sees_and_never_peeks(deck: Deck) -> None:
    for seed in range(6):
        state = engine.start(deck, 3, seed=seed)
        seat = engine.to_act(state)
        hidden = engine.determinise(state, seat, random.Random(seed + 100))
        assert GreedyAgent().choose(engine, state, seat, random.Random(7)) == \
            GreedyAgent().choose(engine, hidden, seat, random.Random(7))


@pytest.mark.parametrize("agent", [GreedyAgent, SearchAgent, RolloutAgent])
def test_the_look_ahead_agents_gather_one_colour_and_beat_the_random_one(deck: Deck, agent: type) -> None:
    won = 0.0
    for seed in range(20):
        seats = [agent(), RandomAgent()] if seed % 2 == 0 else [RandomAgent(), agent()]
        won += play(engine, deck, 2, seed, seats).shares[seed % 2]
    assert won >= 0.8 * 20


def test_the_race_model_grows_with_the_rating_and_the_skill(deck: Deck) -> None:
    def median(bits: float, skill: float) -> float:
        rng = random.Random(1)
        return sorted(engine.solve_time(bits, skill, rng) for _ in range(401))[200]

    assert median(4, 1) < median(5.7, 1) < median(7.5, 1)
    assert 20 <= median(5.7, 1) <= 30 and median(5.7, 1.3) < median(5.7, 1)


def test_the_insights_name_the_fastest_solvers_wins_and_each_face_and_card(deck: Deck) -> None:
    rows = [play(engine, deck, 4, seed, [GreedyAgent() for _ in range(4)]) for seed in range(30)]
    said, found = engine.insights([engine.summary(p.final) for p in rows], 4, [c.id for c in deck.cards])
    fastest = said["fastest_solver"]
    wins = sum(p.shares[engine.summary(p.final)[0]] for p in rows)
    assert fastest["win_rate"] == pytest.approx(wins / 30, abs=1e-4) and fastest["fair"] == 0.25
    assert [f["die"] for f in said["faces"]] == [1, 2, 3, 4, 5, 6]
    assert sum(f["rounds"] for f in said["faces"]) == 30 * 9
    assert [c["id"] for c in said["cards"]] == [c.id for c in deck.cards]
    assert sum(c["drawn"] for c in said["cards"]) == 30 * 36
    assert sum(c["holder_wins"] * c["drawn"] for c in said["cards"]) == pytest.approx(30 * 9, abs=0.1)  # 9 a game
    assert found and "fastest solver" in found[0] and any("decide" in f and "games" in f for f in found)
