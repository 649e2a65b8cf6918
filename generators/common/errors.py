"""Errors a request can raise, shared by every game.

A request (the options of ``templeforge generate <game>``, a profile, a deck file's
parameters) is checked as a whole: ``RequestError`` carries every problem found, each naming
its field, so a designer fixes them all in one go.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.errors import TempleforgeError


class RequestError(TempleforgeError, ValueError):
    """A malformed or impossible request.

    Attributes:
        problems: every problem found, each beginning with the field it concerns.
    """

    def __init__(self, problems: str | Sequence[str]) -> None:
        self.problems = (problems,) if isinstance(problems, str) else tuple(problems)
        super().__init__("; ".join(self.problems))

    def __reduce__(self) -> tuple[type, tuple[tuple[str, ...]]]:  # whole across processes
        return type(self), (self.problems,)


def check(problems: Sequence[str]) -> None:
    """Raise ``RequestError`` with ``problems``, if there are any."""
    if problems:
        raise RequestError(problems)


class Shortfall(TempleforgeError):
    """A possible request that the generator could not fill within its budget (nothing is
    written; the command exits 3).

    Attributes:
        made: how many cards it could have made.
        wanted: how many were asked for.
    """

    def __init__(self, message: str, made: int, wanted: int) -> None:
        super().__init__(message)
        self.made = made
        self.wanted = wanted

    def __reduce__(self) -> tuple[type, tuple[str, int, int]]:  # whole across processes
        return type(self), (str(self), self.made, self.wanted)


class Unproved(TempleforgeError):
    """A deck that is not to be printed: its verifier rejects it (``status`` 1, the message
    the first failing line) or leaves a card unsettled (``status`` 3)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status

    def __reduce__(self) -> tuple[type, tuple[str, int]]:  # whole across processes
        return type(self), (str(self), self.status)
