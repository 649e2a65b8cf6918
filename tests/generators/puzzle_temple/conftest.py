"""Decks shared by the generator tests (the default deck is in tests/conftest.py)."""

from __future__ import annotations

import pytest

from generators.puzzle_temple.deck import Deck
from generators.puzzle_temple.generate import Spec, generate
from solver.pieces import preset


@pytest.fixture(scope="session")
def small_deck() -> Deck:
    return generate(Spec(preset("ubongo12"), cards=4, seed=5))
