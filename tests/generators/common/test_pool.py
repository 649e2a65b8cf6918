"""The executor setting: the same results on the local pool and on Dask, a killed worker
retried, and one clear line for a setting that cannot be used."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from generators.common import pool
from generators.common.pool import ClusterError, Pool, check_cluster, cluster, each


def square(spec: str, index: int) -> tuple[str, int, bool]:
    return spec, index * index, pool.in_worker()


def dies_once(marker: str, index: int) -> int:
    """Kills its worker process the first time index 5 comes up (Dask runs it again)."""
    if index == 5 and not os.path.exists(marker):
        Path(marker).write_text("killed")
        os._exit(1)
    return index * 3


def nested(spec: str, index: int) -> list[int]:
    """Work asked for inside a worker runs in that worker's process."""
    return each(lambda deck, item: (deck, item), spec, [index, index + 1], 2)  # type: ignore[return-value]


def test_cluster_settings_are_checked() -> None:
    assert check_cluster(" Local ") == "local"
    assert check_cluster("dask") == "dask"
    assert check_cluster("tcp://10.0.0.5:8786/") == "tcp://10.0.0.5:8786"
    assert check_cluster("tls://scheduler.example.org:8786") == "tls://scheduler.example.org:8786"
    assert check_cluster("tcp://[::1]:8786") == "tcp://[::1]:8786"  # IPv6 in brackets
    assert check_cluster("tcp://[2001:db8::5]") == "tcp://[2001:db8::5]"
    for bad in ("", "spark", "http://host:8786", "tcp://", "tcp://a b:1", "tcp://::1:8786", "tcp://[::1"):
        with pytest.raises(ClusterError, match="expected local, dask or a Dask scheduler address"):
            check_cluster(bad)
    for port in ("0", "65536", "99999"):
        with pytest.raises(ClusterError, match=f"the port of 'tcp://h:{port}' is not a port"):
            check_cluster(f"tcp://h:{port}")


def test_the_environment_sets_the_executor(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(pool.CLUSTER_ENV, "bogus")
    with pytest.raises(ClusterError, match="TEMPLEFORGE_CLUSTER: expected local, dask .* got 'bogus'"):
        with cluster(None):
            pass
    monkeypatch.setenv(pool.CLUSTER_ENV, "local")
    with cluster(None) as chosen:
        assert chosen == "local" and pool.current_cluster() == "local"


def test_dask_without_the_extra_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if not installed
    with pytest.raises(ClusterError, match=r"pip install -e '\.\[cluster\]'"):
        with cluster("dask"):
            pass
    assert pool.current_cluster() == "local"


def test_dask_gives_the_local_results_in_order() -> None:
    with Pool(2) as local:
        expected = local.map(square, "s", range(23), 3)
    with cluster("dask"):
        with Pool(2) as spread:
            assert spread.workers == 2
            got = spread.map(square, "s", range(23), 3)
        assert each(lambda deck, item: (deck, item * 2), "d", list(range(9)), 2) == \
            [("d", i * 2) for i in range(9)]
        with Pool(2) as spread:
            assert spread.map(nested, "n", range(4)) == [[("n", i), ("n", i + 1)] for i in range(4)]
    assert [g[:2] for g in got] == [e[:2] for e in expected] == [("s", i * i) for i in range(23)]
    assert all(g[2] for g in got)  # made in a worker
    assert pool.current_cluster() == "local"


def test_a_killed_worker_is_retried_with_the_same_results(tmp_path: Path) -> None:
    marker = str(tmp_path / "killed")
    with cluster("dask"):
        with Pool(2) as spread:
            got = spread.map(dies_once, marker, range(12), 2)
    assert Path(marker).exists()  # a worker did die
    assert got == [i * 3 for i in range(12)]


def test_an_address_that_does_not_answer_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "CONNECT_TIMEOUT", "1s")
    with cluster("tcp://127.0.0.1:9"):
        with pytest.raises(ClusterError, match="no Dask scheduler answers at tcp://127.0.0.1:9"):
            Pool(2)


