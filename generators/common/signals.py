"""Ctrl-C and SIGTERM held back for a moment: delivered, not lost, once the moment is over.

A signal that falls between two steps that belong together (a temporary file made and put
on record, a worker process forked and told to leave signals to its parent) would leave the
first without the second. Held back, it arrives just after both; a process forked while it
is held starts with it held too, until it chooses its own handling.

A stop asked for is also remembered here (``ask_stop``, ``stop_asked``, ``check_stop``):
the ``KeyboardInterrupt`` a handler raises can be swallowed where it lands (a finalizer
that runs at that moment, such as a Dask future's ``__del__``, prints "Exception ignored"
and carries on), so code that waits long checks the remembered request as it waits.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

STOPS = frozenset({signal.SIGINT, signal.SIGTERM})

_asked = False


def ask_stop() -> None:
    """Remember that a signal asked this process to stop (its handler calls this)."""
    global _asked
    _asked = True


def stop_asked() -> bool:
    """Whether a signal has asked this process to stop."""
    return _asked


def check_stop() -> None:
    """``KeyboardInterrupt`` if a stop was asked for: called by code that waits long, in case
    the handler's own interrupt was swallowed where it landed."""
    if _asked:
        raise KeyboardInterrupt


@contextmanager
def held() -> Iterator[None]:
    """SIGINT and SIGTERM held back (for this thread) for the length of the block."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def leave_to_parent() -> None:
    """In a worker process: Ctrl-C ignored (the command that started it stops it), SIGTERM
    ending it, quietly, as by default (a pool ends its workers with it: a broken pool,
    ``terminate``; and a process group's SIGTERM ends them with the command), then neither
    held any longer (one that came meanwhile is dropped)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
