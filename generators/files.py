"""Writing output files so that a failure never leaves half a file behind.

Every file Templeforge writes goes to a temporary name in the target folder first and is
renamed into place once complete (a rename within one folder is atomic on POSIX and
Windows), so a reader sees the old file or the new one, never a mixture.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: str | Path, data: str | bytes) -> Path:
    """Write ``data`` (text is UTF-8 with ``\\n`` line ends) to ``path`` via a temporary
    file in the same folder, creating the folder if needed. Returns the path written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(raw)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
