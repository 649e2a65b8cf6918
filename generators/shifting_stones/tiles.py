"""Tile sets: the double-sided stones that lie in the 3x3 grid.

A tile has a name, two faces (the side up and the side down) and a count; the counts fill
the nine places. The published set is Sun/Moon x1, Fish/Bird x2, Horse/Boat x3 and
Seed/Tree x3: eight faces. A designer's own set is a TOML file::

    title = "Seasons"
    [[tiles]]
    faces = ["Spring", "Autumn"]
    count = 3
    colours = ["#009E73", "#D55E00"]     # optional, one per face

Face names are unique across the set, never ``any`` (a pattern's blank), and each has a
one-letter symbol (its first letter, unless two faces share one: then the first letter not
taken) for text pictures and greyscale printing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generators.common.errors import RequestError
from generators.common.palette import PALETTE, colour_name
from solver.names import is_name, problem, slug

PLACES = 9
ANY = "any"
COLOUR = re.compile(r"^#[0-9A-Fa-f]{6}$")

#: The colours a face may be given by default: the palette but its grey, which on a card
#: reads as "any stone".
FACES = tuple(c for c in PALETTE if colour_name(c) != "grey")
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9 _.-]{0,23}$")


@dataclass(frozen=True, slots=True)
class Tile:
    """A stone: ``faces`` (up side first), how many lie in the grid, and a colour per face."""

    faces: tuple[str, str]
    count: int
    colours: tuple[str, str]

    @property
    def name(self) -> str:
        return "/".join(self.faces)


@dataclass(frozen=True, slots=True)
class TileSet:
    """The stones of a game, in a fixed order (tile types 0, 1, ...)."""

    title: str
    tiles: tuple[Tile, ...]

    @property
    def faces(self) -> tuple[str, ...]:
        """Every face, in tile order: face ``2 t + side`` is tile ``t``'s side ``side``."""
        return tuple(f for t in self.tiles for f in t.faces)

    @property
    def counts(self) -> tuple[int, ...]:
        return tuple(t.count for t in self.tiles)

    def face_id(self, name: str) -> int:
        """The index of a face by name (case does not matter).

        Raises:
            KeyError: no such face.
        """
        lowered = name.strip().lower()
        for i, face in enumerate(self.faces):
            if face.lower() == lowered:
                return i
        raise KeyError(name)

    def colour(self, face: int) -> str:
        return self.tiles[face // 2].colours[face % 2]

    def letters(self) -> tuple[str, ...]:
        """A one-character symbol per face: its first letter, else the first letter of its
        name not taken, upper case."""
        out: list[str] = []
        for face in self.faces:
            letter = next((ch.upper() for ch in face if ch.isalpha() and ch.upper() not in out), None)
            if letter is None:
                letter = next(ch for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if ch not in out)
            out.append(letter)
        return tuple(out)

    def as_json(self) -> dict[str, Any]:
        return {"title": self.title, "tiles": [{"faces": list(t.faces), "count": t.count, "colours": list(t.colours)}
                                               for t in self.tiles]}


#: The colours of the published set's faces: a pair per tile, light and dark of one hue
#: family where the palette allows, so that a tile's two sides read as one stone.
PUBLISHED = TileSet("published", (
    Tile(("Sun", "Moon"), 1, ("#F0E442", "#0072B2")),
    Tile(("Fish", "Bird"), 2, ("#56B4E9", "#CC79A7")),
    Tile(("Horse", "Boat"), 3, ("#8C564B", "#6A3D9A")),
    Tile(("Seed", "Tree"), 3, ("#E69F00", "#009E73")),
))


def tile_set_from(data: Mapping[str, Any], source: str) -> TileSet:
    """A tile set from a TOML table (or a deck file's ``tiles``).

    Raises:
        RequestError: every problem, each naming its field.
    """
    problems: list[str] = []
    title = data.get("title", Path(source).stem if is_name(Path(source).stem) else "tiles")
    if not isinstance(title, str) or not title.strip():
        problems.append(f"{source}: title: expected a name, got {title!r}")
        title = "tiles"
    elif not is_name(title):
        problems.append(f"{source}: title: {problem(title)}")
        title = "tiles"
    unknown = sorted(set(data) - {"title", "tiles"})
    problems += [f"{source}: {k}: not a tile set field (expected title, tiles)" for k in unknown]
    raw = data.get("tiles")
    if not isinstance(raw, list) or not raw:
        raise RequestError(problems + [f"{source}: tiles: expected a list of tiles ([[tiles]] tables)"])
    tiles = []
    seen: dict[str, str] = {}
    colour_at = 0
    for i, entry in enumerate(raw):
        where = f"{source}: tiles[{i + 1}]"
        if not isinstance(entry, dict):
            problems.append(f"{where}: expected a table with faces and count")
            continue
        extra = sorted(set(entry) - {"faces", "count", "colours"})
        problems += [f"{where}: {k}: not a tile field (expected faces, count, colours)" for k in extra]
        faces = entry.get("faces")
        if not (isinstance(faces, list) and len(faces) == 2 and all(isinstance(f, str) for f in faces)):
            problems.append(f"{where}: faces: expected two names, got {faces!r}")
            continue
        for face in faces:
            if not is_name(face):
                problems.append(f"{where}: faces: {problem(face)}")
            elif not NAME.match(face) or face.lower() == ANY:
                problems.append(f"{where}: faces: {face!r} is not a usable face name (a letter, then letters, "
                                f"digits, spaces, '-', '_' or '.', at most 24; not {ANY!r})")
            elif slug(face).lower() in seen:
                problems.append(f"{where}: faces: {face!r} is already a face of {seen[slug(face).lower()]} "
                                f"(face names must differ by more than case, space or '-')")
            else:
                seen[slug(face).lower()] = f"tiles[{i + 1}]"
        count = entry.get("count")
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= PLACES:
            problems.append(f"{where}: count: expected a whole number 1-{PLACES}, got {count!r}")
            count = 1
        colours = entry.get("colours")
        if colours is None:
            colours = [FACES[colour_at % len(FACES)], FACES[(colour_at + 1) % len(FACES)]]
        elif not (isinstance(colours, list) and len(colours) == 2 and all(isinstance(c, str) and COLOUR.match(c)
                                                                          for c in colours)):
            problems.append(f"{where}: colours: expected two colours like \"#E69F00\", got {colours!r}")
            colours = ["#000000", "#000000"]
        colour_at += 2
        tiles.append(Tile((faces[0], faces[1]), count, (colours[0].upper(), colours[1].upper())))
    total = sum(t.count for t in tiles)
    if not problems and total != PLACES:
        problems.append(f"{source}: tiles: the counts add up to {total}, not the grid's {PLACES} places")
    if problems:
        raise RequestError(problems)
    return TileSet(title.strip(), tuple(tiles))


def read_tiles(path: str | Path) -> TileSet:
    """A designer's tile set from a TOML file.

    Raises:
        RequestError: the file cannot be read or is not a tile set (naming the field).
    """
    from solver.textfiles import parse_toml, read_text

    text = read_text(path, RequestError)
    return tile_set_from(parse_toml(text, str(path), RequestError), str(path))


def parse_tile_set(value: Any, name: str) -> TileSet:
    """The ``tiles`` option: ``published`` or a TOML file."""
    if isinstance(value, TileSet):
        return value
    if isinstance(value, str) and value.strip().lower() == "published":
        return PUBLISHED
    if isinstance(value, str) and value.strip():
        return read_tiles(value)
    raise RequestError(f"{name}: expected `published` or a tile set TOML file, got {value!r}")


def names(tiles: TileSet, faces: Sequence[int]) -> list[str]:
    return [tiles.faces[f] for f in faces]
