"""Benchmark: Mystery of the Temples' measures and the default deck.

Run by hand::

    .venv/bin/python bench/temples.py [--repeat 3]

Times, on this machine, in one run (numba's kernels compiled before timing):

1. the difficulty of one layer on one grid side (1,000 seeded mid-game grids), for the
   hardest layer of our temples on the sparsest and the densest of our grids; the peer is
   the exact figure from an empty grid for the same layer (a dynamic programme);
2. every simple path of 5 and 7 slots on each of our grids (the proof that a run is
   payable), with their counts;
3. the default deck (five temples, both sides, for our eight grid sides) generated with two
   workers, then verified.

Targets: one layer on one grid <= 0.5 s; the default temples for the default
grids with every proof <= 60 s.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import best  # noqa: E402
from generators.mystery_of_the_temples.box import DEFAULT, runs  # noqa: E402
from generators.mystery_of_the_temples.generate import generate  # noqa: E402
from generators.mystery_of_the_temples.measure import GAMES, seed_of  # noqa: E402
from generators.mystery_of_the_temples.spec import Spec  # noqa: E402
from generators.mystery_of_the_temples.verify import verify_deck  # noqa: E402
from solver.paths import from_empty, measure, paths  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    layers = [(t, layer) for t in DEFAULT.temples for layer in t.layers]
    measure(DEFAULT.grids[0].grid, [[1, 2]], DEFAULT.supply, games=4)  # compile the kernels first
    temple, layer = max(layers, key=lambda tl: from_empty(runs(*tl), DEFAULT.supply))
    sparse = min(DEFAULT.grids, key=lambda s: len(s.grid.lines))
    dense = max(DEFAULT.grids, key=lambda s: len(paths(s.grid, 7)))
    print(f"1. one layer on one grid ({GAMES} seeded grids; target <= 0.5 s): layer {layer.position} of "
          f"{DEFAULT.track_text(temple.track)}")
    exact_s, exact = best(lambda: from_empty(runs(temple, layer), DEFAULT.supply), args.repeat)
    worst = 0.0
    for side in (sparse, dense):
        took, m = best(lambda side=side: measure(side.grid, runs(temple, layer), DEFAULT.supply, games=GAMES,
                                                 seed=seed_of(temple, layer, "ends")), args.repeat)
        worst = max(worst, took)
        print(f"   grid {side.name} ({len(side.grid.lines)} lines): {m.mean:.3f} +- {m.error:.3f} actions "  # type: ignore[attr-defined]
              f"in {took:.3f} s; from an empty grid, exactly, {exact:.3f} crystals in {exact_s:.4f} s "
              f"(ratio {took / exact_s:.0f})")
    print("2. every path of 5 and 7 slots (the payability proofs)")
    for side in DEFAULT.grids:
        took, found = best(lambda side=side: (paths(side.grid, 5), paths(side.grid, 7)), args.repeat)
        five, seven = found  # type: ignore[misc]
        print(f"   grid {side.name}: {len(five):5d} and {len(seven):5d} paths in {took * 1000:.1f} ms")
    print("3. the default deck (target <= 60 s)")
    t0 = time.perf_counter()
    deck = generate(Spec(workers=2))
    made = time.perf_counter() - t0
    t0 = time.perf_counter()
    alone = verify_deck(deck)
    checked_alone = time.perf_counter() - t0
    t0 = time.perf_counter()
    check = verify_deck(deck, workers=2)
    checked = time.perf_counter() - t0
    assert check.ok and check == alone, check.problems
    layers_made = sum(len(c.temple.layers) for c in deck.cards)
    print(f"   generated in {made:.1f} s ({len(deck.cards)} temple sides, {layers_made} layers on "
          f"{len(deck.box.grids)} grid sides; balance {check.balance.ratio:.3f}, Spearman "
          f"{deck.parameters['spearman']}); verified in {checked:.1f} s with two "
          f"workers, {checked_alone:.1f} s with one (ratio {checked / checked_alone:.2f})")
    missed = [what for what, ok in (("one layer", worst <= 0.5), ("deck", made <= 60.0)) if not ok]
    print("targets: " + ("all met" if not missed else "missed: " + ", ".join(missed)))
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
