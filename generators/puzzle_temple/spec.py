"""A Puzzle Temple deck request: its options, declared once, and the Spec they make.

``OPTIONS`` is the one declaration of ``templeforge generate puzzle-temple``'s options, the
keys of a generator profile and the parameters a deck records (see
``generators.common.options``). ``Spec`` is the checked request the generator works from;
``Spec.problems`` names every parameter at fault in an impossible request before any work
is done.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from generators.common import grading, parse
from generators.common.errors import RequestError
from generators.common.options import SEED, WORKERS, Option, choice, output, recorded, switch, whole
from generators.puzzle_temple.deck import FACES
from solver.errors import TempleforgeError
from solver.pieces import PRESETS, Piece
from solver.shapes import Shape

GAME = "puzzle-temple"

#: What ``templeforge generate puzzle-temple --help`` says the command does.
HELP = ("Each card gets a connected lock and six different block sets (die faces 1-6), each "
        "tiling the lock exactly; every face's solutions are counted and its difficulty rated. "
        "No two locks are alike (up to rotation and reflection) and every block is used about "
        "equally often.")

#: Where ``generate`` writes by default, and the file name it takes in a folder.
DECK_NAME = "deck.json"
DEFAULT_OUT = f"output/{GAME}/{DECK_NAME}"

#: Where candidate locks come from (see ``Spec.locks``).
LOCK_SOURCES = ("auto", "union", "cp-sat")

#: The largest lock box, in cells per side: a lock must fit a card, and the counter takes
#: regions of up to 64 cells.
MAX_LOCK_SIDE = 12
MAX_LOCK_CELLS = 64

#: The most block sets a request may ask the generator to consider per lock area.
MAX_BLOCK_SETS = 50_000


@dataclass(frozen=True, slots=True)
class BlockSet:
    """The players' blocks and the name they were asked for by (a preset or a file)."""

    name: str
    pieces: tuple[Piece, ...]


def read_blocks(value: Any, label: str) -> BlockSet:
    """A preset name or a block-set TOML file (``pieces`` as in a puzzle file)."""
    from solver.pieces import preset
    from solver.puzzlefile import load_blocks

    if isinstance(value, BlockSet):
        return value
    if not isinstance(value, str):
        raise RequestError(f"{label}: expected a preset name or a block-set file, got {value!r}")
    if value in PRESETS:
        return BlockSet(value, preset(value))
    if value.endswith(".toml"):
        try:
            return BlockSet(value, load_blocks(value))
        except TempleforgeError as err:
            raise RequestError(f"{label}: {err}") from None
    raise RequestError(f"{label}: unknown block set {value!r}: expected a preset "
                       f"({', '.join(PRESETS)}) or a block-set .toml file")


def _per_face(value: Any, label: str) -> tuple[int, int]:
    return parse.parse_range(value, label, high=8)


def _lock_cells(value: Any, label: str) -> tuple[int, int]:
    return parse.parse_range(value, label, high=MAX_LOCK_CELLS)


def _lock_size(value: Any, label: str) -> tuple[int, int]:
    return parse.parse_size(value, label, high=MAX_LOCK_SIDE)


def _min_fill(value: Any, label: str) -> float:
    return parse.parse_float(value, label, low=0.0, low_open=True, high=1.0)


def _difficulty(value: Any, label: str) -> dict[grading.Tier, int] | None:
    if value is None:
        return None
    if isinstance(value, Mapping):
        return dict(value)  # already read
    return grading.parse_target(value, label)


def _from_corpus(value: Any, label: str) -> Any:
    from generators.puzzle_temple.mined import read_corpus

    return read_corpus(value, label)


def _like(value: Any, label: str) -> Any:
    from generators.puzzle_temple.reference import read_reference

    return read_reference(value, label)


