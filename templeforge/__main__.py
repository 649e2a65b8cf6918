"""``python -m templeforge`` runs the command line."""

from templeforge.cli import run

run()
