"""What a build may touch: only what it made, never through a symlink, one build at a time.

A build replaces ``OUT/<game>/`` whole (through ``OUT/.<game>.partial/`` and
``OUT/.<game>.old/``), so before it touches anything it checks those three places:

- none of them, and nothing inside them, is a symlink (a build never follows one, and
  never hands one to ``rmtree``);
- every file in the game's folder is one the previous build made: listed in its
  ``manifest.json`` (with ``manifest.json`` and ``build.json`` themselves). A folder with no
  manifest (the ``generate``, ``pdf`` and ``cad`` commands write there too) may hold only
  the kinds of file those commands make, in the places they make them;
- ``.old`` holds a previous build (a build stopped between its two renames), or nothing;
  ``.partial`` holds only what a killed build left (no symlink).

Anything else is the designer's: the build refuses, naming the first such file (exit 2),
and ``--force`` does not change that. ``locked`` keeps a second build out of the same
``OUT`` while one runs (``OUT/.templeforge.lock``, released on every exit path, and by the
system if the process is killed).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from generators.common.files import CannotWrite, OutputError

LOCK = ".templeforge.lock"
MANIFEST = "manifest.json"
STATE = "build.json"

#: Without a manifest: the files the generate, pdf and cad commands write in a game's folder
#: (beside the game's own deck and PDFs, which the caller names).
MADE_BY_COMMANDS = (
    r"previews/[A-Za-z0-9_.-]+\.png",
    r"models/(stl/[A-Za-z0-9_.-]+\.stl|(ams|no-ams)/plate-\d+\.3mf|previews/((ams|no-ams)/)?[A-Za-z0-9_.-]+\.png"
    r"|gcode/plate-\d+\.gcode|(ams|no-ams)-all-plates(-\d+)?\.3mf|bom\.csv|sliced\.csv)",
)


def places(out: Path, game: str) -> tuple[Path, Path, Path]:
    """The game's folder, its partial build and the previous build set aside."""
    return out / game, out / f".{game}.partial", out / f".{game}.old"


def _files(folder: Path) -> Iterator[tuple[str, Path]]:
    """Every entry under ``folder`` (not following links): (relative path, path); a
    symlink, anywhere, is refused."""
    for root, dirs, names in os.walk(folder, followlinks=False):
        here = Path(root)
        for name in sorted(dirs + names):
            path = here / name
            if path.is_symlink():
                raise OutputError(f"{path}: a symlink where a build writes: a build never follows one; remove it "
                                  f"or choose another --out")
        for name in sorted(names):
            path = here / name
            yield path.relative_to(folder).as_posix(), path
        dirs.sort()


def manifest_files(folder: Path) -> set[str] | None:
    """The files a build's ``manifest.json`` lists (and the manifest and ``build.json``), or
    None when the folder has no readable manifest."""
    try:
        data = json.loads((folder / MANIFEST).read_text("utf-8"))
        listed = {str(f["path"]) for f in data["files"]}
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return listed | {MANIFEST, STATE}


def foreign(folder: Path, own_names: Iterable[str]) -> list[str]:
    """The files in ``folder`` a build did not make, sorted (see the module docstring)."""
    listed = manifest_files(folder)
    patterns = [re.compile(p) for p in MADE_BY_COMMANDS]
    top = set(own_names)
    out = []
    for name, _ in _files(folder):
        if listed is not None:
            mine = name in listed
        else:
            mine = name in top or any(p.fullmatch(name) for p in patterns)
        if not mine:
            out.append(name)
    return out


def check(out: Path, game: str, own_names: Iterable[str]) -> None:
    """Refuse a build of ``game`` into ``out`` that would lose a file it did not make or
    follow a symlink (see the module docstring).

    Raises:
        OutputError: naming the first such path.
    """
    folder, partial, old = places(out, game)
    for place in (folder, partial, old):
        if place.is_symlink():
            raise OutputError(f"{place}: a symlink where a build writes: a build never follows one; remove it or "
                              f"choose another --out")
        if place.exists() and not place.is_dir():
            raise OutputError(f"{place}: cannot build there: it is a file, not a folder")
    names = list(own_names)
    for place, what in ((folder, "the build"), (old, "the previous build")):
        if place.is_dir():
            strange = foreign(place, names)
            if strange:
                more = f" (and {len(strange) - 1} more)" if len(strange) > 1 else ""
                raise OutputError(f"{place / strange[0]}{more}: not made by {what}, and a build replaces "
                                  f"{place}/ whole: move it away or choose another --out")
    if partial.is_dir():
        for _ in _files(partial):  # a killed build's leftovers: no symlink among them
            pass


@contextmanager
def locked(out: Path) -> Iterator[None]:
    """Hold ``out`` for this build: a second build into the same folder is refused while
    this one runs.

    Raises:
        OutputError: another build holds it (naming its process).
    """
    import fcntl

    out.mkdir(parents=True, exist_ok=True)
    path = out / LOCK
    if path.is_symlink():
        raise OutputError(f"{path}: a symlink where a build writes: a build never follows one")
    fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "another process"
            raise OutputError(f"{out}: another build is writing there (process {holder}); wait for it to finish or "
                              f"choose another --out") from None
        try:
            same = os.fstat(fd).st_ino == os.stat(path, follow_symlinks=False).st_ino
        except OSError:
            same = False
        if not same:  # the lock file was removed by a build that just finished: it was busy a moment ago
            raise OutputError(f"{out}: another build was writing there a moment ago; run again")
        try:
            try:  # the holder's process number, for a second build's message (a full disk: named, 73)
                os.ftruncate(fd, 0)
                os.pwrite(fd, str(os.getpid()).encode("ascii"), 0)
            except OSError as err:
                raise CannotWrite(f"{path}: cannot write: {err.strerror or err}") from None
            yield
        finally:
            try:
                path.unlink()
            except OSError:
                pass
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
