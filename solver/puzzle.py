"""Tiling puzzles and their solutions, independent of any search engine.

Nouns:
    Mode       ``all`` (every piece is used exactly once) or ``subset`` (any sub-multiset of
               the pieces, as long as the region is covered exactly).
    Puzzle     a region (any finite set of cells, holes allowed), a multiset of pieces, flips
               on or off, and the mode. A 2D piece in a 3D region is a flat polycube that
               turns in 3D.
    Placement  one piece lying on a set of region cells.
    Solution   an exact tiling: placements that cover every region cell once.

A piece's *name* is its identity: two copies of ``L`` are interchangeable (swapping them is
the same tiling), while two differently named pieces of the same shape are not.

The engines (``solver.tiling``) share what is computed here: the candidate placements, the
quick proofs of impossibility (area, unreachable cells) and the action of the region's
symmetries on placements, which is how solutions are counted up to symmetry.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from string import ascii_letters, digits

from solver.errors import ShapeError
from solver.pieces import Piece
from solver.shapes import Cell, Shape, Transform, format_cells


class Mode(Enum):
    """Which pieces a tiling uses."""

    ALL = "all"
    SUBSET = "subset"


@dataclass(frozen=True, slots=True)
class Puzzle:
    """Cover ``region`` exactly with ``pieces`` (a multiset: repeat a piece to have copies).

    Args:
        region: the cells to cover; its coordinates are the ones solutions report.
        pieces: the pieces, in the order they are listed; repeats are copies.
        flips: whether a piece may be turned over (in 3D: used as its mirror image).
        mode: ``Mode.ALL`` or ``Mode.SUBSET`` (a ``"all"``/``"subset"`` string is accepted).

    Raises:
        ShapeError: no pieces, a 3D piece in a 2D region, or one name for two shapes.
    """

    region: Shape
    pieces: tuple[Piece, ...]
    flips: bool = True
    mode: Mode = Mode.ALL
    # computed once: puzzles are the keys of the caches below, looked up on every solve
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.region, Shape):
            raise ShapeError(f"the region must be a Shape, got {type(self.region).__name__}")
        pieces = tuple(self.pieces)
        if not pieces:
            raise ShapeError("a puzzle needs at least one piece")
        shapes: dict[str, Shape] = {}
        for p in pieces:
            if not isinstance(p, Piece):
                raise ShapeError(f"pieces must be Piece values, got {p!r}")
            if p.shape.dim > self.region.dim:
                raise ShapeError(f"piece {p.name!r} is 3D but the region is 2D")
            known = shapes.setdefault(p.name, p.shape)
            if not known.is_congruent(p.shape, flips=False):
                raise ShapeError(f"the name {p.name!r} is given to two different shapes")
        if not isinstance(self.flips, bool):
            raise ShapeError(f"flips must be true or false, got {self.flips!r}")
        try:
            mode = Mode(self.mode)
        except ValueError:
            raise ShapeError(f"mode must be 'all' or 'subset', got {self.mode!r}") from None
        object.__setattr__(self, "pieces", pieces)
        object.__setattr__(self, "mode", mode)
        object.__setattr__(self, "_hash", hash((self.region, pieces, self.flips, mode)))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[Puzzle], tuple[object, ...]]:
        # rebuilt through the constructor: string hashes differ between processes
        return (Puzzle, (self.region, self.pieces, self.flips, self.mode))

    @property
    def kinds(self) -> tuple[tuple[Piece, int], ...]:
        """Each distinct piece (by name, first appearance first) with its number of copies."""
        return _kinds(self.pieces)

    @property
    def piece_area(self) -> int:
        return sum(p.size for p in self.pieces)

    def placements(self) -> tuple[Placement, ...]:
        """Every way a piece can lie on region cells, in a fixed order (kind, then cells)."""
        return _placements(self)

    def orientations(self, piece: Piece) -> tuple[Shape, ...]:
        """The orientations ``piece`` may take in this puzzle's region."""
        shape = piece.shape.lifted() if self.region.dim == 3 else piece.shape
        return shape.orientations(self.flips)

    def symmetries(self) -> tuple[Transform, ...]:
        """The region's symmetries that map tilings to tilings, identity first.

        With flips every symmetry of the region does. Without flips a rotation does, and a
        reflection does when the pieces are closed under mirroring (each piece's mirror image
        is a piece with as many copies, such as the Soma cube's A and B, or any set of
        symmetric pieces): the reflected tiling uses the mirror partners (``mirror_names``).
        """
        if self.flips or self.mirror_names() is not None:
            return self.region.symmetries(True)
        return self.region.symmetries(False)

    def mirror_names(self) -> dict[str, str] | None:
        """Each piece's mirror partner in this puzzle (a symmetric piece is its own), when
        every piece has one with as many copies; else None."""
        return _mirror_names(self)

    def impossibility(self) -> str | None:
        """A short proof that no tiling exists, found without search, or None.

        Checks the area (in ``subset`` mode: whether any selection of pieces has the region's
        area) and whether every region cell can be reached by some placement.
        """
        return _impossibility(self)

    def colouring_allows(self) -> bool:
        """Whether the checkerboard argument of ``impossibility`` lets a tiling exist (for
        engines that check the rest themselves)."""
        return _dark(self.region.cells) in _dark_sums(self.pieces)


