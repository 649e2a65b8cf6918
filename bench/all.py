"""Benchmark: every speed target in one table, run by hand::

    .venv/bin/pip install -e '.[bench]' && .venv/bin/python bench/all.py [--instances 200]

In one run (about five minutes on this 2-core machine):

1. the tiling engines (``bench/tiling.py``): the 6x10 count against xcover, its first tiling
   and Ubongo-size faces against exact-cover;
2. ``templeforge build --game all --force`` from nothing in a fresh folder (cold), its peak
   memory (the command and every worker it waited for), each game's stage times from its
   ``build.json``, then the same command again with nothing to redo (warm), and
   ``templeforge --help``;
3. the Shifting Stones verifier on the default deck that build made, in this process as the
   verify stage runs it, and as the ``templeforge verify`` command.

It prints one table (each figure, its peer in the same run, the ratio and the target) and
exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import tiling  # noqa: E402
from bench.common import Figure, best, command, missed, table  # noqa: E402

GIB = 1 << 30


def build_figures(out: Path) -> list[Figure]:
    """The kits of all four games, cold and warm, and ``--help``."""
    figures = []
    cold = command(["build", "--game", "all", "--force", "--out", str(out)])
    if cold.status != 0:
        raise RuntimeError(f"templeforge build --game all failed (exit {cold.status})")
    print(f"cold build --game all: {cold.seconds:.1f} s, peak {cold.peak / GIB:.2f} GiB")
    figures.append(Figure("build", "cold build --game all (four kits)", cold.seconds, "s", target=90.0))
    figures.append(Figure("build", "peak memory of the cold build", cold.peak / GIB, "GiB", target=2.0))
    targets = {("puzzle-temple", "generate"): 30.0, ("shifting-stones", "generate"): 10.0,
               ("monolyth", "generate"): 60.0, ("mystery-of-the-temples", "generate"): 60.0,
               ("shifting-stones", "verify"): 3.0}
    for game in ("puzzle-temple", "shifting-stones", "monolyth", "mystery-of-the-temples"):
        record = json.loads((out / game / "build.json").read_text())
        stages = {name: r["seconds"] for name, r in record["stages"].items()}
        print(f"  {game:<24} " + "  ".join(f"{name} {seconds:5.1f} s" for name, seconds in stages.items()))
        for stage in ("generate", "verify", "cad"):
            figures.append(Figure("build", f"{game}: {stage} stage", stages[stage], "s",
                                  target=targets.get((game, stage))))
    warm = command(["build", "--game", "all", "--out", str(out)])
    print(f"warm build --game all: {warm.seconds:.2f} s")
    figures.append(Figure("build", "warm build --game all (nothing to redo)", warm.seconds, "s", target=1.0))
    helped = min(command(["--help"]).seconds for _ in range(3))
    figures.append(Figure("build", "templeforge --help (best of 3)", helped, "s", target=0.2))
    return figures


def stones_figures(out: Path) -> list[Figure]:
    """The Shifting Stones verifier on the default deck: in process (its state space built
    first, as the verify stage has it from the generator's own check), and as a command."""
    from generators import read_deck
    from generators.shifting_stones import verify

    deck_file = out / "shifting-stones" / "deck.json"
    _, deck = read_deck(deck_file)
    built, grids = best(lambda: verify.grids(deck.tiles))
    took, check = best(lambda: verify.verify_deck(deck))
    if not check.ok:
        raise RuntimeError(f"the default Shifting Stones deck fails: {check.problems[:3]}")
    ran = command(["verify", str(deck_file)])
    print(f"Shifting Stones verifier: state space {built:.2f} s, 72 patterns {took:.2f} s, command {ran.seconds:.2f} s")
    return [Figure("stones", "verify the default deck (in process, state space built)", took, "s", target=3.0),
            Figure("stones", "templeforge verify of the default deck (the command)", ran.seconds, "s", target=3.0)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--instances", type=int, default=200, help="Ubongo puzzles per size")
    parser.add_argument("--out", type=Path, default=None, help="the build folder (default: a new temporary one)")
    args = parser.parse_args(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="templeforge-bench-"))
    started = time.perf_counter()
    figures: list[Figure] = []
    figures += build_figures(out)
    figures += stones_figures(out)
    print()
    try:
        figures += tiling.figures(instances=args.instances)
    except tiling.Disagreement as err:
        print(f"the engines disagree: {err}")
        return 1
    print(f"\nbench/all.py: {time.perf_counter() - started:.0f} s; builds in {out}\n")
    print(table(figures))
    late = missed(figures)
    print("\ntargets: " + ("all met" if not late else "missed: " + "; ".join(f.name for f in late)))
    return 1 if late else 0


if __name__ == "__main__":
    raise SystemExit(main())
