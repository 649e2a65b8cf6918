"""Puzzle files: a tiling puzzle written as TOML.

    title  = "Pentominoes in a 6x10 box"   # optional
    region = '''
    ##########
    ##########
    '''                                     # an ASCII picture; 3D: layers, bottom first
    pieces = ["pentominoes", "L4", { name = "Q", shape = "##\\n#.", count = 2 }]
    flips  = true                           # optional: 2D default true; 3D default false
    mode   = "all"                          # optional: "all" (default) or "subset"

``pieces`` lists piece names, preset names and inline tables; a table has ``name`` and may
have ``shape`` (a picture; without it the name must be a known piece) and ``count`` (copies,
default 1). Every problem in a file is reported at once, each naming the file and the field
(and, for pictures, the line in the file).
"""

from __future__ import annotations

import re
from pathlib import Path

from solver import names
from solver.errors import ParseError, ShapeError, TempleforgeError, UnknownPieceError
from solver.pieces import Piece, is_preset, piece, preset
from solver.puzzle import Mode, Puzzle
from solver.shapes import Shape
from solver.textfiles import parse_toml, read_text

KEYS = ("title", "region", "pieces", "flips", "mode")

#: The most copies of one piece a file may ask for (each is a piece to place: far more than
#: any region this tool solves can hold).
MAX_COPIES = 1000

#: The most cells a region may have (a board game's regions have tens; CP-SAT's model for
#: thousands already takes seconds to build, before any time limit applies).
MAX_REGION_CELLS = 4096

#: The largest puzzle file read, in bytes.
MAX_BYTES = 1024 * 1024
PIECE_KEYS = ("name", "shape", "count")


class PuzzleFileError(TempleforgeError, ValueError):
    """A puzzle file could not be read; the message names the file and every bad field."""


def _picture_start(text: str, key: str) -> int | None:
    """The file line on which the picture assigned to ``key`` begins (its line 1), if the
    key is written as ``key = '''...`` or ``key = \"\"\"...`` at the start of a line."""
    for number, line in enumerate(text.split("\n"), start=1):
        m = re.match(rf"\s*{re.escape(key)}\s*=\s*(\"\"\"|''')(.*)$", line)
        if m:
            return number + 1 if not m.group(2).strip() else number
    return None


def _parse_picture(value: object, field: str, text: str, problems: list[str]) -> Shape | None:
    if not isinstance(value, str):
        problems.append(f"field '{field}': expected an ASCII picture (a string), got {_kind(value)}")
        return None
    try:
        return Shape.parse(value)
    except ParseError as err:
        where = ""
        start = _picture_start(text, field) if field.isidentifier() else None
        if err.line is not None:
            where = (f" (file line {start + err.line - 1})" if start is not None
                     else f" (picture line {err.line})")
        column = f", column {err.column}" if err.column is not None and err.line is not None else ""
        problems.append(f"field '{field}'{where}{column}: {err.message}")
        return None


def _kind(value: object) -> str:
    names = {bool: "a boolean", int: "a number", float: "a number", str: "a string",
             list: "a list", dict: "a table"}
    return names.get(type(value), type(value).__name__)


def _pieces(value: object, text: str, problems: list[str]) -> list[Piece]:
    if not isinstance(value, list) or not value:
        problems.append(f"field 'pieces': expected a non-empty list of piece names, preset names "
                        f"and tables, got {_kind(value) if value != [] else 'an empty list'}")
        return []
    out: list[Piece] = []
    for i, item in enumerate(value, start=1):  # counted from 1, as a designer counts
        field = f"pieces[{i}]"
        if isinstance(item, str):
            try:
                out.extend(preset(item) if is_preset(item) else [piece(item)])
            except UnknownPieceError:
                problems.append(f"field '{field}': unknown piece or preset {item!r} "
                                f"(`templeforge shapes` lists them)")
            continue
        if not isinstance(item, dict):
            problems.append(f"field '{field}': expected a piece name or a table, got {_kind(item)}")
            continue
        unknown = sorted(set(item) - set(PIECE_KEYS))
        if unknown:
            problems.append(f"field '{field}': unknown key(s) {', '.join(unknown)} "
                            f"(expected {', '.join(PIECE_KEYS)})")
        name = item.get("name")
        if not isinstance(name, str) or not name.strip():
            problems.append(f"field '{field}.name': expected a non-empty string, got "
                            f"{_kind(name) if name is not None else 'nothing'}")
            continue
        why = names.problem(name)  # a block's name becomes its file's name
        if why is not None:
            problems.append(f"field '{field}.name': {why}")
            continue
        count = item.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_COPIES:
            problems.append(f"field '{field}.count': expected a whole number from 1 to {MAX_COPIES}, "
                            f"got {count!r}")
            continue
        if "shape" in item:
            # one block of rows is a flat piece (it turns in 3D in a 3D region); layers make 3D
            shape = _parse_picture(item["shape"], f"{field}.shape", text, problems)
            if shape is None:
                continue
            try:
                made = Piece(name, shape)
            except ShapeError as err:
                problems.append(f"field '{field}.shape': {err}")
                continue
        else:
            try:
                made = piece(name)
            except UnknownPieceError:
                problems.append(f"field '{field}.name': unknown piece {name!r}; give it a 'shape'")
                continue
        out.extend([made] * count)
    distinct = list(dict.fromkeys(p.name for p in out))
    problems.extend(f"field 'pieces': {why}" for why in names.name_problems(("name", n) for n in distinct))
    return out