@dataclass(frozen=True, slots=True, order=True)
class Placement:
    """A piece (by name) lying on ``cells``."""

    piece: str
    cells: tuple[Cell, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(sorted(tuple(c) for c in self.cells)))

    def as_json(self) -> dict[str, object]:
        return {"piece": self.piece, "cells": [list(c) for c in self.cells]}


@dataclass(frozen=True, slots=True)
class Solution:
    """An exact tiling, as placements sorted by piece name and cells."""

    placements: tuple[Placement, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "placements", tuple(sorted(self.placements)))

    def pieces_used(self) -> tuple[str, ...]:
        return tuple(p.piece for p in self.placements)

    def letters(self, key: Mapping[str, str] | None = None) -> list[tuple[str, Placement]]:
        """One character per placement, in placement order: ``key[piece]`` when a key is
        given (one letter per piece name, the same on every drawing of a deck), else
        ``letters_for`` the placements' names, a copy of a piece getting a letter of its own."""
        if key is not None:
            return [(key[p.piece], p) for p in self.placements]
        names = [p.piece for p in self.placements]
        if all(len(n) == 1 for n in names) and len(set(names)) == len(names):
            return [(n, p) for n, p in zip(names, self.placements)]
        return list(zip(_letters(names), self.placements))

    def picture(self, region: Shape | None = None, key: Mapping[str, str] | None = None) -> str:
        """The tiling drawn with one letter per placement (see ``letters``); region cells
        left uncovered are drawn as ``#`` (there are none in a valid tiling)."""
        labels: dict[Cell, str] = {c: "#" for c in region.cells} if region is not None else {}
        for letter, placement in self.letters(key):
            for c in placement.cells:
                labels[c] = letter
        return format_cells(labels)

    def legend(self, key: Mapping[str, str] | None = None) -> str:
        """``A = I2, B = L3, ...``; empty when the picture uses the pieces' own names."""
        pairs = self.letters(key)
        if all(letter == p.piece for letter, p in pairs):
            return ""
        return ", ".join(f"{letter} = {p.piece}" for letter, p in pairs)

    def as_json(self) -> list[dict[str, object]]:
        return [p.as_json() for p in self.placements]


def letters_for(names: Sequence[str]) -> dict[str, str]:
    """One letter per distinct name, in order: a name of one letter keeps it; any other
    takes the first capital of the name (``soma_A`` -> ``A``, ``L4`` -> ``L``), else its
    lower case, else the first free letter (never ``l`` or ``o``, which print like ``I``
    and ``O``, unless that is the name).

    Raises:
        ShapeError: more names than letters and digits.
    """
    distinct = list(dict.fromkeys(names))
    if all(len(n) == 1 for n in distinct):
        return {n: n for n in distinct}
    return dict(zip(distinct, _letters(distinct)))


