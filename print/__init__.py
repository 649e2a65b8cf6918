"""Paper output from decks: card faces, sheet imposition and PDF via ReportLab.

This package's name shadows the builtin when imported bare: always write
``from print import sheets``, never ``import print``.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, cast

from generators.contract import Game, Paper


def paper_of(game: Game) -> Paper:
    """A game's print module (``Game.paper``), imported now."""
    return cast(Paper, importlib.import_module(game.paper))


def deck_files(game: Game, deck: Any, values: Mapping[str, Any], title: str, previews: bool = True,
               stamp: str | None = None) -> tuple[dict[str, bytes], list[str]]:
    """Every PDF of a deck (and, with ``previews``, a PNG of every page and a contact sheet
    under ``previews/``), with the lines that tell a designer what was made. ``stamp``
    (``UNVERIFIED``, for a deck printed without proof) is printed across every card front
    and every other page, and heads each file's title.

    Raises:
        RequestError: a print option the deck cannot take (a size too small, ...).
    """
    from generators.common.proof import stamped

    module = paper_of(game)
    with stamped(stamp):
        printed = module.make(deck, module.request(values), title)
    files = dict(printed.files)
    if previews:
        from print.common.previews import previews as render

        files.update(render(printed.files, printed.imposition, list(printed.labels)))
    lines = module.summary(printed)
    if stamp:
        lines.append(f"every card front and page says {stamp}: the deck was not proved")
    return files, lines