def _listener(greeting: bytes | None) -> tuple[str, Any]:
    """A local listener that accepts connections and sends ``greeting`` (None: nothing),
    then holds the connection open; its address and its socket (close it when done)."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def serve() -> None:
        held = []
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            held.append(conn)
            if greeting is not None:
                conn.sendall(greeting)

    threading.Thread(target=serve, daemon=True).start()
    return f"tcp://127.0.0.1:{server.getsockname()[1]}", server


@pytest.mark.parametrize("greeting, said", [
    (None, "says nothing"),
    (b"\xff" * 64, "does not speak Dask's protocol"),  # read as a frame, exabytes long
    (b"HTTP/1.1 400 Bad Request\r\n\r\n", "does not speak Dask's protocol"),
])
def test_a_listener_that_is_not_a_scheduler_is_one_line(greeting: bytes | None, said: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "PROBE_SECONDS", 1.0)
    address, server = _listener(greeting)
    try:
        with cluster(address):
            with pytest.raises(ClusterError, match=f"no Dask scheduler answers at {address}: .*{said}"):
                Pool(2)
    finally:
        server.close()


def test_a_closed_port_is_one_line() -> None:
    import socket

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    with cluster(f"tcp://127.0.0.1:{port}"):
        with pytest.raises(ClusterError, match=f"no Dask scheduler answers at tcp://127.0.0.1:{port}: .*refused"):
            Pool(2)


def test_a_garbage_listener_through_the_command_is_exit_2_without_a_traceback(tmp_path: Path) -> None:
    """The reported failure: a listener sending garbage made Dask's client try to allocate
    exabytes and exit 70 with a Client.__del__ traceback."""
    import subprocess

    address, server = _listener(b"\xff" * 64)
    try:
        run = subprocess.run([sys.executable, "-m", "templeforge", "generate", "puzzle-temple", "--cards", "2",
                              "--cluster", address, "--out", str(tmp_path / "deck.json")],
                             capture_output=True, text=True, timeout=300)
    finally:
        server.close()
    assert run.returncode == 2, run.stderr
    assert run.stderr.strip().splitlines() == [
        f"templeforge: error: --cluster: no Dask scheduler answers at {address}: something listens there but "
        f"does not speak Dask's protocol"]
    assert list(tmp_path.iterdir()) == []


def test_an_existing_cluster_is_used_and_left_running() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0") as running:
        with cluster(running.scheduler_address):
            with Pool(2) as spread:
                got = spread.map(square, "t", range(7), 2)
        assert [g[:2] for g in got] == [("t", i * i) for i in range(7)]
        with distributed.Client(running, set_as_default=False) as client:  # still up, its workers too
            assert len(client.scheduler_info()["workers"]) == 2


def sleeps(seconds: float, index: int) -> int:
    import time

    time.sleep(seconds)
    return index


def test_an_interrupted_pool_ends_its_workers_at_once() -> None:
    """Ctrl-C (or SIGTERM) inside a pool: the workers running long tasks are killed and
    reaped as the block ends, rather than waited for (a command once waited ten minutes on
    them after printing "interrupted")."""
    import time

    with pytest.raises(KeyboardInterrupt):
        with Pool(2) as spread:
            executor = spread._executor
            assert executor is not None
            tasks = [executor.submit(sleeps, 3600.0, i) for i in range(2)]
            while not all(t.running() for t in tasks):  # however long a busy machine takes
                time.sleep(0.01)
            workers = list(executor._processes.values())  # type: ignore[attr-defined]
            raise KeyboardInterrupt
    assert workers and not any(_running(w.pid) for w in workers)


def _running(pid: int | None) -> bool:
    """Whether a process still runs (gone, or a zombie waiting to be reaped by whichever
    thread gets to it first, is not running). Linux's /proc tells."""
    stat = Path(f"/proc/{pid}/stat")
    try:
        state = stat.read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_a_killed_local_worker_is_replaced_with_the_same_results(tmp_path: Path) -> None:
    marker = str(tmp_path / "killed")
    with Pool(2) as spread:
        got = spread.map(dies_once, marker, range(12), 2)
    assert Path(marker).exists()  # a worker did die
    assert got == [i * 3 for i in range(12)]


def always_dies(spec: str, index: int) -> int:
    os._exit(1)


def test_workers_that_keep_dying_are_a_clear_error() -> None:
    with Pool(2) as spread:
        with pytest.raises(pool.WorkerLost, match="a worker process died 4 times"):
            spread.map(always_dies, "x", range(4))


@pytest.fixture
def stop_forgotten() -> Any:
    from generators.common import signals

    yield
    signals._asked = False


@pytest.mark.parametrize("setting", ["local", pytest.param("dask", marks=pytest.mark.slow)])
def test_a_stop_whose_interrupt_was_swallowed_still_stops_the_wait(setting: str, stop_forgotten: None) -> None:
    """A signal's ``KeyboardInterrupt`` can land in a finalizer (a Dask future's ``__del__``)
    and be swallowed there ("Exception ignored in"): a command then waited on a task of an
    hour. The request is remembered, and the wait looks at it as it goes."""
    import threading

    from generators.common.signals import ask_stop

    with cluster(setting):
        with pytest.raises(KeyboardInterrupt):
            with Pool(2) as spread:
                threading.Timer(0.3, ask_stop).start()  # the handler ran; its interrupt went nowhere
                spread.map(sleeps, 3600.0, range(2))


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="needs two cores for a pool of two")
def test_a_small_request_runs_in_this_process_with_the_same_results() -> None:
    small, large = pool.SMALL_REQUEST - 1, pool.SMALL_REQUEST
    with Pool(2, tasks=small) as here:
        assert here.workers == 1
        done = here.map(square, "s", range(small))
    with Pool(2, tasks=large) as spread:
        assert spread.workers == 2
        apart = spread.map(square, "s", range(small))
    assert [d[:2] for d in done] == [a[:2] for a in apart]
    assert not any(d[2] for d in done) and all(a[2] for a in apart)