#: Letters too easily read as another in print (``l`` as ``I``, ``o`` as ``O``): a name of one
#: of these letters keeps it, no other name is given it.
AMBIGUOUS = frozenset("lo")


def _letters(names: Sequence[str]) -> list[str]:
    """A letter per name (see ``letters_for``); a name that is one letter keeps it first."""
    alphabet = [ch for ch in ascii_letters[26:] + ascii_letters[:26] + digits if ch not in AMBIGUOUS]
    if len(names) > len(alphabet) + sum(1 for n in set(names) if n in AMBIGUOUS):
        raise ShapeError(f"cannot draw {len(names)} placements with one letter each")
    taken: set[str] = set()
    out: list[str | None] = [None] * len(names)
    for i, name in enumerate(names):
        if len(name) == 1 and (name in alphabet or name in AMBIGUOUS) and name not in taken:
            out[i] = name
            taken.add(name)
    for i, name in enumerate(names):
        if out[i] is not None:
            continue
        capitals = [ch for ch in name if ch.isupper()] or [ch for ch in name if ch.isalnum()]
        wishes = [capitals[0].upper(), capitals[0].lower()] if capitals else []
        letter = next(ch for ch in [*wishes, *alphabet] if ch not in taken and ch in alphabet)
        taken.add(letter)
        out[i] = letter
    return [letter for letter in out if letter is not None]


# -- shared computations (cached per puzzle) ----------------------------------------------


@lru_cache(maxsize=256)
def _kinds(pieces: tuple[Piece, ...]) -> tuple[tuple[Piece, int], ...]:
    counts = Counter(p.name for p in pieces)
    first: dict[str, Piece] = {}
    for p in pieces:
        first.setdefault(p.name, p)
    return tuple((p, counts[name]) for name, p in first.items())


@lru_cache(maxsize=256)
def _placements(puzzle: Puzzle) -> tuple[Placement, ...]:
    return tuple(p for piece, _count in puzzle.kinds
                 for p in _piece_placements(puzzle.region, piece, puzzle.orientations(piece)))


@lru_cache(maxsize=4096)
def _piece_placements(region: Shape, piece: Piece, orientations: tuple[Shape, ...]) -> tuple[Placement, ...]:
    """Every way ``piece`` lies on ``region`` (cells in order): kept apart from the puzzle,
    since a generator tries one lock with many block sets that share their pieces."""
    cells_of = region.cells
    anchors = region.sorted_cells()
    found: set[tuple[Cell, ...]] = set()
    for shape in orientations:
        cells = shape.sorted_cells()
        first = cells[0]
        # the other cells relative to the first; an anchor fails at the first miss
        rest = [tuple(x - y for x, y in zip(c, first)) for c in cells[1:]]
        for a in anchors:
            moved = [a]
            for d in rest:
                c = tuple(v + w for v, w in zip(a, d))
                if c not in cells_of:
                    break
                moved.append(c)
            else:
                found.add(tuple(moved))
    return tuple(Placement(piece.name, cells) for cells in sorted(found))


def _achievable_areas(kinds: Iterable[tuple[Piece, int]]) -> int:
    """Bit i is set when some selection of pieces has exactly i cells."""
    bits = 1
    for piece, count in kinds:
        for _ in range(count):
            bits |= bits << piece.size
    return bits