OPTIONS: tuple[Option, ...] = (
    Option("blocks", read_blocks, "ubongo12", "the players' block set: a preset, or a TOML file with "
           "`pieces = [...]` as in puzzle files", metavar="PRESET|FILE.toml", path=True),
    whole("cards", 36, "cards in the deck (the game uses 36: 18 out for 2 players, 9 for 3)", low=1, high=1000),
    Option("blocks_per_face", _per_face, "3", "`N` or a range `MIN-MAX`; the faces of one card may then "
           "mix sizes of equal area (Ubongo: 3 on the easy side, 4 on the hard side)", metavar="N|MIN-MAX"),
    switch("flips", True, "whether blocks may be turned over"),
    Option("lock_cells", _lock_cells, None, "`MIN-MAX` cells in a lock", metavar="MIN-MAX", default_text="any"),
    Option("lock_size", _lock_size, "7x5", "the widest and tallest a lock may be, in cells (locks are laid "
           f"landscape; at most {MAX_LOCK_SIDE}x{MAX_LOCK_SIDE})", metavar="WxH"),
    switch("holes", False, "whether a lock may enclose empty squares"),
    Option("min_fill", _min_fill, 0.6, "the least share of its bounding box a lock fills, so locks stay "
           "compact", metavar="SHARE"),
    switch("unique", False, "every face must have exactly one solution"),
    Option("difficulty", _difficulty, "thirds", "cards per tier: `any`, `thirds`, `ramp` (3:2:1), `easy`, "
           "`medium`, `hard`, or weights such as `easy:2,medium:2,hard:1`", metavar="TARGET"),
    SEED,
    whole("attempts", None, "random locks to try before giving up", low=1, high=1_000_000,
          default_text="60 per card"),
    choice("locks", LOCK_SOURCES, "auto", "where locks come from: `union` (random unions of blocks), "
           "`cp-sat` (the joint CP-SAT model), `auto` (unions, then CP-SAT designs if they fall short)"),
    whole("designs", None, "CP-SAT designs to try after the random locks", low=0, high=100_000,
          default_text="4 per card"),
    WORKERS,
    Option("like", _like, None, "make cards like this deck's: its block set, blocks per face, flips "
           "and lock box become the defaults, the faces match its difficulty distribution and share of "
           "unique faces, and none of its locks repeats", metavar="DECK.json", default_text="none",
           path=True),
    Option("from_corpus", _from_corpus, None, "draw the candidate locks, each with the block sets that fill it, "
           "from this corpus (`templeforge mine puzzle-temple`) instead of searching: its block set, blocks per "
           "face and flips become the defaults; every face is still counted, proved and verified",
           metavar="CORPUS.parquet", default_text="none", path=True, recorded=False),
    output(DEFAULT_OUT, DECK_NAME),
)


