"""Benchmark: Shifting Stones' whole-state-space searches and the 72-card deck.

Run by hand::

    .venv/bin/python bench/stones.py [--patterns 24] [--seed 0]

Times, on this machine, in one run:

1. one search per pattern over all 2,580,480 grids, as the generator makes it
   (``Space.shows`` + ``Space.distances``: a compiled multi-source breadth-first search), for
   ``--patterns`` windows of the default deck; and the same patterns measured by the
   verifier's independent search (``verify.Grids``), the peer in the same run;
2. the default deck (72 cards, the published mix) generated with 2 workers and with 1 (the
   decks must be byte-identical), then verified;
3. the default deck's distributions beside the published deck's: stones per
   pattern, windows, distinct stone layouts, difficulty, each points value's mean
   difficulty, points per expected action and face use.

Targets: <= 1 s per pattern; the default deck generated in <= 10 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from collections import Counter  # noqa: E402

from bench.common import best  # noqa: E402
from generators.shifting_stones import scale, verify  # noqa: E402
from generators.shifting_stones.generate import generate  # noqa: E402
from generators.shifting_stones.space import space  # noqa: E402
from generators.shifting_stones.spec import Spec  # noqa: E402
from generators.shifting_stones.tiles import PUBLISHED  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--patterns", type=int, default=24)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    built, sp = best(lambda: space(PUBLISHED))
    checker_built, grids = best(lambda: verify.Grids(PUBLISHED))
    # compile both searches once (numba caches on disk; the first call still loads)
    window = ((0, None), (None, 3))
    sp.distances(sp.shows(window))
    grids.distances(grids.showing(window))

    t2, deck = best(lambda: generate(Spec(seed=args.seed, workers=2)))
    t1, again = best(lambda: generate(Spec(seed=args.seed, workers=1)))
    assert deck.dumps() == again.dumps(), "the deck depends on the workers"
    tv, check = best(lambda: verify.verify_deck(deck))
    assert check.ok, check.problems[:3]

    ours, theirs = [], []
    for card in deck.cards[: args.patterns]:
        rows = card.pattern.rows
        ours.append(best(lambda rows=rows: sp.distances(sp.shows(rows)))[0])
        theirs.append(best(lambda rows=rows: grids.distances(grids.showing(rows)))[0])
    p50, p50v = statistics.median(ours), statistics.median(theirs)
    print(f"grids: {sp.size:,}; tables built in {built:.2f} s (generator), {checker_built:.2f} s (verifier)")
    print("| task | time | ratio |")
    print("|---|---|---|")
    print(f"| one pattern, whole state space, generator (median of {len(ours)}) | {p50 * 1000:.0f} ms "
          f"(max {max(ours) * 1000:.0f}) | {p50 / p50v:.2f} of the verifier's search; {p50:.2f} of the 1 s target |")
    print(f"| one pattern, verifier (median of {len(theirs)}) | {p50v * 1000:.0f} ms "
          f"(max {max(theirs) * 1000:.0f}) | |")
    print(f"| default deck (72 cards), 2 workers | {t2:.1f} s | {t2 / t1:.2f} of 1 worker; {t2 / 10:.2f} of the "
          f"10 s target |")
    print(f"| default deck, 1 worker | {t1:.1f} s | |")
    print(f"| verify the deck | {tv:.1f} s | {tv / len(deck.cards) * 1000:.0f} ms a card |")
    print()
    shape(deck)


#: The published deck's figures beside which the default deck is printed.
PUBLISHED_FIGURES = {
    "distinct stone layouts": "26 (the most common 15 times)",
    "difficulty (mean least actions)": "1.2-5.6, mean 2.3",
    "points per expected action": "about 0.9",
    "face use max/min": "3.9",
}


def shape(deck) -> None:  # type: ignore[no-untyped-def]
    """The default deck's distributions beside the published deck's."""
    cards = deck.cards
    stones = Counter(c.pattern.stones for c in cards)
    windows = Counter(f"{c.pattern.height}x{c.pattern.width}" for c in cards)
    layouts = Counter(c.pattern.shape for c in cards)
    faces = Counter(f for c in cards for f in c.pattern.fixed)
    diffs = [c.difficulty for c in cards]
    print("| | published deck | default deck |")
    print("|---|---|---|")
    print(f"| stones per pattern | {', '.join(f'{k}: {n}' for k, n in scale.PUBLISHED_STONES)} | "
          f"{', '.join(f'{k}: {n}' for k, n in sorted(stones.items()))} |")
    names = [f"{h}x{w}" for (h, w), _ in scale.PUBLISHED_WINDOWS]
    others = sum(n for w, n in windows.items() if w not in names)
    print(f"| windows | {', '.join(f'{w} {n}' for w, (_, n) in zip(names, scale.PUBLISHED_WINDOWS))} | "
          f"{', '.join(f'{w} {windows[w]}' for w in names)}{f', others {others}' if others else ''} |")
    print(f"| distinct stone layouts | {PUBLISHED_FIGURES['distinct stone layouts']} | {len(layouts)} (the most common "
          f"{max(layouts.values())} times) |")
    print(f"| difficulty (mean least actions) | {PUBLISHED_FIGURES['difficulty (mean least actions)']} | "
          f"{min(diffs):.1f}-{max(diffs):.1f}, mean {sum(diffs) / len(diffs):.2f} |")
    means = []
    for p, _ in scale.ANCHORS:
        mine = [c.difficulty for c in cards if c.points == p]
        means.append(f"{sum(mine) / len(mine):.2f}" if mine else "-")
    print(f"| by points 1 / 2 / 3 / 5 | {' / '.join(f'{a:g}' for _, a in scale.ANCHORS)} | {' / '.join(means)} |")
    ratio = sum(c.points for c in cards) / sum(diffs)
    print(f"| points per expected action | {PUBLISHED_FIGURES['points per expected action']} | {ratio:.2f} |")
    spread = max(faces.values()) / min(faces.values())
    print(f"| face use max/min | {PUBLISHED_FIGURES['face use max/min']} | {spread:.2f} |")


if __name__ == "__main__":
    main()
