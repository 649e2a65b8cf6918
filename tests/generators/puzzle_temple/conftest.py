"""Decks shared by the generator tests (made once per run: the default deck takes seconds)."""

from __future__ import annotations

import pytest

from generators.puzzle_temple.deck import Deck
from generators.puzzle_temple.generate import Spec, generate
from solver.pieces import preset


@pytest.fixture(scope="session")
def default_deck() -> Deck:
    """The default request: 36 cards, 3 ubongo12 blocks per face, thirds, seed 0."""
    return generate(Spec(preset("ubongo12"), seed=0, workers=2))


@pytest.fixture(scope="session")
def small_deck() -> Deck:
    return generate(Spec(preset("ubongo12"), cards=4, seed=5))
