"""Every long-running command ends within 2 s of Ctrl-C or SIGTERM (``-m slow``): twelve
signals per command, at moments drawn from a fixed seed (from its start-up to its writing;
a draw whose command ended before its moment, or as it came, is sent again sooner, as often
as twice), each SIGINT or SIGTERM, to the whole process group (a terminal's Ctrl-C) or to the main
process alone (``kill PID``). Each must end the command with exit 130 and one last line,
``templeforge: interrupted`` (a build names the stage it stopped in), leave no process of
the command running and nothing half-written; the 2 s are measured from the signal until
no process of the command is left.

The promise is for a machine with a core to spare: on a busier one (the load average over
the cores above 1, as when this suite runs beside other work) the allowance grows in
proportion, so that the test holds on a loaded machine; ``bench/signals.py`` prints the
times themselves.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from templeforge.cli import EXIT
from tests.templeforge.signalled import LONG, PROMISE, signalled

pytestmark = pytest.mark.slow

#: Signals per command (sixteen, then twelve, until the slow tests neared CI's 30 minutes;
#: nine still send both signals both ways several times over, and ``bench/signals.py``
#: draws more).
DRAWS = 9
SEED = 11
#: A draw whose command ended before its signal is sent again this much sooner (after the
#: first 0.3 s), so that how fast the machine runs the command does not decide the count.
RETRIES = (1.0, 0.5, 0.25)


def allowance() -> float:
    """The promise, grown in proportion to how busy the machine is."""
    busy = os.getloadavg()[0] / (os.cpu_count() or 1)
    return PROMISE * max(1.0, busy)


def half_written(folder: Path) -> list[str]:
    """Files a command leaves only when it stops half-way: temporary names."""
    return [str(p.relative_to(folder)) for p in folder.rglob("*")
            if p.is_file() and (p.name.startswith(".") or p.name.endswith((".tmp", ".part")))]


@pytest.mark.parametrize("name", sorted(LONG))
def test_every_long_command_ends_within_two_seconds_of_a_signal(tmp_path: Path, name: str) -> None:
    signalled_count = 0
    for draw in range(DRAWS):
        for scale in RETRIES:  # a command quicker here than its latest moment: the same draw, sooner
            tmp = tmp_path / f"draw-{draw}-{scale}"
            tmp.mkdir()
            got = signalled(name, draw, SEED, tmp, scale)
            assert got.left == 0, f"{got.what}: a process of the command was still running 10 s later"
            if got.seconds is not None and got.status != EXIT["ok"]:
                break
            # it finished first, or the signal came as it was ending, its work done and its status
            # chosen (such a signal is ignored by design: templeforge.cli.run): it finished well
            assert got.status == EXIT["ok"], (got.what, got.err)
            assert got.seconds is None or got.seconds <= allowance(), got.what
            assert not half_written(tmp), (got.what, half_written(tmp))
        out = tmp / "out"
        if got.seconds is None or got.status == EXIT["ok"]:
            continue
        signalled_count += 1
        assert got.status == EXIT["interrupted"], (got.what, got.err)
        last = got.err.strip().splitlines()[-1]
        if name == "build":  # it names the stage it stopped in (none, before the build began)
            assert last == "templeforge: interrupted" or re.fullmatch(
                r"templeforge: toy-tally: the \w+ stage stopped: interrupted; nothing was written", last), got
        else:
            assert last == "templeforge: interrupted", (got.what, got.err)
        assert "Traceback" not in got.err, (got.what, got.err)
        assert got.seconds <= allowance(), f"{got.what}: ended {got.seconds:.2f} s after the signal"
        assert not half_written(tmp), (got.what, half_written(tmp))
        if name == "mine":  # its finished chunks are kept for the next run; the corpus is not written
            assert not (out / "corpus.parquet").exists(), got.what
        elif name == "build":  # the first build into the folder: nothing of it
            assert not out.exists() or not any(out.iterdir()), (got.what, sorted(out.iterdir()))
        else:
            assert not out.exists() or not any(p.is_file() for p in out.rglob("*")), got.what
    assert signalled_count >= DRAWS * 3 // 4, f"only {signalled_count} of {DRAWS} signals came while {name} worked"
