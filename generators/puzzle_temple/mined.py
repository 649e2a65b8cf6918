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

#: The columns ``generate --from-corpus`` reads.
COLUMNS = ("region", "blocks", "solutions", "difficulty")


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
        meta, rows = corpus.batches(value, "puzzle-temple", COLUMNS)
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
    except (KeyError, TypeError, ValueError, TempleforgeError) as err:
        raise RequestError(f"{label}: {value}: its metadata or columns are not a Puzzle Temple corpus's ({err})") \
            from None
    # read a batch at a time; a lock's block sets are kept once each (a row repeated, as an
    # edited or concatenated file may hold millions of times, takes no more memory)
    locks: dict[str, dict[tuple[str, ...], tuple[int, float]]] = {}
    row = 0
    try:
        for batch in rows:
            for region, used, count, bits in zip(*(batch[c] for c in COLUMNS)):
                if not isinstance(region, str) or not set(region) <= {"#", ".", "/"} or "#" not in region \
                        or not used or not set(used) <= known or not isinstance(count, int) or count < 1 \
                        or not isinstance(bits, (int, float)):
                    raise RequestError(f"{label}: {value}: row {row + 1} is not a lock with its blocks and solutions")
                sets = locks.setdefault(region, {})
                said = sets.setdefault(tuple(used), (count, float(bits)))
                if said != (count, float(bits)):
                    raise RequestError(f"{label}: {value}: row {row + 1} gives the lock {region} with "
                                       f"{' '.join(used)} {count} solution(s) and {bits} bits, an earlier row "
                                       f"{said[0]} and {said[1]}; the corpus is damaged: mine it again")
                row += 1
    except TempleforgeError as err:
        raise err if isinstance(err, RequestError) else RequestError(f"{label}: {err}") from None
    return Corpus(str(value), str(request.get("blocks", "")), pieces, (int(lo), int(hi)),
                  (int(box[0]), int(box[1])), bool(request.get("flips", True)), bool(request.get("holes", False)),
                  tuple((k, tuple((used, *said) for used, said in v.items())) for k, v in sorted(locks.items())))
