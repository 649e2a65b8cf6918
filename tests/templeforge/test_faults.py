"""Faults around a real build process (``-m slow``): SIGKILL, SIGINT and SIGTERM at moments
drawn with a fixed seed, a tiny full disk (a 3 MiB tmpfs; skipped where it cannot be
mounted), and stage files changed behind the build's back. After each: nothing of the
previous kit is lost, nothing half-written is left, the status is the documented one, no
worker outlives the command, and the next build is byte for byte what a clean build makes.

The builds are Toy Tally's (``python -m tests.toygame``: the real command line with the
toy game registered): every stage runs, with a worker pool and CadQuery, in about 13 s.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from templeforge.cli import EXIT

pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[2]
GAME = "toy-tally"
PROFILE = '[generate]\ncards = 4\nseed = {seed}\n[cad]\nprofile = "both"\n'

#: How many moments each signal is sent at (drawn from SEED, to the group or the main process
#: alone): SIGKILL's are followed by a build that must repair what the kill left.
DRAWS = {signal.SIGKILL: 4, signal.SIGINT: 2, signal.SIGTERM: 2}
SEED = 29


def toy(*args: str, cwd: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "tests.toygame", *args], cwd=cwd, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)


def build(out: Path, seed: int, *extra: str) -> subprocess.Popen[str]:
    profile = out.parent / f"toy-{seed}.toml"
    profile.write_text(PROFILE.format(seed=seed))
    # relative paths: the command the manifest and report record is the same in every folder
    return toy("build", "--game", GAME, "--profile", profile.name, "--out", out.name, "--jobs", "2", *extra,
               cwd=out.parent)


def finished(proc: subprocess.Popen[str], timeout: float = 240) -> tuple[int, str]:
    _, err = proc.communicate(timeout=timeout)
    return proc.returncode, err


def files(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def as_built(folder: Path) -> dict[str, str]:
    """A finished build's files (its times, in build.json, aside), each matching its manifest."""
    have = files(folder)
    listed = {f["path"]: f["sha256"] for f in json.loads((folder / "manifest.json").read_text())["files"]}
    assert {k: v for k, v in have.items() if k not in ("manifest.json", "build.json")} == listed
    return {k: v for k, v in have.items() if k != "build.json"}


def no_process_left(proc: subprocess.Popen[str]) -> None:
    """Nothing of the command's session (its workers) is still running."""
    for _ in range(50):
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGKILL)
    pytest.fail("a worker outlived the command")


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> dict[int, dict[str, str]]:
    """What a clean build of each seed makes."""
    out = {}
    for seed in (1, 2):
        where = tmp_path_factory.mktemp(f"clean-{seed}") / "out"
        status, err = finished(build(where, seed))
        assert status == 0, err
        out[seed] = as_built(where / GAME)
    return out


def test_signals_at_random_moments_lose_nothing(clean: dict[int, dict[str, str]], tmp_path: Path) -> None:
    rng = random.Random(SEED)
    # each signal to the whole group (a terminal, a service manager) or to the main process alone
    moments = [(sig, rng.uniform(0.5, 14.0), rng.random() < 0.5) for sig, n in DRAWS.items() for _ in range(n)]
    out = tmp_path / "out"
    folder = out / GAME
    status, err = finished(build(out, 1))
    assert status == 0, err
    (folder / "models" / "stl").mkdir(exist_ok=True)
    for sig, after, group in moments:
        before = as_built(folder)
        seed = 2 if before == clean[1] else 1  # the other deck: every stage has work to do
        proc = build(out, seed)
        time.sleep(after)
        if proc.poll() is None:
            (os.killpg if group else os.kill)(proc.pid, sig)
        status, err = finished(proc)
        no_process_left(proc)  # the workers of a process killed alone end too
        what = f"{sig.name} to the {'group' if group else 'main process'} after {after:.1f} s"
        if status == 0:  # it finished first
            assert as_built(folder) == clean[seed], what
            continue
        if sig == signal.SIGKILL:
            assert status == -signal.SIGKILL, (what, err)
            # the previous kit is in place, or set aside between the two renames, or (a kill after the
            # new one was put in place) the new one whole
            kept = folder if folder.exists() else out / f".{GAME}.old"
            assert as_built(kept) in (before, clean[seed]), what
            status, err = finished(build(out, seed))
            assert status == 0, (what, err)
            assert as_built(folder) == clean[seed], f"{what}: the next build differs from a clean one"
        else:
            assert status == EXIT["interrupted"], (what, err)
            assert "interrupted" in err.strip().splitlines()[-1], (what, err)
            # the previous kit, or (a signal in the instant after the new one was put in place) the new one whole
            assert as_built(folder) in (before, clean[seed]), what
        assert not (out / f".{GAME}.partial").exists(), what
        assert not (out / f".{GAME}.old").exists() or sig == signal.SIGKILL, what


