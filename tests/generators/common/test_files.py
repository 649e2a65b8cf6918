"""Atomic writes and output paths."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from generators.common.files import OutputError, output_path, write_atomic


def test_an_atomic_write_honours_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        path = write_atomic(tmp_path / "a.json", "{}\n")
        assert stat.S_IMODE(path.stat().st_mode) == 0o644
        os.umask(0o077)
        assert stat.S_IMODE(write_atomic(tmp_path / "b.json", b"x").stat().st_mode) == 0o600
    finally:
        os.umask(old)
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_folder_means_the_default_file_in_it(tmp_path: Path) -> None:
    assert output_path(tmp_path, "deck.json") == tmp_path / "deck.json"
    assert output_path(f"{tmp_path}/new/", "deck.json") == tmp_path / "new" / "deck.json"
    assert not (tmp_path / "new").exists()  # nothing made before the work is done
    assert output_path(tmp_path / "mine.json", "deck.json") == tmp_path / "mine.json"


def test_paths_that_cannot_be_written_fail_before_any_work(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(OutputError, match="is not a folder"):
        output_path(blocker / "deck.json", "deck.json")
    with pytest.raises(OutputError, match="empty"):
        output_path("", "deck.json")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(OutputError, match="not a regular file"):
        output_path(fifo, "deck.json")


def test_a_failed_write_names_the_path_and_leaves_nothing(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(OutputError, match="cannot write"):
        write_atomic(blocker / "deck.json", "{}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_several_files_are_written_all_or_none(tmp_path: Path) -> None:
    from generators.common.files import OutputError, write_files

    (tmp_path / "a.txt").write_text("old a")
    (tmp_path / "z").write_text("a file where a folder is wanted")
    with pytest.raises(OutputError, match=r"z/b.txt: cannot write"):
        write_files(tmp_path, {"a.txt": b"new a", "z/b.txt": b"b"})
    assert (tmp_path / "a.txt").read_text() == "old a", "nothing of the set changed"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "z"], "no temporary file left"
    assert [p.name for p in write_files(tmp_path, {"a.txt": b"new a", "c/d.txt": b"d"})] == ["a.txt", "d.txt"]
    assert (tmp_path / "a.txt").read_text() == "new a"


def test_a_full_disk_is_its_own_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno
    import os

    from generators.common import files

    real = os.fdopen

    class Full:
        def __init__(self, fd: int, mode: str) -> None:
            self.f = real(fd, mode)

        def __enter__(self) -> Full:
            return self

        def __exit__(self, *exc: object) -> None:
            self.f.close()

        def write(self, data: bytes) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "fdopen", Full)
    with pytest.raises(files.CannotWrite, match="deck.json: cannot write: No space left on device"):
        files.write_atomic(tmp_path / "deck.json", "{}")
    assert list(tmp_path.iterdir()) == []


def test_a_signal_between_a_temporary_file_and_its_clean_up_leaves_nothing(tmp_path: Path) -> None:
    """A temporary file is on record from the moment it exists until it is renamed or
    removed, so a command stopped by a signal that fell between the two removes it."""
    from generators.common import files

    before = set(files._PENDING)
    tmp = files._staged(tmp_path / "b.json", "{}")  # the signal comes here: never renamed
    assert Path(tmp).exists() and tmp in files._PENDING
    files.discard_pending()
    assert not list(tmp_path.iterdir()) and files._PENDING <= before
    written = files.write_files(tmp_path, {"c.json": b"{}", "d/e.json": b"[]"})
    assert [p.name for p in written] == ["c.json", "e.json"] and not files._PENDING - before


@pytest.mark.parametrize("lands", ["before the file is made", "as it is made"])
def test_a_signal_as_a_temporary_file_is_made_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              lands: str) -> None:
    """Holding signals back holds them for one thread only: in a command with a worker
    pool's threads the handler runs at once, even between making a temporary file and
    recording it. The name is recorded first, so nothing is left either way (a ``mine``
    interrupted as it wrote a chunk once left ``.chunk-000005.parquet.*.tmp``)."""
    from generators.common import files

    real = os.open

    def interrupted(name: str, flags: int, mode: int = 0o777) -> int:
        if lands == "as it is made":
            os.close(real(name, flags, mode))
        raise KeyboardInterrupt

    before = set(files._PENDING)
    monkeypatch.setattr(files.os, "open", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(tmp_path / "chunk.parquet", b"rows")
    monkeypatch.undo()
    files.discard_pending()  # as the command does on its way out
    assert not list(tmp_path.iterdir()) and files._PENDING <= before