def parse_puzzle(text: str, source: str = "<puzzle>") -> Puzzle:
    """Read a puzzle from TOML text.

    Args:
        text: the file's contents.
        source: the file name to put in error messages.

    Raises:
        PuzzleFileError: invalid TOML, unknown keys, wrong types, a malformed picture, an
            unknown piece, an empty region, ...; every problem found, in one message.
    """
    data = _toml(text, source)
    problems = _unknown_keys(data, KEYS)
    if "title" in data and not isinstance(data["title"], str):
        problems.append(f"field 'title': expected a string, got {_kind(data['title'])}")
    region = None
    if "region" not in data:
        problems.append("field 'region' is missing: expected an ASCII picture of the cells to cover")
    else:
        raw = data["region"]
        if isinstance(raw, str) and "#" not in raw and all(ch in ".\n\t \r" for ch in raw):
            problems.append("field 'region': the region is empty: draw its cells with '#'")
        else:
            region = _parse_picture(raw, "region", text, problems)
            if region is not None and region.size > MAX_REGION_CELLS:
                problems.append(f"field 'region': {region.size} cells, more than the {MAX_REGION_CELLS} "
                                f"a puzzle may have")
                region = None
    # flat pieces can be turned over; solid pieces cannot be mirrored in the hand
    flips = data.get("flips", region is None or region.dim == 2)
    if not isinstance(flips, bool):
        problems.append(f"field 'flips': expected true or false, got {flips!r}")
    mode = data.get("mode", "all")
    if mode not in [m.value for m in Mode]:
        problems.append(f"field 'mode': expected \"all\" or \"subset\", got {mode!r}")
    pieces = _required_pieces(data, text, problems)
    if region is not None and region.dim == 2:
        flat = [p.name for p in pieces if p.shape.dim == 3]
        if flat:
            problems.append(f"field 'pieces': 3D piece(s) {', '.join(sorted(set(flat)))} in a 2D region")
    if not problems and region is not None:
        try:
            return Puzzle(region, tuple(pieces), flips=bool(flips), mode=Mode(mode))
        except ShapeError as err:
            problems.append(f"field 'pieces': {err}")
    raise PuzzleFileError(f"{source}: " + "; ".join(problems))


def load_puzzle(path: str | Path) -> Puzzle:
    """Read a puzzle file (see the module docstring).

    Raises:
        PuzzleFileError: the file cannot be read or is not a valid puzzle.
    """
    path = Path(path)
    return parse_puzzle(_read(path), str(path))


def _read(path: Path) -> str:
    return read_text(path, PuzzleFileError, max_bytes=MAX_BYTES)


def _toml(text: str, source: str) -> dict[str, object]:
    return parse_toml(text, source, PuzzleFileError)


def _unknown_keys(data: dict[str, object], keys: tuple[str, ...]) -> list[str]:
    unknown = sorted(set(data) - set(keys))
    return [f"unknown key(s) {', '.join(unknown)} (expected {', '.join(keys)})"] if unknown else []


def _required_pieces(data: dict[str, object], text: str, problems: list[str]) -> list[Piece]:
    if "pieces" not in data:
        problems.append("field 'pieces' is missing: expected a list of piece names, presets and tables")
        return []
    return _pieces(data["pieces"], text, problems)


BLOCK_KEYS = ("title", "pieces")


def load_blocks(path: str | Path) -> tuple[Piece, ...]:
    """Read a block-set file: TOML with ``pieces`` (as in a puzzle file) and an optional
    ``title``.

    Raises:
        PuzzleFileError: the file cannot be read, or a key or piece is wrong (every problem,
            each naming the field).
    """
    path = Path(path)
    text = _read(path)
    data = _toml(text, str(path))
    problems = _unknown_keys(data, BLOCK_KEYS)
    pieces = _required_pieces(data, text, problems)
    title = data.get("title")
    if title is not None and not isinstance(title, str):
        problems.append(f"field 'title': expected a string, got {_kind(title)}")
    flat = sorted({p.name for p in pieces if p.shape.dim == 3})
    if flat:
        problems.append(f"field 'pieces': 3D piece(s) {', '.join(flat)}: blocks must be flat")
    if problems:
        raise PuzzleFileError(f"{path}: " + "; ".join(problems))
    return tuple(pieces)
