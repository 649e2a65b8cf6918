"""The console transcripts of the games' pages run and print what the pages show (see
``test_docs_examples``: the same runner, in a module of its own for a worker of its own)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sybil import Example

from tests.test_docs_examples import GAME_PAGES, evaluate, examples


@pytest.mark.parametrize("example", examples(GAME_PAGES))
def test_the_game_pages_transcript_prints_what_the_page_shows(example: Example, tmp_path: Path) -> None:
    evaluate(example, tmp_path)
