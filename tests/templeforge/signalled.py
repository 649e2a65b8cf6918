"""Long-running commands sent a signal at a seeded moment: what ``test_signals.py`` holds to
the promise (exit 130 within 2 s, no process of the command left) and ``bench/signals.py``
measures.

Each command is the real command line in a new session (its own process group), given work
that lasts well past the latest moment drawn for it; the build is Toy Tally's (every stage,
with a worker pool and CadQuery, in about 13 s: ``python -m tests.toygame``).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).parents[2]
DATA = ROOT / "tests" / "data"

#: command -> (its arguments, with {out} for the output folder; the latest moment, in seconds
#: after the start, a signal is sent at: the command still works then)
LONG: dict[str, tuple[list[str], float]] = {
    "generate": (["generate", "puzzle-temple", "--cards", "1000", "--workers", "2", "--out", "{out}/deck.json"],
                 6.0),
    # a designer's ten temple sides without measures: about 4 s of measuring (a signal at
    # 3.93 s once came after the work had ended, which the command rightly ignores)
    "verify": (["verify", str(DATA / "mystery-of-the-temples-hand-written.json")], 3.0),
    # unsealed, so verified first (about 4 s), then printed (about 5 s in all)
    "pdf": (["pdf", str(DATA / "mystery-of-the-temples-hand-written.json"), "--out", "{out}"], 3.5),
    "cad": (["cad", str(DATA / "puzzle-temple-3-seed-11.json"), "--out", "{out}"], 8.0),
    "mine": (["mine", "puzzle-temple", "--blocks-per-face", "3", "--box", "5x4", "--workers", "2",
              "--out", "{out}/corpus.parquet"], 5.0),
    "build": (["build", "--game", "toy-tally", "--profile", "toy.toml", "--out", "{out}", "--jobs", "2"],
              10.0),
}

TOY_PROFILE = '[generate]\ncards = 4\nseed = 3\n[cad]\nprofile = "both"\n'

#: Where a signal is only noted until the work it interrupts can end: the promise.
PROMISE = 2.0


@dataclass
class Signalled:
    what: str  # the signal, where it went and when
    status: int | None  # None: still running (given up on)
    seconds: float | None  # from the signal until no process of the command is left; None: it ended first
    left: int  # processes of the command still running 10 s after the signal (killed then)
    err: str


def command(name: str, out: Path) -> list[str]:
    args, _ = LONG[name]
    if name == "build":
        (out.parent / "toy.toml").write_text(TOY_PROFILE)
        return [sys.executable, "-m", "tests.toygame", *[a.format(out=out) for a in args]]
    return [sys.executable, "-m", "templeforge", *[a.format(out=out) for a in args]]


def running_in_group(pgid: int) -> list[int]:
    """The processes of group ``pgid`` still running: a zombie (ended, waiting for whoever
    adopted it to read its status; a container's first process may take a second) is not."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # ended meanwhile
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # after "pid (name) ": state, ppid, pgrp, ...
        if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
            found.append(int(entry.name))
    return found


def _group_alive(pgid: int) -> bool:
    return bool(running_in_group(pgid))


def signalled(name: str, draw: int, seed: int, tmp: Path, scale: float = 1.0) -> Signalled:
    """Run ``name``'s command and send it the ``draw``-th signal drawn from ``seed``, its
    moment after the first 0.3 s shrunk by ``scale`` (a retry on a machine where the command
    ran quicker than its latest moment)."""
    rng = random.Random(f"{seed} {name} {draw}")
    sig = rng.choice([signal.SIGINT, signal.SIGTERM])
    group = rng.random() < 0.75  # a terminal's Ctrl-C reaches the group; kill PID the main process
    after = 0.3 + (rng.uniform(0.3, LONG[name][1]) - 0.3) * scale
    what = f"{name}: {sig.name} to the {'group' if group else 'main process'} after {after:.2f} s"
    out = tmp / "out"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TEMPLEFORGE_PROGRESS_SECONDS": "1"}
    with open(tmp / "stderr", "w+", encoding="utf-8") as err:
        proc = subprocess.Popen(command(name, out), cwd=tmp, env=env, stdout=subprocess.DEVNULL, stderr=err,
                                start_new_session=True, text=True)
        time.sleep(after)
        if proc.poll() is not None:
            proc.wait()
            err.seek(0)
            return Signalled(what, proc.returncode, None, 0, err.read())
        sent = time.monotonic()
        if group:
            os.killpg(proc.pid, sig)
        else:
            os.kill(proc.pid, sig)
        status: int | None = None
        while time.monotonic() - sent < 10:
            if status is None:
                status = proc.poll()
            if status is not None and not _group_alive(proc.pid):
                break
            time.sleep(0.01)
        seconds = time.monotonic() - sent
        left = 0
        if _group_alive(proc.pid):
            left = 1
            os.killpg(proc.pid, signal.SIGKILL)
        if status is None:
            proc.wait()
        err.seek(0)
        return Signalled(what, status, seconds, left, err.read())
