"""Decks for the print tests, made once per run."""

from __future__ import annotations

import pytest

from generators.puzzle_temple.deck import Deck
from generators.puzzle_temple.generate import Spec, generate
from solver.pieces import preset


@pytest.fixture(scope="session")
def print_deck() -> Deck:
    """Seven generated cards: more than one page of A6 cards, every tier."""
    return generate(Spec(preset("ubongo12"), cards=7, seed=3))
