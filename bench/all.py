"""Benchmark: every speed target in one table, run by hand::

    .venv/bin/pip install -e '.[bench]' && .venv/bin/python bench/all.py [--instances 200]

In one run (about nine minutes on this 2-core machine):

1. the tiling engines (``bench/tiling.py``): the 6x10 count against xcover, its first tiling
   and Ubongo-size faces against exact-cover;
2. ``templeforge build --game all --force`` on a fresh clone (its first run: every kernel
   compiled), then again from nothing in a fresh folder (cold), its peak memory (the command
   and every worker it waited for), each game's stage times from its ``build.json``, then
   with nothing to redo (warm), and ``templeforge --help``;
3. the Shifting Stones verifier on the default deck that build made, in this process as the
   verify stage runs it, and as the ``templeforge verify`` command;
4. generation as decks grow (``--scale``, on by default; ``--no-scale`` skips it, about four
   minutes): Puzzle Temple at 36, 108, 360 and 1,000 cards on two workers (360 within 60 s,
   1,000 within 3 minutes, and the growth exponent between each size), Monolyth at 10 and 20
   cards (20 within 1.5x of 10), Shifting Stones' peak memory at 72 and 288 cards (288 within
   1 GiB).

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
from bench.common import ROOT, Figure, Ran, best, command, missed, table  # noqa: E402

GIB = 1 << 30


def fresh_clone(into: Path) -> Path:
    """A copy of the project's files as ``git clone`` gives them (the working tree's tracked
    files, so uncommitted edits are measured too): nothing compiled yet, neither Python's
    bytecode nor numba's kernels, which are cached beside the sources."""
    import shutil
    import subprocess

    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        source = ROOT / name
        if source.is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name)
    return into


def build_figures(out: Path) -> list[Figure]:
    """The kits of all four games: the first build on a fresh clone (every kernel compiled
    and cached on the way), the same build again (cold: nothing built, everything compiled),
    then with nothing to redo (warm), and ``--help``."""
    figures = []
    clone = fresh_clone(out / "clone")  # run from there: its packages come before the installed ones
    first = command(["build", "--game", "all", "--force", "--out", str(out / "first")], cwd=clone)
    cold = command(["build", "--game", "all", "--force", "--out", str(out)], cwd=clone)
    if first.status != 0 or cold.status != 0:
        raise RuntimeError(f"templeforge build --game all failed (exit {first.status or cold.status})")
    print(f"first build --game all on a fresh clone: {first.seconds:.1f} s; again: {cold.seconds:.1f} s, "
          f"peak {cold.peak / GIB:.2f} GiB")
    figures.append(Figure("build", "first build --game all on a fresh clone", first.seconds, "s",
                          peer="the same build again", peer_value=cold.seconds, target=1.3))
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
    warm = command(["build", "--game", "all", "--out", str(out)], cwd=clone)
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


def _generated(out: Path, game: str, cards: int) -> Ran:
    """``templeforge generate GAME --cards N`` on two workers, its deck under ``out``."""
    deck = out / f"{game}-{cards}.json"
    ran = command(["generate", game, "--cards", str(cards), "--workers", "2", "--out", str(deck)])
    if ran.status != 0:
        raise RuntimeError(f"generate {game} --cards {cards} failed (exit {ran.status})")
    return ran


def scale_figures(out: Path) -> list[Figure]:
    """Generation as decks grow: Puzzle Temple's time, Monolyth's time and Shifting Stones'
    memory (each a fresh command on two workers, its deck written under ``out``)."""
    import math

    figures = []
    times: dict[int, float] = {}
    for cards in (36, 108, 360, 1000):
        ran = _generated(out, "puzzle-temple", cards)
        times[cards] = ran.seconds
        grown = ""
        if len(times) > 1:
            (a, ta), (b, tb) = list(times.items())[-2:]
            grown = f", grows as N^{math.log(tb / ta) / math.log(b / a):.2f} from {a}"
        print(f"Puzzle Temple {cards:>5} cards: {ran.seconds:6.1f} s, peak {ran.peak / GIB:.2f} GiB{grown}")
        figures.append(Figure("scale", f"Puzzle Temple: generate {cards} cards (2 workers)", ran.seconds, "s",
                              target={360: 60.0, 1000: 180.0}.get(cards)))
    mono = {}
    for cards in (10, 20):
        ran = _generated(out, "monolyth", cards)
        mono[cards] = ran.seconds
        print(f"Monolyth {cards} cards: {ran.seconds:.1f} s")
    figures.append(Figure("scale", "Monolyth: generate 20 cards", mono[20], "s", peer="10 cards",
                          peer_value=mono[10], target=1.5))
    peaks = {}
    for cards in (72, 288):
        ran = _generated(out, "shifting-stones", cards)
        peaks[cards] = ran.peak / GIB
        print(f"Shifting Stones {cards} cards: {ran.seconds:.1f} s, peak {peaks[cards]:.2f} GiB")
    figures.append(Figure("scale", "Shifting Stones: peak memory of generate 72 cards", peaks[72], "GiB"))
    figures.append(Figure("scale", "Shifting Stones: peak memory of generate 288 cards", peaks[288], "GiB",
                          target=1.0))
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--instances", type=int, default=200, help="Ubongo puzzles per size")
    parser.add_argument("--out", type=Path, default=None, help="the build folder (default: a new temporary one)")
    parser.add_argument("--scale", action=argparse.BooleanOptionalAction, default=True,
                        help="also generate growing decks (about four minutes)")
    args = parser.parse_args(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="templeforge-bench-"))
    started = time.perf_counter()
    figures: list[Figure] = []
    figures += build_figures(out)
    figures += stones_figures(out)
    if args.scale:
        print()
        figures += scale_figures(out)
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
