"""The default test run on a busy machine, run by hand::

    .venv/bin/python bench/busy.py [--hogs 2] [-- PYTEST ARGS]

Starts ``--hogs`` CPU-bound processes (each spins on one core until the run ends), then runs
the README's test command's pytest (``python -m pytest``, the default run) beside them. The
run must pass however long it takes: no test may depend on wall-clock time. Prints the
suite's time under load and, for comparison, the machine's load average while it ran; exits
with pytest's status.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SPIN = "import signal, sys\nsignal.signal(signal.SIGTERM, lambda *_: sys.exit(0))\nwhile True:\n    pass\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hogs", type=int, default=2, help="CPU-bound processes beside the tests (default 2)")
    parser.add_argument("pytest", nargs="*", help="arguments for pytest (after --)")
    args = parser.parse_args()
    hogs = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(args.hogs)]
    try:
        started = time.perf_counter()
        run = subprocess.run([sys.executable, "-m", "pytest", *args.pytest], cwd=ROOT)
        seconds = time.perf_counter() - started
        load = os.getloadavg()[0]
    finally:
        for hog in hogs:
            hog.terminate()
        for hog in hogs:
            hog.wait()
    verdict = "passed" if run.returncode == 0 else f"FAILED (pytest exit {run.returncode})"
    print(f"default test run beside {args.hogs} CPU-bound processes: {verdict} in {seconds:.0f} s "
          f"(load average {load:.1f} at the end)")
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
