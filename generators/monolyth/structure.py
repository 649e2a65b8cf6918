"""Structure cards' targets: a height per column of the 4x4 board, ``.`` for any.

A target is written as rows from the board's north edge (y = 0) to its south edge, each row
from west (x = 0) to east: ``["3333", "1111", "1111", "1111"]`` is one complete level plus a
complete wall on the north side at height 3. ``symmetries`` are the board's eight turns and
mirror images; with turning allowed, a build that matches any of them earns the card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from generators.common.errors import RequestError
from solver.heightmap import CONTAIN, Board, Target

ANY = "."


def target_from(rows: Any, board: Board, rule: str, where: str) -> Target:
    """A target from rows of digits and ``.``.

    Raises:
        RequestError: not ``board.depth`` rows of ``board.width`` cells, a digit above the
            height limit, or (``equal``) nothing asked at all, naming ``where``.
    """
    if isinstance(rows, str):
        rows = rows.replace("/", "\n").split()
    if not (isinstance(rows, list) and all(isinstance(r, str) for r in rows)):
        raise RequestError(f"{where}: expected {board.depth} rows of {board.width} heights like \"3333\", got {rows!r}")
    if len(rows) != board.depth or any(len(r) != board.width for r in rows):
        raise RequestError(f"{where}: expected {board.depth} rows of {board.width} heights (digits or '.'), got "
                           f"{'/'.join(rows)!r}")
    heights: list[int | None] = []
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch == ANY:
                heights.append(None)
            elif ch.isdigit() and int(ch) <= board.height:
                heights.append(int(ch))
            else:
                raise RequestError(f"{where}: row {y + 1}, column {x + 1}: expected a height 0-{board.height} or "
                                   f"'.', got {ch!r}")
    if all(h is None or (h == 0 and rule == CONTAIN) for h in heights):
        raise RequestError(f"{where}: the target asks for nothing: every column is '.'"
                           + (" or 0" if rule == CONTAIN else ""))
    return Target(tuple(heights), (), rule)


def rows_of(target: Target, board: Board) -> list[str]:
    return ["".join(ANY if (h := target.heights[board.column(x, y)]) is None else str(h) for x in range(board.width))
            for y in range(board.depth)]


def symmetries(heights: Sequence[int | None], board: Board) -> list[tuple[int | None, ...]]:
    """The heights under the square board's four turns and their mirror images (each once)."""
    n = board.width
    grid = [[heights[y * n + x] for x in range(n)] for y in range(n)]
    out: list[tuple[int | None, ...]] = []
    for mirror in (False, True):
        g = [row[::-1] for row in grid] if mirror else grid
        for _ in range(4):
            g = [[g[n - 1 - x][y] for x in range(n)] for y in range(n)]  # a quarter turn
            flat = tuple(v for row in g for v in row)
            if flat not in out:
                out.append(flat)
    return out


def canonical(heights: Sequence[int | None], board: Board, turn: bool) -> tuple[int | None, ...]:
    """The least of the heights' symmetries (``turn``) or the heights themselves."""
    forms = symmetries(heights, board) if turn else [tuple(heights)]
    return min(forms, key=lambda f: tuple(-1 if v is None else v for v in f))
