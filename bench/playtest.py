"""Benchmark: simulated playtests of a 72-card Shifting Stones deck, run by hand::

    .venv/bin/python bench/playtest.py [--games 200]

Measures, on this machine, in one process (one worker):

1. greedy agents in all four seats: games a second, and the time 10,000 games would take
   against the target of 60 s (the ratio: over 1 misses it);
2. the search agent against greedy, two players: games a second against the target of 20;
3. memory: the process's peak resident size after ``--games`` and after twice as many
   (``games.parquet`` rows are kept, the states are not: it should stay flat).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generators.common.play import GreedyAgent, SearchAgent, play  # noqa: E402
from generators.common.playtest import Request, play_all  # noqa: E402
from generators.shifting_stones import engine  # noqa: E402
from generators.shifting_stones.deck import read_deck  # noqa: E402

DECK = ROOT / "tests" / "data" / "shifting-stones-72-seed-1.json"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games of each kind (default 200)")
    args = parser.parse_args()
    deck = read_deck(DECK)
    started = time.perf_counter()
    for seed in range(args.games):
        play(engine, deck, 4, seed, [GreedyAgent() for _ in range(4)])
    rate = args.games / (time.perf_counter() - started)
    print(f"greedy, 4 players: {rate:.1f} games/s; 10,000 games in {10_000 / rate:.0f} s "
          f"(target 60 s: ratio {10_000 / rate / 60:.1f})")
    n = max(1, args.games // 10)
    started = time.perf_counter()
    for seed in range(n):
        play(engine, deck, 2, seed, [SearchAgent(), GreedyAgent()])
    rate = n / (time.perf_counter() - started)
    print(f"search against greedy, 2 players: {rate:.2f} games/s (target 20: ratio {20 / rate:.1f})")
    memory = []
    for games in (args.games, 2 * args.games):
        play_all(engine.__name__, deck, Request(2, games, 1, ("greedy",)))
        memory.append(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    print(f"peak memory after {args.games} and {2 * args.games} playtest games: {memory[0]:.0f} MB and "
          f"{memory[1]:.0f} MB (ratio {memory[1] / memory[0]:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
