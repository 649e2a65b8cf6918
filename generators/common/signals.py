"""Ctrl-C and SIGTERM held back for a moment: delivered, not lost, once the moment is over.

A signal that falls between two steps that belong together (a temporary file made and put
on record, a worker process forked and told to leave signals to its parent) would leave the
first without the second. Held back, it arrives just after both; a process forked while it
is held starts with it held too, until it chooses its own handling.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

STOPS = frozenset({signal.SIGINT, signal.SIGTERM})


@contextmanager
def held() -> Iterator[None]:
    """SIGINT and SIGTERM held back (for this thread) for the length of the block."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def leave_to_parent() -> None:
    """In a worker process: SIGINT and SIGTERM ignored (the command that started it stops
    it), then no longer held (one that came meanwhile is dropped)."""
    for s in STOPS:
        signal.signal(s, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
