"""Structure cards' targets: a height per column of the 4x4 board, ``.`` for any.

A target is written as rows from the board's north edge (y = 0) to its south edge, each row
from west (x = 0) to east: ``["3333", "1111", "1111", "1111"]`` is one complete level plus a
complete wall on the north side at height 3. ``symmetries`` are the board's eight turns and
mirror images; with turning allowed, a build that matches any of them earns the card.

A card may also ask for colours: ``{"red": [[x, y, z], ...], ...}``, each cube of the target
named by its column (x from the west, y from the north, as in a witness) and its level (z
from 0 at the floor); a cube not named may be any colour. ``key`` tells two cards apart,
colours included, up to the board's symmetries when turning is allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from generators.common.errors import RequestError
from solver.heightmap import CONTAIN, Board, Cube, Target

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


def colours_from(raw: Any, target: Target, board: Board, names: Sequence[str], where: str) -> Target:
    """``target`` with the colours ``raw`` asks for (see the module docstring).

    Raises:
        RequestError: a colour the pool does not have, a cube outside the board or not part
            of the target (above its height, or in a free column), a cube named twice;
            each naming ``where`` and the colour.
    """
    if not isinstance(raw, Mapping) or not raw:
        raise RequestError(f"{where}: expected a table of colour names, each with its cubes [[x, y, z], ...]")
    problems: list[str] = []
    seen: dict[Cube, str] = {}
    for colour, cubes in raw.items():
        here = f"{where}.{colour}"
        if colour not in names:
            problems.append(f"{here}: not a colour of the pool ({', '.join(names)})")
            continue
        if not isinstance(cubes, list) or not cubes:
            problems.append(f"{here}: expected a list of cubes [[x, y, z], ...]")
            continue
        for cube in cubes:
            if not (isinstance(cube, list) and len(cube) == 3 and all(type(v) is int for v in cube)):
                problems.append(f"{here}: {cube!r} is not a cube [x, y, z]")
                continue
            x, y, z = cube
            if not (0 <= x < board.width and 0 <= y < board.depth and 0 <= z < board.height):
                problems.append(f"{here}: cube {cube} is outside the {board.width}x{board.depth}x{board.height} space")
                continue
            h = target.heights[board.column(x, y)]
            if h is None or z >= h:
                what = "a free column" if h is None else f"a column of height {h}"
                problems.append(f"{here}: cube {cube} is not part of the structure (it is in {what})")
                continue
            if (x, y, z) in seen:
                problems.append(f"{here}: cube {cube} is also {seen[(x, y, z)]}")
                continue
            seen[(x, y, z)] = str(colour)
    if problems:
        raise RequestError(problems)
    return Target(target.heights, tuple(sorted(seen.items(), key=lambda item: (item[0][2], item[0][1], item[0][0]))),
                  target.rule)


def colours_json(target: Target, names: Sequence[str]) -> dict[str, list[list[int]]]:
    """The target's colours as the deck stores them: by colour in the pool's order, each
    colour's cubes level by level, north-west first."""
    out: dict[str, list[list[int]]] = {}
    order = {name: i for i, name in enumerate(names)}
    for cube, colour in sorted(target.colours, key=lambda item: (order.get(item[1], len(order)), item[1],
                                                                  item[0][2], item[0][1], item[0][0])):
        out.setdefault(colour, []).append(list(cube))
    return out


def colour_rows(target: Target, board: Board, letter: Mapping[str, str]) -> list[list[str]]:
    """Per level from the floor (only those that ask for a colour), rows from the north of
    each cube's colour letter: ``.`` for a cube of any colour, a space where there is none."""
    at = target.colour_at()
    top = max((z for (_, _, z), _ in target.colours), default=-1)
    out = []
    for z in range(top + 1):
        rows = []
        for y in range(board.depth):
            row = ""
            for x in range(board.width):
                h = target.heights[board.column(x, y)]
                row += letter[at[(x, y, z)]] if (x, y, z) in at else (ANY if h is not None and z < h else " ")
            rows.append(row)
        out.append(rows)
    return out


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


def _points(board: Board) -> list[Callable[[int, int], tuple[int, int]]]:
    """The square board's eight symmetries as maps of a column (x, y): four turns, then each
    after a mirror."""
    n = board.width - 1

    def turned(k: int, mirror: bool) -> Callable[[int, int], tuple[int, int]]:
        def f(x: int, y: int) -> tuple[int, int]:
            if mirror:
                x = n - x
            for _ in range(k):
                x, y = n - y, x
            return x, y
        return f

    return [turned(k, mirror) for mirror in (False, True) for k in range(4)]


def key(target: Target, board: Board, turn: bool) -> tuple[Any, ...]:
    """What tells two cards apart: heights and colours, the least of their symmetries when
    ``turn``."""
    maps = _points(board) if turn else _points(board)[:1]
    forms = []
    for f in maps:
        heights: list[int] = [0] * board.columns
        for y in range(board.depth):
            for x in range(board.width):
                h = target.heights[board.column(x, y)]
                u, v = f(x, y)
                heights[board.column(u, v)] = -1 if h is None else h
        colours = tuple(sorted(((*f(x, y), z), colour) for (x, y, z), colour in target.colours))
        forms.append((tuple(heights), colours))
    return min(forms)


def canonical(heights: Sequence[int | None], board: Board, turn: bool) -> tuple[int | None, ...]:
    """The least of the heights' symmetries (``turn``) or the heights themselves."""
    forms = symmetries(heights, board) if turn else [tuple(heights)]
    return min(forms, key=lambda f: tuple(-1 if v is None else v for v in f))


def colour_words(target: Target, board: Board, letters: Mapping[str, str]) -> list[str]:
    """What a card asks of colours, in words, one phrase per colour: ``the north wall red (R)``
    when the colour's cubes are every cube of the structure on one side's edge, ``level 2
    blue (B)`` when they are a whole level, else ``1 cube yellow (Y) at level 1 (the map's
    bands)``."""
    cubes = [(x, y, z) for y in range(board.depth) for x in range(board.width)
             for z in range(target.heights[board.column(x, y)] or 0)]
    n = board.width - 1
    sides: dict[str, Callable[[int, int], bool]] = {
        "north": lambda x, y: y == 0, "east": lambda x, y: x == n, "south": lambda x, y: y == n,
        "west": lambda x, y: x == 0}
    out = []
    for colour in dict.fromkeys(c for _, c in target.colours):
        mine = {cube for cube, c in target.colours if c == colour}
        named = f"{colour} ({letters[colour]})"
        wall = next((side for side, on in sides.items() if mine == {q for q in cubes if on(q[0], q[1])}), None)
        levels = {z for _, _, z in mine}
        if wall is not None:
            out.append(f"every cube of the {wall} wall {named}")
        elif len(levels) == 1 and mine == {q for q in cubes if q[2] in levels}:
            out.append(f"every cube of level {min(levels) + 1} {named}")
        else:
            at = ", ".join(str(z + 1) for z in sorted(levels))
            what = f"{len(mine)} {'cube' if len(mine) == 1 else 'cubes'} {named}"
            out.append(f"{what} at level{'s' if len(levels) > 1 else ''} {at} (the map's bands)")
    return out
