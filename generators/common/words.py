"""Counted words, the same everywhere a count is shown to a person: ``plural(1, "page")`` is
``1 page``, ``plural(3, "page")`` is ``3 pages``, ``times(1)`` is ``once``."""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and ``word``, in the plural unless ``n`` is 1 (``many``: an irregular plural)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def times(n: int) -> str:
    """How often: ``once``, ``twice``, ``3 times``."""
    return {1: "once", 2: "twice"}.get(n, f"{n} times")
