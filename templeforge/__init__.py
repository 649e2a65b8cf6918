"""Templeforge: proved-solvable board-game content, ready to print.

The application layer: the ``templeforge`` command line and the build pipeline.
"""

__version__ = "0.1.0"