@dataclass(frozen=True, slots=True)
class Spec:
    """A deck request (see the module docstring). Build it, then call ``problems()`` or
    ``checked()``; ``generate`` checks it first.

    Attributes:
        blocks: the players' block set.
        block_set: its name (a preset name or a file), recorded in the deck.
        cards: cards in the deck.
        blocks_per_face: the least and most blocks on one face.
        flips: whether blocks may be turned over.
        lock_cells: the least and most cells of a lock (None: whatever the blocks give).
        lock_size: the widest and tallest a lock may be, in cells (so it fits the card).
        holes: whether a lock may enclose empty squares.
        min_fill: the least share of its bounding box a lock fills (compact locks look like
            locks; a sprawling one reads as a maze).
        unique: whether every face must have exactly one tiling.
        difficulty: the share of cards per tier, or None for no target.
        seed: the random seed; the same spec and seed give the same deck.
        attempts: random locks to try (None: 60 per card).
        locks: where candidate locks come from: ``union`` (random unions of blocks, fast),
            ``cp-sat`` (the joint CP-SAT model of ``lockmodel``, which designs a lock and six
            block sets together inside the card's box), or ``auto`` (unions first, then
            CP-SAT designs if the unions could not fill the deck).
        designs: CP-SAT designs to try (None: 4 per card).
        workers: processes that make candidates (the deck does not depend on it).
    """

    blocks: tuple[Piece, ...]
    block_set: str = "ubongo12"
    cards: int = 36
    blocks_per_face: tuple[int, int] = (3, 3)
    flips: bool = True
    lock_cells: tuple[int, int] | None = None
    lock_size: tuple[int, int] = (7, 5)
    holes: bool = False
    min_fill: float = 0.6
    unique: bool = False
    difficulty: Mapping[grading.Tier, int] | None = field(default_factory=lambda: dict(grading.TARGETS["thirds"]))
    seed: int = 0
    attempts: int | None = None
    locks: str = "auto"
    designs: int | None = None
    workers: int = 1
    like: Any = None  # a generators.puzzle_temple.reference.Reference
    from_corpus: Any = None  # a generators.puzzle_temple.mine.Corpus

    @classmethod
    def from_values(cls, values: Mapping[str, Any], given: frozenset[str] = frozenset()) -> Spec:
        """The Spec of parsed option values (``generators.common.options.resolve``). With
        ``like``, the reference deck's block set, blocks per face, flips and lock box replace
        the defaults of the options not ``given``, and there is no tier target."""
        from generators.common.pool import default_workers

        blocks: BlockSet = values["blocks"]
        rest = {o.name: values[o.name] for o in OPTIONS if o.name not in ("blocks", "out")}
        if rest["workers"] is None:
            rest["workers"] = default_workers()
        like = rest["like"]
        if like is not None:
            if "blocks" not in given:
                blocks = BlockSet(like.block_set, like.blocks)
            for name in ("blocks_per_face", "flips", "lock_size"):
                if name not in given:
                    rest[name] = getattr(like, name)
            if "difficulty" not in given:
                rest["difficulty"] = None
        mined = rest["from_corpus"]
        if mined is not None:
            if "blocks" not in given:
                blocks = BlockSet(mined.block_set, mined.pieces)
            if "blocks_per_face" not in given:
                rest["blocks_per_face"] = mined.per_face
            if "flips" not in given:
                rest["flips"] = mined.flips
        return cls(blocks=blocks.pieces, block_set=blocks.name, **rest)

    @property
    def budget(self) -> int:
        """Random-union locks to try."""
        if self.locks == "cp-sat":
            return 0
        return self.attempts if self.attempts is not None else 60 * self.cards

    @property
    def design_budget(self) -> int:
        """CP-SAT designs to try (none when the locks come from a corpus)."""
        if self.locks == "union" or self.from_corpus is not None:
            return 0
        return self.designs if self.designs is not None else 4 * self.cards

    def problems(self) -> list[str]:
        """Every way the request is malformed or cannot possibly be met, each naming its
        parameter."""
        out = []
        names = [b.name for b in self.blocks]
        if len(set(names)) != len(names):
            out.append(f"blocks: each block must appear once, got {', '.join(names)}")
        if not self.blocks:
            out.append("blocks: the block set is empty")
        if any(b.shape.dim != 2 for b in self.blocks):
            out.append("blocks: blocks must be flat (2D)")
        if self.cards < 1:
            out.append(f"cards: expected at least 1, got {self.cards}")
        lo, hi = self.blocks_per_face
        if lo < 1 or hi < lo:
            out.append(f"blocks-per-face: expected N or MIN-MAX with 1 <= MIN <= MAX, got {lo}-{hi}")
        elif hi > len(self.blocks):
            out.append(f"blocks-per-face: {hi} is more than the {len(self.blocks)} blocks in {self.block_set}")
        else:
            sets = sum(math.comb(len(self.blocks), k) for k in range(lo, hi + 1))
            many = f"{lo}" if lo == hi else f"{lo}-{hi}"
            if sets < FACES:
                out.append(f"blocks-per-face: {self.block_set} has only {sets} block set(s) of "
                           f"{many} blocks, a card needs {FACES} different ones")
            elif sets > MAX_BLOCK_SETS:
                out.append(f"blocks-per-face: {self.block_set} has {sets} block sets of {many} blocks, "
                           f"more than the {MAX_BLOCK_SETS} the generator considers; use fewer blocks "
                           f"per face or a smaller set")
        width, height = self.lock_size
        if not (1 <= width <= MAX_LOCK_SIDE and 1 <= height <= MAX_LOCK_SIDE):
            out.append(f"lock-size: expected WIDTHxHEIGHT in cells, each 1 to {MAX_LOCK_SIDE}, "
                       f"got {width}x{height}")
        if self.lock_cells is not None:
            cmin, cmax = self.lock_cells
            if cmin < 1 or cmax < cmin:
                out.append(f"lock-cells: expected MIN-MAX with 1 <= MIN <= MAX, got {cmin}-{cmax}")
        if not out:
            out.extend(self._area_problems())
        if not 0 < self.min_fill <= 1:
            out.append(f"min-fill: expected a share of the bounding box above 0 and at most 1, got {self.min_fill}")
        if self.attempts is not None and self.attempts < 1:
            out.append(f"attempts: expected at least 1, got {self.attempts}")
        if self.locks not in LOCK_SOURCES:
            out.append(f"locks: expected one of {', '.join(LOCK_SOURCES)}, got {self.locks!r}")
        if self.designs is not None and self.designs < 0:
            out.append(f"designs: expected 0 or more, got {self.designs}")
        if self.workers < 1:
            out.append(f"workers: expected at least 1, got {self.workers}")
        out.extend(self._corpus_problems())
        return out

    def _corpus_problems(self) -> list[str]:
        mined = self.from_corpus
        if mined is None:
            return []
        out = []
        ours = {b.name: b.shape for b in self.blocks}
        other = [p.name for p in mined.pieces if ours.get(p.name) != p.shape]
        if other:
            out.append(f"from-corpus: {mined.source} was mined for block set {mined.block_set} whose block(s) "
                       f"{', '.join(other)} are not in {self.block_set}; use --blocks {mined.block_set}")
        if mined.flips != self.flips:
            out.append(f"from-corpus: {mined.source} was mined with flips {'on' if mined.flips else 'off'}; "
                       f"the request has them {'on' if self.flips else 'off'}")
        if self.holes and not mined.holes:
            out.append(f"from-corpus: {mined.source} holds no locks with holes (mine it with --holes)")
        return out

    def _area_problems(self) -> list[str]:
        out = []
        lo, hi = self.blocks_per_face
        width, height = self.lock_size
        if not self.areas():
            smallest = sum(sorted(b.size for b in self.blocks)[:lo])
            largest = sum(sorted((b.size for b in self.blocks), reverse=True)[:hi])
            many = f"{lo}" if lo == hi else f"{lo}-{hi}"
            if self.lock_cells is not None and (self.lock_cells[1] < smallest or self.lock_cells[0] > largest):
                out.append(f"lock-cells: {many} blocks of {self.block_set} cover {smallest} to "
                           f"{largest} cells, outside {self.lock_cells[0]}-{self.lock_cells[1]}")
            elif width * height < smallest:
                out.append(f"lock-size: a {width}x{height} lock holds {width * height} cells, but "
                           f"{lo} blocks cover at least {smallest}")
            else:
                out.append(f"blocks-per-face: no area admits {FACES} different block sets within "
                           f"lock-cells and lock-size (and at most {MAX_LOCK_CELLS} cells)")
        too_big = [b.name for b in self.blocks if not fits_box(b.shape, width, height)]
        if too_big:
            out.append(f"lock-size: block(s) {', '.join(too_big)} do not fit a {width}x{height} lock")
        return out

    def checked(self) -> Spec:
        """The spec itself, or ``RequestError`` listing every problem."""
        problems = self.problems()
        if problems:
            raise RequestError(problems)
        return self

    def areas(self) -> dict[int, list[tuple[Piece, ...]]]:
        """Lock area -> the block sets of an allowed size covering exactly that area, for the
        areas that have at least six sets and fit the lock limits (computed once per request:
        every candidate asks)."""
        return _areas(self.blocks, self.blocks_per_face, self.lock_size, self.lock_cells)

    def parameters(self) -> dict[str, Any]:
        """The request as recorded in the deck file: every recorded option, budgets resolved."""
        shown = {"blocks": self.block_set, "difficulty": grading.target_text(self.difficulty),
                 "attempts": self.budget, "designs": self.design_budget,
                 "like": self.like.source if self.like is not None else None}
        return recorded(OPTIONS, {o.name: shown.get(o.name, getattr(self, o.name, None)) for o in OPTIONS})


@lru_cache(maxsize=8)
def _areas(blocks: tuple[Piece, ...], per_face: tuple[int, int], size: tuple[int, int],
           cells: tuple[int, int] | None) -> dict[int, list[tuple[Piece, ...]]]:
    import itertools

    lo, hi = per_face
    width, height = size
    by_area: dict[int, list[tuple[Piece, ...]]] = {}
    for k in range(lo, hi + 1):
        for subset in itertools.combinations(blocks, k):
            by_area.setdefault(sum(b.size for b in subset), []).append(subset)
    out = {}
    for area in sorted(by_area):
        if len(by_area[area]) < FACES or area > width * height or area > MAX_LOCK_CELLS:
            continue
        if cells is not None and not cells[0] <= area <= cells[1]:
            continue
        out[area] = by_area[area]
    return out


def fits_box(shape: Shape, width: int, height: int) -> bool:
    """Whether ``shape`` fits a ``width`` x ``height`` box in some rotation."""
    rows, cols = shape.extent()
    return (cols <= width and rows <= height) or (rows <= width and cols <= height)
