"""The deck file every game shares: ``templeforge.deck/1``.

A deck file is JSON with a fixed field order: ``format``, ``game``, ``seed``,
``parameters``, ``versions``, then the game's own fields (``blocks`` and ``cards`` for Puzzle
Temple). This module reads the envelope (``read``: the file, JSON with line and column,
limits on nesting and on strings that cannot be printed, the format and a known game),
checks a game's part against that game's JSON Schema with readable paths
(``schema_problems``), and writes decks in the house style (``dumps``; atomically through
``generators.common.files``). Which game a file holds is its ``game`` field; the registry in
``generators`` maps it to the game's package.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache, lru_cache
from importlib import metadata, resources
from pathlib import Path
from typing import Any

from solver import jsontext
from solver.errors import TempleforgeError
from solver.names import problem, slug
from solver.textfiles import read_text

FORMAT = "templeforge.deck/1"

#: The deepest nesting a deck file may have (a real deck needs 6: cards, faces, solution, ...).
MAX_DEPTH = 32

#: The largest deck file read, in bytes (the default deck is about 100 KB).
MAX_BYTES = 64 * 1024 * 1024


class DeckError(TempleforgeError, ValueError):
    """A deck file could not be read: the message names the file and the field."""


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _walk_problems(data: Any) -> str | None:
    """Too deep a nesting, or a string that cannot be written as UTF-8 (a lone surrogate)."""
    stack: list[tuple[Any, int, str]] = [(data, 1, "")]
    while stack:
        value, depth, where = stack.pop()
        if depth > MAX_DEPTH:
            return f"nested more than {MAX_DEPTH} levels deep"
        if isinstance(value, dict):
            for k, v in value.items():
                if not _printable(k):
                    return f"{where or 'the top level'}: a key holds a lone surrogate (not text)"
                stack.append((v, depth + 1, f"{where}.{k}" if where else k))
        elif isinstance(value, list):
            stack.extend((v, depth + 1, f"{where}[{i}]") for i, v in enumerate(value, start=1))
        elif isinstance(value, str) and not _printable(value):
            return f"{where}: holds a lone surrogate (not text)"
    return None


def _printable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def loads(text: str, source: str) -> Any:
    """Parse JSON text, every failure a ``DeckError`` naming ``source`` (and line and column).

    Raises:
        DeckError: not JSON, NaN or Infinity, nested too deeply, or a lone surrogate.
    """
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as err:
        raise DeckError(f"{source}: line {err.lineno}, column {err.colno}: not valid JSON: {err.msg}") from None
    except ValueError as err:
        raise DeckError(f"{source}: not valid JSON: {err}") from None
    except RecursionError:
        raise DeckError(f"{source}: not a deck: nested more than {MAX_DEPTH} levels deep") from None
    problem = _walk_problems(data)
    if problem:
        raise DeckError(f"{source}: not a deck: {problem}")
    return data


def read_json(path: str | Path) -> Any:
    """Read a JSON file (see ``loads``).

    Raises:
        DeckError: the file cannot be read, is too big, or is not valid JSON.
    """
    text = read_text(path, DeckError, max_bytes=MAX_BYTES)
    return loads(text, str(path))


def game_of(data: Any, source: str, known: Sequence[str]) -> str:
    """The ``game`` of a parsed deck file, after checking ``format``.

    Raises:
        DeckError: not an object, another format, or a game not in ``known``.
    """
    if not isinstance(data, dict):
        raise DeckError(f"{source}: not a {FORMAT} deck: expected a JSON object at the top level")
    if data.get("format") != FORMAT:
        raise DeckError(f"{source}: not a {FORMAT} deck: format: expected {json.dumps(FORMAT)}, "
                        f"got {json.dumps(data.get('format'))}")
    game = data.get("game")
    if game not in known:
        raise DeckError(f"{source}: game: expected one of {', '.join(map(json.dumps, known))}, "
                        f"got {json.dumps(game)}")
    return str(game)


@cache
def load_schema(package: str, name: str = "deck.schema.json") -> dict[str, Any]:
    """A game's JSON Schema, shipped as package data beside its code."""
    schema: dict[str, Any] = json.loads(resources.files(package).joinpath(name).read_text("utf-8"))
    return schema


def field_path(parts: Sequence[object]) -> str:
    """``["cards", 3, "faces", 0, "die"]`` as ``cards[4].faces[1].die``: places in a list
    counted from 1, as a designer counts cards and faces (and as every message does)."""
    out = ""
    for p in parts:
        out += f"[{p + 1}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "the top level"


