"""JSON text for people and version control: indented, stable, with short lists on one line.

``dumps`` writes objects with two-space indentation and keys in the order given, but a list
whose items are all numbers, strings, booleans or null stays on one line, so a cell reads
``[2, 5]`` rather than four lines. ``Lines`` (a list of strings) is the exception: one item
per line, so that the rows of an ASCII picture stand one above the other.
"""

from __future__ import annotations

import json
from typing import Any


class Lines(list):  # type: ignore[type-arg]
    """A list written one item per line (the rows of a picture)."""


def _is_flat(value: Any) -> bool:
    return isinstance(value, list) and not isinstance(value, Lines) and all(
        v is None or isinstance(v, (bool, int, float, str)) for v in value
    )


def _lines(value: Any, indent: int) -> str:
    pad = "  " * (indent + 1)
    end = "  " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{pad}{json.dumps(str(k))}: {_lines(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + end + "}"
    if isinstance(value, list) and not _is_flat(value):
        flat_rows = all(_is_flat(v) for v in value)
        if flat_rows and len(json.dumps(value)) <= 100:  # a short list of cells: one line
            return json.dumps(value)
        items = [pad + _lines(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + end + "]"
    return json.dumps(value, ensure_ascii=False)


def dumps(value: Any) -> str:
    """Serialise ``value`` (dicts, lists, scalars) as described in the module docstring."""
    return _lines(value, 0)
