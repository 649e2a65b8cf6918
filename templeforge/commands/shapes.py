"""``templeforge shapes``: pieces and presets with their pictures."""

from __future__ import annotations

import json

import click

from solver.pieces import PRESETS, Piece, is_preset, piece, preset
from templeforge.options import flips_option, json_option
from templeforge.terminal import plural


@click.command()
@click.argument("names", nargs=-1)
@flips_option
@json_option
def shapes(names: tuple[str, ...], flips: bool, as_json: bool) -> None:
    """Show pieces and piece sets: their pictures and how many ways each can lie.

    NAMES are piece names (F, L4, soma_A, ...) or presets (pentominoes, ubongo12, ...);
    with none, the presets are listed.

    Exit status: 0 shown, 2 an unknown name; and, as every command, 70 a bug, 74 standard
    output, 130 interrupted, 141 a closed pipe.

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
    pieces: list[Piece] = []
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
        click.echo(f"{p.name}: {p.size} cells, {p.shape.dim}D, {plural(kinds, 'orientation')}")
        click.echo(p.shape.format())
        click.echo()
    total = sum(p.size for p in pieces)
    click.echo(f"{plural(len(pieces), 'piece')}, {plural(total, 'cell')}")


command = shapes
