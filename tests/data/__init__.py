"""Sample decks the tests read instead of generating them (``make.py`` writes them;
``tests/test_samples.py`` keeps them valid), and ``mystery-of-the-temples-hand-written.json``:
a designer's own ten temple sides, without measures, as a designer would write them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

DATA = Path(__file__).parent


def sample(name: str) -> Any:
    """The sample deck called ``name`` in ``tests/data/``."""
    from generators import read_deck

    return read_deck(DATA / name)[1]
