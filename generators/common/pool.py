"""The seeded candidate pool: candidates made in parallel, each from its own index.

A generator asks for candidates ``make(spec, index)`` for consecutive indices; every
candidate draws its randomness from its index alone, so the pool (and so the deck) is the
same whatever the number of worker processes. Workers are started once per request and
stopped on the way out, Ctrl-C included, without their tracebacks.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

#: The most worker processes a request may start (more than the cores only adds overhead).
MAX_WORKERS = 64


def default_workers() -> int:
    return min(2, os.cpu_count() or 1)


def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the parent, which stops them (no tracebacks from each)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Pool:
    """Makes candidates in order, in ``workers`` processes (in this one when 1).

    Use as a context manager: ``with Pool(2) as pool: pool.map(make, spec, range(48))``.
    """

    def __init__(self, workers: int) -> None:
        workers = max(1, min(workers, MAX_WORKERS, os.cpu_count() or 1))
        self.workers = workers
        self._executor = ProcessPoolExecutor(workers, initializer=_quiet_worker) if workers > 1 else None

    def map(self, make: Callable[[Any, int], T], spec: Any, indices: Iterable[int], chunk: int = 1) -> list[T]:
        if self._executor is None:
            return [make(spec, i) for i in indices]
        return list(self._executor.map(make, itertools.repeat(spec), indices, chunksize=chunk))

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def each(check: Callable[..., T], deck: Any, items: Sequence[Any], workers: int = 1, *extra: Any) -> list[T]:
    """``check(deck, item, *extra)`` for every item, in order, spread over ``workers``
    processes (in this one when 1, or when this process is itself a pool's worker, which may
    not start its own): a verifier's cards checked side by side, the same answers."""
    if workers <= 1 or len(items) < 2 or multiprocessing.current_process().daemon:
        return [check(deck, item, *extra) for item in items]
    with Pool(min(workers, len(items))) as pool:  # a few chunks a worker: the deck goes once a chunk
        return pool.map(_each_one, (check, deck, tuple(items), extra), range(len(items)),
                        chunk=max(1, len(items) // (4 * pool.workers)))


def _each_one(job: tuple[Callable[..., T], Any, tuple[Any, ...], tuple[Any, ...]], index: int) -> T:
    check, deck, items, extra = job
    return check(deck, items[index], *extra)
