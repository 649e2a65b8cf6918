"""Writing output files so that a failure never leaves half a file behind.

Every file Templeforge writes goes to a temporary name in the target folder first and is
renamed into place once complete (a rename within one folder is atomic on POSIX and
Windows), so a reader sees the old file or the new one, never a mixture. The finished file
gets the permissions an ordinary ``open(path, "w")`` would give it (the umask is honoured).

``output_path`` settles where a command will write before any work starts: a folder (an
existing one, or a path ending in ``/``) means a file of the command's default name in it,
and a path that cannot be written is an error at once.
"""

from __future__ import annotations

import errno
import os
import secrets
from collections.abc import Callable
from pathlib import Path

from generators.common.signals import held
from solver.errors import TempleforgeError


class OutputError(TempleforgeError, ValueError):
    """An output path that cannot be written; the message names it and says why."""


class CannotWrite(OutputError):
    """An output file that could not be written part-way (a full disk, a read-only or failing
    file system): the command's own status (73), not bad input; the message names the file."""


#: What makes an output file fail mid-way rather than a path that was wrong from the start.
WRITING = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO, errno.EFBIG}


def _failed(path: Path, err: OSError) -> OutputError:
    kind = CannotWrite if err.errno in WRITING else OutputError
    return kind(f"{path}: cannot write: {err.strerror or err}")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: str | Path, data: str | bytes) -> Path:
    """Write ``data`` (text is UTF-8 with ``\\n`` line ends) to ``path`` via a temporary
    file in the same folder, creating the folder if needed. Returns the path written.

    Raises:
        OutputError: the folder or file cannot be written (no permission, ...);
            ``CannotWrite`` when it fails part-way (a full disk, ...).
    """
    path = Path(path)
    _rename(_staged(path, data), path)
    return path


def write_atomic_with(path: str | Path, write: Callable[[str], None]) -> Path:
    """``write(name)`` fills a temporary file beside ``path`` (a writer that streams, such as
    Parquet's), renamed into place once it returns; nothing is left behind when it fails."""
    path = Path(path)
    _rename(_staged_with(path, write), path)
    return path


#: Temporary files this process has made and not yet renamed into place or removed: a
#: command stopped by a signal removes them (``discard_pending``). A name is recorded before
#: its file is made (``_claimed``), so no signal falls between a file and its record.
_PENDING: set[str] = set()


def _drop(tmp: str) -> None:
    Path(tmp).unlink(missing_ok=True)
    _PENDING.discard(tmp)


def discard_pending() -> None:
    """Remove every temporary file this process began and did not finish: called as a
    command stops on a signal, which may have come between a file and its clean-up."""
    for tmp in sorted(_PENDING):
        _drop(tmp)


def _rename(tmp: str, path: Path) -> None:
    try:
        with held():
            os.replace(tmp, path)
            _PENDING.discard(tmp)
    except OSError as err:  # a folder in the way, ...: the temporary file goes
        _drop(tmp)
        raise _failed(path, err) from None


def _staged(path: Path, data: str | bytes) -> str:
    """``data`` written to a temporary file beside ``path`` (its name returned); nothing is
    left behind when that fails."""
    raw = data.encode("utf-8") if isinstance(data, str) else data

    def fill(name: str) -> None:
        with os.fdopen(os.open(name, os.O_WRONLY | os.O_TRUNC), "wb") as out:
            out.write(raw)

    return _staged_with(path, fill)


def _claimed(path: Path) -> str:
    """A new empty temporary file beside ``path``, its name on record before the file exists.

    ``held`` holds signals back for this thread only: in a process with other threads (a
    worker pool's) the interpreter still runs the handler in this thread at once, so a
    signal can fall anywhere. Recorded first, the name is removed by ``discard_pending``
    whether the file was made or not (``tempfile.mkstemp`` names the file only once it
    exists, too late)."""
    while True:
        tmp = str(path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp")
        _PENDING.add(tmp)
        try:
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            return tmp
        except FileExistsError:  # another file took the name first: not ours to remove
            _PENDING.discard(tmp)
        except BaseException:
            _drop(tmp)
            raise


def _staged_with(path: Path, write: Callable[[str], None]) -> str:
    """A temporary file beside ``path`` filled by ``write(name)`` (its name returned), with
    the permissions an ordinary write gives; nothing is left behind when that fails."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = _claimed(path)
    except OSError as err:
        raise _failed(path, err) from None
    try:
        write(tmp)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; an ordinary write honours the umask
    except OSError as err:
        _drop(tmp)
        raise _failed(path, err) from None
    except BaseException:
        _drop(tmp)
        raise
    return tmp


def output_path(out: str | Path, default_name: str) -> Path:
    """Where a command asked to write ``out`` will write, checked before any work starts.

    An existing folder, or a path written with a trailing ``/``, means ``out/default_name``.
    The file's folder must exist and be writable, or be creatable (its nearest existing
    ancestor a writable folder); an existing target must be a regular file.

    Raises:
        OutputError: the path cannot be written, naming it and why.
    """
    text = str(out)
    if not text.strip():
        raise OutputError("the output path is empty")
    path = Path(text)
    if text.endswith(("/", os.sep)) or path.is_dir():
        path = path / default_name
    if path.exists() and not path.is_file():
        raise OutputError(f"{path}: cannot write: it exists and is not a regular file")
    if path.is_file() and not os.access(path, os.W_OK):
        raise OutputError(f"{path}: cannot write: permission denied")
    ancestor = path.parent
    while not ancestor.exists():
        if ancestor.parent == ancestor:
            break
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise OutputError(f"{path}: cannot write: {ancestor} is not a folder")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise OutputError(f"{path}: cannot write: permission denied in {ancestor}")
    return path


def inside(folder: str | Path, name: str) -> Path:
    """``folder / name``, refused unless it stays inside ``folder``: ``name`` is relative,
    holds no NUL and no ``..`` part, and does not lead out through a symbolic link already
    there. Every file a command writes under its output folder goes through here, whatever
    made the name (defence in depth behind the name rule of ``solver.names``).

    Raises:
        OutputError: the name leads outside the folder, quoting it.
    """
    folder = Path(folder)
    parts = Path(name).parts
    if not name or "\x00" in name or "\\" in name or Path(name).is_absolute() or ".." in parts:
        raise OutputError(f"{folder}: refusing to write {name!r}: it leads outside the folder")
    path = folder / name
    base = folder.resolve()
    try:
        path.resolve().relative_to(base)
    except ValueError:
        raise OutputError(f"{folder}: refusing to write {name!r}: it leads outside the folder") from None
    return path


def write_files(folder: str | Path, files: dict[str, bytes]) -> list[Path]:
    """Write several files under ``folder`` (names may hold subfolders) all or none: each to
    a temporary name first, and only when every one is written are they renamed into place,
    in name order. Returns the paths written.

    Raises:
        OutputError: as ``write_atomic``; no file of ``files`` is then changed.
    """
    folder = Path(folder)
    targets = {name: inside(folder, name) for name in files}  # all refused before any is written
    staged: list[tuple[str, Path]] = []
    try:
        for name in sorted(files):
            staged.append((_staged(targets[name], files[name]), targets[name]))
    except BaseException:
        for tmp, _ in staged:
            _drop(tmp)
        raise
    for k, (tmp, path) in enumerate(staged):
        try:
            _rename(tmp, path)
        except BaseException:
            for rest, _ in staged[k + 1:]:
                _drop(rest)
            raise
    return [path for _, path in staged]