@lru_cache(maxsize=256)
def _impossibility(puzzle: Puzzle) -> str | None:
    area = puzzle.region.size
    total = puzzle.piece_area
    if puzzle.mode is Mode.ALL and total != area:
        return f"area mismatch: the pieces cover {total} cells but the region has {area}"
    if puzzle.mode is Mode.SUBSET:
        if total < area:
            return f"area mismatch: all the pieces together cover {total} cells but the region has {area}"
        if not (_achievable_areas(puzzle.kinds) >> area) & 1:
            return f"area mismatch: no selection of the pieces covers exactly {area} cells"
    reachable = {c for p in puzzle.placements() for c in p.cells}
    missing = sorted(puzzle.region.cells - reachable)
    if missing:
        where = ", ".join(str(list(c)) for c in missing[:5]) + (" ..." if len(missing) > 5 else "")
        return f"{len(missing)} region cell(s) no piece can cover: {where}"
    if puzzle.mode is Mode.ALL:
        placed = {q.piece for q in puzzle.placements()}
        unplaceable = [p.name for p, _ in puzzle.kinds if p.name not in placed]
        if unplaceable:
            return f"piece(s) that fit nowhere in the region: {', '.join(unplaceable)}"
        return _checkerboard(puzzle)
    return None


def _dark(cells: Iterable[Cell]) -> int:
    """Dark minus light cells on a checkerboard (a cell is dark when its coordinates sum
    to an even number)."""
    return sum(1 if sum(c) % 2 == 0 else -1 for c in cells)


@lru_cache(maxsize=1024)
def _dark_sums(pieces: tuple[Piece, ...]) -> frozenset[int]:
    """Every dark-minus-light difference the pieces can cover together, each piece lying
    either way round."""
    sums = {0}
    for p in pieces:
        d = abs(_dark(p.shape.cells))
        sums = {s + d for s in sums} | {s - d for s in sums}
    return frozenset(sums)


def _checkerboard(puzzle: Puzzle) -> str | None:
    """The colouring argument: wherever a piece lies, it covers dark minus light squares
    of plus or minus a fixed number; if no choice of signs gives the region's own
    difference, no tiling exists."""
    want = _dark(puzzle.region.cells)
    if want in _dark_sums(puzzle.pieces):
        return None
    dark = (puzzle.region.size + want) // 2
    light = puzzle.region.size - dark
    return (f"checkerboard colouring: the region has {dark} dark and {light} light squares, "
            f"a difference no placement of these pieces can cover")


@lru_cache(maxsize=256)
def _mirror_names(puzzle: Puzzle) -> dict[str, str] | None:
    def shape(p: Piece) -> Shape:
        return p.shape.lifted() if puzzle.region.dim == 3 else p.shape

    owner = {shape(p).canonical(flips=False): (p.name, n) for p, n in puzzle.kinds}
    out = {}
    for p, n in puzzle.kinds:
        partner = owner.get(shape(p).mirrored().canonical(flips=False))
        if partner is None or partner[1] != n:
            return None
        out[p.name] = partner[0]
    return out


@lru_cache(maxsize=256)
def symmetry_action(puzzle: Puzzle) -> tuple[tuple[int, ...], ...]:
    """How each region symmetry permutes ``puzzle.placements()``: one index tuple per
    symmetry (identity first), mapping placement i to placement ``perm[i]``."""
    placements = puzzle.placements()
    index = {(p.piece, p.cells): i for i, p in enumerate(placements)}
    region = puzzle.region
    partner = puzzle.mirror_names() if not puzzle.flips else None
    out = []
    for t in puzzle.symmetries():
        renamed = partner if partner is not None and not t.is_rotation else None
        image = region.transformed(t)
        offset = tuple(a - b for a, b in zip(region.lower_corner(), image.lower_corner()))

        def move(c: Cell, t: Transform = t, offset: tuple[int, ...] = offset) -> Cell:
            return tuple(v + d for v, d in zip(t.apply(c), offset))

        perm = []
        for p in placements:
            name = renamed[p.piece] if renamed is not None else p.piece
            key = (name, tuple(sorted(move(c) for c in p.cells)))
            perm.append(index[key])
        out.append(tuple(perm))
    return tuple(out)


def canonical_key(chosen: Sequence[int], action: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The least image of a tiling (given as placement indices) under the symmetries, so
    that tilings equal up to symmetry get equal keys."""
    return min(tuple(sorted(perm[i] for i in chosen)) for perm in action)


def solution_from_indices(puzzle: Puzzle, chosen: Iterable[int]) -> Solution:
    placements = puzzle.placements()
    return Solution(tuple(placements[i] for i in chosen))
