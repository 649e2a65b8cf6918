"""A small deck for the 3D tests, read from tests/data."""

from __future__ import annotations

import pytest

from generators.puzzle_temple.deck import Deck
from tests.data import sample


@pytest.fixture(scope="session")
def cad_deck() -> Deck:
    return sample("puzzle-temple-3-seed-11.json")
