"""Progress for logs: without a terminal, long work says what it is doing at least every 15 s.

On a terminal a command draws its own bar or counter; in a log (CI, a service, ``2> file``)
nothing redraws in place, so a ``Heartbeat`` prints a line on stderr every ``every`` seconds
while the work runs: what it is (``mine GAME``), the latest word of its progress
and the time so far::

    templeforge: mine GAME: working: 12/220 chunks, 8,412 rows (45 s)

``TEMPLEFORGE_PROGRESS_SECONDS`` sets the beat (15 by default). The build's stages say the
same through their own display (``templeforge.pipeline.display.Plain``).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from types import TracebackType
from typing import TextIO

#: Seconds between two lines in a log, unless ``TEMPLEFORGE_PROGRESS_SECONDS`` says otherwise.
EVERY = 15.0
ENV = "TEMPLEFORGE_PROGRESS_SECONDS"


def beat_seconds() -> float:
    try:
        seconds = float(os.environ.get(ENV, EVERY))
    except ValueError:
        return EVERY
    return seconds if seconds > 0 else EVERY


class Heartbeat:
    """A line at least every ``every`` seconds while the block runs, when ``out`` is not a
    terminal; ``update`` gives the latest progress. On a terminal it says nothing."""

    def __init__(self, what: str, out: TextIO | None = None, every: float | None = None,
                 tty: bool | None = None) -> None:
        self.what = what
        self.out = out if out is not None else sys.stderr
        self.every = every if every is not None else beat_seconds()
        self.tty = tty if tty is not None else _is_tty(self.out)
        self.state = ""
        self.started = time.monotonic()
        self.stopped = threading.Event()
        self.thread: threading.Thread | None = None

    def update(self, text: str) -> None:
        self.state = text

    def __enter__(self) -> Heartbeat:
        self.started = time.monotonic()
        if not self.tty:
            self.thread = threading.Thread(target=self._beat, name="heartbeat", daemon=True)
            self.thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None) -> None:
        self.stopped.set()
        if self.thread is not None:
            self.thread.join()

    def _beat(self) -> None:
        while not self.stopped.wait(self.every):
            elapsed = time.monotonic() - self.started
            said = f": {self.state}" if self.state else ""
            try:
                print(f"templeforge: {self.what}: working{said} ({elapsed:.0f} s)", file=self.out, flush=True)
            except (OSError, ValueError):  # stderr gone: nothing to say it on
                return


def _is_tty(out: TextIO) -> bool:
    try:
        return out.isatty()
    except (AttributeError, ValueError):
        return False
