"""Benchmark: OpenSpiel's information-set MCTS on Shifting Stones against our own compiled
search agent, run by hand (OpenSpiel is not a dependency of Templeforge)::

    .venv/bin/pip install open_spiel        # 2.0.2 when this was written
    .venv/bin/python bench/openspiel.py [--games 20] [--simulations 100]

Shifting Stones is wrapped as an OpenSpiel Python game over our rules engine
(``generators/shifting_stones/engine.py``): actions number the engine's moves, a seat's
information state is ``engine.seen``, and ``resample_from_infostate`` is
``engine.determinise`` (the others' hands and the draw pile dealt afresh), which is what
OpenSpiel's ``ISMCTSBot`` needs to search a game of hidden cards. Rollouts to the end of a
game are useless here (random play seldom ends one), so the bot's evaluator is the greedy
agent's value (``engine.value``, each seat against the best other), as our search uses it.

Measured, two players, the 72-card sample deck, seats swapped every game:

1. ISMCTS (``--simulations`` a move) against greedy: its share of the wins and games a second;
2. our compiled search agent against greedy: the same;
3. ISMCTS against our search agent.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

try:
    import pyspiel  # noqa: E402
    from open_spiel.python.algorithms import ismcts  # noqa: E402
except ImportError:  # pragma: no cover - a benchmark run by hand
    sys.exit("bench/openspiel.py needs OpenSpiel: .venv/bin/pip install open_spiel")

from generators.common.play import GreedyAgent, SearchAgent, agent_rng, play  # noqa: E402
from generators.shifting_stones import engine  # noqa: E402
from generators.shifting_stones.deck import read_deck  # noqa: E402
from generators.shifting_stones.space import PAIRS  # noqa: E402

DECK = read_deck(ROOT / "tests" / "data" / "shifting-stones-72-seed-1.json")
N = len(DECK.cards)
END_ACTION = N * (1 + len(PAIRS) + 9)
PASS_ACTION = END_ACTION + 1


def action_of(move: tuple[Any, ...]) -> int:
    kind = move[0]
    if kind == "score":
        return int(move[1])
    if kind == "swap":
        return N + PAIRS.index((move[1], move[2])) * N + move[3]
    if kind == "flip":
        return N + len(PAIRS) * N + move[1] * N + move[2]
    return END_ACTION if kind == "end" else PASS_ACTION


def move_of(action: int) -> tuple[Any, ...]:
    if action < N:
        return ("score", action)
    if action == END_ACTION:
        return engine.END
    if action == PASS_ACTION:
        return engine.PASS
    rest = action - N
    if rest < len(PAIRS) * N:
        a, b = PAIRS[rest // N]
        return ("swap", a, b, rest % N)
    rest -= len(PAIRS) * N
    return ("flip", rest // N, rest % N)


GAME_TYPE = pyspiel.GameType(
    short_name="python_shifting_stones", long_name="Shifting Stones (Templeforge's engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL, chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION, utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL, max_num_players=2, min_num_players=2,
    provides_information_state_string=True, provides_information_state_tensor=False,
    provides_observation_string=False, provides_observation_tensor=False, parameter_specification={"seed": 0})


class StonesGame(pyspiel.Game):
    def __init__(self, params: Any = None) -> None:
        info = pyspiel.GameInfo(num_distinct_actions=PASS_ACTION + 1, max_chance_outcomes=0, num_players=2,
                                min_utility=-1.0, max_utility=1.0, utility_sum=0.0, max_game_length=8000)
        super().__init__(GAME_TYPE, info, params or {})
        self.seed = int((params or {}).get("seed", 0))

    def new_initial_state(self) -> StonesState:
        return StonesState(self, engine.start(DECK, 2, self.seed))


class StonesState(pyspiel.State):
    def __init__(self, game: StonesGame, state: Any) -> None:
        super().__init__(game)
        self.state = state

    def current_player(self) -> int:
        return pyspiel.PlayerId.TERMINAL if self.is_terminal() else engine.to_act(self.state)

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(action_of(m) for m in engine.moves(self.state))

    def _apply_action(self, action: int) -> None:
        self.state = engine.apply(self.state, move_of(action))

    def is_terminal(self) -> bool:
        return engine.over(self.state) or engine.turns(self.state) >= 1000

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        shares = engine.shares(self.state)
        return [shares[0] - shares[1], shares[1] - shares[0]]

    def information_state_string(self, player: int | None = None) -> str:
        return repr(engine.seen(self.state, self.current_player() if player is None else player))

    def resample_from_infostate(self, player: int, sampler: Any) -> StonesState:
        seed = int(sampler() * 2**48) if callable(sampler) else random.getrandbits(48)
        return StonesState(self.get_game(), engine.determinise(self.state, player, random.Random(seed)))

    def clone(self) -> StonesState:
        return StonesState(self.get_game(), self.state)

    def __str__(self) -> str:
        return repr(self.state.grid)


pyspiel.register_game(GAME_TYPE, StonesGame)


class ValueEvaluator:
    """The greedy agent's value of a state, each seat against the best other, squashed to
    [-1, 1]."""

    def evaluate(self, state: StonesState) -> np.ndarray:
        if state.is_terminal():
            return np.array(state.returns())
        v = [engine.value(state.state, s) for s in range(2)]
        d = float(np.tanh((v[0] - v[1]) / 10.0))
        return np.array([d, -d])

    def prior(self, state: StonesState) -> list[tuple[int, float]]:
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]


def ismcts_game(seed: int, bots: list[Any]) -> tuple[float, ...]:
    state = pyspiel.load_game("python_shifting_stones", {"seed": seed}).new_initial_state()
    rngs = [agent_rng(seed, s) for s in range(2)]
    while not state.is_terminal():
        seat = state.current_player()
        bot = bots[seat]
        if isinstance(bot, GreedyAgent | SearchAgent):
            move = bot.choose(engine, state.state, seat, rngs[seat])
            state.apply_action(action_of(move))
        else:
            state.apply_action(bot.step(state))
    return tuple(engine.shares(state.state))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=100)
    args = parser.parse_args()
    game = pyspiel.load_game("python_shifting_stones")
    play(engine, DECK, 2, 0, [SearchAgent(), GreedyAgent()])  # compiled first

    def bot(seed: int) -> Any:
        return ismcts.ISMCTSBot(game, ValueEvaluator(), uct_c=2.0, max_simulations=args.simulations,
                                random_state=np.random.RandomState(seed))

    for name, rival in (("greedy", GreedyAgent), ("search", SearchAgent)):
        won = 0.0
        started = time.perf_counter()
        for seed in range(args.games):
            seats = [bot(seed), rival()] if seed % 2 == 0 else [rival(), bot(seed)]
            won += ismcts_game(seed, seats)[seed % 2]
        took = time.perf_counter() - started
        print(f"OpenSpiel ISMCTS ({args.simulations} simulations a move) against {name}: wins {won / args.games:.0%} "
              f"of {args.games} games, {args.games / took:.2f} games/s")
    won = 0.0
    started = time.perf_counter()
    games = args.games * 10
    for seed in range(games):
        seats = [SearchAgent(), GreedyAgent()] if seed % 2 == 0 else [GreedyAgent(), SearchAgent()]
        won += play(engine, DECK, 2, seed, seats).shares[seed % 2]
    took = time.perf_counter() - started
    print(f"our search (compiled) against greedy: wins {won / games:.0%} of {games} games, {games / took:.0f} games/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
