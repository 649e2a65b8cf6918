"""``python -m tests.toygame ARGS``: the ``templeforge`` command line with Toy Tally registered,
for tests that need a real process (signals, a full disk) around a quick build."""

from __future__ import annotations

from generators import register
from templeforge.cli import run
from tests.toygame import GAME

register(GAME)
run()
