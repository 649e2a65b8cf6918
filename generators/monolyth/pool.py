"""Monolyth's components: the pieces in the bag, the singles, the player boards' edge colours
and the tokens.

The published inventory (80 plastic pieces with the singles), the structure drawings and the
token values are not public. ``DEFAULT`` is ours: in each of five colours two dominoes, two
straight and two bent triominoes, two each of the O and T tetrominoes and one each of the I,
S and L: 65 pieces in the bag (220 cubes), and three singles of each colour (80 pieces in
all, 235 cubes: four 4x4x3 monoliths take 192, and pieces are swapped for singles and the
ring's last pieces are left; with 50 pieces and 30 singles, 195 cubes, nearly every
4-player game ran out before anyone finished); five boards, each
with its four edges in a different four of the colours (each board leaves one out); 14
level tokens and 4 structure tokens with values of ours. A designer's own comes from TOML
(``read_pool``; see the documentation), with prophecy token values of their own if they like (else
the generator shares the box's prophecy tokens out by their chances).

Nouns:
    Pool    the title, the pieces (``solver.heightmap.Kind``: name, cells, colour, count),
            the singles per colour, the colours' RGB, the boards' edge colours (north, east,
            south, west), the level tokens and the structure tokens (largest first).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generators.common.errors import RequestError
from solver.errors import ShapeError
from solver.heightmap import Board, Kind, orientations
from solver.names import is_name, name_problems, problem
from solver.pieces import piece as named_piece
from solver.shapes import Shape

#: Our five colours, with their RGB (Okabe and Ito's, readable by colour-blind players).
COLOURS: tuple[tuple[str, str], ...] = (
    ("red", "#D55E00"), ("yellow", "#F0E442"), ("green", "#009E73"), ("blue", "#0072B2"), ("purple", "#CC79A7"))

COLOUR = re.compile(r"^#[0-9A-Fa-f]{6}$")
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9 _-]{0,23}$")

#: The board's footprint.
SIDE = 4

#: The sides of a board, in the order its edge colours are listed.
SIDES = ("north", "east", "south", "west")

#: How each kind of token looks, on paper and in plastic alike: its colour, and its outline,
#: so that the kinds differ in shape as well as colour (in the hand, on a one-colour plate, on
#: a greyscale print): a level token is round, a structure token a hexagon, a prophecy token
#: a square with rounded corners.
TOKEN_COLOURS = {"level": "#DCE3EA", "structure": "#E69F00", "prophecy": "#56B4E9"}
TOKEN_SHAPES = {"level": "round", "structure": "hexagon", "prophecy": "square"}


@dataclass(frozen=True, slots=True)
class Pool:
    """See the module docstring."""

    title: str
    pieces: tuple[Kind, ...]
    singles: tuple[tuple[str, int], ...]
    colours: tuple[tuple[str, str], ...]
    boards: tuple[tuple[str, str, str, str], ...]
    level_tokens: tuple[int, ...]
    structure_tokens: tuple[int, ...]
    prophecy_tokens: tuple[int, ...] = ()  # a designer's own values (else shared out by chance)

    @property
    def colour_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.colours)

    def rgb(self, colour: str) -> str:
        return dict(self.colours)[colour]

    @property
    def letters(self) -> dict[str, str]:
        """A letter per colour (``generators.common.palette.letters``)."""
        from generators.common.palette import letters

        return letters(self.colour_names)

    @property
    def cubes(self) -> int:
        """Cubes in the whole box: the pieces' and the singles'."""
        return sum(k.shape.size * (k.count or 0) for k in self.pieces) + sum(n for _, n in self.singles)

    def as_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "colours": {name: rgb for name, rgb in self.colours},
            "pieces": [{"name": k.name, "colour": k.colour, "count": k.count,
                        "cells": [list(c) for c in sorted(k.solid.cells, key=lambda c: (c[2], c[0], c[1]))]}
                       for k in self.pieces],
            "singles": {colour: n for colour, n in self.singles},
            "boards": [list(b) for b in self.boards],
            "level_tokens": list(self.level_tokens),
            "structure_tokens": list(self.structure_tokens),
            **({"prophecy_tokens": list(self.prophecy_tokens)} if self.prophecy_tokens else {}),
        }


def _default() -> Pool:
    counts = (("I2", 2), ("I3", 2), ("L3", 2), ("I4", 1), ("O4", 2), ("T4", 2), ("S4", 1), ("L4", 1))
    names = tuple(name for name, _ in COLOURS)
    pieces = tuple(Kind(name, named_piece(name).shape.lifted(), colour, n) for colour in names for name, n in counts)
    boards = tuple(tuple(c for c in names if c != left) for left in names)
    return Pool("ours", pieces, tuple((c, 3) for c in names), COLOURS, boards,  # type: ignore[arg-type]
                (8, 7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1), (10, 8, 6, 4))


DEFAULT = _default()


def pool_from(data: Mapping[str, Any], source: str, board: Board | None = None) -> Pool:
    """A pool from a TOML table (or a deck file's ``pool``); see the documentation for the fields.

    Raises:
        RequestError: every problem, each naming its field.
    """
    board = board or Board(SIDE, SIDE, 4)
    problems: list[str] = []
    known = {"title", "colours", "pieces", "singles", "boards", "level_tokens", "structure_tokens", "prophecy_tokens"}
    problems += [f"{source}: {k}: not a pool field (expected {', '.join(sorted(known))})"
                 for k in sorted(set(data) - known)]
    title = data.get("title", Path(source).stem if is_name(Path(source).stem) else "pool")
    if not isinstance(title, str) or not title.strip():
        problems.append(f"{source}: title: expected a name, got {title!r}")
        title = "pool"
    elif not is_name(title):
        problems.append(f"{source}: title: {problem(title)}")
        title = "pool"
    raw_colours = data.get("colours", dict(COLOURS))
    colours: list[tuple[str, str]] = []
    if not isinstance(raw_colours, Mapping) or not raw_colours:
        problems.append(f"{source}: colours: expected a table of colour names and \"#RRGGBB\" values")
    else:
        for name, rgb in raw_colours.items():
            if not NAME.match(str(name)):
                problems.append(f"{source}: colours: {name!r} is not a usable colour name")
            elif not (isinstance(rgb, str) and COLOUR.match(rgb)):
                problems.append(f"{source}: colours.{name}: expected \"#RRGGBB\", got {rgb!r}")
            else:
                colours.append((str(name), rgb.upper()))
    names = [n for n, _ in colours]
    problems += name_problems((f"{source}: colours", n) for n in names)  # the kit's file names hold them
    pieces = _pieces(data.get("pieces"), source, names, board, problems)
    problems += name_problems((f"{source}: pieces", n) for n in dict.fromkeys(k.name for k in pieces))
    singles = _singles(data.get("singles", {c: 0 for c in names}), source, names, problems)
    boards = _boards(data.get("boards"), source, names, problems)
    level = _tokens(data.get("level_tokens", DEFAULT.level_tokens), f"{source}: level_tokens", problems)
    structure = _tokens(data.get("structure_tokens", DEFAULT.structure_tokens), f"{source}: structure_tokens",
                        problems)
    prophecy = (_tokens(data["prophecy_tokens"], f"{source}: prophecy_tokens", problems)
                if "prophecy_tokens" in data else ())
    if problems:
        raise RequestError(problems)
    return Pool(title.strip(), pieces, singles, tuple(colours), boards, level, structure, tuple(sorted(prophecy)))


def _pieces(raw: Any, source: str, colours: Sequence[str], board: Board, problems: list[str]) -> tuple[Kind, ...]:
    if not isinstance(raw, list) or not raw:
        problems.append(f"{source}: pieces: expected a list of pieces ([[pieces]] tables with name, colour, count "
                        f"and cells or a known piece name)")
        return ()
    out: list[Kind] = []
    seen: set[tuple[str, str]] = set()
    for i, entry in enumerate(raw):
        where = f"{source}: pieces[{i + 1}]"
        if not isinstance(entry, Mapping):
            problems.append(f"{where}: expected a table with name, colour, count and cells")
            continue
        problems += [f"{where}: {k}: not a piece field (expected name, cells, colour, count)"
                     for k in sorted(set(entry) - {"name", "cells", "colour", "count"})]
        name = entry.get("name")
        if not isinstance(name, str) or not NAME.match(name) or name == "single":
            problems.append(f"{where}: name: expected a piece name (letters and digits; not 'single'), got {name!r}")
            continue
        colour = entry.get("colour")
        if not isinstance(colour, str) or colour not in colours:
            problems.append(f"{where}: colour: expected one of {', '.join(colours)}, got {colour!r}")
            continue
        count = entry.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 99:
            problems.append(f"{where}: count: expected a whole number 1-99, got {count!r}")
            continue
        if (name, colour) in seen:
            problems.append(f"{where}: {name} {colour} is listed twice (add to its count instead)")
            continue
        seen.add((name, colour))
        try:
            shape = _shape(entry.get("cells"), name)
        except (ShapeError, ValueError, TypeError) as err:
            problems.append(f"{where}: cells: {err}")
            continue
        if not 2 <= shape.size <= 6:
            problems.append(f"{where}: cells: a piece has 2 to 6 cubes (singles are listed under [singles]), "
                            f"got {shape.size}")
            continue
        kind = Kind(name, shape, colour, count)
        if not any(max(x for x, _, _ in o.cells) < board.width and max(y for _, y, _ in o.cells) < board.depth
                   and max(z for _, _, z in o.cells) < board.height for o in orientations(kind)):
            problems.append(f"{where}: {name} does not fit the {board.width}x{board.depth} board in any way")
            continue
        out.append(kind)
    return tuple(out)


def _shape(cells: Any, name: str) -> Shape:
    """Cells as ``[[x, y, z], ...]`` (or ``[[x, y], ...]`` lying flat), or a known piece's."""
    if cells is None:
        try:
            return named_piece(name).shape.lifted()
        except Exception:
            raise ValueError(f"expected [[x, y, z], ...] (or a known piece name such as L4), got none for {name!r}") \
                from None
    if not isinstance(cells, list) or not all(isinstance(c, list) and len(c) in (2, 3) and all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 8 for v in c) for c in cells):
        raise ValueError(f"expected [[x, y, z], ...] with coordinates 0-7, got {cells!r}")
    shape = Shape(frozenset(tuple(c) if len(c) == 3 else (c[0], c[1], 0) for c in cells)).normalized()
    if len(shape.cells) != len(cells):
        raise ValueError("a cell is listed twice")
    if not shape.is_connected():
        raise ValueError(f"the cubes of {name!r} are not a connected polycube (each must share a face with another)")
    return shape


