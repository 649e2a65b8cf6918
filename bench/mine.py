"""Benchmark: mining corpora, on one worker, two, and on paper on 16 and 64 cores.

Run by hand::

    .venv/bin/python bench/mine.py [--samples 3] [--quick]

Measures, on this machine, in one run (numba's kernels compiled before timing):

1. throughput per worker: the first ``--chunks`` chunks of a Puzzle Temple request (3 blocks
   per face in a 5x4 box) mined on one worker in this process, then on the local pool of two
   workers and on a Dask LocalCluster of two workers (the same corpus bytes each time); the
   scaling from 1 to 2 workers is their ratio (the peer is the one-worker run);
2. per-chunk times, sampled: ``--samples`` chunks drawn (seeded) from each large request
   (Puzzle Temple with 3, 4 and 5 blocks per face in the 6x4 and 7x5 boxes designers use; the
   other games' largest sensible requests), each mined alone on one worker; their mean rows
   and seconds a chunk;
3. on paper: each request's rows and its time on 1, 16 and 64 cores: the sampled mean
   seconds a chunk times the rounds of chunks the cores take (chunks / cores, rounded up),
   divided by the 1-to-2 worker efficiency measured in 1 (a cluster's cores are assumed as
   fast as this machine's).

The chunks of the largest Puzzle Temple requests take minutes to an hour each: for them
the region search is timed whole and the rating (most of a chunk's time) on 200 of its locks
(``estimated_rows``). ``--quick`` leaves them out.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generators import GAMES  # noqa: E402
from generators.common import mine  # noqa: E402
from generators.common.options import resolve  # noqa: E402
from generators.common.pool import cluster  # noqa: E402

#: (game, request, why) of the requests projected on paper.
LARGE = (
    ("puzzle-temple", {"blocks_per_face": "3", "box": "6x4"}, "Ubongo's easy side"),
    ("puzzle-temple", {"blocks_per_face": "4", "box": "6x4"}, "Ubongo's hard side"),
    ("puzzle-temple", {"blocks_per_face": "3", "box": "7x5"}, "our card's lock box"),
    ("puzzle-temple", {"blocks_per_face": "4", "box": "7x5"}, "our card's lock box"),
    ("puzzle-temple", {"blocks_per_face": "5", "box": "6x4"}, "five blocks"),
    ("puzzle-temple", {"blocks_per_face": "5", "box": "7x5"}, "five blocks, our box"),
    ("shifting-stones", {"stones": "1-4"}, "the published 1-4 stones"),
    ("monolyth", {"cubes": "1-8"}, "structures up to 8 cubes"),
    ("mystery-of-the-temples", {"length": "1-6"}, "runs up to 6 crystals"),
)
#: Requests whose chunks take minutes: left out by --quick.
SLOW = {("puzzle-temple", "4", "7x5"), ("puzzle-temple", "5", "7x5"), ("puzzle-temple", "5", "6x4")}


@dataclass(frozen=True, slots=True)
class First:
    """A plan cut to its first ``n`` chunks (the same rows for those)."""

    plan: Any
    n: int

    def request(self) -> dict[str, Any]:
        return {**self.plan.request(), "first": self.n}

    def chunks(self) -> int:
        return min(self.n, self.plan.chunks())

    def rows(self, index: int) -> list[tuple[Any, ...]]:
        rows: list[tuple[Any, ...]] = self.plan.rows(index)
        return rows


def estimated_rows(plan: Any, index: int, sample: int = 200) -> tuple[float, float]:
    """A Puzzle Temple chunk too long to mine here (minutes to an hour): its rows and seconds
    estimated from measured parts. The region search runs whole (timed); a lock appears once
    for each of its orientations that fit the box, so the distinct locks are the regions
    times the mean of 1 / (fitting orientations) over a seeded sample of them; the rating (most
    of a chunk's time) is timed on that sample and scaled to the distinct locks."""
    from solver.puzzle import Puzzle
    from solver.rating import rate
    from solver.regions import tiled_regions

    chosen = tuple(plan.pieces[i] for i in plan.sets()[index])
    width, height = plan.box
    started = time.perf_counter()
    regions = tiled_regions(chosen, width, height, plan.flips, holes=plan.holes)
    searched = time.perf_counter() - started
    picked = random.Random(index).sample(regions, min(sample, len(regions)))
    share = 0.0
    started = time.perf_counter()
    for region, _ in picked:
        fitting = {o for o in region.orientations(plan.flips)
                   if o.extent()[1] <= width and o.extent()[0] <= height}
        share += 1 / len(fitting)
        rate(Puzzle(min(fitting, key=lambda o: o.sort_key()), chosen, flips=plan.flips))
    rated = (time.perf_counter() - started) / max(1, len(picked))
    distinct = len(regions) * share / max(1, len(picked))
    return distinct, searched + distinct * rated


def plan_of(game: str, given: dict[str, str]) -> tuple[Any, Any]:
    miner = GAMES[game].load_miner()
    return miner, miner.plan(resolve(miner.OPTIONS, given).values)


def timed_run(game: str, miner: Any, plan: Any, workers: int, executor: str) -> tuple[float, bytes]:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "c.parquet"
        with cluster(executor):
            started = time.perf_counter()
            mine.run(game, miner, plan, out, workers=workers)
            took = time.perf_counter() - started
        return took, out.read_bytes()


def clock(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} d"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=40, help="chunks of the scaling run")
    parser.add_argument("--samples", type=int, default=4, help="chunks sampled per large request (seeded)")
    parser.add_argument("--quick", action="store_true", help="leave out the requests with minutes a chunk")
    args = parser.parse_args()

    miner, plan = plan_of("puzzle-temple", {"blocks_per_face": "3", "box": "5x4"})
    plan.rows(0)  # compile numba's kernels here, not in the timings
    cut = First(plan, args.chunks)
    one, expected = timed_run("puzzle-temple", miner, cut, 1, "local")
    two, local_bytes = timed_run("puzzle-temple", miner, cut, 2, "local")
    dask_two, dask_bytes = timed_run("puzzle-temple", miner, cut, 2, "dask")
    assert local_bytes == expected and dask_bytes == expected, "the executors disagree"
    efficiency = one / two / 2
    print(f"1. throughput: Puzzle Temple, 3 blocks per face, 5x4, first {cut.chunks()} chunks "
          f"(the same bytes on every executor)")
    print(f"   1 worker           {one:7.1f} s  {cut.chunks() / one:6.2f} chunks/s")
    print(f"   2 workers (local)  {two:7.1f} s  {cut.chunks() / two:6.2f} chunks/s   ratio to 1 worker "
          f"{two / one:.2f} (ideal 0.50; efficiency {efficiency:.0%})")
    print(f"   2 workers (Dask)   {dask_two:7.1f} s  {cut.chunks() / dask_two:6.2f} chunks/s   ratio to 1 worker "
          f"{dask_two / one:.2f} (its LocalCluster's start included)")
    print()
    print(f"2. per chunk, {args.samples} chunks sampled per request, one worker:")
    print(f"   {'game':<24} {'request':<28} {'chunks':>7} {'rows/chunk':>11} {'s/chunk':>8}")
    projected = []
    for game, given, why in LARGE:
        key = (game, given.get("blocks_per_face", ""), given.get("box", ""))
        if args.quick and key in SLOW:
            continue
        miner, plan = plan_of(game, given)
        chunks = plan.chunks()
        picks = sorted(random.Random(f"{game} {given}").sample(range(chunks), min(args.samples, chunks)))
        rows = 0.0
        started = time.perf_counter()
        estimated = key in SLOW
        spent = 0.0
        for index in picks:
            if estimated:
                many, seconds = estimated_rows(plan, index)
                rows, spent = rows + many, spent + seconds
            else:
                rows += len(plan.rows(index))
        per_chunk = (spent if estimated else time.perf_counter() - started) / len(picks)
        per_rows = rows / len(picks)
        request = " ".join(f"{k.replace('_', '-')} {v}" for k, v in given.items())
        print(f"   {game:<24} {request:<28} {chunks:>7} {per_rows:>11.0f} {per_chunk:>8.2f}"
              + ("  (estimated: search timed, rating timed on 200 locks)" if estimated else ""), flush=True)
        projected.append((game, request, why, chunks, per_rows * chunks, per_chunk * chunks))
    print()
    print(f"3. on paper: rows and time on 1, 16 and 64 cores (sampled s/chunk x rounds of chunks / "
          f"{efficiency:.0%} efficiency past one core)")
    print(f"   {'game':<24} {'request':<28} {'rows':>12} {'1 core':>9} {'16 cores':>9} {'64 cores':>9}  why")
    for game, request, why, chunks, rows_total, seconds in projected:
        per_chunk = seconds / chunks
        on = [seconds] + [math.ceil(chunks / cores) * per_chunk / efficiency for cores in (16, 64)]
        print(f"   {game:<24} {request:<28} {rows_total:>12,.0f} {clock(on[0]):>9} {clock(on[1]):>9} "
              f"{clock(on[2]):>9}  {why}")
    print("   (rounds of chunks: a request of fewer chunks than cores is bound by one chunk's time)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
