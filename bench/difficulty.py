"""Evidence for the difficulty rating: does it order faces the way solvers find them hard?

Run by hand::

    .venv/bin/python bench/difficulty.py [--cards 24] [--seed 11] [--runs 15]

It generates Puzzle Temple decks (3 and 4 blocks per face, no difficulty target, so the
faces are what the generator finds) and measures, for every face, the work of two solvers
that share nothing with the rating's model solver:

``block-first``  a backtracking search that places the blocks largest first, trying each
                 block's placements in random order (how many people start: the awkward
                 big block first); the median number of placements it tries before its
                 first tiling over ``--runs`` random orders.
``cp-sat``       OR-Tools CP-SAT on the plain tiling model (one worker, presolve off,
                 randomised search); the median of branches + conflicts over ``--runs``
                 seeds.

It prints Spearman's rank correlation of each solver's work with the rating and with two
plain baselines (the number of tilings, and the number of candidate placements), over all
faces and within each block count. A rating that orders faces the way the solvers find them
hard correlates positively with both, and at least as well as the baselines.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from ortools.sat.python import cp_model

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generators.common.grading import spearman as _spearman  # noqa: E402
from generators.puzzle_temple.generate import Spec, generate  # noqa: E402
from solver.pieces import preset  # noqa: E402
from solver.puzzle import Puzzle  # noqa: E402


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    rho = _spearman(a, b)
    return float("nan") if rho is None else rho


def block_first(puzzle: Puzzle, rng: random.Random) -> int:
    """Placements tried by a largest-block-first backtracking search before its first tiling."""
    cells = puzzle.region.sorted_cells()
    bit = {c: i for i, c in enumerate(cells)}
    masks: dict[str, list[int]] = {}
    for p in puzzle.placements():
        masks.setdefault(p.piece, []).append(sum(1 << bit[c] for c in p.cells))
    names = [p.name for p in sorted(puzzle.pieces, key=lambda p: (-p.size, rng.random()))]
    tries = [rng.sample(masks[n], len(masks[n])) for n in names]
    full = (1 << len(cells)) - 1
    tried = 0

    def place(i: int, occupied: int) -> bool:
        nonlocal tried
        if i == len(names):
            return occupied == full
        for m in tries[i]:
            if not m & occupied:
                tried += 1
                if place(i + 1, occupied | m):
                    return True
        return False

    place(0, 0)
    return tried


def cp_sat_work(puzzle: Puzzle, seed: int) -> int:
    """Branches + conflicts CP-SAT needs for a first tiling (one worker, presolve off)."""
    placements = puzzle.placements()
    model = cp_model.CpModel()
    place = [model.new_bool_var(f"place[{p.piece}, {i}]") for i, p in enumerate(placements)]
    for c in puzzle.region.cells:
        model.add_exactly_one(place[i] for i, p in enumerate(placements) if c in p.cells)
    for b in puzzle.pieces:
        model.add_exactly_one(place[i] for i, p in enumerate(placements) if p.piece == b.name)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = seed
    solver.parameters.randomize_search = True
    solver.parameters.cp_model_presolve = False
    status = solver.solve(model)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE), "a deck face must be solvable"
    return solver.num_branches + solver.num_conflicts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=24, help="cards per deck (default 24)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--runs", type=int, default=15, help="random orders / seeds per face")
    args = parser.parse_args()

    started = time.perf_counter()
    faces = []  # (blocks per face, puzzle, difficulty, tilings)
    for k in (3, 4):
        deck = generate(Spec(preset("ubongo12"), cards=args.cards, blocks_per_face=(k, k), difficulty=None,
                             seed=args.seed, workers=2))
        faces += [(k, deck.puzzle(c, f), f.difficulty, f.solutions) for c in deck.cards for f in c.faces]
    print(f"{len(faces)} faces from two {args.cards}-card decks (3 and 4 blocks per face, seed {args.seed}), "
          f"{args.runs} runs per face per solver")
    work = {
        "block-first": [statistics.median(block_first(p, random.Random(f"{i}:{r}")) for r in range(args.runs))
                        for i, (_, p, _, _) in enumerate(faces)],
        "cp-sat": [statistics.median(cp_sat_work(p, r) for r in range(args.runs)) for _, p, _, _ in faces],
    }
    scores = {
        "rating (bits)": [d for _, _, d, _ in faces],
        "fewer tilings": [-t for _, _, _, t in faces],
        "more placements": [len(p.placements()) for _, p, _, _ in faces],
    }
    groups = {"all faces": range(len(faces))}
    for k in (3, 4):
        groups[f"{k} blocks"] = [i for i, f in enumerate(faces) if f[0] == k]
    header = f"{'Spearman rho':<18}" + "".join(f"{f'{solver}, {g}':>26}" for solver in work for g in groups)
    print(header)
    for name, score in scores.items():
        row = f"{name:<18}"
        for values in work.values():
            for members in groups.values():
                row += f"{spearman([score[i] for i in members], [values[i] for i in members]):>26.2f}"
        print(row)
    between = "".join(f"  {g}: {spearman([work['block-first'][i] for i in m], [work['cp-sat'][i] for i in m]):.2f}"
                      for g, m in groups.items())
    print(f"block-first vs cp-sat:{between}")
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
