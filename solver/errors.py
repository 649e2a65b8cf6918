"""Domain errors shared by every Templeforge package.

Only the CLI turns these into a one-line message and an exit status; library code raises
them and never prints.
"""

from __future__ import annotations


class TempleforgeError(Exception):
    """Base class of every error caused by the user's input rather than by a bug."""


class ParseError(TempleforgeError, ValueError):
    """A text form (an ASCII picture, a name list, ...) could not be read.

    Args:
        message: what was wrong and what was expected.
        line: 1-based line number in the text, when known.
        column: 1-based column number in the text, when known.
    """

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        self.message = message
        self.line = line
        self.column = column
        where = ""
        if line is not None:
            where = f"line {line}" + (f", column {column}" if column is not None else "") + ": "
        super().__init__(where + message)


class ShapeError(TempleforgeError, ValueError):
    """A set of cells is not a valid shape (empty, mixed dimensions, non-integer cells, ...)."""


class UnknownPieceError(TempleforgeError, LookupError):
    """A piece or preset name that Templeforge does not know."""

    def __str__(self) -> str:  # LookupError would quote the message like a dict key
        return str(self.args[0]) if self.args else ""
