"""Puzzle Temple corpora as ``generate --from-corpus`` reads them (``generators.puzzle_temple.mine``
writes them): what a corpus was mined for, and its locks with the block sets that fill them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generators.common.errors import RequestError
from solver.pieces import Piece

#: The miner's version: raised whenever a request's rows change (chunks of another version
#: are not resumed, corpora of another version not read).
VERSION = "1"


@dataclass(frozen=True, slots=True)
class Corpus:
    """A corpus read for ``generate --from-corpus``: what it was mined for and its locks,
    each with the block sets that fill it (names, solutions, difficulty), sorted by lock."""

    source: str
    block_set: str
    pieces: tuple[Piece, ...]
    per_face: tuple[int, int]
    box: tuple[int, int]
    flips: bool
    holes: bool
    locks: tuple[tuple[str, tuple[tuple[tuple[str, ...], int, float], ...]], ...]


def read_corpus(value: Any, label: str) -> Corpus:
    """The corpus file ``value`` (``RequestError`` naming ``label`` and what is wrong)."""
    from generators.common import corpus
    from solver.errors import TempleforgeError
    from solver.shapes import Shape

    if isinstance(value, Corpus):
        return value
    if not isinstance(value, str) or not value.strip():
        raise RequestError(f"{label}: expected a corpus file (templeforge mine puzzle-temple), got {value!r}")
    try:
        meta, t = corpus.read(value, "puzzle-temple")
    except TempleforgeError as err:
        raise RequestError(f"{label}: {err}") from None
    if meta.get("miner") != VERSION:
        raise RequestError(f"{label}: {value} was mined by another version of the miner ({meta.get('miner')!r}, "
                           f"this one is {VERSION!r}); mine it again")
    try:
        request = meta["request"]
        pieces = tuple(Piece(name, Shape.parse(picture)) for name, picture in request["pieces"])
        known = {p.name for p in pieces}
        lo, hi = request["blocks_per_face"]
        box = tuple(request["box"])
        names, blocks, solutions, difficulty = (t.column(c).to_pylist()
                                                for c in ("region", "blocks", "solutions", "difficulty"))
    except (KeyError, TypeError, ValueError, TempleforgeError) as err:
        raise RequestError(f"{label}: {value}: its metadata or columns are not a Puzzle Temple corpus's ({err})") \
            from None
    locks: dict[str, list[tuple[tuple[str, ...], int, float]]] = {}
    for row, (region, used, count, bits) in enumerate(zip(names, blocks, solutions, difficulty)):
        if not isinstance(region, str) or not set(region) <= {"#", ".", "/"} or "#" not in region \
                or not used or not set(used) <= known or not isinstance(count, int) or count < 1:
            raise RequestError(f"{label}: {value}: row {row} is not a lock with its blocks and solutions")
        locks.setdefault(region, []).append((tuple(used), count, float(bits)))
    return Corpus(str(value), str(request.get("blocks", "")), pieces, (int(lo), int(hi)),
                  (int(box[0]), int(box[1])), bool(request.get("flips", True)), bool(request.get("holes", False)),
                  tuple((k, tuple(v)) for k, v in sorted(locks.items())))