def _singles(raw: Any, source: str, colours: Sequence[str], problems: list[str]) -> tuple[tuple[str, int], ...]:
    if not isinstance(raw, Mapping):
        problems.append(f"{source}: singles: expected a table of colour = count")
        return ()
    out = []
    for colour, n in raw.items():
        if colour not in colours:
            problems.append(f"{source}: singles.{colour}: not a colour of the pool ({', '.join(colours)})")
        elif isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 99:
            problems.append(f"{source}: singles.{colour}: expected a whole number 0-99, got {n!r}")
        else:
            out.append((str(colour), n))
    return tuple(sorted(out, key=lambda cn: list(colours).index(cn[0])))


def _boards(raw: Any, source: str, colours: Sequence[str],
            problems: list[str]) -> tuple[tuple[str, str, str, str], ...]:
    if raw is None:
        if len(colours) < 4:
            problems.append(f"{source}: boards: a board's four edges need four colours; the pool has {len(colours)}")
            return ()
        return tuple(tuple(c for c in colours if c != left)[:4] for left in colours)  # type: ignore[misc]
    if not isinstance(raw, list) or not raw:
        problems.append(f"{source}: boards: expected a list of boards, each four edge colours (north, east, south, "
                        f"west)")
        return ()
    out = []
    for i, board in enumerate(raw):
        if not (isinstance(board, list) and len(board) == 4 and all(c in colours for c in board)):
            problems.append(f"{source}: boards[{i + 1}]: expected four colours of the pool (north, east, south, "
                            f"west), got {board!r}")
            continue
        out.append((board[0], board[1], board[2], board[3]))
    return tuple(out)


def _tokens(raw: Any, where: str, problems: list[str]) -> tuple[int, ...]:
    if not (isinstance(raw, (list, tuple)) and raw and all(
            isinstance(v, int) and not isinstance(v, bool) and 0 < v < 100 for v in raw)):
        problems.append(f"{where}: expected a list of whole numbers 1-99, got {raw!r}")
        return ()
    return tuple(sorted(raw, reverse=True))


def read_pool(path: str | Path, board: Board | None = None) -> Pool:
    """A designer's pool from a TOML file (see ``pool_from``).

    Raises:
        RequestError: the file cannot be read or is not a pool (naming the field).
    """
    from solver.textfiles import parse_toml, read_text

    text = read_text(path, RequestError)
    return pool_from(parse_toml(text, str(path), RequestError), str(path), board)


def parse_pool(value: Any, name: str) -> Pool:
    """The ``pool`` option: ``ours`` or a TOML file."""
    if isinstance(value, Pool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("ours", "default"):
        return DEFAULT
    if isinstance(value, str) and value.strip():
        return read_pool(value)
    raise RequestError(f"{name}: expected `ours` or a pool TOML file, got {value!r}")
