"""Decks shared by the generator tests (the default deck is in tests/conftest.py)."""

from __future__ import annotations

import pytest

from generators.puzzle_temple.deck import Deck
from tests.data import sample


@pytest.fixture(scope="session")
def small_deck() -> Deck:
    return sample("puzzle-temple-4-seed-5.json")
