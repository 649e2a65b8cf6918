"""Mining: chunks kept and resumed after a stop, damaged chunks mined again, the same bytes
on every executor, and nothing of anyone else's overwritten."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from generators import GAMES
from generators.common import corpus, mine
from generators.common.files import OutputError
from generators.common.options import resolve
from generators.common.pool import cluster

GAME = GAMES["puzzle-temple"]
MINER = GAME.load_miner()
SMALL = {"blocks_per_face": "2", "box": "4x3"}


def plan(**given: Any) -> Any:
    return MINER.plan(resolve(MINER.OPTIONS, {**SMALL, **given}).values)


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    out = tmp_path_factory.mktemp("whole") / "c.parquet"
    done = mine.run(GAME.name, MINER, plan(), out, workers=1)
    assert done.fresh and done.kept == 0 and done.rows > 100 and done.chunks == 66
    assert not mine.parts_folder(out).exists()
    return out.read_bytes()


class Stop(KeyboardInterrupt):
    pass


def stop_after(n: int) -> mine.Progress:
    def progress(done: int, total: int, rows: int, fresh: int) -> None:
        if fresh >= n:
            raise Stop
    return progress


def test_the_corpus_says_what_it_is(whole: bytes, tmp_path: Path) -> None:
    out = tmp_path / "c.parquet"
    out.write_bytes(whole)
    meta, t = corpus.read(out, GAME.name)
    assert meta["game"] == GAME.name and meta["request"]["box"] == [4, 3] and meta["rows"] == t.num_rows
    assert [c["name"] for c in meta["columns"]] == t.column_names == [c.name for c in MINER.COLUMNS]
    assert all(c["doc"] for c in meta["columns"])
    with pytest.raises(corpus.CorpusError, match="not shifting-stones"):
        corpus.read(out, "shifting-stones")


def test_a_stopped_run_resumes_to_the_same_bytes(whole: bytes, tmp_path: Path) -> None:
    out = tmp_path / "c.parquet"
    with pytest.raises(Stop):
        mine.run(GAME.name, MINER, plan(), out, workers=2, progress=stop_after(10))
    parts = mine.parts_folder(out)
    assert not out.exists() and len(list(parts.glob("chunk-*.parquet"))) >= 10
    damaged = sorted(parts.glob("chunk-*.parquet"))[3]
    damaged.write_bytes(damaged.read_bytes()[:-7] + b"garbage")
    done = mine.run(GAME.name, MINER, plan(), out, workers=1)
    assert done.kept >= 9 and done.damaged == 1
    assert out.read_bytes() == whole
    again = mine.run(GAME.name, MINER, plan(), out, workers=1)
    assert not again.fresh and again.rows == done.rows


@pytest.mark.slow
def test_dask_mines_the_same_bytes(whole: bytes, tmp_path: Path) -> None:
    out = tmp_path / "c.parquet"
    with cluster("dask"):
        mine.run(GAME.name, MINER, plan(), out, workers=2)
    assert out.read_bytes() == whole


def test_a_resume_of_another_request_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "c.parquet"
    with pytest.raises(Stop):
        mine.run(GAME.name, MINER, plan(), out, progress=stop_after(1))
    with pytest.raises(OutputError, match="holds the chunks of another request"):
        mine.run(GAME.name, MINER, plan(flips="false"), out)


def test_files_that_are_not_corpora_are_not_overwritten(whole: bytes, tmp_path: Path) -> None:
    mine_own = tmp_path / "notes.parquet"
    mine_own.write_text("my notes")
    with pytest.raises(OutputError, match="not a templeforge corpus; not overwritten"):
        mine.run(GAME.name, MINER, plan(), mine_own)
    assert mine_own.read_text() == "my notes"
    stranger = tmp_path / "x.parquet.parts"
    stranger.mkdir()
    (stranger / "thesis.tex").write_text("mine")
    with pytest.raises(OutputError, match="not a templeforge parts folder"):
        mine.run(GAME.name, MINER, plan(), tmp_path / "x.parquet")
    older = tmp_path / "older.parquet"
    older.write_bytes(whole)  # a corpus of another request is replaced
    mine.run(GAME.name, MINER, plan(box="3x3"), older)
    assert corpus.metadata(older)["request"]["box"] == [3, 3]  # type: ignore[index]


@pytest.mark.slow
def test_a_worker_killed_mid_mine_changes_nothing(whole: bytes, tmp_path: Path) -> None:
    import os
    import signal

    from generators.common import pool

    out = tmp_path / "c.parquet"
    killed: list[int] = []

    def kill_one(done: int, total: int, rows: int, fresh: int) -> None:
        if fresh >= 1 and not killed:
            pids = pool._SETTING.client.run(os.getpid)  # the LocalCluster's worker processes
            killed.append(sorted(pids.values())[0])
            os.kill(killed[0], signal.SIGKILL)

    with cluster("dask"):
        done = mine.run(GAME.name, MINER, plan(), out, workers=2, progress=kill_one)
    assert killed and done.chunks == 66
    assert out.read_bytes() == whole


def test_a_chunk_is_kept_only_in_its_own_place(whole: bytes, tmp_path: Path) -> None:
    """One chunk copied over another with its hash (the corpus came out 360 rows where there
    are 357), and a damaged chunk whose hash file was made anew for its bytes (every later
    run gave exit 70, naming nothing): both are named and mined again, the same corpus."""
    out = tmp_path / "c.parquet"
    with pytest.raises(Stop):
        mine.run(GAME.name, MINER, plan(), out, workers=1, progress=stop_after(12))
    parts = mine.parts_folder(out)
    chunk = {i: parts / f"chunk-{i:06d}" for i in range(12)}
    rows = {i: corpus.row_count(chunk[i].with_suffix(".parquet").read_bytes()) for i in range(12)}
    big, small = max(rows, key=lambda i: rows[i]), min(rows, key=lambda i: rows[i])
    assert rows[big] != rows[small]
    for suffix in (".parquet", ".sha256"):  # the bigger chunk in the smaller one's place
        chunk[small].with_suffix(suffix).write_bytes(chunk[big].with_suffix(suffix).read_bytes())
    broken = chunk[big].with_suffix(".parquet")
    broken.write_bytes(b"PAR1 not parquet PAR1")
    chunk[big].with_suffix(".sha256").write_text(corpus.digest(broken.read_bytes()) + "\n")
    done = mine.run(GAME.name, MINER, plan(), out, workers=1)
    assert done.damaged_chunks == tuple(sorted((f"chunk-{small:06d}", f"chunk-{big:06d}")))
    assert out.read_bytes() == whole


def test_no_plan_is_left_when_the_cluster_is_never_reached(tmp_path: Path) -> None:
    import socket

    from generators.common.pool import ClusterError

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    out = tmp_path / "c.parquet"
    with cluster(f"tcp://127.0.0.1:{port}"):
        with pytest.raises(ClusterError):
            mine.run(GAME.name, MINER, plan(), out, workers=2)
    assert list(tmp_path.iterdir()) == []


MINE_CHUNK = mine._mine_chunk


def dies_in_chunk_three(job: Any, index: int) -> Any:
    """A mined chunk whose worker is killed the first time (as the OOM killer would)."""
    import os

    marker = Path(os.environ["TEMPLEFORGE_TEST_MARKER"])
    if index == 3 and not marker.exists():
        marker.write_text("killed")
        os._exit(1)
    return MINE_CHUNK(job, index)


def test_a_killed_local_worker_mid_mine_changes_nothing(whole: bytes, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """It gave exit 70 ("a bug in templeforge"): the pool is started again for the rest."""
    monkeypatch.setenv("TEMPLEFORGE_TEST_MARKER", str(tmp_path / "killed"))
    monkeypatch.setattr(mine, "_mine_chunk", dies_in_chunk_three)
    out = tmp_path / "c.parquet"
    mine.run(GAME.name, MINER, plan(), out, workers=2)
    assert (tmp_path / "killed").exists() and out.read_bytes() == whole
