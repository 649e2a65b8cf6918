"""Pieces: named polyominoes and polycubes, the standard sets, and their enumeration.

Nouns:
    Piece   a named, connected Shape (a puzzle block). Its name is what cards and solutions
            print; its shape is the orientation it was drawn in.
    preset  a named list of pieces (``pentominoes``, ``ubongo12``, ...).

Names: the domino ``I2`` (also ``domino``); trominoes ``I3 L3``; tetrominoes ``I4 O4 T4 S4 L4``
and their mirror images ``J4 Z4``; the pentominoes by their usual letters ``F I L N P T U V W
X Y Z``; the hexominoes ``H01``-``H35`` (in canonical order, see ``polyominoes``); the Soma
pieces ``soma_V soma_L soma_T soma_Z soma_A soma_B soma_P``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from solver.errors import ShapeError, UnknownPieceError
from solver.shapes import Shape, adjacent


@dataclass(frozen=True, slots=True)
class Piece:
    """A named puzzle block: a connected shape.

    Raises:
        ShapeError: the name is empty or the shape is not connected.
    """

    name: str
    shape: Shape

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ShapeError(f"a piece needs a non-empty name, got {self.name!r}")
        if not isinstance(self.shape, Shape):
            raise ShapeError(f"piece {self.name!r}: shape must be a Shape, got {type(self.shape).__name__}")
        if not self.shape.is_connected():
            picture = self.shape.format().replace("\n", "/")
            raise ShapeError(f"piece {self.name!r} is not connected: {picture}")
        object.__setattr__(self, "shape", self.shape.normalized())

    @property
    def size(self) -> int:
        return self.shape.size

    def __repr__(self) -> str:
        return f"Piece({self.name!r}, {self.shape!r})"


_PICTURES_2D: dict[str, str] = {
    "I2": "##",
    "I3": "###",
    "L3": "##\n#.",
    "I4": "####",
    "O4": "##\n##",
    "T4": "###\n.#.",
    "S4": ".##\n##.",
    "Z4": "##.\n.##",
    "L4": "###\n#..",
    "J4": "###\n..#",
    "F": ".##\n##.\n.#.",
    "I": "#####",
    "L": "####\n#...",
    "N": "##..\n.###",
    "P": "##\n##\n#.",
    "T": "###\n.#.\n.#.",
    "U": "#.#\n###",
    "V": "#..\n#..\n###",
    "W": "#..\n##.\n.##",
    "X": ".#.\n###\n.#.",
    "Y": "####\n.#..",
    "Z": "##.\n.#.\n.##",
}

# Soma pieces, as 3D layers (bottom first). soma_A and soma_B are each other's mirror image.
_PICTURES_3D: dict[str, str] = {
    "soma_V": "##\n#.",
    "soma_L": "###\n#..",
    "soma_T": "###\n.#.",
    "soma_Z": ".##\n##.",
    "soma_A": "##\n#.\n\n.#\n..",
    "soma_B": "##\n#.\n\n..\n#.",
    "soma_P": "##\n#.\n\n#.\n..",
}

#: Other names for pieces: the domino, and the names Ubongo gives its tiles (V3 is the L
#: tromino; the pentominoes carry their size).
ALIASES: dict[str, str] = {"domino": "I2", "V3": "L3", "Y5": "Y", "L5": "L", "P5": "P", "Z5": "Z", "N5": "N"}

PRESETS: dict[str, tuple[str, ...]] = {
    "tetrominoes": ("I4", "O4", "T4", "S4", "L4"),
    "pentominoes": ("F", "I", "L", "N", "P", "T", "U", "V", "W", "X", "Y", "Z"),
    "hexominoes": tuple(f"H{i:02d}" for i in range(1, 36)),
    "soma": ("soma_V", "soma_L", "soma_T", "soma_Z", "soma_A", "soma_B", "soma_P"),
    # Ubongo's twelve tiles: domino, I3, V3, the five tetrominoes, Y5, L5, P5, Z5
    "ubongo12": ("I2", "I3", "L3", "I4", "O4", "T4", "S4", "L4", "Y", "L", "P", "Z"),
}

# With flips off a piece cannot be turned over, so a set of free pieces gains the mirror
# images it needs to stay complete (the seven one-sided tetrominoes).
ONE_SIDED_EXTRAS: dict[str, tuple[str, ...]] = {"tetrominoes": ("J4", "Z4")}


def _grow(shapes: frozenset[Shape], flips: bool) -> frozenset[Shape]:
    bigger = set()
    for shape in shapes:
        for cell in shape.cells:
            for n in adjacent(cell):
                if n not in shape.cells:
                    bigger.add(Shape(shape.cells | {n}).canonical(flips))
    return frozenset(bigger)


@cache
def polyominoes(size: int, dim: int = 2, flips: bool = True) -> tuple[Shape, ...]:
    """Every connected shape of ``size`` cells, one canonical form per congruence class.

    Sorted by ``Shape.sort_key``. With flips: 1, 1, 2, 5, 12, 35 (2D) or 1, 1, 2, 7, 23 (3D)
    shapes for sizes 1-6 / 1-5; without flips the mirror images count apart (2D: 1, 1, 2, 7,
    18, 60; 3D: 1, 1, 2, 8, 29).

    Raises:
        ShapeError: size below 1 or dim not 2 or 3.
    """
    if size < 1:
        raise ShapeError(f"a polyomino has at least one cell, not {size}")
    if dim not in (2, 3):
        raise ShapeError(f"shapes have 2 or 3 dimensions, not {dim}")
    level = frozenset({Shape(frozenset({(0,) * dim}))})
    for _ in range(size - 1):
        level = _grow(level, flips)
    return tuple(sorted(level, key=Shape.sort_key))


@cache
def _named() -> dict[str, Piece]:
    table = {name: Piece(name, Shape.parse(p, dim=2)) for name, p in _PICTURES_2D.items()}
    table.update({name: Piece(name, Shape.parse(p, dim=3)) for name, p in _PICTURES_3D.items()})
    for i, shape in enumerate(polyominoes(6), start=1):
        table[f"H{i:02d}"] = Piece(f"H{i:02d}", shape)
    return table


def piece_names() -> tuple[str, ...]:
    """Every named piece Templeforge knows, in a stable order."""
    return tuple(_named())


def piece(name: str) -> Piece:
    """Look up a named piece (aliases such as ``domino`` included).

    Raises:
        UnknownPieceError: the name is not a known piece.
    """
    table = _named()
    key = ALIASES.get(name, name)
    if key not in table:
        raise UnknownPieceError(
            f"unknown piece {name!r}; known pieces: {', '.join(table)}; presets: {', '.join(PRESETS)}"
        )
    return table[key]


def preset(name: str, flips: bool = True) -> tuple[Piece, ...]:
    """The pieces of a named set. With ``flips=False``, sets whose members are not all
    mirror-symmetric gain the mirror images a one-sided set needs (see ONE_SIDED_EXTRAS).

    Raises:
        UnknownPieceError: the name is not a preset.
    """
    if name not in PRESETS:
        raise UnknownPieceError(f"unknown preset {name!r}; presets: {', '.join(PRESETS)}")
    names = PRESETS[name] + (() if flips else ONE_SIDED_EXTRAS.get(name, ()))
    return tuple(piece(n) for n in names)


def is_preset(name: str) -> bool:
    return name in PRESETS


def random_union(pieces: Sequence[Piece], rng: random.Random, flips: bool = True, compact: bool = True) -> Shape:
    """The pieces, each in a random orientation, laid one by one at a random free position
    touching the ones before: a connected region the pieces tile (maybe with holes).

    With ``compact`` a position is likelier the more of the region it touches (weight
    ``contact ** 4``), which keeps regions compact, as lock cards want; without it every
    touching position is equally likely (the benchmark's instances).
    """
    cells: set[tuple[int, ...]] = set(rng.choice(pieces[0].shape.orientations(flips)).cells)
    for piece in pieces[1:]:
        shape = rng.choice(piece.shape.orientations(flips))
        border = {n for c in cells for n in adjacent(c)} - cells
        spots = sorted({(br - r, bc - c) for br, bc in border for r, c in shape.cells})
        free = [d for d in spots if not any((r + d[0], c + d[1]) in cells for r, c in shape.cells)]
        if compact:
            contact = [sum(n in cells for r, c in shape.cells for n in adjacent((r + d[0], c + d[1])))
                       for d in free]
            d = rng.choices(free, weights=[k**4 for k in contact])[0]
        else:
            d = rng.choice(free)
        cells |= {(r + d[0], c + d[1]) for r, c in shape.cells}
    return Shape(frozenset(cells)).normalized()
