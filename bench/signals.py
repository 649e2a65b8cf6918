"""How soon each long-running command ends after a signal, run by hand::

    .venv/bin/python bench/signals.py [--draws 20] [--seed 7] [COMMAND ...]

For each command (``generate``, ``verify``, ``pdf``, ``cad``, ``mine``, ``build``; all by
default) it starts the real command line ``--draws`` times and, at a moment drawn from
``--seed`` while it works, sends SIGINT or SIGTERM to its process group (a terminal's Ctrl-C)
or to the main process alone (``kill PID``). It prints, per command, the exit statuses and
the time from the signal to the command's end (median and worst) against the promise: exit
130 within 2 s, and no process of the command left. The slow test
``tests/templeforge/test_signals.py`` holds the same table to that promise.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.templeforge.signalled import LONG, signalled  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--draws", type=int, default=20, help="signals per command (default 20)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the moments and signals (default 7)")
    parser.add_argument("commands", nargs="*", default=sorted(LONG), help=f"of {', '.join(sorted(LONG))}")
    args = parser.parse_args()
    worst_all = 0.0
    for name in args.commands:
        times, statuses, left = [], {}, 0
        for draw in range(args.draws):
            with tempfile.TemporaryDirectory() as tmp:
                got = signalled(name, draw, args.seed, Path(tmp))
            statuses[got.status] = statuses.get(got.status, 0) + 1
            left += got.left
            if got.seconds is not None:
                times.append(got.seconds)
        if times:
            worst_all = max(worst_all, max(times))
            said = f"median {statistics.median(times):.2f} s, worst {max(times):.2f} s"
        else:
            said = "every run finished before its signal"
        print(f"{name:9} {said}; statuses {dict(sorted(statuses.items()))}; processes left {left}", flush=True)
    print(f"worst of all: {worst_all:.2f} s (promise: 2 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
