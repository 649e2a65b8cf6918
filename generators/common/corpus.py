"""Corpus files: what ``templeforge mine`` finds, as one Parquet table (pyarrow).

A corpus is one table, a row per item mined (a lock with a block set, a pattern, a
structure, ...), its columns the game's (``generators.contract.Miner.COLUMNS``), in a fixed
order: chunk by chunk, each chunk's rows in the order its game gives them. The file's
key-value metadata ``templeforge`` holds, as JSON, what was asked (``game``, ``request``),
the miner's version, the number of chunks and rows, and every column with what it means,
so a corpus says what it is without this program.

Writing is deterministic (no times, no host names, the same row groups): the same request
gives the same bytes on any executor. pyarrow is imported only when a corpus is written
or read.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.errors import TempleforgeError

#: The metadata key of a corpus file.
KEY = b"templeforge"
#: The corpus file format's version.
FORMAT = 1
#: Rows a row group holds at least (the last one fewer): chunks are put together up to it.
ROW_GROUP = 65536

#: The column types a miner may declare, as Arrow types (made when pyarrow is loaded).
TYPES: dict[str, Callable[[Any], Any]] = {
    "string": lambda pa: pa.string(),
    "bool": lambda pa: pa.bool_(),
    "int8": lambda pa: pa.int8(),
    "int16": lambda pa: pa.int16(),
    "int32": lambda pa: pa.int32(),
    "int64": lambda pa: pa.int64(),
    "float64": lambda pa: pa.float64(),
    "list<string>": lambda pa: pa.list_(pa.string()),
    "list<float64>": lambda pa: pa.list_(pa.float64()),
    "list<int8>": lambda pa: pa.list_(pa.int8()),
}


class CorpusError(TempleforgeError):
    """A corpus file that cannot be read or used; the message names it."""


@dataclass(frozen=True, slots=True)
class Column:
    """One column of a game's corpus: its name, Arrow type (a key of ``TYPES``) and meaning."""

    name: str
    type: str
    doc: str

    def described(self) -> dict[str, str]:
        return {"name": self.name, "type": self.type, "doc": self.doc}


def markdown_columns(columns: Sequence[Column]) -> str:
    """The documentation's table of a corpus's columns."""
    rows = ["| column | type | meaning |", "|---|---|---|"]
    rows += [f"| `{c.name}` | {c.type} | {c.doc.replace('|', chr(92) + '|')} |" for c in columns]
    return "\n".join(rows)


def _arrow() -> tuple[Any, Any]:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:  # pragma: no cover - a core dependency
        raise CorpusError("corpus files need pyarrow: pip install pyarrow") from None
    return pa, pq


def schema(columns: Sequence[Column], meta: dict[str, Any] | None = None) -> Any:
    pa, _ = _arrow()
    fields = [pa.field(c.name, TYPES[c.type](pa), nullable=False) for c in columns]
    return pa.schema(fields, metadata={KEY: json.dumps(meta, sort_keys=True).encode()} if meta else None)


def table(columns: Sequence[Column], rows: Sequence[Sequence[Any]]) -> Any:
    """The rows (tuples in column order) as an Arrow table of the columns' types."""
    pa, _ = _arrow()
    s = schema(columns)
    arrays = [pa.array([r[i] for r in rows], type=f.type) for i, f in enumerate(s)]
    return pa.Table.from_arrays(arrays, schema=s)


def to_bytes(t: Any) -> bytes:
    """A table as Parquet bytes (deterministic)."""
    pa, pq = _arrow()
    sink = pa.BufferOutputStream()
    pq.write_table(t, sink, compression="zstd")
    return bytes(sink.getvalue().to_pybytes())


def from_bytes(data: bytes) -> Any:
    pa, pq = _arrow()
    return pq.read_table(pa.BufferReader(data))


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def content_digest(value: Any) -> str:
    """A short digest of a JSON value (a pool, a box): a request names its file's content,
    not only its title, so a changed file is not resumed as if it were the same."""
    return digest(json.dumps(value, sort_keys=True).encode())[:16]


