"""Work spread over processes: the seeded candidate pool, a verifier's cards side by side,
and a corpus mined in chunks, on one executor setting for the whole command.

A generator asks for candidates ``make(spec, index)`` for consecutive indices; every
candidate draws its randomness from its index alone, and results come back in the order of
their indices, so the pool (and so the deck) is the same whatever the executor and the
number of workers.

Executors (``cluster``, set once per command by ``--cluster`` or ``TEMPLEFORGE_CLUSTER``):

``local``
    the default: a process pool of this machine, started per request and stopped on the way
    out (Ctrl-C included, without the workers' tracebacks). Nothing to install or start.
``dask``
    a Dask ``LocalCluster`` (one single-threaded worker process a worker asked for), started
    when the command first spreads work and stopped when the command ends.
``tcp://HOST:8786`` (or ``tls://``)
    an existing Dask cluster's scheduler; the command connects a client and closes it at the
    end, and never starts or stops the cluster. Its workers need templeforge installed.

On Dask the work goes out in chunks (``Client.submit``, each with the spec); a chunk
that was running on a worker that died is run again elsewhere (Dask retries it), and the
results are put together in index order, so the bytes are the same as on the local pool.
Work asked for inside a worker (a verifier's ``each`` inside a candidate) runs in that
worker's process.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import re
import signal
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import wait as futures_wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from generators.common.signals import check_stop, held, leave_to_parent
from solver.errors import TempleforgeError

T = TypeVar("T")

#: The most worker processes a request may start (more than the cores only adds overhead).
MAX_WORKERS = 64

#: The environment variable that sets the executor when ``--cluster`` is not given.
CLUSTER_ENV = "TEMPLEFORGE_CLUSTER"

#: What ``--cluster`` takes, for help texts.
CLUSTER_HELP = ("where spread work runs: local (this machine's processes, the default), dask (a Dask LocalCluster "
                "started and stopped by the command) or a Dask scheduler's address tcp://HOST:8786 (an existing "
                f"cluster, never started or stopped here; needs the cluster extra); also {CLUSTER_ENV}")

#: How long a scheduler has to answer before the command gives up (one line, exit 2): the
#: probe's connection and its handshake get ``PROBE_SECONDS`` each, Dask's own connection
#: ``CONNECT_TIMEOUT``, so an address that is not a scheduler is refused within 15 s.
CONNECT_TIMEOUT = "5s"
PROBE_SECONDS = 4.0
#: A Dask handshake is a few hundred bytes; a listener announcing more is not a scheduler.
MAX_HANDSHAKE = 1 << 16

_ADDRESS = re.compile(r"^(tcp|tls)://(\[[0-9A-Fa-f:.]+\]|[^\s/:\[\]]+)(?::(\d{1,5}))?/?$")


class WorkerLost(TempleforgeError):
    """Worker processes kept dying on the same work: nothing is claimed for it (exit 3)."""


#: How often a local pool is started again after a worker died, before ``WorkerLost``.
RETRIES = 3


class ClusterError(TempleforgeError):
    """The executor asked for cannot be used (a malformed setting, Dask not installed, a
    scheduler that does not answer)."""


def default_workers() -> int:
    return min(2, os.cpu_count() or 1)


def check_cluster(text: str, label: str = "--cluster") -> str:
    """``text`` as an executor setting (``local``, ``dask`` or a scheduler address), or
    ``ClusterError`` naming ``label`` and saying what it takes."""
    setting = text.strip()
    if setting.lower() in ("local", "dask"):
        return setting.lower()
    found = _ADDRESS.match(setting)
    if found and found.group(3) is not None and not 0 < int(found.group(3)) < 65536:
        raise ClusterError(f"{label}: the port of {text.strip()!r} is not a port (1-65535)")
    if found:
        return setting.rstrip("/")
    raise ClusterError(f"{label}: expected local, dask or a Dask scheduler address such as tcp://HOST:8786, "
                       f"got {text!r}")


@dataclass
class _Setting:
    cluster: str = "local"
    client: Any = None
    local_cluster: Any = None


_SETTING = _Setting()
_INSIDE = False  # set in a worker while it runs a chunk: work asked for there stays in that process


def current_cluster() -> str:
    return _SETTING.cluster


@contextmanager
def cluster(setting: str | None) -> Iterator[str]:
    """Every ``Pool`` and ``each`` in the block runs on ``setting`` (None: the environment's
    ``TEMPLEFORGE_CLUSTER``, else ``local``). A Dask cluster or client opened for the block
    is closed at its end; an existing cluster is left running."""
    if setting is not None:
        chosen = check_cluster(setting)
    else:
        chosen = check_cluster(os.environ.get(CLUSTER_ENV, "local") or "local", CLUSTER_ENV)
    if chosen != "local":
        _dask()  # no Dask: one line before any work
    before = _SETTING.cluster
    _SETTING.cluster = chosen
    try:
        yield chosen
    finally:
        _SETTING.cluster = before
        _close_dask()


def _dask() -> Any:
    try:
        import distributed
    except ImportError:
        raise ClusterError("--cluster: Dask is not installed; install the cluster extra "
                           "(pip install -e '.[cluster]') or use --cluster local") from None
    return distributed


def _quiet(level: int = logging.CRITICAL) -> None:
    """Dask's own log lines (a worker restarted, a connection closed) stay out of the
    terminal unless ``TEMPLEFORGE_DEBUG`` asks for them."""
    if not os.environ.get("TEMPLEFORGE_DEBUG"):
        for name in ("distributed", "tornado", "asyncio"):
            logging.getLogger(name).setLevel(level)


def _client(workers: int) -> Any:
    """The command's Dask client: connected on first use, a LocalCluster of ``workers``
    started first for ``dask``."""
    if _SETTING.client is not None:
        return _SETTING.client
    distributed = _dask()
    _quiet()
    if _SETTING.cluster == "dask":
        with _ctrl_c_ignored():  # the workers inherit it: a terminal's Ctrl-C is the command's to handle
            _SETTING.local_cluster = distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",  # any free port
                silence_logs=logging.CRITICAL if not os.environ.get("TEMPLEFORGE_DEBUG") else logging.WARNING)
        _SETTING.client = distributed.Client(_SETTING.local_cluster, set_as_default=False)
    else:
        probe(_SETTING.cluster)
        try:
            _SETTING.client = distributed.Client(_SETTING.cluster, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError) as err:
            raise ClusterError(f"--cluster: no Dask scheduler answers at {_SETTING.cluster}: {err}") from None
    return _SETTING.client


def probe(address: str) -> None:
    """Check that a Dask scheduler listens at ``address`` before Dask's client connects: a
    closed port, a listener that says nothing and one that speaks another protocol are
    each one line within seconds (Dask's client would wait minutes on the first, and read a
    stranger's bytes as a frame length of exabytes). A scheduler greets every connection
    with its handshake, a few hundred bytes behind their 8-byte length; for ``tls://`` only
    the connection is checked.

    Raises:
        ClusterError: nothing, or not a Dask scheduler, at ``address``.
    """
    import socket
    import struct

    found = _ADDRESS.match(address)
    if found is None:
        raise ClusterError(f"--cluster: expected a Dask scheduler address, got {address!r}")
    scheme, host, port = found.group(1), found.group(2).strip("[]"), int(found.group(3) or 8786)
    said = f"--cluster: no Dask scheduler answers at {address}"
    try:
        conn = socket.create_connection((host, port), timeout=PROBE_SECONDS)
    except OSError as err:
        raise ClusterError(f"{said}: {err.strerror or err}") from None
    with conn:
        if scheme == "tls":
            return
        conn.settimeout(PROBE_SECONDS)
        try:
            head = _read(conn, 8)
            size = struct.unpack("<Q", head)[0]
            if not 0 < size <= MAX_HANDSHAKE:
                raise ClusterError(f"{said}: something listens there but does not speak Dask's protocol")
            greeting = _read(conn, size)
        except TimeoutError:
            raise ClusterError(f"{said}: something listens there but says nothing (not a Dask scheduler)") from None
        except OSError as err:
            raise ClusterError(f"{said}: {err.strerror or err}") from None
        if b"pickle-protocol" not in greeting and b"compression" not in greeting:
            raise ClusterError(f"{said}: something listens there but does not speak Dask's protocol")


def _read(conn: Any, n: int) -> bytes:
    """Exactly ``n`` bytes from a socket (``OSError`` when it closes first)."""
    out = b""
    while len(out) < n:
        part = conn.recv(n - len(out))
        if not part:
            raise ConnectionResetError("the connection was closed before a handshake")
        out += part
    return out


@contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    """SIGINT ignored while worker processes start (an ignored signal stays ignored in a
    child, and Python leaves it so): Ctrl-C at a terminal reaches the whole process group,
    and the command, not each worker, stops the work."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _close_dask() -> None:
    client, local = _SETTING.client, _SETTING.local_cluster
    _SETTING.client = _SETTING.local_cluster = None
    for thing in (client, local):
        if thing is not None:
            try:
                thing.close()
            except Exception:  # noqa: BLE001 - closing after Ctrl-C or a lost scheduler: nothing to keep
                pass


def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the parent, which stops them (no tracebacks from each), and
    end quietly on SIGTERM. They are forked with both held back (``_on_processes``), so none
    falls before this: the handler they inherit would print a traceback."""
    global _INSIDE
    _INSIDE = True
    leave_to_parent()


def in_worker() -> bool:
    """Whether this process is running a chunk for a pool (and so may not start its own)."""
    return _INSIDE or multiprocessing.current_process().daemon


def _chunk(make: Callable[[Any, int], T], spec: Any, indices: Sequence[int]) -> list[T]:
    """One chunk of a request, in a worker: ``make(spec, i)`` for its indices, in order."""
    global _INSIDE
    was, _INSIDE = _INSIDE, True
    try:
        return [make(spec, i) for i in indices]
    finally:
        _INSIDE = was


#: How often a wait for a result looks whether a stop was asked for (``check_stop``).
POLL_SECONDS = 0.5


def _settled(future: Any, wait: Callable[..., Any]) -> Any:
    """``future``'s result once it is done, a stop asked for meanwhile raised (``check_stop``):
    waited for in short steps (``wait([future], timeout=...)``: concurrent.futures' or
    ``_dask_wait``), in case the interrupt of a signal was swallowed where it landed."""
    while not future.done():
        check_stop()
        wait([future], timeout=POLL_SECONDS)
    check_stop()
    return future.result()


def _dask_wait(futures: list[Any], timeout: float) -> None:
    """``concurrent.futures.wait`` for one Dask future of this command's client (Dask's own
    ``wait`` asks for a default client, which the command does not set): its failure, if it
    failed, is raised by the ``result`` that follows."""
    try:
        futures[0].result(timeout=timeout)
    except Exception:  # noqa: BLE001 - a timeout, or the task's own failure, raised again by result()
        pass


def _local_executor(workers: int) -> ProcessPoolExecutor:
    _quiet_cancelled_race()
    return ProcessPoolExecutor(workers, initializer=_quiet_worker)


def _quiet_cancelled_race() -> None:
    """Before Python 3.12, a broken process pool's manager thread fails every task it still
    had, and one the caller cancelled at that moment makes it raise ``InvalidStateError``,
    printed as a thread's traceback (CPython fixed it in 3.12 by ignoring that error). The
    thread has nothing left to do then: the error is ignored here too."""
    import sys
    import threading
    from concurrent.futures import InvalidStateError

    if sys.version_info >= (3, 12) or getattr(threading.excepthook, "templeforge", False):
        return
    before = threading.excepthook

    def hook(args: Any) -> None:
        if args.exc_type is InvalidStateError and type(args.thread).__name__ == "_ExecutorManagerThread":
            return
        before(args)

    hook.templeforge = True  # type: ignore[attr-defined]
    threading.excepthook = hook


#: A request of fewer tasks than this runs in this process on the local executor: starting a
#: pool (forking the workers, each loading its compiled kernels and building its tables)
#: costs more than spreading so few saves. On this machine (2026-12-07), a pattern deck of
#: 5 candidates took 1.4 s in process and 1.6 s on two workers, of 30 candidates 2.3 s and
#: 2.5 s, of 60 candidates 3.2 s and 3.0 s (docs/benchmarks.md names the game).
SMALL_REQUEST = 32


class Pool:
    """Makes candidates in order, in ``workers`` processes (in this one when 1, or inside a
    worker, or for a small request on the local executor: fewer than ``SMALL_REQUEST``
    ``tasks``) on the command's executor (``cluster``). The results are the same either way.

    Use as a context manager: ``with Pool(2) as pool: pool.map(make, spec, range(48))``.
    """

    def __init__(self, workers: int, tasks: int | None = None) -> None:
        workers = max(1, min(workers, MAX_WORKERS))
        if _SETTING.cluster == "local":
            workers = min(workers, os.cpu_count() or 1)
            if tasks is not None and tasks < SMALL_REQUEST:
                workers = 1
        if in_worker():
            workers = 1
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self._client: Any = None
        if workers > 1:
            if _SETTING.cluster == "local":
                self._executor = _local_executor(workers)
            else:
                self._client = _client(workers)

    def map(self, make: Callable[[Any, int], T], spec: Any, indices: Iterable[int], chunk: int = 1) -> list[T]:
        """``make(spec, i)`` for every index, in index order, ``chunk`` indices a task."""
        return list(self.imap(make, spec, indices, chunk))

    def imap(self, make: Callable[[Any, int], T], spec: Any, indices: Iterable[int], chunk: int = 1) -> Iterator[T]:
        """As ``map``, each result given as soon as it and those before it are done (every
        task is handed out at once; the ones not yet wanted are cancelled if the caller stops)."""
        if self._executor is not None:
            yield from self._on_processes(make, spec, list(indices), chunk)
        elif self._client is not None:
            yield from self._on_dask(make, spec, list(indices), max(1, chunk))
        else:
            for i in indices:
                yield make(spec, i)

    def _on_processes(self, make: Callable[[Any, int], T], spec: Any, indices: list[int], chunk: int) -> Iterator[T]:
        """The local pool's results in order; a worker that died (killed, out of memory)
        breaks the pool, which is started again for the indices not yet given, as Dask runs
        a lost worker's task again elsewhere (``RETRIES`` times, then ``WorkerLost``)."""
        given = deaths = 0
        while given < len(indices):
            assert self._executor is not None
            rest = indices[given:]
            try:
                with held():  # the workers are forked here: see _quiet_worker
                    futures = [self._executor.submit(_chunk, make, spec, rest[i:i + chunk])
                               for i in range(0, len(rest), chunk)]
                for future in futures:  # in order: the same whichever worker finished first
                    for result in _settled(future, futures_wait):
                        yield result
                        given += 1
            except BrokenProcessPool:
                check_stop()  # a group's signal ends the workers too: that is a stop, not a death
                deaths += 1
                self._executor.shutdown(wait=False)
                self._executor = None
                if deaths > RETRIES:
                    raise WorkerLost(f"a worker process died {deaths} times (killed, or out of memory?); nothing "
                                     f"is claimed for the work it had") from None
                self._executor = _local_executor(self.workers)

    def _on_dask(self, make: Callable[[Any, int], T], spec: Any, indices: list[int], chunk: int) -> Iterator[T]:
        client = self._client
        if not indices:
            return
        # the spec goes with each task rather than scattered once: a task whose worker died is
        # then run again elsewhere from its own definition (scattered data dies with its worker)
        futures: list[Any] = [client.submit(_chunk, make, spec, indices[i:i + chunk], pure=False)
                   for i in range(0, len(indices), chunk)]
        try:
            for n, future in enumerate(futures):  # in order: the same whichever worker finished first
                yield from _settled(future, _dask_wait)
                futures[n] = None  # its result is out: let Dask drop it
        finally:  # Ctrl-C, a failed chunk or a caller that stopped: the rest is not wanted
            client.cancel([f for f in futures if f is not None and not f.done()])

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
        self._client = None

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        if kind is None:
            self.close()
        else:  # Ctrl-C, SIGTERM or a failure: the work is abandoned, so are the workers
            self.abandon()

    def abandon(self) -> None:
        """End the workers now, without waiting for the tasks they are running (a candidate
        search can run for minutes): pending tasks are cancelled and every worker process
        killed and reaped, so the command ends at once and no worker outlives it."""
        executor, self._executor = self._executor, None
        self._client = None
        if executor is None:
            return
        workers = list((getattr(executor, "_processes", None) or {}).values())  # the executor's own table
        for worker in workers:  # killed first: the pool breaks, and fails every task it still had
            worker.kill()
        executor.shutdown(wait=False)
        for worker in workers:
            worker.join(timeout=5)


def each(check: Callable[..., T], deck: Any, items: Sequence[Any], workers: int = 1, *extra: Any) -> list[T]:
    """``check(deck, item, *extra)`` for every item, in order, spread over ``workers``
    processes (in this one when 1, or when this process is itself a pool's worker, which may
    not start its own): a verifier's cards checked side by side, the same answers."""
    if workers <= 1 or len(items) < 2 or in_worker():
        return [check(deck, item, *extra) for item in items]
    with Pool(min(workers, len(items))) as pool:  # a few chunks a worker: the deck goes once a chunk
        return pool.map(_each_one, (check, deck, tuple(items), extra), range(len(items)),
                        chunk=max(1, len(items) // (4 * pool.workers)))


def _each_one(job: tuple[Callable[..., T], Any, tuple[Any, ...], tuple[Any, ...]], index: int) -> T:
    check, deck, items, extra = job
    return check(deck, items[index], *extra)
