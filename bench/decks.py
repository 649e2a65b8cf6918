"""Benchmark: generate and fully verify the default Puzzle Temple deck.

Run by hand::

    .venv/bin/python bench/decks.py [--seed 0] [--cards 36]

Times, in one run:

1. ``generate`` of the default request (36 cards, 3 ubongo12 blocks per face, thirds) with
   two worker processes and with one (the ratio is the speed-up of the second process;
   both decks must be byte-identical);
2. ``verify_deck`` of that deck (every stored solution checked, every face counted and
   rated again, every rule checked);
3. per card: the time to make the candidate lock each card came from (its block sets
   counted, proved and rated) and the time to verify the card, as p50 / p95.

The target is generate + verify of the default deck in <= 30 s on this 2-core
machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generators.puzzle_temple import generate as gen  # noqa: E402
from generators.puzzle_temple.verify import card_problems, check_face, verify_deck  # noqa: E402
from solver.pieces import preset  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cards", type=int, default=36)
    args = parser.parse_args()

    # warm-up: compiled counter code and imports loaded before anything is timed
    gen.generate(gen.Spec(preset("ubongo12"), cards=2, seed=999))

    spec = gen.Spec(preset("ubongo12"), cards=args.cards, seed=args.seed, workers=2)
    start = time.perf_counter()
    deck = gen.generate(spec)
    two = time.perf_counter() - start
    start = time.perf_counter()
    single = gen.generate(gen.Spec(preset("ubongo12"), cards=args.cards, seed=args.seed, workers=1))
    one = time.perf_counter() - start
    assert single.dumps() == deck.dumps(), "the deck must not depend on the worker count"

    start = time.perf_counter()
    check = verify_deck(deck)
    verified = time.perf_counter() - start
    assert check.ok, check.problems[:3]

    # per card: the candidate it came from, made again and timed; its verification, timed
    by_lock = {}
    tried = 0
    wanted = {c.lock for c in deck.cards}
    while not wanted <= set(by_lock) and tried < spec.budget:
        for i in range(tried, tried + gen.BATCH):
            t = time.perf_counter()
            made = gen.make_candidate(spec, i)
            took = time.perf_counter() - t
            if made is not None:
                by_lock.setdefault(made.lock, took)
        tried += gen.BATCH
    make = [by_lock[c.lock] for c in deck.cards]
    verify_card = []
    for card in deck.cards:
        t = time.perf_counter()
        card_problems(deck, card)
        for face in card.faces:
            check_face(deck, card, face)
        verify_card.append(time.perf_counter() - t)

    total = two + verified
    print(f"default deck: {len(deck.cards)} cards, {sum(len(c.faces) for c in deck.cards)} faces, seed {args.seed}")
    print(f"{'task':<44}{'time':>10}")
    print(f"{'generate, 2 workers':<44}{two:>9.2f}s")
    print(f"{'generate, 1 worker (same bytes)':<44}{one:>9.2f}s   2 workers take {two / one:.2f} of it")
    print(f"{'verify the deck':<44}{verified:>9.2f}s")
    print(f"{'generate (2 workers) + verify':<44}{total:>9.2f}s   target <= 30 s: {total / 30:.2f} of it")
    print(f"{'per card: make its candidate lock':<44}  p50 {percentile(make, 0.5) * 1000:6.1f} ms   "
          f"p95 {percentile(make, 0.95) * 1000:6.1f} ms")
    print(f"{'per card: verify it':<44}  p50 {percentile(verify_card, 0.5) * 1000:6.1f} ms   "
          f"p95 {percentile(verify_card, 0.95) * 1000:6.1f} ms")
    print(f"block usage max/min {check.usage_ratio:.2f}; {statistics.fmean(len(c.lock.cells) for c in deck.cards):.1f} "
          f"cells per lock on average")


if __name__ == "__main__":
    main()