@lru_cache(maxsize=1)
def _validator_class() -> Any:
    """Draft 2020-12 in which an integer is a JSON number written without a fraction: ``1.0``
    and ``true`` are not ids, dice or counts (imported when a deck is read, not at start-up)."""
    from jsonschema import Draft202012Validator, validators

    def strict_int(_checker: Any, value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", strict_int)
    return validators.extend(Draft202012Validator, type_checker=checker)


def require_schema(data: Any, schema: dict[str, Any], source: str, fmt: str) -> None:
    """Raise a ``DeckError`` naming ``source`` and every field of ``data`` that breaks
    ``schema`` (a game's deck format ``fmt``), before its reader takes the fields apart.

    Raises:
        DeckError: every problem, each naming its field.
    """
    problems = schema_problems(data, schema)
    if problems:
        raise DeckError(f"{source}: not a {fmt} deck: {summarise(problems)}")


def schema_problems(data: Any, schema: dict[str, Any], pictures: str = "picture") -> list[str]:
    """Every way ``data`` breaks ``schema``, each as ``path: message`` in path order.

    A ``oneOf`` whose description mentions ``pictures`` is reported as a malformed picture.
    """
    problems = []
    validator = _validator_class()(schema)
    for err in sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]):
        where = field_path(list(err.absolute_path))
        message = err.message
        if err.validator == "oneOf" and pictures in str(err.schema.get("description", "")):
            message = "expected an ASCII picture of '#' and '.' (a string, or a list of rows)"
        elif err.validator == "const":
            message = f"expected {json.dumps(err.validator_value)}, got {json.dumps(err.instance)}"
        elif err.validator == "additionalProperties":
            message = message.replace("Additional properties are not allowed", "unknown key(s)")
        if len(message) > 200:
            message = message[:200] + " ..."
        problems.append(f"{where}: {message}")
    return problems


def summarise(problems: Sequence[str], shown: int = 6) -> str:
    """Problems joined with ``; ``, at most ``shown`` of them and a count of the rest."""
    return "; ".join(problems[:shown]) + (f"; and {len(problems) - shown} more" if len(problems) > shown else "")


def versions() -> dict[str, str]:
    """The tool versions recorded in every deck."""
    out = {}
    for name in ("templeforge", "ortools"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
            out[name] = "unknown"
    return out


def envelope(game: str, seed: int | None, parameters: dict[str, Any] | None,
             versions: dict[str, str] | None) -> dict[str, Any]:
    """The shared head of a deck file, in its fixed order (empty parts left out)."""
    out: dict[str, Any] = {"format": FORMAT, "game": game}
    if seed is not None:
        out["seed"] = seed
    if parameters:
        out["parameters"] = dict(parameters)
    if versions:
        out["versions"] = dict(versions)
    return out


def id_problems(cards: Sequence[Any]) -> list[str]:
    """What is wrong with the cards' ids: one given twice (ids are compared as the file
    names they make: 3 and "3", "A" and "a" clash), or a text id that breaks the name rule of
    ``solver.names`` (a card's files and labels are named by it). A card without an id is
    numbered from 1."""
    problems = []
    first: dict[str, int] = {}
    for i, raw in enumerate(cards, start=1):
        card_id = raw.get("id", i)
        why = problem(card_id) if isinstance(card_id, str) else None
        key = slug(str(card_id)).casefold() if why is None else ""
        if why is not None:
            problems.append(f"cards[{i}].id: {why}")
        elif key in first:
            problems.append(f"cards[{i}].id: {card_id!r} is also the id of cards[{first[key]}] "
                            f"(ids must be unique, ignoring case)")
        else:
            first[key] = i
    return problems


def find_card(cards: Sequence[Any], card_id: object) -> Any:
    """The card whose ``id`` is ``card_id`` (``"7"`` finds card 7), for every game's deck.

    Raises:
        DeckError: no such card (naming the first few ids there are).
    """
    for c in cards:
        if c.id == card_id or str(c.id) == str(card_id):
            return c
    ids = ", ".join(str(c.id) for c in cards[:3]) + (" ..." if len(cards) > 3 else "")
    raise DeckError(f"no card {card_id} in the deck (cards are {ids})")


def dumps(data: dict[str, Any]) -> str:
    """The deck file's text: stable, so the same deck always gives the same bytes."""
    return jsontext.dumps(data) + "\n"
