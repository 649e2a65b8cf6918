"""Reading the text files users hand in (puzzles, profiles, decks): one place for the limits
and the one-line messages.

Every reader raises the caller's own error class with a message that names the file:
a folder, a missing file, a file over the size limit, bytes that are not UTF-8, TOML that
does not parse or is nested too deeply.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

#: The largest text file read unless a reader says otherwise, in bytes.
MAX_BYTES = 1024 * 1024


def _size(n: int) -> str:
    return f"{n // 2**20} MiB" if n >= 2**20 else f"{n // 1024} KiB"


def read_text(path: str | Path, error: type[Exception], *, max_bytes: int = MAX_BYTES) -> str:
    """The file's text, or ``error`` naming the file and why it cannot be read."""
    path = Path(path)
    try:
        if path.is_dir():
            raise error(f"{path}: cannot read the file: it is a folder")
        if path.stat().st_size > max_bytes:
            raise error(f"{path}: cannot read the file: larger than {_size(max_bytes)}")
        return path.read_bytes().decode("utf-8")
    except OSError as err:
        raise error(f"{path}: cannot read the file: {err.strerror or err}") from None
    except UnicodeDecodeError as err:
        raise error(f"{path}: cannot read the file: not UTF-8 text (byte {err.start})") from None


def parse_toml(text: str, source: str, error: type[Exception]) -> dict[str, Any]:
    """TOML text as a dict, or ``error`` naming ``source`` (with TOML's line and column)."""
    try:
        return dict(tomllib.loads(text))
    except tomllib.TOMLDecodeError as err:
        raise error(f"{source}: not valid TOML: {err}") from None
    except RecursionError:
        raise error(f"{source}: not valid TOML: nested too deeply") from None
