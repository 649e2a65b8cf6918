"""Native work in a process of its own, so that Ctrl-C and SIGTERM stop a command at once.

CadQuery's geometry kernel (and other native code) holds the interpreter's lock for the
length of a call: a signal's handler waits until the call returns, seconds on a large plate,
and interrupting the kernel mid-call breaks it. Run apart, the work is a spawned child
process; the command's own process only waits, passing on the child's progress, so it hears
a signal at once. It then ends the child at once (nothing the child made is kept: its
result reaches the parent only whole, once the work is done) and stops as Ctrl-C always
does.

The child ignores Ctrl-C (a terminal's Ctrl-C reaches the whole process group: the parent
decides), ends at once on SIGTERM (a group's SIGTERM ends it with the parent, and the
parent ends it so, with SIGKILL only if it does not end), and ends itself within half a
second of its parent's death, however the parent died: no child outlives the command.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from generators.common.signals import held, leave_to_parent

T = TypeVar("T")


#: Python's resource tracker (the process that removes what killed children leave behind:
#: their pools' semaphores) warns of each leak as the command ends. A child killed on a
#: signal leaves them by design, so the tracker removes them quietly.
QUIET_TRACKER = "ignore:resource_tracker:UserWarning"


def quiet_tracker() -> None:
    """The resource tracker, once started, cleans up without warning (``QUIET_TRACKER``):
    call before this process starts its first child."""
    if QUIET_TRACKER not in sys.warnoptions:
        sys.warnoptions.append(QUIET_TRACKER)


#: Seconds ``Apart.kill`` waits for a child holding SIGTERM back before it kills it outright.
KILL_AFTER = 5.0


class WorkDied(RuntimeError):
    """The child process died before it finished (killed from outside, out of memory)."""


class _WhileParented:
    """A stream that says nothing once its process's parent is gone: a child caught
    mid-message by its parent's end (a pipe broken under it) leaves no traceback on the
    terminal after the command's last line."""

    def __init__(self, stream: Any, parent: int) -> None:
        self._stream = stream
        self._parent = parent

    def write(self, text: str) -> int:
        if os.getppid() != self._parent:
            return len(text)
        written: int = self._stream.write(text)
        return written

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def watch_parent(parent: int | None = None) -> None:
    """End this process once its parent is gone (killed outright, SIGKILL), silent from that
    moment: started in every child of a command. ``parent``: the pid of the process that
    started this one, as that process gave it; a child whose parent died while it started
    (its parent is already another process, the system's reaper) ends at once. Without it,
    the parent is whoever it is now."""
    if parent is None:
        parent = os.getppid()
    elif os.getppid() != parent:
        os._exit(1)
    sys.stderr = _WhileParented(sys.stderr, parent)
    sys.stdout = _WhileParented(sys.stdout, parent)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    with held():  # the watch never takes a signal: one sent to the process waits for its main thread
        threading.Thread(target=watch, name="parent watch", daemon=True).start()


def child_signals() -> None:
    """A child's signals: Ctrl-C is the parent's to handle; SIGTERM ends the child at once,
    as it ends a pool's workers (a process group's SIGTERM then ends the child and its own
    workers together, and none of them is left to replace a worker that ended: a
    replacement started as the command killed the child once printed a traceback after the
    command's last line). The parent starts it with both held back (``held``, kept across
    the child's start), so none falls on the child while it loads."""
    leave_to_parent()


def _child(conn: Any, parent: int, work: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    child_signals()
    watch_parent(parent)

    def progress(*said: Any) -> None:
        conn.send(("progress", said))

    try:
        value = work(*args, progress=progress, **kwargs)
    except BaseException as err:  # noqa: BLE001 - every failure goes to the parent, which raises it
        try:
            data = pickle.dumps(err)
            pickle.loads(data)
        except Exception:  # noqa: BLE001 - an exception that cannot travel: its words do
            data = pickle.dumps(RuntimeError(f"{type(err).__name__}: {err}"))
        conn.send(("error", data))
    else:
        conn.send(("done", value))
    conn.close()


class Apart(Generic[T]):
    """``work(*args, progress=..., **kwargs)`` running in a spawned child. ``progress``
    (if given) hears, in this process, each call the work makes to its own ``progress``.
    ``pump`` passes progress on and tells whether the work is done; ``result`` waits for it;
    ``kill`` ends it at once. As a context manager, leaving it early kills the child."""

    def __init__(self, work: Callable[..., T], *args: Any, progress: Callable[..., None] | None = None,
                 **kwargs: Any) -> None:
        self.progress = progress
        self._outcome: tuple[str, Any] | None = None
        quiet_tracker()
        context = multiprocessing.get_context("spawn")
        self._conn, child_end = context.Pipe(duplex=False)
        self._process = context.Process(target=_child, args=(child_end, os.getpid(), work, args, kwargs),
                                        name=f"templeforge {getattr(work, '__name__', 'work')}")
        try:
            with held():  # see child_signals
                self._process.start()
        finally:
            child_end.close()

    def __enter__(self) -> Apart[T]:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.kill()

    def pump(self, wait: float = 0.0) -> bool:
        """Pass on the progress sent so far (waiting up to ``wait`` seconds for some);
        True once the work is done."""
        while self._outcome is None and self._conn.poll(wait):
            try:
                kind, said = self._conn.recv()
            except EOFError:
                self._process.join()
                raise WorkDied(f"the {self._process.name} process died (status {self._process.exitcode})") from None
            if kind == "progress":
                if self.progress is not None:
                    self.progress(*said)
                wait = 0.0
            else:
                self._outcome = (kind, said)
        return self._outcome is not None

    def result(self) -> T:
        """The work's value (or its exception, raised here), once it is done."""
        while not self.pump(0.1):
            pass
        assert self._outcome is not None
        kind, said = self._outcome
        self._process.join()
        if kind == "error":
            raise pickle.loads(said)
        value: T = said
        return value

    def kill(self) -> None:
        """End the child now (if it still runs), its work abandoned: SIGTERM, which ends it
        at once, except while it holds signals back to start processes of its own (a child
        killed outright while it wrote a starting worker's first message left that worker
        to print a traceback after the command's last line); SIGKILL if it has not ended
        ``KILL_AFTER`` seconds later."""
        if self._process.is_alive():
            self._process.terminate()
            self._process.join(KILL_AFTER)
            if self._process.is_alive():
                self._process.kill()
        self._process.join()
        self._conn.close()


def run_apart(work: Callable[..., T], *args: Any, progress: Callable[..., None] | None = None, **kwargs: Any) -> T:
    """``work(*args, progress=..., **kwargs)`` run in a child process (see ``Apart``)."""
    with Apart(work, *args, progress=progress, **kwargs) as running:
        return running.result()
