"""Work in a child process (``templeforge.apart``): what it returns and raises reaches the
command whole, its progress is passed on, and the command can end it at once, whatever the
child is doing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from typing import Any

import pytest

from generators.common.errors import RequestError, Shortfall, Unproved
from templeforge import stopping
from templeforge.apart import Apart, WorkDied, run_apart


def counts(n: int, progress: Any) -> int:
    for i in range(n):
        progress(i + 1, n, f"part {i + 1}")
    return n * n


def fails(kind: str, progress: Any) -> None:
    raise {"unproved": Unproved("card 3 face 2 has no solution", 1),
           "request": RequestError(["cards: at least 1", "seed: an integer"]),
           "shortfall": Shortfall("only 5 of 9 cards", 5, 9),
           "unpicklable": _Unpicklable()}[kind]


class _Unpicklable(Exception):
    def __init__(self) -> None:
        super().__init__("a lock cannot travel")
        import threading

        self.lock = threading.Lock()


def dies(progress: Any) -> None:
    progress("started")
    os._exit(9)


def waits(progress: Any) -> None:
    progress(os.getpid())
    while True:
        time.sleep(1)


def test_the_value_and_every_progress_call_reach_the_command() -> None:
    heard: list[tuple[Any, ...]] = []
    assert run_apart(counts, 4, progress=lambda *said: heard.append(said)) == 16
    assert heard == [(1, 4, "part 1"), (2, 4, "part 2"), (3, 4, "part 3"), (4, 4, "part 4")]


@pytest.mark.parametrize("kind", ["unproved", "request", "shortfall"])
def test_the_works_own_errors_reach_the_command_whole(kind: str) -> None:
    with pytest.raises((Unproved, RequestError, Shortfall)) as raised:
        run_apart(fails, kind)
    err = raised.value
    if kind == "unproved":
        assert isinstance(err, Unproved) and err.status == 1 and str(err) == "card 3 face 2 has no solution"
    elif kind == "request":
        assert isinstance(err, RequestError) and err.problems == ("cards: at least 1", "seed: an integer")
    else:
        assert isinstance(err, Shortfall) and (err.made, err.wanted) == (5, 9)


def test_an_error_that_cannot_travel_arrives_as_its_words() -> None:
    with pytest.raises(RuntimeError, match="_Unpicklable: a lock cannot travel"):
        run_apart(fails, "unpicklable")


def test_a_child_that_dies_is_named_not_waited_for() -> None:
    with pytest.raises(WorkDied, match="died"):
        run_apart(dies)


def test_the_child_ignores_ctrl_c_and_is_ended_at_once_by_the_command() -> None:
    pids: list[int] = []
    with Apart(waits, progress=pids.append) as running:
        while not pids:
            running.pump(0.1)
        os.kill(pids[0], signal.SIGINT)  # a terminal's Ctrl-C reaches the child too: the command decides
        assert not running.pump(0.2)  # still working
        running.kill()
    with pytest.raises(ProcessLookupError):
        os.kill(pids[0], 0)


def test_sigterm_ends_the_child_at_once() -> None:
    """A process group's SIGTERM ends the child (and its own pool's workers) with the
    command: nothing is left alive to start a replacement worker."""
    pids: list[int] = []
    with Apart(waits, progress=pids.append) as running:
        while not pids:
            running.pump(0.1)
        os.kill(pids[0], signal.SIGTERM)
        with pytest.raises(WorkDied, match=r"status -15"):
            running.result()


def test_a_librarys_error_for_an_interrupt_inside_it_is_an_interruption() -> None:
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise ImportError("initialization failed")  # noqa: B904 - as numpy's import does
    except ImportError as err:
        assert stopping.interrupted(err)
    assert not stopping.interrupted(ImportError("no module named x"))


def _dispositions(_: Any = None) -> tuple[int, int]:
    return int(signal.getsignal(signal.SIGINT)), int(signal.getsignal(signal.SIGTERM))


def test_pool_workers_leave_ctrl_c_to_the_command_and_end_on_sigterm() -> None:
    """A pool ends its workers with SIGTERM (``terminate``, a broken pool) and then waits for
    them: a worker that ignored it would be waited for for ever (a build hung so)."""
    import multiprocessing
    import threading

    from generators.common import pool as pools
    from templeforge.pipeline import stages

    workers = multiprocessing.get_context("spawn").Pool(2, initializer=stages._start_worker, initargs=(os.getpid(),))
    assert set(workers.map(_dispositions, range(4))) == {(int(signal.SIG_IGN), int(signal.SIG_DFL))}
    ending = threading.Thread(target=lambda: (workers.terminate(), workers.join()), daemon=True)
    ending.start()
    ending.join(timeout=120)  # a hang guard, not a timing: it ends at once or never
    assert not ending.is_alive(), "the pool's workers ignored SIGTERM"
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(1, initializer=pools._quiet_worker) as executor:
        assert executor.submit(_dispositions).result() == (int(signal.SIG_IGN), int(signal.SIG_DFL))


def test_a_child_whose_parent_died_while_it_started_ends_at_once() -> None:
    """A pool replaces the workers a group's SIGTERM ended; a replacement that starts after
    its pool's process was killed would take the system's reaper for its parent and wait for
    work for ever. Given the parent that started it, it sees the difference and ends."""
    import subprocess
    import sys

    code = ("import os, time\nfrom templeforge.apart import watch_parent\n"
            "watch_parent(os.getppid() + 100000)\ntime.sleep(30)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert done.returncode == 1  # it ended on seeing its parent gone: its sleep would end with 0
    code = ("import os, sys, time\nfrom templeforge.apart import watch_parent\n"
            "watch_parent(os.getppid())\nprint('watching')\n")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60).stdout == "watching\n"



def holds(marker: str, progress: Any) -> None:
    """Starts something of its own with signals held back, as the 3D stage starts its pool."""
    from generators.common.signals import held

    with held():
        progress("holding")
        time.sleep(0.5)
        with open(marker, "w") as f:
            f.write("started")
    while True:
        time.sleep(1)


def test_the_command_ends_the_child_once_it_has_started_what_it_was_starting(tmp_path) -> None:
    """A child killed outright while it wrote a starting worker's first message left that
    worker to print ``EOFError: Ran out of input`` after the command's last line: the
    command's end waits for a start the child holds signals back for (and no thread of the
    child takes the signal in its place)."""
    marker = tmp_path / "started"
    heard: list[Any] = []
    with Apart(holds, str(marker), progress=heard.append) as running:
        while not heard:
            running.pump(0.1)
        running.kill()
    assert marker.read_text() == "started"


def test_an_interrupt_in_a_finaliser_is_remembered_not_printed() -> None:
    """Ctrl-C that lands in a finaliser (a Dask future's ``__del__``) cannot be raised on;
    the command remembers it as a stop and prints no stray "Exception ignored" traceback."""
    code = (
        "import gc, sys\n"
        "from templeforge import stopping\n"
        "from generators.common.signals import stop_asked\n"
        "stopping.install()\n"
        "class F:\n"
        "    def __del__(self):\n"
        "        raise KeyboardInterrupt\n"
        "class G:\n"
        "    def __del__(self):\n"
        "        raise ValueError('kept')\n"
        "F(); G(); gc.collect()\n"
        "print(stop_asked())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
    assert "KeyboardInterrupt" not in out.stderr
    assert "ValueError: kept" in out.stderr  # other finaliser errors are printed as before
