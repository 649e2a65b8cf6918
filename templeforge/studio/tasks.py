"""The studio's commands: verify, pdf, cad, build and playtest run on a deck as the
designer would run them at a terminal (``templeforge COMMAND ...`` in a child process, in
the studio's folder), one at a time, their output kept for the page and their files listed.

Each deck's files go to ``<deck>.kit/`` beside it (``pdf/``, ``models/``, ``playtest/``, and
``<game>/`` for a build), a folder the deck list leaves out. A second command while one
runs is refused (the machine's cores are the command's); Stop sends SIGTERM, which every
command takes as Ctrl-C: it removes what it had begun and exits 130.
"""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The commands the page runs, in the order of its buttons.
COMMANDS = ("verify", "pdf", "cad", "build", "playtest")
#: The suffix of a deck's own output folder (``mine.json`` -> ``mine.kit/``).
KIT = ".kit"
#: Lines of a command's output kept for the page (the last ones).
KEEP = 400
#: Seconds between two progress lines of a command (``TEMPLEFORGE_PROGRESS_SECONDS``).
BEAT = "2"
#: Games a playtest from the studio plays: a quick look (the command line plays more).
PLAYTEST_GAMES = 200
#: Files listed for a command at most.
MAX_LISTED = 300
#: What an exit status means, as the page says it.
STATUS = {0: "done", 1: "failed: the deck does not verify", 2: "refused: bad input", 3: "unknown: a limit came first",
          73: "failed: a file could not be written", 130: "stopped"}


class Busy(Exception):
    """A command is running already."""


def kit_of(deck: Path) -> Path:
    """The folder of a deck's files: ``mine.json`` -> ``mine.kit/`` beside it."""
    return deck.with_name(deck.stem + KIT)


def words(command: str, deck: str, kit: str, players: int | None = None) -> list[str]:
    """The command line (after ``templeforge``) that runs ``command`` on ``deck`` (both paths
    relative to the studio's folder), its files under ``kit``.

    Raises:
        ValueError: not a command the studio runs.
    """
    if command == "verify":
        return ["verify", deck]
    if command == "pdf":
        return ["pdf", deck, "--out", f"{kit}/pdf"]
    if command == "cad":
        return ["cad", deck, "--out", f"{kit}/models"]
    if command == "build":
        return ["build", "--deck", deck, "--out", kit]
    if command == "playtest":
        return ["playtest", deck, "--games", str(PLAYTEST_GAMES), "--out", f"{kit}/playtest",
                *(["--players", str(players)] if players else [])]
    raise ValueError(f"command: expected one of {', '.join(COMMANDS)}, got {command!r}")


def output_of(command: str, kit: str, game: str) -> str | None:
    """The folder (relative to the studio's) where ``command`` writes its files (None: it writes
    none)."""
    return {"pdf": f"{kit}/pdf", "cad": f"{kit}/models", "build": f"{kit}/{game}",
            "playtest": f"{kit}/playtest"}.get(command)


@dataclass
class Task:
    """One command run from the page."""

    id: int
    command: str
    deck: str
    argv: list[str]
    output: str | None
    process: subprocess.Popen[str]
    started: float = field(default_factory=time.monotonic)
    lines: deque[str] = field(default_factory=lambda: deque(maxlen=KEEP))
    ended: float | None = None
    status: int | None = None
    stopping: bool = False


