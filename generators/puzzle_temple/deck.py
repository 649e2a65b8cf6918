"""Puzzle Temple decks: lock cards as values, and the deck file (``templeforge.deck/1``).

Nouns:
    Face   one die number's task: the blocks that must cover the lock, and (in a generated
           deck) the proof: one stored solution, the number of solutions, the difficulty.
    Card   a lock (a connected region) and its faces, one per die number 1-6.
    Deck   the cards, the block set they draw on, and the record of how they were made
           (seed, generator parameters, tool versions).

The deck file is JSON with a fixed field order (``format``, ``game``, ``seed``,
``parameters``, ``versions``, ``blocks``, ``cards``), checked against the JSON Schema
shipped beside this module (``deck.schema.json``) on every read. Pictures are ASCII (``#``
a cell, ``.`` empty; row 0 is the top line) and may be written as one string or as a list
of rows. A stored solution maps each block name to its cells as ``[row, column]`` pairs in
the lock picture. A hand-written deck needs only ``format``, ``game`` and ``cards`` with each
face's ``die`` and ``blocks``; without ``blocks`` the faces name the library's pieces.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from generators.files import write_atomic
from solver import jsontext
from solver.errors import ParseError, ShapeError, TempleforgeError, UnknownPieceError
from solver.pieces import Piece, piece
from solver.puzzle import Placement, Puzzle, Solution
from solver.shapes import Cell, Shape

FORMAT = "templeforge.deck/1"
GAME = "puzzle-temple"
DICE = (1, 2, 3, 4, 5, 6)


class DeckError(TempleforgeError, ValueError):
    """A deck file could not be read: the message names the file and the field."""


@dataclass(frozen=True, slots=True)
class Face:
    """One die number's task on a card.

    Attributes:
        die: the die number, 1-6.
        blocks: the block names, in the order printed.
        solution: a stored tiling of the lock with exactly these blocks, or None.
        solutions: the number of tilings, or None when not stored.
        difficulty: the rating in bits (``solver.rating``), or None when not stored.
    """

    die: int
    blocks: tuple[str, ...]
    solution: Solution | None = None
    solutions: int | None = None
    difficulty: float | None = None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"die": self.die, "blocks": list(self.blocks)}
        if self.solution is not None:
            cells = {p.piece: [list(c) for c in p.cells] for p in self.solution.placements}
            out["solution"] = {name: cells[name] for name in self.blocks if name in cells}
        if self.solutions is not None:
            out["solutions"] = self.solutions
        if self.difficulty is not None:
            out["difficulty"] = self.difficulty
        return out


@dataclass(frozen=True, slots=True)
class Card:
    """A lock card: ``lock`` (its cells, the top-left of its bounding box at (0, 0)) and
    its faces in die order."""

    id: int
    lock: Shape
    faces: tuple[Face, ...]

    def face(self, die: int) -> Face:
        for f in self.faces:
            if f.die == die:
                return f
        raise LookupError(f"card {self.id} has no face for die {die}")

    @property
    def difficulty(self) -> float | None:
        """The mean difficulty of the faces, when every face has one."""
        values = [f.difficulty for f in self.faces]
        if not values or any(v is None for v in values):
            return None
        return sum(values) / len(values)  # type: ignore[arg-type]

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "lock": picture_rows(self.lock), "faces": [f.as_json() for f in self.faces]}


@dataclass(frozen=True, slots=True)
class Deck:
    """A Puzzle Temple deck.

    Attributes:
        cards: the lock cards.
        blocks: every block the faces may name (the players' set).
        seed: the generator's seed (None for a hand-written deck).
        parameters: the generator's parameters as written to the file; ``flips``,
            ``holes`` and ``unique`` are read by the verifier.
        versions: the tool versions that made the deck.
        blocks_listed: whether the file lists its blocks (hand-written decks may not).
    """

    cards: tuple[Card, ...]
    blocks: tuple[Piece, ...]
    seed: int | None = None
    parameters: Mapping[str, Any] = field(default_factory=dict)
    versions: Mapping[str, str] = field(default_factory=dict)
    blocks_listed: bool = True

    @property
    def flips(self) -> bool:
        return bool(self.parameters.get("flips", True))

    @property
    def holes(self) -> bool:
        return bool(self.parameters.get("holes", False))

    @property
    def unique(self) -> bool:
        return bool(self.parameters.get("unique", False))

    def block(self, name: str) -> Piece:
        for b in self.blocks:
            if b.name == name:
                return b
        raise LookupError(name)

    def card(self, card_id: int) -> Card:
        for c in self.cards:
            if c.id == card_id:
                return c
        ids = ", ".join(str(c.id) for c in self.cards[:3]) + (" ..." if len(self.cards) > 3 else "")
        raise DeckError(f"no card {card_id} in the deck (cards are {ids})")

    def puzzle(self, card: Card, face: Face) -> Puzzle:
        """The tiling puzzle a face sets: cover the card's lock with exactly its blocks."""
        return Puzzle(card.lock, tuple(self.block(n) for n in face.blocks), flips=self.flips)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "game": GAME}
        if self.seed is not None:
            out["seed"] = self.seed
        if self.parameters:
            out["parameters"] = dict(self.parameters)
        if self.versions:
            out["versions"] = dict(self.versions)
        if self.blocks_listed:
            out["blocks"] = {b.name: picture_rows(b.shape) for b in self.blocks}
        out["cards"] = [c.as_json() for c in self.cards]
        return out

    def dumps(self) -> str:
        """The deck file's text: stable, so the same deck always gives the same bytes."""
        return jsontext.dumps(self.as_json()) + "\n"


