"""Benchmark: Shifting Stones' whole-state-space searches and the 72-card deck.

Run by hand::

    .venv/bin/python bench/stones.py [--patterns 24] [--seed 0]

Times, on this machine, in one run:

1. one search per pattern over all 2,580,480 grids, as the generator makes it
   (``Space.shows`` + ``Space.distances``: a compiled multi-source breadth-first search), for
   ``--patterns`` windows of the default deck; and the same patterns measured by the
   verifier's independent search (``verify.Grids``), the peer in the same run;
2. the default deck (72 cards, the published mix) generated with 2 workers and with 1 (the
   decks must be byte-identical), then verified.

Targets (issue 12): <= 1 s per pattern; the 72-card deck with every difficulty in <= 60 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generators.shifting_stones import verify  # noqa: E402
from generators.shifting_stones.generate import generate  # noqa: E402
from generators.shifting_stones.space import space  # noqa: E402
from generators.shifting_stones.spec import Spec  # noqa: E402
from generators.shifting_stones.tiles import PUBLISHED  # noqa: E402


def timed(job):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    out = job()
    return time.perf_counter() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--patterns", type=int, default=24)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    built, sp = timed(lambda: space(PUBLISHED))
    checker_built, grids = timed(lambda: verify.Grids(PUBLISHED))
    # compile both searches once (numba caches on disk; the first call still loads)
    window = ((0, None), (None, 3))
    sp.distances(sp.shows(window))
    grids.distances(grids.showing(window))

    t2, deck = timed(lambda: generate(Spec(seed=args.seed, workers=2)))
    t1, again = timed(lambda: generate(Spec(seed=args.seed, workers=1)))
    assert deck.dumps() == again.dumps(), "the deck depends on the workers"
    tv, check = timed(lambda: verify.verify_deck(deck))
    assert check.ok, check.problems[:3]

    ours, theirs = [], []
    for card in deck.cards[: args.patterns]:
        rows = card.pattern.rows
        ours.append(timed(lambda rows=rows: sp.distances(sp.shows(rows)))[0])
        theirs.append(timed(lambda rows=rows: grids.distances(grids.showing(rows)))[0])
    p50, p50v = statistics.median(ours), statistics.median(theirs)
    print(f"grids: {sp.size:,}; tables built in {built:.2f} s (generator), {checker_built:.2f} s (verifier)")
    print("| task | time | ratio |")
    print("|---|---|---|")
    print(f"| one pattern, whole state space, generator (median of {len(ours)}) | {p50 * 1000:.0f} ms "
          f"(max {max(ours) * 1000:.0f}) | {p50 / p50v:.2f} of the verifier's search; {p50:.2f} of the 1 s target |")
    print(f"| one pattern, verifier (median of {len(theirs)}) | {p50v * 1000:.0f} ms "
          f"(max {max(theirs) * 1000:.0f}) | |")
    print(f"| default deck (72 cards), 2 workers | {t2:.1f} s | {t2 / t1:.2f} of 1 worker; {t2 / 60:.2f} of the "
          f"60 s target |")
    print(f"| default deck, 1 worker | {t1:.1f} s | |")
    print(f"| verify the deck | {tv:.1f} s | {tv / len(deck.cards) * 1000:.0f} ms a card |")


if __name__ == "__main__":
    main()