def row_count(data: bytes) -> int:
    """The rows of a Parquet file's bytes (from its footer: nothing else is read)."""
    pa, pq = _arrow()
    return int(pq.read_metadata(pa.BufferReader(data)).num_rows)


def write(path: Path, columns: Sequence[Column], parts: Iterable[Any], meta: dict[str, Any], rows: int) -> int:
    """Write the tables ``parts`` (in order, ``rows`` rows in all) as one corpus file at
    ``path``, atomically, with ``meta`` (and the columns) in its metadata; the rows written."""
    from generators.common.files import write_atomic_with

    pa, pq = _arrow()
    full = dict(meta, format=FORMAT, rows=rows, columns=[c.described() for c in columns])
    s = schema(columns, full)

    written = 0

    def fill(name: str) -> None:
        nonlocal written
        with pq.ParquetWriter(name, s, compression="zstd") as out:
            group: list[Any] = []
            held = 0
            for p in parts:
                written += p.num_rows
                group.append(p)
                held += p.num_rows
                if held >= ROW_GROUP:
                    out.write_table(pa.concat_tables(group).cast(s), row_group_size=held)
                    group, held = [], 0
            if group or rows == 0:
                out.write_table(pa.concat_tables(group).cast(s) if group else s.empty_table(), row_group_size=held or 1)

        if written != rows:  # pragma: no cover - the parts are read back after their hash check
            raise CorpusError(f"{path}: {written} rows written, {rows} counted")

    write_atomic_with(path, fill)
    return rows


def metadata(path: str | Path) -> dict[str, Any] | None:
    """A corpus file's ``templeforge`` metadata, or None when ``path`` is not a corpus
    (another Parquet file, another kind of file)."""
    _, pq = _arrow()
    try:
        raw = pq.read_schema(str(path)).metadata or {}
    except (OSError, ValueError):
        return None
    try:
        meta = json.loads(raw[KEY]) if KEY in raw else None
    except (ValueError, UnicodeDecodeError):
        return None
    return meta if isinstance(meta, dict) else None


#: Rows a batch when a corpus is read a batch at a time (``batches``).
BATCH_ROWS = 65_536


def batches(path: str | Path, game: str,
            columns: Sequence[str]) -> tuple[dict[str, Any], Iterator[dict[str, list[Any]]]]:
    """A corpus of ``game``: its metadata and its ``columns`` a batch of rows at a time (each
    a dict of column lists), so that reading it takes memory for one batch whatever the
    file's size; ``CorpusError`` naming the file when it is not one, or cannot be read."""
    meta = _checked(path, game)
    _, pq = _arrow()
    try:
        source = pq.ParquetFile(str(path))
        missing = [c for c in columns if c not in source.schema_arrow.names]
    except (OSError, ValueError) as err:
        raise CorpusError(f"{path}: cannot read the corpus: {err}") from None
    if missing:
        raise CorpusError(f"{path}: has no column(s) {', '.join(missing)}")

    def rows() -> Iterator[dict[str, list[Any]]]:
        try:
            for batch in source.iter_batches(batch_size=BATCH_ROWS, columns=list(columns)):
                yield batch.to_pydict()
        except (OSError, ValueError) as err:
            raise CorpusError(f"{path}: cannot read the corpus: {err}") from None

    return meta, rows()


def _checked(path: str | Path, game: str) -> dict[str, Any]:
    """A corpus file's metadata, checked to be ``game``'s."""
    if not Path(path).is_file():
        raise CorpusError(f"{path}: no such corpus file")
    meta = metadata(path)
    if meta is None:
        raise CorpusError(f"{path}: not a templeforge corpus (no templeforge metadata); make one with "
                          f"templeforge mine {game}")
    if meta.get("game") != game:
        raise CorpusError(f"{path}: a corpus of {meta.get('game')!r}, not {game}")
    return meta


def read(path: str | Path, game: str) -> tuple[dict[str, Any], Any]:
    """A corpus of ``game`` (its metadata and table), or ``CorpusError`` naming the file."""
    meta = _checked(path, game)
    _, pq = _arrow()
    try:
        return meta, pq.read_table(str(path))
    except (OSError, ValueError) as err:
        raise CorpusError(f"{path}: cannot read the corpus: {err}") from None
