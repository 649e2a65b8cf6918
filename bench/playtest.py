"""Benchmark: simulated playtests, run by hand::

    .venv/bin/python bench/playtest.py [--games 10000]

Measures, on this machine (compilation done before any clock starts):

1. Shifting Stones (the 72-card sample), greedy agents in all four seats: ``--games`` games
   compiled, in one process, against the target of 10,000 in 60 s; and, as the peer in the
   same run, a few hundred of the same games played by the Python engine (the ratio is the
   compiled code's gain; every move the same, see tests/generators/shifting_stones/test_fast.py);
2. Shifting Stones, the search agent against greedy, two players: games a second against
   the target of 20 (compiled, and its Python peer);
3. Puzzle Temple (the 36-card sample), greedy agents, four players: ``--games`` games through
   ``play_all`` with one worker and with two, against the target of 10,000 in 30 s;
4. Mystery of the Temples (the default deck, generated first), three players: greedy and
   search agents in every seat, games a second (the engine is Python; its look-ahead's count
   of missing crystals is compiled), the search agent's cost as a ratio to greedy's;
5. Monolyth (the default deck, generated first), three players: greedy and search agents in
   every seat, games a second (the engine is Python), the search agent's cost as a ratio to
   greedy's;
6. memory: the peak resident size of a process that runs a playtest of ``--games // 10``
   games, and of one that runs twice as many (rows are kept, states are not: it should stay
   flat);
7. the rollout agent (Python) against random, two players: games a second and its wins.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generators.common.deckfile import loads  # noqa: E402
from generators.common.play import GreedyAgent, RandomAgent, RolloutAgent, SearchAgent, play  # noqa: E402
from generators.common.playtest import Request, play_all  # noqa: E402
from generators.monolyth import engine as monolyth  # noqa: E402
from generators.monolyth.deck import deck_from_json as monolyth_deck  # noqa: E402
from generators.mystery_of_the_temples import engine as mystery  # noqa: E402
from generators.mystery_of_the_temples.deck import deck_from_json  # noqa: E402
from generators.puzzle_temple import engine as temple  # noqa: E402
from generators.puzzle_temple.deck import read_deck as read_temple  # noqa: E402
from generators.shifting_stones import engine as stones  # noqa: E402
from generators.shifting_stones.deck import read_deck as read_stones  # noqa: E402
from tests.data.make import generate as make_deck  # noqa: E402  (a deck as the command makes it)

DATA = ROOT / "tests" / "data"


def rate(games: int, run: object) -> float:
    started = time.perf_counter()
    for seed in range(games):
        run(seed)  # type: ignore[operator]
    return games / (time.perf_counter() - started)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000, help="games of the timed runs (default 10,000)")
    args = parser.parse_args()
    deck = read_stones(DATA / "shifting-stones-72-seed-1.json")
    play(stones, deck, 4, 0, [GreedyAgent() for _ in range(4)])  # compiled (or loaded from numba's cache) first
    play(stones, deck, 2, 0, [SearchAgent(), GreedyAgent()])

    fast = rate(args.games, lambda s: play(stones, deck, 4, s, [GreedyAgent() for _ in range(4)]))
    peer = rate(200, lambda s: play(stones, deck, 4, s, [GreedyAgent() for _ in range(4)], compiled=False))
    print(f"Shifting Stones, greedy, 4 players: {fast:.0f} games/s compiled, {peer:.1f} in Python "
          f"(x{fast / peer:.0f}); 10,000 games in {10_000 / fast:.1f} s on one core "
          f"(target 60 s: {60 * fast / 10_000:.1f}x inside it)")

    def duel(compiled: bool) -> object:
        def one(seed: int) -> None:
            seats = [SearchAgent(), GreedyAgent()] if seed % 2 == 0 else [GreedyAgent(), SearchAgent()]
            play(stones, deck, 2, seed, seats, compiled=compiled)
        return one

    fast = rate(max(1, args.games // 10), duel(True))
    peer = rate(20, duel(False))
    print(f"Shifting Stones, search against greedy, 2 players: {fast:.0f} games/s compiled, {peer:.1f} in Python "
          f"(x{fast / peer:.0f}; target 20: {fast / 20:.1f}x over it)")

    won = 0.0

    def rollouts(seed: int) -> None:
        nonlocal won
        mine = seed % 2
        seats = [RolloutAgent(), RandomAgent()] if mine == 0 else [RandomAgent(), RolloutAgent()]
        won += play(stones, deck, 2, seed, seats).shares[mine]

    speed = rate(10, rollouts)
    print(f"Shifting Stones, rollout against random, 2 players (Python): {speed:.2f} games/s, won {won:g} of 10")

    locks = read_temple(DATA / "puzzle-temple-36-seed-1.json")
    for workers in (1, 2):
        started = time.perf_counter()
        rows = play_all(temple.__name__, locks, Request(4, args.games // 2, 1, ("greedy",)), workers)
        took = time.perf_counter() - started  # (play_all plays the request's games twice: seats, then pricing)
        print(f"Puzzle Temple, greedy, 4 players, {workers} worker{'s' if workers > 1 else ''}: {len(rows)} games in "
              f"{took:.1f} s; 10,000 games in {10_000 * took / len(rows):.1f} s (target 30 s)")

    temples = deck_from_json(loads(make_deck("mystery-of-the-temples", {}), "the default deck"), "the default deck")
    play(mystery, temples, 3, 0, [GreedyAgent() for _ in range(3)])  # compiled (or loaded from numba's cache) first
    greedy = rate(20, lambda s: play(mystery, temples, 3, s, [GreedyAgent() for _ in range(3)]))
    search = rate(6, lambda s: play(mystery, temples, 3, s, [SearchAgent() for _ in range(3)]))
    print(f"Mystery of the Temples, 3 players: greedy {greedy:.2f} games/s, search {search:.2f} games/s "
          f"(search x{greedy / search:.1f} the time of greedy)")

    structures = monolyth_deck(loads(make_deck("monolyth", {}), "the default deck"), "the default deck")
    greedy = rate(20, lambda s: play(monolyth, structures, 3, s, [GreedyAgent() for _ in range(3)]))
    search = rate(6, lambda s: play(monolyth, structures, 3, s, [SearchAgent() for _ in range(3)]))
    print(f"Monolyth, 3 players: greedy {greedy:.2f} games/s, search {search:.2f} games/s "
          f"(search x{greedy / search:.1f} the time of greedy)")

    memory = []
    for games in (args.games // 10, args.games // 5):  # each in a process of its own: its peak is the playtest's
        code = (f"import resource, sys; sys.path.insert(0, {str(ROOT)!r}); from bench.playtest import stones, "
                f"read_stones, DATA, Request, play_all; play_all(stones.__name__, read_stones(DATA / "
                f"'shifting-stones-72-seed-1.json'), Request(2, {games}, 1, ('greedy',))); "
                f"print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        memory.append(int(run.stdout.split()[-1]) / 1024)
    print(f"peak memory of a playtest of {args.games // 10} and of {args.games // 5} games (each its own process): "
          f"{memory[0]:.0f} MB and {memory[1]:.0f} MB (ratio {memory[1] / memory[0]:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
