"""A small deck for the 3D tests, made once per run."""

from __future__ import annotations

import pytest

from generators.puzzle_temple.deck import Deck
from generators.puzzle_temple.generate import Spec, generate
from solver.pieces import preset


@pytest.fixture(scope="session")
def cad_deck() -> Deck:
    return generate(Spec(preset("ubongo12"), cards=3, seed=11))
