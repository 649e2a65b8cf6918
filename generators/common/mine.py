"""Mining a corpus: a game's ``Plan`` run chunk by chunk on the command's executor.

Nouns:
    chunk   a slice of the corpus (``Plan.rows(index)``), mined in one task on a worker,
            which returns it as Parquet bytes.
    parts   the folder ``<out>.parts/`` beside the corpus while it is mined: ``plan.json``
            (what is being mined) and each finished chunk, written atomically, with its
            SHA-256 beside it (``chunk-000012.parquet``, ``chunk-000012.sha256``), taken over
            the request, the chunk's place and its bytes.

A run resumes: the chunks already in the parts folder for the same request whose bytes
still match their hash are kept, the rest (missing, or damaged) are mined. Once every chunk
is there they are put together in index order as the corpus (``generators.common.corpus``),
written atomically, and the parts folder goes. So the corpus is the same bytes however often
the run was stopped, on whatever executor and number of workers. Ctrl-C stops the run with
the finished chunks kept and no corpus written.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generators.common import corpus
from generators.common.files import OutputError, write_atomic
from generators.contract import Miner, Plan

#: ``progress(chunks done, chunks in all, rows so far, chunks mined in this run)``.
Progress = Callable[[int, int, int, int], None]


@dataclass(frozen=True, slots=True)
class Mined:
    """What a run did.

    Attributes:
        path: the corpus.
        rows: the corpus's rows.
        chunks: its chunks.
        kept: chunks a previous run had finished (reused after their hash check).
        damaged: chunks found in the parts folder whose bytes no longer matched their hash
            (mined again); ``damaged_chunks`` names them.
        seconds: the time mining took in this run.
        fresh: false when the corpus was already complete for this request (nothing done).
    """

    path: Path
    rows: int
    chunks: int
    kept: int = 0
    damaged: int = 0
    seconds: float = 0.0
    fresh: bool = True
    damaged_chunks: tuple[str, ...] = ()


def identity(game: str, miner: Miner, plan: Plan) -> dict[str, Any]:
    """What makes two runs the same corpus: the game, the request, the miner's version and
    the chunking."""
    return {"game": game, "request": plan.request(), "miner": miner.VERSION, "chunks": plan.chunks()}


def parts_folder(out: Path) -> Path:
    return out.with_name(out.name + ".parts")


def _chunk_name(index: int) -> str:
    return f"chunk-{index:06d}"


def _mine_chunk(job: tuple[Plan, tuple[Any, ...]], index: int) -> tuple[bytes, int]:
    """In a worker: chunk ``index`` as Parquet bytes, and its row count."""
    plan, columns = job
    rows = plan.rows(index)
    return corpus.to_bytes(corpus.table(columns, rows)), len(rows)


def _same(meta: Mapping[str, Any], ident: Mapping[str, Any]) -> bool:
    return all(meta.get(k) == v for k, v in ident.items())


def _seal(ident: Mapping[str, Any], index: int, data: bytes) -> str:
    """A chunk's recorded hash: SHA-256 over the request's identity, the chunk's place in
    the plan and its bytes, so a chunk is kept only in its own place of its own request (a
    chunk moved to another's name, with its hash, is mined again; so is one whose hash file
    was made anew for changed bytes)."""
    head = json.dumps(ident, sort_keys=True).encode() + b"\0" + str(index).encode() + b"\0"
    return corpus.digest(head + data)


def _kept(parts: Path, index: int, ident: Mapping[str, Any]) -> tuple[bytes, int] | None:
    """A finished chunk's bytes and rows if they match their recorded hash and read as
    Parquet, else None."""
    data_path = parts / f"{_chunk_name(index)}.parquet"
    hash_path = parts / f"{_chunk_name(index)}.sha256"
    try:
        data = data_path.read_bytes()
        recorded = hash_path.read_text("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    if _seal(ident, index, data) != recorded:
        return None
    try:
        return data, corpus.row_count(data)
    except Exception:  # noqa: BLE001 - whatever Arrow makes of bytes that are not Parquet: mined again
        return None


def run(game: str, miner: Miner, plan: Plan, out: str | Path, workers: int = 1,
        progress: Progress | None = None) -> Mined:
    """Mine ``plan`` into the corpus ``out`` (see the module docstring).

    Raises:
        OutputError: ``out`` is a file that is not a corpus (it is not overwritten), or its
            parts folder holds another request's chunks.
    """
    from generators.common.pool import Pool

    out = Path(out)
    ident = identity(game, miner, plan)
    chunks = ident["chunks"]
    if out.is_dir():
        raise OutputError(f"{out}: is a folder; --out takes the corpus file's name (corpus.parquet)")
    if out.exists():
        meta = corpus.metadata(out)
        if meta is None:
            raise OutputError(f"{out}: exists and is not a templeforge corpus; not overwritten")
        if _same(meta, ident):
            return Mined(out, int(meta.get("rows", 0)), chunks, fresh=False)
    parts = parts_folder(out)
    plan_path = parts / "plan.json"
    said = json.dumps(ident, sort_keys=True, indent=1) + "\n"
    if plan_path.exists():
        try:
            before = json.loads(plan_path.read_text("utf-8"))
        except (OSError, ValueError):
            before = None
        if before != json.loads(said):
            raise OutputError(f"{parts}: holds the chunks of another request (see its plan.json); delete the "
                              f"folder or choose another --out")
    elif parts.exists() and any(parts.iterdir()):
        raise OutputError(f"{parts}: exists and is not a templeforge parts folder; not touched")
    done: set[int] = set()
    damaged: list[str] = []
    rows = 0
    for i in range(chunks):
        if (parts / f"{_chunk_name(i)}.parquet").exists():
            found = _kept(parts, i, ident)
            if found is None:
                damaged.append(_chunk_name(i))
            else:
                done.add(i)
                rows += found[1]
    kept = len(done)
    todo = [i for i in range(chunks) if i not in done]
    started = time.perf_counter()
    if progress is not None:
        progress(len(done), chunks, rows, 0)
    columns = tuple(miner.COLUMNS)
    with Pool(workers) as pool:  # connected to its executor: only now is anything written
        if not plan_path.exists():
            write_atomic(plan_path, said)
        for index, (data, count) in zip(todo, pool.imap(_mine_chunk, (plan, columns), todo)):
            write_atomic(parts / f"{_chunk_name(index)}.parquet", data)
            write_atomic(parts / f"{_chunk_name(index)}.sha256", _seal(ident, index, data) + "\n")
            done.add(index)
            rows += count
            if progress is not None:
                progress(len(done), chunks, rows, len(done) - kept)
    seconds = time.perf_counter() - started

    def tables() -> Iterator[Any]:  # one chunk in memory at a time, each checked against its hash again
        for i in range(chunks):
            found = _kept(parts, i, ident)
            if found is None:
                raise OutputError(f"{parts / _chunk_name(i)}.parquet: changed while the corpus was put together; "
                                  f"run the command again")
            yield corpus.from_bytes(found[0])

    written = corpus.write(out, miner.COLUMNS, tables(), ident, rows)
    shutil.rmtree(parts, ignore_errors=True)
    return Mined(out, written, chunks, kept, len(damaged), seconds, damaged_chunks=tuple(damaged))