def test_a_stage_file_changed_behind_the_builds_back_is_made_again(clean: dict[int, dict[str, str]],
                                                                   tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert finished(build(out, 1))[0] == 0
    folder = out / GAME
    plate = folder / "models" / "ams" / "plate-01.3mf"
    plate.write_bytes(plate.read_bytes()[:100])  # a file cut short (a crash, a disk error)
    (folder / "cards.pdf").write_bytes(b"%PDF-1.4 not the deck's cards")
    status, err = finished(build(out, 1))
    assert status == 0, err
    assert as_built(folder) == clean[1]
    # a tampered deck (one dot more than its cells) is never carried into paper or plastic
    deck = json.loads((folder / "deck.json").read_text())
    deck["cards"][0]["dots"] += 1
    (folder / "deck.json").write_text(json.dumps(deck, indent=1))
    status, err = finished(build(out, 1))
    assert status == 0, err
    assert as_built(folder) == clean[1], "the deck is made again, sealed, and printed from"


@pytest.fixture
def tiny_disk(tmp_path: Path):  # type: ignore[no-untyped-def]
    where = tmp_path / "disk"
    where.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(where)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(disk: Path, leave: int) -> None:
    """Fill ``disk`` but for ``leave`` bytes."""
    st = os.statvfs(disk)
    free = st.f_bavail * st.f_frsize
    with open(disk / "filler", "wb") as f:
        f.write(b"\0" * max(0, free - leave))


def test_a_full_disk_keeps_the_previous_kit_and_names_the_file(clean: dict[int, dict[str, str]],
                                                               tiny_disk: Path) -> None:
    out = tiny_disk / "out"
    status, err = finished(build(out, 1))
    assert status == 0, err
    size = sum(p.stat().st_size for p in (out / GAME).rglob("*") if p.is_file())
    fill(tiny_disk, size // 2)  # room for half a kit beside the previous one
    proc = build(out, 2)
    status, err = finished(proc)
    no_process_left(proc)
    assert status == EXIT["cannot write"], err
    line = err.strip().splitlines()[-1]
    assert "cannot write " in line and "keeps the previous build" in line, line
    assert as_built(out / GAME) == clean[1]
    assert sorted(p.name for p in out.iterdir()) == [GAME], "no partial build, no lock left"


@pytest.mark.parametrize("command", ["pdf", "cad", "generate"])
def test_a_full_disk_leaves_nothing_half_written_by_a_command(tiny_disk: Path, command: str) -> None:
    deck = ROOT / "tests" / "data" / "puzzle-temple-3-seed-11.json"
    out = tiny_disk / "out"
    fill(tiny_disk, 40_000)
    if command == "generate":
        args = ["generate", "puzzle-temple", "--cards", "40", "--seed", "1", "--out", str(out / "deck.json")]
    else:
        args = [command, str(deck), "--out", str(out)]
    proc = toy(*args, cwd=tiny_disk.parent)
    status, err = finished(proc, timeout=600)
    no_process_left(proc)
    if status == 0:  # it fitted: nothing to check but that it is whole
        pytest.skip(f"{command} fitted in 40 kB")
    assert status == EXIT["cannot write"], err
    assert "cannot write" in err.strip().splitlines()[-1]
    left = [p.name for p in tiny_disk.rglob("*") if p.is_file() and p.name != "filler"]
    assert not [n for n in left if n.startswith(".") or n.endswith((".tmp", ".part"))], left


@pytest.mark.parametrize("group", [True, False], ids=["group", "main"])
@pytest.mark.parametrize("cluster", ["local", "dask"])
def test_mine_stops_on_ctrl_c_keeping_its_finished_chunks(tmp_path: Path, cluster: str, group: bool) -> None:
    from generators.common import mine

    out = tmp_path / "c.parquet"
    parts = out.with_name("c.parquet.parts")
    proc = subprocess.Popen([sys.executable, "-m", "templeforge", "mine", "puzzle-temple", "--blocks-per-face", "3",
                             "--box", "5x4", "--out", str(out), "--cluster", cluster, "--workers", "2"],
                            cwd=tmp_path, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    for _ in range(600):  # until a few chunks are done
        if len(list(parts.glob("chunk-*.sha256"))) >= 3 or proc.poll() is not None:
            break
        time.sleep(0.05)
    if group:
        os.killpg(proc.pid, signal.SIGINT)
    else:
        os.kill(proc.pid, signal.SIGINT)
    status, err = finished(proc, timeout=120)
    no_process_left(proc)
    assert status == EXIT["interrupted"], err
    assert err.strip().splitlines() == ["templeforge: interrupted"], err  # no worker's traceback
    assert not out.exists() and not [p for p in tmp_path.rglob(".*") if p.is_file()]
    hashed = sorted(parts.glob("chunk-*.sha256"))  # (a chunk stopped before its hash is mined again)
    assert len(hashed) >= 3
    ident = json.loads((parts / "plan.json").read_text("utf-8"))  # the request the hashes are bound to
    for done in hashed:
        assert mine._kept(parts, int(done.stem.split("-")[1]), ident) is not None, done.name
