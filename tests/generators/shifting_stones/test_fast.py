"""Shifting Stones' compiled games (``generators/shifting_stones/fast.py``) are the Python
engine's games, move for move: the same seeds, agents and rules give the same moves and the
same end, for every player count, with points read or blind to them, random and greedy."""

from __future__ import annotations

from pathlib import Path

import pytest

from generators.common.play import SearchAgent, agents_from, play
from generators.shifting_stones import engine
from generators.shifting_stones.deck import Deck, read_deck

DECK_FILE = Path(__file__).parents[2] / "data" / "shifting-stones-72-seed-1.json"


@pytest.fixture(scope="module")
def deck() -> Deck:
    return read_deck(DECK_FILE)


# every player count, agent and pricing, each with and without the others (the whole product
# under -m slow)
CASES = [(3, ["greedy"], True), (4, ["random"], False), (5, ["greedy", "random"], True),
         (4, ["search", "greedy"], False)]
EVERY = [pytest.param(p, a, f, marks=pytest.mark.slow) for p in (2, 3, 4, 5)
         for a in (["greedy"], ["random"], ["greedy", "random"], ["search", "greedy"]) for f in (False, True)
         if (p, a, f) not in CASES] + [pytest.param(3, ["random", "search"], True, marks=pytest.mark.slow)]


@pytest.mark.parametrize("players, agents, flat", CASES + EVERY)
def test_compiled_games_are_the_python_games_move_for_move(deck: Deck, players: int, agents: list[str],
                                                          flat: bool) -> None:
    turns = 120 if "random" in agents else 1000  # random play seldom ends: its first turns
    for seed in (players, 100 + players):
        seats = agents_from(agents, players, flat)
        fast = play(engine, deck, players, seed, seats, max_turns=turns)
        slow = play(engine, deck, players, seed, seats, max_turns=turns, compiled=False)
        assert fast.moves == slow.moves and fast.final == slow.final
        assert fast == slow
        assert not engine.check(fast.final)


def test_a_game_the_compiled_code_cannot_play_is_played_in_python(deck: Deck) -> None:
    state = engine.start(deck, 2, 1)
    assert engine.compiled(state, ("mystery", "greedy"), False, 50) is None
    deeper = SearchAgent(depth=3)
    assert not deeper.plain and SearchAgent().plain
    played = play(engine, deck, 2, 1, [deeper, *agents_from(["greedy"], 1)], max_turns=6)
    assert played.agents == ("search", "greedy") and played.turns == 6
