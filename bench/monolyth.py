"""Benchmark: Monolyth's proofs, difficulties and the default deck.

Run by hand::

    .venv/bin/python bench/monolyth.py [--repeat 3]

Times, on this machine, in one run (numba's kernels compiled before timing):

1. one buildability proof with its witness (``solver.heightmap.build``) for three targets
   of our pool: one level, a level and a wall, the full 4x4x3 monolith; the peer is the
   independent replay of the same witness (``replay``);
2. the exact expected turns of a one-level target (65,536 height maps) and of a level and a
   wall (1,048,576), and 2000 simulated games of the latter, side by side (the ratio of the
   greedy player's turns to the optimal player's); and a level and wall whose wall must be
   red (proof and exact difficulty with the pieces' colours);
3. the default deck (10 cards, 20 prophecy tokens) generated with 2 workers, then verified.

Targets: a proof <= 1 s; a one-level target's exact difficulty <= 2 s; the
default deck with prophecies <= 60 s.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import best  # noqa: E402
from generators.monolyth.generate import generate  # noqa: E402
from generators.monolyth.measure import pieces  # noqa: E402
from generators.monolyth.pool import DEFAULT  # noqa: E402
from generators.monolyth.spec import Spec  # noqa: E402
from generators.monolyth.verify import verify_deck  # noqa: E402
from solver.heightmap import Board, Target, build, replay  # noqa: E402
from solver.turns import expected_turns, simulate_turns  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    board = Board(4, 4, 3)
    kinds = pieces(DEFAULT)
    targets = {"one level": Target((1,) * 16), "level and wall": Target((3, 3, 3, 3) + (1,) * 12),
               "whole monolith": Target((3,) * 16)}
    expected_turns(kinds, Board(2, 2, 1), Target((1,) * 4))  # compile the kernels first
    simulate_turns(kinds, Board(2, 2, 1), Target((1,) * 4), runs=2)
    print("1. buildability proofs (target <= 1 s)")
    print(f"   {'target':<16} {'proof s':>8} {'steps':>6} {'nodes':>6} {'replay s':>9} {'ratio':>6}")
    worst = 0.0
    for name, target in targets.items():
        took, found = best(lambda target=target: build(kinds, board, target), args.repeat)
        steps = found.steps or ()  # type: ignore[union-attr]
        check, problems = best(lambda steps=steps, target=target: replay(steps, kinds, board, target), args.repeat)
        assert problems == [], problems
        worst = max(worst, took)
        print(f"   {name:<16} {took:8.3f} {len(steps):6d} {found.nodes:6d} {check:9.4f} {took / check:6.1f}")  # type: ignore[union-attr]
    red = Target(targets["level and wall"].heights, tuple(((x, 0, z), "red") for z in range(3) for x in range(4)))
    took, found = best(lambda: build(list(DEFAULT.pieces), board, red, singles=DEFAULT.colour_names,
                                     single_counts=[n for _, n in DEFAULT.singles], max_singles=6), args.repeat)
    steps = found.steps or ()  # type: ignore[union-attr]
    worst = max(worst, took)
    print(f"   {'red north wall':<16} {took:8.3f} {len(steps):6d} {found.nodes:6d}   (colours kept, 45 kinds)")  # type: ignore[union-attr]
    print("2. difficulty (target: one level exact <= 2 s)")
    level, exact_level = best(lambda: expected_turns(kinds, board, targets["one level"]), args.repeat)
    wall, exact_wall = best(lambda: expected_turns(kinds, board, targets["level and wall"]), 1)
    played_s, played = best(lambda: simulate_turns(kinds, board, targets["level and wall"], runs=2000), args.repeat)
    print(f"   one level: exact {exact_level:.3f} turns in {level:.2f} s (65,536 height maps)")
    print(f"   level and wall: exact {exact_wall:.3f} turns in {wall:.2f} s (1,048,576 height maps); 2000 greedy "
          f"games {played.mean:.3f} +- {played.error:.3f} turns in {played_s:.2f} s "  # type: ignore[attr-defined]
          f"(greedy / optimal {played.mean / exact_wall:.3f})")  # type: ignore[attr-defined]
    coloured, exact_red = best(lambda: expected_turns(list(DEFAULT.pieces), board, red), 1)
    print(f"   red north wall: exact {exact_red:.3f} turns in {coloured:.2f} s (the same height maps, 45 coloured "
          f"kinds; the wall in any colour {exact_wall:.3f})")
    print("3. the default deck (target <= 60 s)")
    spec = Spec(workers=2)
    t0 = time.perf_counter()
    deck = generate(spec)
    made = time.perf_counter() - t0
    t0 = time.perf_counter()
    alone = verify_deck(deck)
    checked_alone = time.perf_counter() - t0
    t0 = time.perf_counter()
    check = verify_deck(deck, workers=2)
    checked = time.perf_counter() - t0
    assert check.ok and check == alone, check.problems
    exact = sum(1 for c in deck.cards if c.bound is not None)
    print(f"   generated in {made:.1f} s (every card simulated, {exact} with an exact bound, "
          f"{sum(p.count for p in deck.prophecies)} prophecy tokens); verified in {checked:.1f} s with two "
          f"workers, {checked_alone:.1f} s with one (ratio {checked / checked_alone:.2f})")
    missed = [what for what, ok in (("proof", worst <= 1.0), ("one level", level <= 2.0), ("deck", made <= 60.0))
              if not ok]
    print("targets: " + ("all met" if not missed else "missed: " + ", ".join(missed)))
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
