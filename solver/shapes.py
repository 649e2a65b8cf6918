"""Shapes: finite sets of grid cells in 2D or 3D, their symmetries and text forms.

Nouns:
    Cell       a tuple of ints: ``(row, column)`` in 2D, ``(row, column, layer)`` in 3D.
               Row 0 is the top line of a picture; layer 0 is the bottom layer.
    Transform  a signed permutation of the axes (a rotation or a reflection of the grid).
    Shape      an immutable set of cells of one dimension. Equality is exact (same cells at the
               same place); ``normalized()`` forgets the position and ``canonical()`` forgets
               position and orientation, so congruence tests are plain ``==`` on those.

Text form (``Shape.parse`` / ``Shape.format``): ASCII rows with ``#`` for a cell and ``.`` for
an empty square; a 3D shape is its layers separated by one blank line, bottom layer first. The
picture covers the bounding box, so ``Shape.parse(s.format(), dim=s.dim) == s.normalized()``.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, cast

from solver.errors import ParseError, ShapeError

Cell = tuple[int, ...]

FILLED = "#"
EMPTY = "."


@dataclass(frozen=True, slots=True)
class Transform:
    """A signed permutation of the axes: ``out[i] = signs[i] * cell[perm[i]]``.

    Every symmetry of the square or cubic grid that fixes the origin has this form. Proper
    transforms (determinant +1) are rotations; the others include a mirror image.
    """

    perm: tuple[int, ...]
    signs: tuple[int, ...]

    @property
    def dim(self) -> int:
        return len(self.perm)

    @property
    def is_rotation(self) -> bool:
        """True for a proper rotation (determinant +1), False for a reflection."""
        inversions = sum(
            1 for i, j in itertools.combinations(range(self.dim), 2) if self.perm[i] > self.perm[j]
        )
        det = (-1) ** inversions
        for s in self.signs:
            det *= s
        return bool(det == 1)

    def apply(self, cell: Cell) -> Cell:
        return tuple(s * cell[p] for p, s in zip(self.perm, self.signs))

    def __repr__(self) -> str:
        return f"Transform(perm={self.perm!r}, signs={self.signs!r})"


@cache
def transforms(dim: int, flips: bool = True) -> tuple[Transform, ...]:
    """All grid symmetries of a dimension: 4 or 8 in 2D, 24 or 48 in 3D.

    Rotations come first and the identity is always first, so the order is stable.

    Args:
        dim: 2 or 3.
        flips: include mirror images (improper transforms).
    """
    if dim not in (2, 3):
        raise ShapeError(f"shapes have 2 or 3 dimensions, not {dim}")
    found = [
        Transform(perm, signs)
        for perm in itertools.permutations(range(dim))
        for signs in itertools.product((1, -1), repeat=dim)
    ]
    rotations = [t for t in found if t.is_rotation]
    reflections = [t for t in found if not t.is_rotation]
    return tuple(rotations + reflections) if flips else tuple(rotations)


def adjacent(cell: Cell) -> tuple[Cell, ...]:
    """The cells sharing a face with ``cell`` (4 in 2D, 6 in 3D)."""
    return tuple(tuple(v + step if i == axis else v for i, v in enumerate(cell))
                 for axis in range(len(cell)) for step in (-1, 1))


def as_cell(raw: object) -> Cell:
    """A cell from any sequence of integers (not booleans, not ``0.9``, not ``"0"``).

    Raises:
        ShapeError: anything else.
    """
    if isinstance(raw, (str, bytes)):
        raise ShapeError(f"a cell must be a sequence of integers, got {raw!r}")
    try:
        values = tuple(cast(Iterable[Any], raw))
    except TypeError:
        raise ShapeError(f"a cell must be a sequence of integers, got {raw!r}") from None
    out = []
    for v in values:
        if isinstance(v, bool):
            raise ShapeError(f"a cell must hold integers, got {raw!r}")
        try:
            out.append(operator.index(v))
        except TypeError:
            raise ShapeError(f"a cell must hold integers, got {raw!r}") from None
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Shape:
    """An immutable, non-empty set of cells, all of dimension 2 or all of dimension 3.

    Construct it from any iterable of integer sequences; the cells are validated and stored as
    a frozenset of int tuples, so ``==`` and ``hash`` are exact.

    Raises:
        ShapeError: no cells, mixed dimensions, or cells that are not integer tuples.
    """

    cells: frozenset[Cell]

    def __post_init__(self) -> None:
        cells = frozenset(as_cell(c) for c in self.cells)
        if not cells:
            raise ShapeError("a shape needs at least one cell")
        dims = {len(c) for c in cells}
        if len(dims) != 1 or not dims <= {2, 3}:
            raise ShapeError(f"cells must all be 2D or all be 3D, got lengths {sorted(dims)}")
        object.__setattr__(self, "cells", cells)

    # -- basic facts ------------------------------------------------------------------------

    @property
    def dim(self) -> int:
        return len(next(iter(self.cells)))

    @property
    def size(self) -> int:
        return len(self.cells)

    def __len__(self) -> int:
        return len(self.cells)

    def __iter__(self) -> Iterator[Cell]:
        return iter(self.sorted_cells())

    def __contains__(self, cell: object) -> bool:
        return cell in self.cells

    def sorted_cells(self) -> tuple[Cell, ...]:
        """The cells in lexicographic order (row, column[, layer])."""
        return tuple(sorted(self.cells))

    def sort_key(self) -> tuple[int, tuple[Cell, ...]]:
        """A total order on shapes: by size, then by sorted cells."""
        return (len(self.cells), self.sorted_cells())

    def lower_corner(self) -> Cell:
        return tuple(min(c[i] for c in self.cells) for i in range(self.dim))

    def upper_corner(self) -> Cell:
        return tuple(max(c[i] for c in self.cells) for i in range(self.dim))

    def extent(self) -> tuple[int, ...]:
        """Size of the bounding box along each axis (rows, columns[, layers])."""
        lo, hi = self.lower_corner(), self.upper_corner()
        return tuple(high - low + 1 for low, high in zip(lo, hi))

    # -- copies -----------------------------------------------------------------------------

    def translated(self, offset: Iterable[int]) -> Shape:
        d = as_cell(offset)
        if len(d) != self.dim:
            raise ShapeError(f"offset {d!r} does not match a {self.dim}D shape")
        return Shape(frozenset(tuple(a + b for a, b in zip(c, d)) for c in self.cells))

    def normalized(self) -> Shape:
        """The same shape moved so that its lower corner is the origin."""
        lo = self.lower_corner()
        if not any(lo):
            return self
        return self.translated(tuple(-v for v in lo))

    def transformed(self, t: Transform) -> Shape:
        if t.dim != self.dim:
            raise ShapeError(f"a {t.dim}D transform cannot act on a {self.dim}D shape")
        return Shape(frozenset(t.apply(c) for c in self.cells))

    def mirrored(self) -> Shape:
        """The mirror image, normalized (columns reversed)."""
        return _mirrored(self)

    def lifted(self) -> Shape:
        """A 2D shape as a flat 3D shape in layer 0 (a 3D shape is returned unchanged)."""
        if self.dim == 3:
            return self
        return Shape(frozenset((r, c, 0) for r, c in self.cells))

    # -- symmetry ---------------------------------------------------------------------------

    def orientations(self, flips: bool = True) -> tuple[Shape, ...]:
        """The distinct normalized images under the grid's rotations (and mirror images).

        A symmetric piece has fewer: the X pentomino has 1, the I pentomino 2, F has 8.
        The result is sorted, so it does not depend on how the shape was written.
        """
        return _orientations(self, flips)

    def canonical(self, flips: bool = True) -> Shape:
        """The least orientation: congruent shapes (up to translation, rotation and, with
        ``flips``, reflection) have equal canonical forms."""
        return self.orientations(flips)[0]

    def is_congruent(self, other: Shape, flips: bool = True) -> bool:
        return self.dim == other.dim and self.canonical(flips) == other.canonical(flips)

    def symmetries(self, flips: bool = True) -> tuple[Transform, ...]:
        """The transforms that map this shape onto itself (up to translation).

        The identity is always first. A 6x10 rectangle has 4; a square region has 8.
        """
        return _symmetries(self, flips)

    # -- structure --------------------------------------------------------------------------

    def neighbours(self, cell: Cell) -> Iterator[Cell]:
        """The face-adjacent cells of ``cell`` that belong to this shape."""
        return (n for n in adjacent(cell) if n in self.cells)

    def is_connected(self) -> bool:
        """True when every cell can be reached from every other through shared faces."""
        start = next(iter(self.cells))
        seen = {start}
        todo = [start]
        while todo:
            for n in self.neighbours(todo.pop()):
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return len(seen) == len(self.cells)

    def holes(self) -> frozenset[Cell]:
        """The empty squares (cubes in 3D) the shape encloses: those inside its bounding box
        that cannot reach the outside through shared faces of other empty ones."""
        lo = tuple(v - 1 for v in self.lower_corner())
        hi = tuple(v + 1 for v in self.upper_corner())
        box = {c for c in itertools.product(*(range(a, b + 1) for a, b in zip(lo, hi)))
               if c not in self.cells}
        seen = {lo}
        todo = [lo]
        while todo:
            for n in adjacent(todo.pop()):
                if n in box and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return frozenset(box - seen)

    # -- text form --------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str, dim: int | None = None) -> Shape:
        """Read an ASCII picture (see the module docstring).

        Common indentation and blank lines around the picture are ignored, so a picture can be
        written indented in a TOML file or a test. Short rows are padded with empty squares.

        Args:
            text: the picture.
            dim: 2 or 3 to insist on a dimension; None reads one block of rows as 2D and
                several blocks separated by blank lines as 3D layers.

        Raises:
            ParseError: a character other than ``#`` or ``.``, layers in a 2D picture, or no
                cell at all; the message gives the 1-based line and column.
        """
        return cls(frozenset(_parse_cells(text, dim)))

    def format(self) -> str:
        """The ASCII picture of the bounding box; the inverse of ``parse`` up to translation."""
        return format_cells({c: FILLED for c in self.cells})

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        dim = ", dim=3" if self.dim == 3 else ""
        base = f"Shape.parse({self.format()!r}{dim})"
        lo = self.lower_corner()
        return base if not any(lo) else f"{base}.translated({lo!r})"


def _parse_cells(text: str, dim: int | None) -> list[Cell]:
    if not isinstance(text, str):
        raise ParseError(f"a picture must be text, got {type(text).__name__}")
    if dim not in (None, 2, 3):
        raise ParseError(f"dimension must be 2 or 3, not {dim!r}")
    raw_lines = text.split("\n")
    first = 0
    while first < len(raw_lines) and not raw_lines[first].strip():
        first += 1
    last = len(raw_lines)
    while last > first and not raw_lines[last - 1].strip():
        last -= 1
    lines = raw_lines[first:last]
    if not lines:
        raise ParseError("the picture is empty: expected rows of '#' (cell) and '.' (empty)")
    rows = [line.rstrip() for line in lines]
    indent = min(len(r) - len(r.lstrip()) for r in rows if r)
    body = [r[indent:] for r in rows]

    layers: list[list[tuple[int, str]]] = [[]]
    for offset, row in enumerate(body):
        line_no = first + offset + 1
        if not row.strip():
            if layers[-1]:
                layers.append([])
            continue
        layers[-1].append((line_no, row))
    if not layers[-1]:
        layers.pop()
    if dim == 2 and len(layers) > 1:
        line_no = layers[1][0][0] - 1
        raise ParseError("a 2D picture cannot have blank lines (they separate 3D layers)", line_no)
    three_d = dim == 3 or (dim is None and len(layers) > 1)

    cells: list[Cell] = []
    for z, layer in enumerate(layers):
        for r, (line_no, row) in enumerate(layer):
            for c, ch in enumerate(row):
                if ch == FILLED:
                    cells.append((r, c, z) if three_d else (r, c))
                elif ch != EMPTY:
                    raise ParseError(
                        f"unexpected {ch!r}: expected '#' (cell) or '.' (empty square)",
                        line_no,
                        indent + c + 1,
                    )
    if not cells:
        raise ParseError("the picture has no cells: expected at least one '#'")
    return cells


def plane(cells: Iterable[Cell]) -> tuple[tuple[int, int], ...]:
    """2D cells as (row, column) pairs, sorted.

    Raises:
        ShapeError: a cell that is not 2D.
    """
    out = []
    for cell in cells:
        if len(cell) != 2:
            raise ShapeError(f"expected 2D cells, got {cell!r}")
        out.append((cell[0], cell[1]))
    return tuple(sorted(out))


def quarter_turn(cells: Iterable[Cell]) -> tuple[tuple[int, int], ...]:
    """2D cells (row, column) turned a quarter clockwise, normalised:
    (row, col) -> (col, rows - 1 - row), sorted."""
    pairs = plane(cells)
    rows = max(r for r, _ in pairs) + 1
    return tuple(sorted((c, rows - 1 - r) for r, c in pairs))


def lying(cells: Iterable[Cell]) -> tuple[tuple[int, int], ...]:
    """2D cells turned, if need be, so that they are no taller than wide (a block drawn
    small lies down), sorted; ``cells`` start at (0, 0)."""
    pairs = plane(cells)
    rows = max(r for r, _ in pairs) + 1
    cols = max(c for _, c in pairs) + 1
    return quarter_turn(pairs) if rows > cols else pairs


def format_cells(labels: Mapping[Cell, str], empty: str = EMPTY) -> str:
    """Draw cells with one character each over their bounding box.

    Used for plain pictures (every label ``#``) and for solutions (one letter per piece).
    3D cells are drawn as layers, bottom first, separated by a blank line.
    """
    if not labels:
        raise ShapeError("nothing to draw: no cells")
    cells = list(labels)
    dim = len(cells[0])
    lo = [min(c[i] for c in cells) for i in range(dim)]
    hi = [max(c[i] for c in cells) for i in range(dim)]
    layers = range(lo[2], hi[2] + 1) if dim == 3 else [None]
    blocks = []
    for z in layers:
        rows = []
        for r in range(lo[0], hi[0] + 1):
            row = []
            for c in range(lo[1], hi[1] + 1):
                key = (r, c) if z is None else (r, c, z)
                row.append(labels.get(key, empty))
            rows.append("".join(row))
        blocks.append("\n".join(rows))
    return "\n\n".join(blocks)


@lru_cache(maxsize=4096)
def _orientations(shape: Shape, flips: bool) -> tuple[Shape, ...]:
    images = {shape.transformed(t).normalized() for t in transforms(shape.dim, flips)}
    return tuple(sorted(images, key=Shape.sort_key))


@lru_cache(maxsize=4096)
def _symmetries(shape: Shape, flips: bool) -> tuple[Transform, ...]:
    base = shape.normalized()
    return tuple(t for t in transforms(shape.dim, flips) if shape.transformed(t).normalized() == base)


@lru_cache(maxsize=4096)
def _mirrored(shape: Shape) -> Shape:
    flip = Transform(tuple(range(shape.dim)), (1, -1) + (1,) * (shape.dim - 2))
    return shape.transformed(flip).normalized()