def picture_rows(shape: Shape) -> jsontext.Lines:
    """A shape's picture as the list of its rows, written one row per line."""
    return jsontext.Lines(shape.format().split("\n"))


# -- reading --------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The JSON Schema of ``templeforge.deck/1``."""
    text = resources.files("generators.puzzle_temple").joinpath("deck.schema.json").read_text("utf-8")
    return json.loads(text)


def _path(parts: Sequence[object]) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "the top level"


def _schema_problems(data: Any) -> list[str]:
    validator = Draft202012Validator(schema())
    problems = []
    for err in sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]):
        where = _path(list(err.absolute_path))
        message = err.message
        if err.validator == "oneOf" and "picture" in str(err.schema.get("description", "")):
            message = "expected an ASCII picture of '#' and '.' (a string, or a list of rows)"
        elif err.validator == "const":
            message = f"expected {json.dumps(err.validator_value)}, got {json.dumps(err.instance)}"
        elif err.validator == "additionalProperties":
            message = message.replace("Additional properties are not allowed", "unknown key(s)")
        problems.append(f"{where}: {message}")
    return problems


def _picture(value: str | list[str], where: str, problems: list[str]) -> Shape | None:
    text = value if isinstance(value, str) else "\n".join(value)
    try:
        return Shape.parse(text, dim=2)
    except ParseError as err:
        problems.append(f"{where}: {err}")
        return None


def deck_from_json(data: Any, source: str = "<deck>") -> Deck:
    """Build a Deck from parsed JSON, validating it against the schema first.

    Raises:
        DeckError: the data does not follow the format; every problem is listed, each
            naming its field (``cards[2].faces[0].die``).
    """
    problems = _schema_problems(data)
    if problems:
        shown = "; ".join(problems[:6]) + (f"; and {len(problems) - 6} more" if len(problems) > 6 else "")
        raise DeckError(f"{source}: not a {FORMAT} deck: {shown}")

    blocks: dict[str, Piece] = {}
    for name, picture in data.get("blocks", {}).items():
        shape = _picture(picture, f"blocks.{name}", problems)
        if shape is not None:
            try:
                blocks[name] = Piece(name, shape)
            except ShapeError as err:
                problems.append(f"blocks.{name}: {err}")
    listed = "blocks" in data
    cards = []
    for i, raw in enumerate(data["cards"]):
        lock = _picture(raw["lock"], f"cards[{i}].lock", problems)
        if lock is None:
            continue
        offset = lock.lower_corner()
        faces = []
        for j, face in enumerate(raw["faces"]):
            where = f"cards[{i}].faces[{j}]"
            names = tuple(face["blocks"])
            for k, name in enumerate(names):
                if name in blocks:
                    continue
                if listed:
                    problems.append(f"{where}.blocks[{k}]: {name!r} is not one of the deck's blocks")
                    continue
                try:
                    blocks[name] = piece(name)
                except UnknownPieceError:
                    problems.append(f"{where}.blocks[{k}]: unknown block {name!r} (list the deck's "
                                    f"own pictures under 'blocks', or see `templeforge shapes`)")
            solution = None
            if "solution" in face:
                moved = [Placement(name, tuple(_moved(c, offset) for c in cells))
                         for name, cells in face["solution"].items()]
                solution = Solution(tuple(moved))
            faces.append(Face(face["die"], names, solution, face.get("solutions"), face.get("difficulty")))
        cards.append(Card(raw["id"], lock.normalized(), tuple(faces)))
    if problems:
        raise DeckError(f"{source}: " + "; ".join(problems))
    order = [b for b in blocks.values()]
    return Deck(tuple(cards), tuple(order), data.get("seed"), data.get("parameters", {}),
                data.get("versions", {}), listed)


def _moved(cell: Sequence[int], offset: Cell) -> Cell:
    return (cell[0] - offset[0], cell[1] - offset[1])


def read_deck(path: str | Path) -> Deck:
    """Read and validate a deck file.

    Raises:
        DeckError: the file cannot be read, is not JSON (the message gives line and
            column) or does not follow the format.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise DeckError(f"{path}: cannot read the file: {err}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise DeckError(f"{path}: line {err.lineno}, column {err.colno}: not valid JSON: {err.msg}") from None
    return deck_from_json(data, str(path))


def write_deck(deck: Deck, path: str | Path) -> Path:
    """Write the deck file atomically (a temporary file renamed into place)."""
    return write_atomic(path, deck.dumps())
