"""Benchmark: Templeforge's tiling engines beside the PyPI exact-cover packages.

Run by hand, not by the tests (this machine is shared and noisy, so every figure is also
given as a ratio against a peer timed in the same run)::

    .venv/bin/pip install -e '.[bench]' && .venv/bin/python bench/tiling.py

It times, for the same instances in one run:

1. counting all 9356 tilings of the 6x10 rectangle by the 12 pentominoes;
2. finding a first 6x10 tiling;
3. the median time per instance to count all tilings of Ubongo-size puzzles: random
   hole-free unions of 3, 4 and 5 distinct ``ubongo12`` pieces (200 of each by default,
   a fixed seed).

Every timing starts from a ``Puzzle`` (region and pieces) with the placement cache cleared
and includes everything an engine needs: the placements, its own model or matrix, and the
search. The Python placements feed xcover, exact-cover and CP-SAT; the counter makes its
own masks in compiled code from the region and the pieces' orientations, which it keeps
once per piece set (as a deck's faces share them). The engines:

``counter``      ``solver.tiling.count(..., engine="counter")``: the public call, with its
                 precheck and result objects
``cp-sat``       the same with ``engine="cp-sat"`` (Ubongo-size puzzles only: CP-SAT's
                 enumeration of 6x10 takes minutes)
``xcover``       ``xcover.covers`` (numba dancing cells) over one option per placement
``exact-cover``  ``exact_cover.get_solution_count`` / ``get_exact_cover`` (C dancing links)
                 over a 0/1 matrix with a column per cell and per piece

Every engine answers a small warm-up puzzle first, so compiled code is loaded before
anything is timed. The Ubongo-size instances are timed one engine at a time, in two rounds
(the faster of the two per instance is kept), with a ``placements`` column for the set-up
every engine shares; every engine's answers are checked against the others'.

Targets: the 6x10 count at most 0.1 of xcover, and at most 40 ns a search node (half the
distance from 71 ns, its figure on 2026-12-06, to the machine's 5-15 ns); the first 6x10
tiling at most 0.3 of exact-cover; Ubongo medians at most 0.5 of exact-cover.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import Figure, missed, table  # noqa: E402
from solver import puzzle as puzzle_module  # noqa: E402
from solver import tiling  # noqa: E402
from solver.pieces import preset, random_union  # noqa: E402
from solver.puzzle import Puzzle  # noqa: E402
from solver.shapes import Shape  # noqa: E402

try:
    import exact_cover
    import xcover
except ImportError as missing:  # pragma: no cover - a hint for a bare install
    sys.exit(f"bench/tiling.py needs the bench extra: pip install -e '.[bench]' ({missing})")

Counter = Callable[[Puzzle], int]


def fresh(puzzle: Puzzle) -> Puzzle:
    """Forget every cached fact about puzzles, so the next call pays for its set-up."""
    for cached in (puzzle_module._placements, puzzle_module._piece_placements, puzzle_module._impossibility,
                   puzzle_module.symmetry_action):
        cached.cache_clear()
    return puzzle


# -- the engines, each from a Puzzle to an answer ----------------------------------------


def ours(engine: str) -> tuple[Counter, Counter]:
    def count(p: Puzzle) -> int:
        result = tiling.count(p, engine=engine)
        assert result.exhaustive, result.reason
        return result.count or 0

    def first(p: Puzzle) -> int:
        return len(tiling.solve(p, engine=engine).solutions)

    return count, first


def _xcover_options(p: Puzzle) -> list[list[str]]:
    return [[q.piece, *(",".join(map(str, c)) for c in q.cells)] for q in p.placements()]


def xcover_count(p: Puzzle) -> int:
    return sum(1 for _ in xcover.covers(_xcover_options(p)))


def xcover_first(p: Puzzle) -> int:
    return sum(1 for _ in zip(range(1), xcover.covers(_xcover_options(p))))


def _matrix(p: Puzzle) -> np.ndarray:
    placements = p.placements()
    column = {c: i for i, c in enumerate(p.region.sorted_cells())}
    for k, (piece, _) in enumerate(p.kinds):
        column[piece.name] = len(p.region.cells) + k
    matrix = np.zeros((len(placements), len(column)), dtype=bool)
    for row, q in enumerate(placements):
        matrix[row, [column[c] for c in q.cells]] = True
        matrix[row, column[q.piece]] = True
    return matrix


def exact_cover_count(p: Puzzle) -> int:
    return int(exact_cover.get_solution_count(_matrix(p)))


def exact_cover_first(p: Puzzle) -> int:
    try:
        exact_cover.get_exact_cover(_matrix(p))
    except exact_cover.error.NoSolution:
        return 0
    return 1


# -- instances -----------------------------------------------------------------------------


def ubongo_instances(size: int, n: int, seed: int) -> list[Puzzle]:
    """``n`` hole-free unions of ``size`` distinct ubongo12 pieces, tiled by those pieces."""
    rng = random.Random(seed * 1000 + size)
    blocks = preset("ubongo12")
    out = []
    while len(out) < n:
        chosen = rng.sample(blocks, size)
        region = random_union(chosen, rng, compact=False)
        if not region.holes():
            out.append(Puzzle(region, tuple(chosen)))
    return out


# -- timing ----------------------------------------------------------------------------------


def timed(answer: Counter, p: Puzzle) -> tuple[float, int]:
    fresh(p)
    start = time.perf_counter()
    value = answer(p)
    return time.perf_counter() - start, value


def best_of(answer: Counter, p: Puzzle, repeats: int) -> tuple[float, int]:
    runs = [timed(answer, p) for _ in range(repeats)]
    values = {v for _, v in runs}
    assert len(values) == 1, values
    return min(t for t, _ in runs), values.pop()


def report(title: str, rows: dict[str, tuple[float, int]], peer: str, unit: str = "s") -> None:
    print(f"\n{title}")
    base = rows[peer][0]
    for name, (seconds, value) in rows.items():
        shown = f"{seconds * 1000:9.2f} ms" if unit == "ms" else f"{seconds:9.3f} s "
        print(f"  {name:<12} {shown}   answer {value:<8} ratio to {peer}: {seconds / base:6.2f}")


class Disagreement(RuntimeError):
    """Two engines (or two runs of one) gave different answers."""


#: The 6x10 count's time a node (ns), everything in: half the distance from 71 ns (145 ms on a
#: quiet day, 2026-12-06) to the machine's limit, 5-15 ns a node.
NODE_TARGET = 40.0


def figures(instances: int = 200, seed: int = 1, repeats: int = 3, skip_6x10: bool = False) -> list[Figure]:
    """Run the bench (printing as it goes) and return its figures against their targets.

    Raises:
        Disagreement: the engines disagree on an answer.
    """
    counter_count, counter_first = ours("counter")
    cp_sat_count, _ = ours("cp-sat")
    counts = {"counter": counter_count, "xcover": xcover_count, "exact-cover": exact_cover_count}
    firsts = {"counter": counter_first, "xcover": xcover_first, "exact-cover": exact_cover_first}

    # load every engine's compiled code once, on a puzzle that is not measured
    warm = Puzzle(Shape.parse("#####\n#####"), preset("pentominoes")[:2])
    for answer in [*counts.values(), *firsts.values(), cp_sat_count]:
        answer(fresh(warm))

    out: list[Figure] = []
    print(f"bench/tiling.py: Python {sys.version.split()[0]}, numpy {np.__version__}, "
          f"xcover {getattr(xcover, '__version__', '?')}, OR-Tools {tiling.ortools.__version__}")
    if not skip_6x10:
        rect = Puzzle(Shape.parse("\n".join(["#" * 10] * 6)), preset("pentominoes"))
        start = time.perf_counter()
        placements = len(fresh(rect).placements())
        print(f"6x10 pentominoes: {placements} placements, built in "
              f"{(time.perf_counter() - start) * 1000:.1f} ms (inside every figure below but the counter's)")
        first = {name: best_of(answer, rect, 5) for name, answer in firsts.items()}
        report("first 6x10 tiling (best of 5)", first, "exact-cover", unit="ms")
        out.append(Figure("tiling", "first 6x10 tiling, counter", first["counter"][0] * 1000, "ms", "exact-cover",
                          first["exact-cover"][0] * 1000, 0.3))
        runs = {"exact-cover": 1}  # about 20 s a run
        every = {name: best_of(answer, rect, runs.get(name, repeats)) for name, answer in counts.items()}
        report(f"count all 6x10 tilings (best of {repeats}; exact-cover 1 run)", every, "xcover")
        if len({v for _, v in every.values()}) != 1:
            raise Disagreement("the engines disagree on the 6x10 count")
        out.append(Figure("tiling", "count all 9356 6x10 tilings, counter", every["counter"][0], "s", "xcover",
                          every["xcover"][0], 0.1))
        # against the machine's limit: the search nodes the count visits, a second
        nodes = tiling.count(rect).stats.branches
        rate = nodes / every["counter"][0]
        print(f"  the counter visits {nodes:,} nodes: {rate / 1e6:.1f} M nodes a second, "
              f"{1e9 / rate:.0f} ns a node (a node in 5-15 ns would count in "
              f"{nodes * 5e-9 * 1000:.0f}-{nodes * 15e-9 * 1000:.0f} ms)")
        out.append(Figure("tiling", f"6x10 count, a node ({rate / 1e6:.1f} M nodes a second)", 1e9 / rate, "ns",
                          target=NODE_TARGET))

    # "placements" is the floor the Python engines stand on: the candidate placements alone
    engines = {"placements": lambda p: len(p.placements()), **counts, "cp-sat": cp_sat_count}
    print(f"\nUbongo-size puzzles: median seconds per instance to count all tilings, "
          f"{instances} per size, seed {seed}")
    print(f"  {'pieces':<7}{'cells':>6}{'tilings':>9}{'(mean)':>8}" + "".join(f"{n:>13}" for n in engines)
          + "   counter / exact-cover")
    for size in (3, 4, 5):
        puzzles = ubongo_instances(size, instances, seed)
        # one engine at a time over all the instances (interleaving them would let each
        # engine evict the others' code from the CPU caches); two rounds, the faster kept
        times: dict[str, list[float]] = {}
        answers: dict[str, list[int]] = {}
        for name, answer in engines.items():
            rounds = [[timed(answer, p) for p in puzzles] for _ in range(2)]
            times[name] = [min(a[0], b[0]) for a, b in zip(*rounds)]
            answers[name] = [v for _, v in rounds[0]]
            if any(v != w for (_, v), (_, w) in zip(*rounds)):
                raise Disagreement(f"{name} answers differently on a second run")
        for k, p in enumerate(puzzles):
            seen = {answers[name][k] for name in engines if name != "placements"}
            if len(seen) != 1:
                raise Disagreement(f"the engines disagree on {p.region.format()!r}: {seen}")
        median = {name: statistics.median(ts) for name, ts in times.items()}
        cells = statistics.median(p.region.size for p in puzzles)
        tilings = answers["counter"]
        print(f"  {size:<7}{cells:>6.0f}{statistics.median(tilings):>9.0f}"
              f"{statistics.mean(tilings):>8.1f}"
              + "".join(f"{median[n] * 1000:>10.3f} ms" for n in engines)
              + f"   {median['counter'] / median['exact-cover']:.2f}")
        out.append(Figure("tiling", f"Ubongo-size faces of {size} pieces, count all (median), counter",
                          median["counter"] * 1000, "ms", "exact-cover", median["exact-cover"] * 1000, 0.5))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--instances", type=int, default=200, help="Ubongo puzzles per size")
    parser.add_argument("--seed", type=int, default=1, help="seed of the Ubongo puzzles")
    parser.add_argument("--repeats", type=int, default=3, help="runs of the 6x10 count (best kept)")
    parser.add_argument("--skip-6x10", action="store_true", help="only the Ubongo-size puzzles")
    args = parser.parse_args(argv)
    try:
        found = figures(args.instances, args.seed, args.repeats, args.skip_6x10)
    except Disagreement as err:
        print(f"  {err}!")
        return 1
    print()
    print(table(found))
    return 1 if missed(found) else 0


if __name__ == "__main__":
    sys.exit(main())