class Tasks:
    """The commands of one studio, one running at a time, each kept until the studio ends
    (the latest for each deck and command)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._tasks: dict[int, Task] = {}
        self._closed = False

    def running(self) -> Task | None:
        with self._lock:
            return next((t for t in self._tasks.values() if t.status is None), None)

    def start(self, command: str, deck: Path, game: str, players: int | None = None) -> Task:
        """``command`` started on the deck file ``deck`` (under the folder, checked).

        Raises:
            Busy: another command is running.
            ValueError: not a command the studio runs.
        """
        relative = deck.relative_to(self.folder).as_posix()
        kit = kit_of(deck).relative_to(self.folder).as_posix()
        argv = words(command, relative, kit, players)
        with self._lock:
            if self._closed:
                raise Busy("the studio is stopping")
            busy = next((t for t in self._tasks.values() if t.status is None), None)
            if busy is not None:
                raise Busy(f"templeforge {busy.command} is running on {busy.deck}: wait for it, or stop it")
            env = {**os.environ, "TEMPLEFORGE_PROGRESS_SECONDS": BEAT, "PYTHONUNBUFFERED": "1", "NO_COLOR": "1"}
            process = subprocess.Popen([sys.executable, "-m", "templeforge", *argv], cwd=self.folder, env=env,
                                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                       text=True, encoding="utf-8", errors="replace", start_new_session=True)
            task = Task(next(self._ids), command, relative, argv, output_of(command, kit, game), process)
            self._tasks[task.id] = task
        threading.Thread(target=self._read, args=(task,), daemon=True, name=f"studio-{command}").start()
        return task

    def _read(self, task: Task) -> None:
        assert task.process.stdout is not None
        for line in task.process.stdout:
            task.lines.append(line.rstrip("\n"))
        status = task.process.wait()
        with self._lock:
            task.ended = time.monotonic()
            task.status = status

    def get(self, ident: int) -> Task | None:
        with self._lock:
            return self._tasks.get(ident)

    def latest(self, deck: str) -> list[Task]:
        """The latest task of each command on ``deck``, in the order of ``COMMANDS``."""
        with self._lock:
            mine = [t for t in self._tasks.values() if t.deck == deck]
        latest = {t.command: t for t in sorted(mine, key=lambda t: t.id)}
        return [latest[c] for c in COMMANDS if c in latest]

    def stop(self, ident: int) -> bool:
        """Ask task ``ident`` to stop (SIGTERM: the command cleans up and exits 130); False
        when it is not running."""
        task = self.get(ident)
        if task is None or task.status is not None:
            return False
        task.stopping = True
        try:
            task.process.send_signal(signal.SIGTERM)
        except ProcessLookupError:
            pass
        return True

    def close(self, grace: float = 10.0) -> None:
        """Stop every running command (SIGTERM, then SIGKILL to its group after ``grace`` s)."""
        with self._lock:
            self._closed = True
            running = [t for t in self._tasks.values() if t.status is None]
        for task in running:
            self.stop(task.id)
        for task in running:
            try:
                task.process.wait(grace)
            except subprocess.TimeoutExpired:
                with_group(task.process.pid, signal.SIGKILL)

    def described(self, task: Task) -> dict[str, Any]:
        """What the page shows of ``task``: its command line, output, state and files."""
        ended = task.ended if task.ended is not None else time.monotonic()
        state = "running" if task.status is None else STATUS.get(task.status, f"failed (exit {task.status})")
        if task.status is not None and task.status < 0 and task.stopping:  # stopped before it could say so itself
            state = "stopped"
        if task.status == 0 and task.command == "verify":
            state = "done: the deck verifies"
        return {"id": task.id, "command": task.command, "deck": task.deck,
                "line": "templeforge " + " ".join(task.argv), "lines": list(task.lines),
                "seconds": round(ended - task.started, 1), "running": task.status is None,
                "status": task.status, "state": state, "stopping": task.stopping,
                "files": self.files(task) if task.status is not None else []}

    def files(self, task: Task) -> list[dict[str, Any]]:
        """The files ``task`` made (those under its output folder), by path."""
        if task.output is None:
            return []
        root = self.folder / task.output
        if not root.is_dir() or root.is_symlink():
            return []
        listed = []
        for path in sorted(root.rglob("*")):
            if path.is_file() and not path.is_symlink():
                listed.append({"path": path.relative_to(self.folder).as_posix(), "bytes": path.stat().st_size})
                if len(listed) >= MAX_LISTED:
                    break
        return listed


def with_group(pid: int, sig: int) -> None:
    """``sig`` to the process group of ``pid`` (a command and the workers it started)."""
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass
