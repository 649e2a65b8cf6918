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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generators.common import deckfile
from generators.common.deckfile import FORMAT, DeckError
from generators.common.files import write_atomic
from generators.common.grading import mean
from solver import jsontext
from solver.errors import ParseError, ShapeError, UnknownPieceError
from solver.names import name_problems
from solver.pieces import Piece, piece
from solver.puzzle import Placement, Puzzle, Solution, letters_for
from solver.shapes import Cell, Shape

GAME = "puzzle-temple"
DICE = (1, 2, 3, 4, 5, 6)
FACES = len(DICE)  #: faces (block sets) on a card, one per die number

__all__ = ["FORMAT", "GAME", "DICE", "DeckError", "Face", "Card", "Deck", "deck_from_json", "read_deck",
           "write_deck", "schema", "picture_rows"]

CardId = int | str
@dataclass(frozen=True, slots=True)
class Face:
    """One die number's task on a card.

    Attributes:
        die: the die number, 1-6.
        blocks: the block names, in the order printed.
        solution: a stored tiling of the lock with exactly these blocks, or None.
        solutions: the number of tilings, or None when not stored.
        difficulty: the rating in bits (``solver.rating``), or None when not stored.

    Raises:
        ValueError: the stored solution places a block the face does not list (it would be
            dropped from the file without a word).
    """

    die: int
    blocks: tuple[str, ...]
    solution: Solution | None = None
    solutions: int | None = None
    difficulty: float | None = None

    def __post_init__(self) -> None:
        if self.solution is not None:
            extra = sorted({p.piece for p in self.solution.placements} - set(self.blocks))
            if extra:
                raise ValueError(f"face {self.die}: the solution places {', '.join(extra)}, which the "
                                 f"face does not list ({', '.join(self.blocks)})")

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
    """A lock card: ``id`` (a number or a label such as ``A1``), ``lock`` (its cells, the
    top-left of its bounding box at (0, 0)) and its faces in die order."""

    id: CardId
    lock: Shape
    faces: tuple[Face, ...]

    def face(self, die: int) -> Face:
        for f in self.faces:
            if f.die == die:
                return f
        raise LookupError(f"card {self.id} has no face for die {die}")

    @property
    def difficulty(self) -> float | None:
        """The mean difficulty of the faces (``grading.mean``), when every face has one."""
        values = [f.difficulty for f in self.faces]
        if not values or any(v is None for v in values):
            return None
        return mean(values)  # type: ignore[arg-type]

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

    def card(self, card_id: CardId) -> Card:
        """The card whose id is ``card_id`` (``"7"`` finds card 7).

        Raises:
            DeckError: no such card.
        """
        card: Card = deckfile.find_card(self.cards, card_id)
        return card

    def puzzle(self, card: Card, face: Face) -> Puzzle:
        """The tiling puzzle a face sets: cover the card's lock with exactly its blocks."""
        return Puzzle(card.lock, tuple(self.block(n) for n in face.blocks), flips=self.flips)

    def letters(self) -> dict[str, str]:
        """One letter per block for the whole deck, so every drawing and the printed answer
        key read alike (``L = L4`` on every face)."""
        return letters_for([b.name for b in self.blocks])

    def as_json(self) -> dict[str, Any]:
        out = deckfile.envelope(GAME, self.seed, dict(self.parameters), dict(self.versions))
        if self.blocks_listed:
            out["blocks"] = {b.name: picture_rows(b.shape) for b in self.blocks}
        out["cards"] = [c.as_json() for c in self.cards]
        return out

    def dumps(self) -> str:
        """The deck file's text: stable, so the same deck always gives the same bytes."""
        return deckfile.dumps(self.as_json())


def picture_rows(shape: Shape) -> jsontext.Lines:
    """A shape's picture as the list of its rows, written one row per line."""
    return jsontext.Lines(shape.format().split("\n"))


# -- reading --------------------------------------------------------------------------------


def schema() -> dict[str, Any]:
    """The JSON Schema of a Puzzle Temple deck (``deck.schema.json`` beside this module)."""
    return deckfile.load_schema("generators.puzzle_temple")


def _picture(value: str | list[str], where: str, problems: list[str]) -> Shape | None:
    text = value if isinstance(value, str) else "\n".join(value)
    try:
        return Shape.parse(text, dim=2)
    except ParseError as err:
        at = ""
        if err.line is not None:
            at = f"row {err.line}" + (f", column {err.column}" if err.column is not None else "") + ": "
        problems.append(f"{where}: {at}{err.message}")
        return None


def _strict_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def deck_from_json(data: Any, source: str = "<deck>") -> Deck:
    """Build a Deck from parsed JSON, validating it against the schema first.

    Raises:
        DeckError: the data does not follow the format; every problem is listed, each
            naming its field (``cards[2].faces[0].die``), a bad picture character its row
            and column, an unknown block name once.
    """
    deckfile.require_schema(data, schema(), source, FORMAT)
    problems: list[str] = []  # what the schema cannot say

    blocks: dict[str, Piece] = {}
    for name, picture in data.get("blocks", {}).items():
        shape = _picture(picture, f"blocks.{name}", problems)
        if shape is not None:
            try:
                blocks[name] = Piece(name, shape)
            except ShapeError as err:
                problems.append(f"blocks.{name}: {err}")
    problems.extend(name_problems(("blocks", n) for n in data.get("blocks", {})))  # file names of the kit
    listed = "blocks" in data
    unknown: dict[str, str] = {}  # name -> where it first appears
    problems.extend(deckfile.id_problems(data["cards"]))
    cards = []
    for i, raw in enumerate(data["cards"], start=1):
        card_id = raw["id"]
        lock = _picture(raw["lock"], f"cards[{i}].lock", problems)
        if lock is None:
            continue
        offset = lock.lower_corner()
        faces = []
        for j, face in enumerate(raw["faces"], start=1):
            where = f"cards[{i}].faces[{j}]"
            names = tuple(face["blocks"])
            for k, name in enumerate(names, start=1):
                if name in blocks or name in unknown:
                    continue
                if listed:
                    problems.append(f"{where}.blocks[{k}]: {name!r} is not one of the deck's blocks")
                    unknown[name] = where
                    continue
                try:
                    blocks[name] = Piece(name, piece(name).shape)
                except UnknownPieceError:
                    unknown[name] = f"{where}.blocks[{k}]"
            solution = None
            if "solution" in face:
                extra = [n for n in face["solution"] if n not in names]
                if extra:
                    problems.append(f"{where}.solution: places {', '.join(map(repr, extra))}, which the "
                                    f"face's blocks do not list")
                    continue
                moved = [Placement(name, tuple(_moved(c, offset) for c in cells))
                         for name, cells in face["solution"].items()]
                solution = Solution(tuple(moved))
            faces.append(Face(face["die"], names, solution, face.get("solutions"), face.get("difficulty")))
        cards.append(Card(card_id, lock.normalized(), tuple(faces)))
    if unknown and not listed:
        named = list(unknown.items())
        problems.extend(f"{where}: unknown block {name!r}" for name, where in named[:12])
        more = f" (and {len(named) - 12} more unknown names)" if len(named) > 12 else ""
        problems.append(f"each unknown name is given once{more}: list the deck's own pictures under "
                        f"'blocks', or name library pieces (`templeforge shapes` lists them)")
    if problems:
        raise DeckError(f"{source}: " + deckfile.summarise(problems, 14))
    return Deck(tuple(cards), tuple(blocks.values()), data.get("seed"), data.get("parameters", {}),
                data.get("versions", {}), listed)


def _moved(cell: Sequence[int], offset: Cell) -> Cell:
    return (cell[0] - offset[0], cell[1] - offset[1])


def read_deck(path: str | Path) -> Deck:
    """Read and validate a Puzzle Temple deck file.

    Raises:
        DeckError: the file cannot be read, is not JSON (the message gives line and
            column), is another game's deck or does not follow the format.
    """
    data = deckfile.read_json(path)
    deckfile.game_of(data, str(path), (GAME,))
    return deck_from_json(data, str(path))


def write_deck(deck: Deck, path: str | Path) -> Path:
    """Write the deck file atomically (a temporary file renamed into place)."""
    return write_atomic(path, deck.dumps())
