"""Pattern cards' windows: up to 3x3 cells, each a tile face or blank (any tile).

A window is rows of face numbers (``TileSet.faces`` order) or None for a blank. It must show
in the grid exactly as drawn, never turned or mirrored, anywhere it fits; a 3x3 window fits
only one way, so it fixes every position. Windows are written as rows of face names and
``any`` in deck files, and as text on the command line: rows split by ``/`` (or new lines),
cells by spaces, each a face name, its letter, or ``any``, ``.`` or ``-`` for a blank::

    Sun any Fish / Boat Seed any        S . F / B Se .
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from generators.common.errors import RequestError
from generators.shifting_stones.tiles import ANY, TileSet

SIDE = 3
#: Where a window's stones lie: rows of cells, True a stone.
Layout = tuple[tuple[bool, ...], ...]
BLANKS = (ANY, ".", "-", "_")


@dataclass(frozen=True, slots=True)
class Pattern:
    """A window: ``rows`` of face numbers, None for a blank."""

    rows: tuple[tuple[int | None, ...], ...]

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def fixed(self) -> tuple[int, ...]:
        """The faces the window asks for, in reading order."""
        return tuple(f for row in self.rows for f in row if f is not None)

    @property
    def stones(self) -> int:
        return len(self.fixed)

    @property
    def shape(self) -> str:
        """The window's shape without its faces: ``#`` a stone, ``.`` a blank, rows by ``/``."""
        return "/".join("".join("." if f is None else "#" for f in row) for row in self.rows)

    def names(self, tiles: TileSet) -> list[list[str]]:
        """The rows as face names and ``any`` (the deck file's form)."""
        return [[ANY if f is None else tiles.faces[f] for f in row] for row in self.rows]

    def text(self, tiles: TileSet) -> str:
        """One line: ``Sun any Fish / Boat Seed any``."""
        return " / ".join(" ".join(row) for row in self.names(tiles))

    def picture(self, tiles: TileSet) -> str:
        """Rows of face letters, ``.`` for a blank."""
        letters = tiles.letters()
        return "\n".join("".join("." if f is None else letters[f] for f in row) for row in self.rows)

    def places(self, grid: Sequence[int]) -> tuple[int, ...] | None:
        """The places (0-8, reading order) of the window's stones where a grid of nine faces
        first shows it, or None if it does not."""
        for r0 in range(SIDE - self.height + 1):
            for c0 in range(SIDE - self.width + 1):
                cells = [((r0 + r) * SIDE + c0 + c, f) for r, row in enumerate(self.rows)
                         for c, f in enumerate(row) if f is not None]
                if all(grid[p] == f for p, f in cells):
                    return tuple(p for p, _ in cells)
        return None

    def tiles_needed(self, tiles: TileSet) -> Counter[int]:
        """Tiles of each type the window needs face up (a type's two faces share its tiles)."""
        return Counter(f // 2 for f in self.fixed)

    def fits(self, tiles: TileSet) -> bool:
        """Whether the set has enough tiles of each type: then some grid shows the window."""
        return self.shortage(tiles) is None

    def shortage(self, tiles: TileSet) -> str | None:
        """Why no grid can show the window (too few tiles of a type), or None if one can."""
        for t, n in sorted(self.tiles_needed(tiles).items()):
            if n > tiles.counts[t]:
                tile = tiles.tiles[t]
                return f"it needs {n} {tile.name} tiles face up, the set has {tile.count}"
        return None


def pattern_from(rows: Sequence[Sequence[str]], tiles: TileSet, where: str) -> Pattern:
    """A window from rows of face names (or letters) and blanks.

    Raises:
        RequestError: an unknown face, a window larger than 3x3, ragged rows or no face,
            naming ``where`` (and the row and column).
    """
    problems = []
    if not rows or len(rows) > SIDE:
        raise RequestError(f"{where}: a window has 1 to {SIDE} rows, got {len(rows)}")
    widths = {len(r) for r in rows}
    if len(widths) != 1:
        counts = ", ".join(str(len(r)) for r in rows)
        raise RequestError(f"{where}: every row needs the same number of cells, got {counts}")
    width = widths.pop()
    if not 1 <= width <= SIDE:
        raise RequestError(f"{where}: a window has 1 to {SIDE} columns, got {width}")
    letters = {ch.lower(): i for i, ch in enumerate(tiles.letters())}
    out = []
    for r, row in enumerate(rows):
        cells: list[int | None] = []
        for c, cell in enumerate(row):
            name = cell.strip() if isinstance(cell, str) else cell
            if not isinstance(name, str):
                problems.append(f"{where}: row {r + 1}, column {c + 1}: expected a face name, got {cell!r}")
                cells.append(None)
                continue
            if name.lower() in BLANKS:
                cells.append(None)
                continue
            try:
                cells.append(tiles.face_id(name))
            except KeyError:
                if name.lower() in letters:
                    cells.append(letters[name.lower()])
                else:
                    problems.append(f"{where}: row {r + 1}, column {c + 1}: unknown face {name!r} (faces: "
                                    f"{', '.join(tiles.faces)}, or {ANY})")
                    cells.append(None)
        out.append(tuple(cells))
    if problems:
        raise RequestError(problems)
    pattern = Pattern(tuple(out))
    if not pattern.fixed:
        raise RequestError(f"{where}: the window shows no stone (every cell is {ANY})")
    return pattern


def split_rows(text: str, tiles: TileSet) -> list[list[str]]:
    """``"Sun any Fish / Boat Seed any"`` (or lines) as rows of cells; a row written as one
    word that is not a face (``SF.``) is read a letter per cell."""
    rows = [r for r in re.split(r"[/\n;]", text) if r.strip()]
    out = []
    for row in rows:
        cells = row.split()
        word = cells[0] if len(cells) == 1 else ""
        letters = {ch.lower() for ch in tiles.letters()} | {".", "-", "_"}
        if 1 < len(word) <= SIDE and word.lower() not in BLANKS and all(ch.lower() in letters for ch in word):
            try:
                tiles.face_id(word)
            except KeyError:
                cells = list(word)
        out.append(cells)
    return out


def parse_pattern(text: str, tiles: TileSet, where: str) -> Pattern:
    """A window written as text (see the module docstring)."""
    return pattern_from(split_rows(text, tiles), tiles, where)


def parse_grid(text: str, tiles: TileSet, where: str) -> tuple[int, ...]:
    """A whole grid, 3x3 faces without blanks, as nine face numbers in reading order.

    Raises:
        RequestError: not 3x3, a blank, an unknown face, or stones the set does not have.
    """
    pattern = parse_pattern(text, tiles, where)
    if pattern.height != SIDE or pattern.width != SIDE or pattern.stones != SIDE * SIDE:
        raise RequestError(f"{where}: a grid is 3 rows of 3 faces, no blanks (like 'Sun Fish Bird / Horse "
                           f"Boat Seed / Tree Seed Horse')")
    faces = pattern.fixed
    used = Counter(f // 2 for f in faces)
    for t, tile in enumerate(tiles.tiles):
        if used[t] != tile.count:
            raise RequestError(f"{where}: the grid holds {used[t]} {tile.name} tile(s), the set has {tile.count}")
    return faces
