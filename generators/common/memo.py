"""A value kept for the object it was last made from: a playtest plays one deck many times,
and what a game's engine derives from that deck (its table, a compiled player's arrays)
is made once, not once a game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def last_seen(make: Callable[[Any], T]) -> Callable[[Any], T]:
    """``make`` kept for the argument last seen (by identity: the same object, not an equal
    one; one entry, so nothing grows)."""
    kept: list[Any] = [None, None]  # the argument, its value
    filled = [False]

    def cached(arg: Any) -> T:
        if not filled[0] or kept[0] is not arg:
            kept[0], kept[1], filled[0] = arg, make(arg), True
        value: T = kept[1]
        return value

    cached.__doc__ = make.__doc__
    cached.__name__ = getattr(make, "__name__", "cached")
    return cached
