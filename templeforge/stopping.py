"""A command asked to stop: Ctrl-C (SIGINT) and SIGTERM both raise ``KeyboardInterrupt``
where the command is, and are remembered.

Remembered, because an interrupt that lands inside a native library's import or set-up can
come out as that library's own error (``ImportError: initialization failed``): once a signal
has come, any failure that follows is reported as the interruption it is (exit 130), never
as a bug.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from generators.common.signals import ask_stop, stop_asked


def _stop(signum: int, frame: Any) -> None:
    ask_stop()
    raise KeyboardInterrupt


def _unraisable(unraisable: Any) -> None:
    """An interrupt raised where Python cannot pass it on (a finaliser such as
    ``Future.__del__``) is remembered as the stop it is, not printed as a stray traceback."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt):
        ask_stop()
        return
    sys.__unraisablehook__(unraisable)


def install() -> None:
    """SIGINT and SIGTERM stop this process as Ctrl-C does (main thread only)."""
    if threading.current_thread() is threading.main_thread():
        for s in (signal.SIGINT, signal.SIGTERM):
            signal.signal(s, _stop)
        sys.unraisablehook = _unraisable


@contextmanager
def installed() -> Iterator[None]:
    """``install`` for the length of a block, the previous handlers back after it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {s: signal.signal(s, _stop) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)


def interrupted(err: BaseException | None = None) -> bool:
    """Whether ``err`` (or the failure being handled) is, or follows, a request to stop."""
    seen = set()
    while err is not None and id(err) not in seen:
        if isinstance(err, KeyboardInterrupt):
            return True
        seen.add(id(err))
        err = err.__cause__ or err.__context__
    return stop_asked()
