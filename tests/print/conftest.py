"""Decks for the print tests, read from tests/data."""

from __future__ import annotations

import pytest

from generators.puzzle_temple.deck import Deck
from tests.data import sample


@pytest.fixture(scope="session")
def print_deck() -> Deck:
    """Seven generated cards: more than one page of A6 cards, every tier."""
    return sample("puzzle-temple-7-seed-3.json")
