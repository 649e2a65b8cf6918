"""The studio's computing process: proofs run outside the server, so the page never waits on
a frozen server, and a newer edit stops the older proof.

``Runner`` keeps one warm worker process (its imports done once). ``run`` sends it a job and
waits for the answer; a ``run`` that arrives while another is computing ends the older one
(its process is killed and a fresh one started), which then answers ``None``: superseded;
or, for a runner whose jobs go in turn, waits for it.
A job that passes its deadline is stopped the same way and answers ``None`` too; the caller
says which. Jobs are ``(module, function, args)``: a function of the game's studio module,
called with its arguments in the worker.
"""

from __future__ import annotations

import importlib
import multiprocessing
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

Job = tuple[str, str, tuple[Any, ...]]


def _serve(conn: Connection) -> None:
    """The worker's loop: a job in, its answer (or the error's message) out."""
    while True:
        try:
            module, function, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer: Any = ("ok", getattr(importlib.import_module(module), function)(*args))
        except Exception as err:  # the server turns it into one line for the page
            answer = ("error", f"{type(err).__name__}: {err}")
        try:
            conn.send(answer)
        except (BrokenPipeError, OSError):  # the server went, or stopped this job: nothing to tell
            return


def warm(module: str) -> bool:
    """Import ``module`` (a game's studio module and what it loads) and prove its new card's
    starting draft on a blank deck, so the compiled searches and their tables are loaded
    before the designer's first edit and the first live answer is as quick as the next."""
    studio = importlib.import_module(module)
    deck = studio.blank()
    studio.prove(deck, studio.draft(deck))
    return True


class Runner:
    """One worker process, its jobs one at a time: the newest first (``supersede``: a newer
    job stops the older, for proofs as the designer draws), or in turn (deck reads, saves
    and pictures, none of which may stop another)."""

    def __init__(self, start: Callable[[Connection], None] = _serve, supersede: bool = True) -> None:
        self._target = start
        self._supersede = supersede
        self._turn = threading.Lock()  # held through a job when jobs go in turn
        self._lock = threading.Lock()
        self._process: Any = None
        self._conn: Connection | None = None
        self._job = 0  # the number of the newest job; an older one is superseded
        self._busy = False
        self._polite = False  # the job running now is a warm-up
        self._closed = False

    def _spawn(self) -> None:
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        process = context.Process(target=self._target, args=(child,), daemon=True, name="templeforge-studio")
        process.start()
        child.close()
        self._process, self._conn = process, parent

    def _kill(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.join()
        if self._conn is not None:
            self._conn.close()
        self._process, self._conn, self._busy = None, None, False

    def run(self, job: Job, deadline: float, polite: bool = False) -> tuple[str, Any] | None:
        """The job's answer, ``("ok", value)`` or ``("error", message)``; None when a newer
        job or ``deadline`` seconds stopped it. A ``polite`` job (a warm-up) stops and waits
        for no one: it answers None at once when the worker is busy."""
        if self._supersede:
            return self._run(job, deadline, polite)
        if not self._turn.acquire(blocking=not polite):
            return None
        try:
            return self._run(job, deadline, polite)
        finally:
            self._turn.release()

    def _run(self, job: Job, deadline: float, polite: bool) -> tuple[str, Any] | None:
        with self._lock:
            if self._closed or (polite and self._busy):
                return None
            self._job += 1
            mine = self._job
            if self._busy:
                self._kill()
            if self._process is None or not self._process.is_alive():
                self._kill()
                self._spawn()
            conn = self._conn
            assert conn is not None
            conn.send(job)
            self._busy = True
            self._polite = polite
        ends = time.monotonic() + deadline
        while True:
            try:
                ready = conn.poll(0.02)
            except (EOFError, OSError):
                return None  # killed by a newer job
            with self._lock:
                if self._job != mine:
                    return None
                if ready:
                    try:
                        answer: tuple[str, Any] = conn.recv()
                    except (EOFError, OSError):
                        self._kill()
                        return ("error", "the worker process ended")
                    self._busy = False
                    return answer
                if time.monotonic() > ends:
                    self._kill()
                    return None

    def stop(self) -> bool:
        """Stop the job running now (its ``run`` answers None, as if superseded); False when
        none is running (a warm-up is left to finish)."""
        with self._lock:
            if not self._busy or self._polite:
                return False
            self._job += 1
            self._kill()
            return True

    def close(self) -> None:
        """Stop the worker; every ``run`` after this answers None."""
        with self._lock:
            self._closed = True
            self._job += 1
            self._kill()
