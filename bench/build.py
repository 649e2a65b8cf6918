"""Benchmark: ``templeforge build`` of the default Puzzle Temple kit, cold and warm.

Run by hand::

    .venv/bin/python bench/build.py [--jobs 2] [--out /tmp/templeforge-bench]

1. cold: ``templeforge build --force`` (every stage runs), its wall time and each stage's
   time from ``build.json``;
2. warm: the same command without ``--force`` (nothing to redo), as a ratio to (1);
3. one changed PDF setting (``[pdf] paper = "letter"``): the PDFs and the report only.

Each build runs in a fresh process, as a user runs it. Targets: cold <= 3 minutes,
warm <= 5 s on this 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import command  # noqa: E402


def build(out: Path, jobs: int, *extra: str) -> float:
    ran = command(["build", "--out", str(out), "--jobs", str(jobs), *extra])
    if ran.status != 0:
        raise SystemExit(f"templeforge build failed (exit {ran.status})")
    return ran.seconds


def stages(out: Path) -> dict[str, float]:
    data = json.loads((out / "puzzle-temple" / "build.json").read_text())
    return {name: r["seconds"] for name, r in data["stages"].items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="templeforge-bench-"))

    cold = build(out, args.jobs, "--force")
    print(f"cold build (--jobs {args.jobs}): {cold:.1f} s (target <= 180 s)")
    for name, seconds in stages(out).items():
        print(f"  {name:<9} {seconds:6.1f} s")
    warm = build(out, args.jobs)
    print(f"warm build: {warm:.2f} s, {warm / cold:.3f}x the cold build (target <= 5 s)")
    profile = out / "letter.toml"
    profile.write_text('[pdf]\npaper = "letter"\n')
    changed = build(out, args.jobs, "--profile", str(profile))
    print(f"one PDF setting changed: {changed:.1f} s, {changed / cold:.2f}x the cold build (PDFs and report only)")


if __name__ == "__main__":
    main()
