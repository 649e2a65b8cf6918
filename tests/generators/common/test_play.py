"""The playtest layer's small helpers (the agents and whole games are tested with each
game's engine)."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, field, replace

import pytest

from generators.common.play import replacer


@dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int
    label: str = field(default="", compare=False)


def test_a_replacer_makes_what_dataclasses_replace_makes() -> None:
    quick = replacer(Point)
    p = Point(1, 2, "a")
    moved = quick(p, y=5)
    assert moved == replace(p, y=5) and moved.label == "a" and p == Point(1, 2)
    assert quick(p) == p and quick(p) is not p
    with pytest.raises(FrozenInstanceError):
        moved.x = 3  # type: ignore[misc]


@dataclass(frozen=True)
class Loose:  # no slots: fields set by name
    x: int
    y: tuple[int, ...] = ()


def test_a_replacer_of_a_class_without_slots_too() -> None:
    quick = replacer(Loose)
    p = Loose(1, (2, 3))
    assert quick(p, x=4) == Loose(4, (2, 3)) and quick(p, y=()) == Loose(1) and p == Loose(1, (2, 3))
