"""The ``templeforge`` command line: a thin click layer over the library.

Each command parses its arguments, calls the library, and echoes a short summary. Domain
errors (``TempleforgeError``) become one line on stderr and exit status 2; no tracebacks for
user mistakes.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from solver.errors import TempleforgeError
from solver.pieces import PRESETS, is_preset, piece, preset
from templeforge import __version__

F = TypeVar("F", bound=Callable[..., Any])

EXIT_USER_ERROR = 2


def one_line(message: str) -> str:
    """Collapse a message onto one line for the terminal."""
    return " / ".join(part.strip() for part in str(message).splitlines() if part.strip())


def domain_errors(func: F) -> F:
    """Turn a TempleforgeError raised by the library into a one-line error and exit 2."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except TempleforgeError as err:
            click.echo(f"templeforge: error: {one_line(str(err))}", err=True)
            sys.exit(EXIT_USER_ERROR)

    return wrapper  # type: ignore[return-value]


def flips_option(func: F) -> F:
    return click.option(
        "--flips/--no-flips",
        default=True,
        show_default=True,
        help="Whether pieces may be turned over (mirror images allowed).",
    )(func)


def json_option(func: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")(func)


@click.group()
@click.version_option(__version__, prog_name="templeforge")
def main() -> None:
    """Templeforge: proved-solvable board-game content, ready to print."""


@main.command()
@click.argument("names", nargs=-1)
@flips_option
@json_option
@domain_errors
def shapes(names: tuple[str, ...], flips: bool, as_json: bool) -> None:
    """Show pieces and piece sets: their pictures and how many ways each can lie.

    NAMES are piece names (F, L4, soma_A, ...) or presets (pentominoes, ubongo12, ...);
    with none, the presets are listed.

    Example:

        templeforge shapes ubongo12 --no-flips
    """
    if not names:
        rows = {name: list(members) for name, members in PRESETS.items()}
        if as_json:
            click.echo(json.dumps({"presets": rows}, indent=2))
        else:
            for name, members in rows.items():
                click.echo(f"{name:12} {' '.join(members)}")
        return
    pieces = []
    for name in names:
        pieces.extend(preset(name, flips) if is_preset(name) else [piece(name)])
    if as_json:
        out = [
            {
                "name": p.name,
                "cells": p.size,
                "dim": p.shape.dim,
                "orientations": len(p.shape.orientations(flips)),
                "picture": p.shape.format(),
            }
            for p in pieces
        ]
        click.echo(json.dumps({"flips": flips, "pieces": out}, indent=2))
        return
    for p in pieces:
        kinds = len(p.shape.orientations(flips))
        click.echo(f"{p.name}: {p.size} cells, {p.shape.dim}D, {kinds} orientation{'s' * (kinds != 1)}")
        click.echo(p.shape.format())
        click.echo()
    total = sum(p.size for p in pieces)
    click.echo(f"{len(pieces)} piece{'s' * (len(pieces) != 1)}, {total} cells")
