"""Benchmark: Shifting Stones priced exactly against priced by play, held to the published
game's own prices, run by hand::

    .venv/bin/python bench/pricing.py [--seed 1] [--games 2000]

The published deck's cards worth 1, 2, 3 and 5 points take 1.4, 2.1, 3.5 and 5.2 actions on
average (the least actions from a random grid; ``scale.ANCHORS``, measured on the published
72). One 72-card deck is made both ways (``generate shifting-stones --price exact`` and
``--price play:GAMES``: the same cards, the mix given out by exact difficulty or by effort
in play) and each is measured as the published deck was: the mean least actions of each
points value, their error against the published means (root mean square, relative), and
Spearman's rank correlation between points and least actions. Whichever agrees better is
the default.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generators.common.grading import spearman  # noqa: E402
from generators.shifting_stones.deck import Deck  # noqa: E402
from generators.shifting_stones.generate import generate, priced_by_play  # noqa: E402
from generators.shifting_stones.scale import ANCHORS  # noqa: E402
from generators.shifting_stones.spec import Spec  # noqa: E402


def measured(deck: Deck) -> tuple[dict[int, float], float, float]:
    by: dict[int, list[float]] = {}
    for c in deck.cards:
        by.setdefault(int(c.points), []).append(float(c.difficulty))  # type: ignore[arg-type]
    means = {p: statistics.mean(v) for p, v in sorted(by.items())}
    error = math.sqrt(sum(((means[p] - a) / a) ** 2 for p, a in ANCHORS) / len(ANCHORS))
    rho = spearman([float(c.points) for c in deck.cards], [float(c.difficulty) for c in deck.cards])  # type: ignore[arg-type]
    return means, error, rho or 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    exact = generate(Spec(seed=args.seed, workers=2))
    started = time.perf_counter()
    played = priced_by_play(exact, args.games, workers=2)
    took = time.perf_counter() - started
    print("published: " + ", ".join(f"{p} points {a:.1f} actions" for p, a in ANCHORS))
    for name, deck in (("exact", exact), (f"play:{args.games}", played)):
        means, error, rho = measured(deck)
        print(f"{name:>10}: " + ", ".join(f"{p} points {m:.2f}" for p, m in means.items())
              + f"; error {error:.1%}; Spearman {rho:.3f}")
    same = sum(a.points == b.points for a, b in zip(exact.cards, played.cards))
    print(f"the two agree on {same} of {len(exact.cards)} cards; pricing by play took {took:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
