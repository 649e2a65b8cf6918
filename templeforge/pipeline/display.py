"""What a build shows while it runs: a live bar per stage on a terminal (rich), plain lines
otherwise (a log, CI, a pipe)."""

from __future__ import annotations

import sys
import threading
import time
from typing import Any, TextIO

from templeforge.pipeline.runner import ORDER, Display, Record


def _finished(stage: str, record: Record) -> str:
    said = record.lines[0] if record.lines else "done"
    if record.cached:
        return f"{stage}: unchanged, kept ({said})"
    return f"{stage}: {said} ({record.seconds:.1f} s)"


class Plain(Display):
    """A line when a stage starts and one when it ends, and while one runs a line at least
    every ``every`` seconds (what it is doing, n of N; by default 15, or
    ``TEMPLEFORGE_PROGRESS_SECONDS``), so that a log never falls silent for minutes."""

    def __init__(self, game: str, out: TextIO | None = None, every: float | None = None) -> None:
        from templeforge.heartbeat import beat_seconds

        self.game = game
        self.out = out or sys.stderr
        self.every = every if every is not None else beat_seconds()
        self.lock = threading.Lock()
        self.running: dict[str, float] = {}  # stage -> when it started
        self.state: dict[str, tuple[int, int, str]] = {}
        self.last = time.monotonic()
        self.stopped = threading.Event()
        self.beat: threading.Thread | None = None

    def _say(self, text: str) -> None:
        with self.lock:
            self.last = time.monotonic()
            print(f"[{self.game}] {text}", file=self.out, flush=True)

    def _progress(self, stage: str) -> str:
        done, total, what = self.state.get(stage, (0, 0, ""))
        count = f"{done} of {total}" if total else (f"{done} so far" if done else "")
        parts = [p for p in (what, count) if p]
        elapsed = time.monotonic() - self.running.get(stage, time.monotonic())
        return f"{stage}: working{': ' + ', '.join(parts) if parts else ''} ({elapsed:.0f} s)"

    def _beating(self) -> None:
        while not self.stopped.wait(min(1.0, self.every / 4)):
            if self.running and time.monotonic() - self.last >= self.every:
                for stage in list(self.running):
                    self._say(self._progress(stage))

    def start(self, stage: str) -> None:
        self.running[stage] = time.monotonic()
        self._say(f"{stage}: started")
        if self.beat is None:
            self.beat = threading.Thread(target=self._beating, name="progress", daemon=True)
            self.beat.start()

    def update(self, stage: str, done: int, total: int, what: str) -> None:
        self.state[stage] = (done, total, what)

    def finish(self, stage: str, record: Record) -> None:
        self.running.pop(stage, None)
        self._say(_finished(stage, record))

    def close(self) -> None:
        self.stopped.set()
        if self.beat is not None:
            self.beat.join()


class Live(Display):
    """A bar per stage, redrawn in place."""

    def __init__(self, game: str) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
        from rich.table import Column

        self.console = Console(stderr=True)
        self.progress = Progress(TextColumn("[bold]{task.fields[stage]}", table_column=Column(width=8, no_wrap=True)),
                                 BarColumn(bar_width=24), MofNCompleteColumn(table_column=Column(width=7)),
                                 TimeElapsedColumn(),
                                 TextColumn("{task.description}", table_column=Column(ratio=1, no_wrap=True,
                                                                                     overflow="ellipsis")),
                                 console=self.console, transient=False, expand=True)
        self.game = game
        self.tasks: dict[str, Any] = {}
        self.progress.start()

    def _task(self, stage: str) -> Any:
        if stage not in self.tasks:
            self.tasks[stage] = self.progress.add_task("", stage=stage, total=None, start=False)
        return self.tasks[stage]

    def start(self, stage: str) -> None:
        self.progress.start_task(self._task(stage))

    def update(self, stage: str, done: int, total: int, what: str) -> None:
        self.progress.update(self._task(stage), completed=done, total=total or None, description=what)

    def finish(self, stage: str, record: Record) -> None:
        task = self._task(stage)
        self.progress.update(task, total=1, completed=1, description=_finished(stage, record).split(": ", 1)[1])
        self.progress.stop_task(task)

    def close(self) -> None:
        self.progress.stop()


def display(game: str, live: bool | None = None) -> Display:
    """Live bars when standard error is a terminal, plain lines otherwise."""
    if live is None:
        live = sys.stderr.isatty()
    return Live(game) if live else Plain(game)


__all__ = ["ORDER", "Plain", "Live", "display"]
