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

from solver import jsontext, tiling
from solver.errors import TempleforgeError
from solver.pieces import PRESETS, is_preset, piece, preset
from solver.puzzle import Solution
from solver.puzzlefile import load_puzzle
from templeforge import __version__

F = TypeVar("F", bound=Callable[..., Any])

EXIT_UNSOLVABLE = 1
EXIT_USER_ERROR = 2
EXIT_UNKNOWN = 3


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


class OneLineErrors(click.Group):
    """A group whose usage errors (bad options, wrong values) are one line, like domain errors."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        try:
            return super().main(*args, **kwargs)
        except click.exceptions.Abort:
            click.echo("templeforge: aborted", err=True)
            sys.exit(1)
        except click.ClickException as err:
            hint = ""
            ctx = getattr(err, "ctx", None)
            if ctx is not None:
                hint = f" (see '{ctx.command_path} --help')"
            click.echo(f"templeforge: error: {one_line(err.format_message())}{hint}", err=True)
            sys.exit(err.exit_code)


@click.group(cls=OneLineErrors)
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


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def _drawing(solution: Solution, region: Any) -> str:
    text = solution.picture(region)
    if region.dim == 3:
        layers = text.split("\n\n")
        text = "\n\n".join(
            f"layer {z} (bottom)\n{layer}" if z == 1 else f"layer {z}\n{layer}"
            for z, layer in enumerate(layers, start=1)
        )
    legend = solution.legend()
    return text + (f"\n{legend}" if legend else "")


@main.command()
@click.argument("puzzle_file", metavar="PUZZLE.toml")
@click.option("--count", "do_count", is_flag=True, help="Count every tiling.")
@click.option("--limit", type=click.IntRange(min=1), metavar="N",
              help="Stop counting at N tilings (implies --count).")
@click.option("--unique", "do_unique", is_flag=True, help="Say whether exactly one tiling exists (stops at 2).")
@click.option("--distinct", is_flag=True,
              help="Count tilings up to the region's own rotations and reflections (implies --count).")
@click.option("--enumerate", "do_enumerate", is_flag=True,
              help="List every tiling found (with --show: draw each; use --limit to cap).")
@click.option("--show", is_flag=True, help="Draw a solution, one letter per piece.")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Give up after this long; the answer is then 'unknown', never 'unsolvable'.")
@click.option("--seed", type=int, default=0, show_default=True, help="CP-SAT random seed.")
@click.option("--engine", type=click.Choice([e.value for e in tiling.Engine]), default="auto",
              show_default=True,
              help="auto: the compiled counter for regions up to 64 cells, CP-SAT beyond.")
@json_option
@domain_errors
def solve(
    puzzle_file: str,
    do_count: bool,
    limit: int | None,
    do_unique: bool,
    distinct: bool,
    do_enumerate: bool,
    show: bool,
    time_limit: float | None,
    seed: int,
    engine: str,
    as_json: bool,
) -> None:
    """Solve a tiling puzzle file: find a tiling, count them, or check uniqueness.

    The file gives `region` (an ASCII picture, 3D as layers bottom first), `pieces`
    (names, presets or tables), `flips` and `mode`; see examples/. Exit status: 0 solved,
    1 proved unsolvable, 2 bad input, 3 unknown (a limit was hit first).

    Example:

        templeforge solve examples/pentominoes-3x20.toml --count --distinct --show
    """
    puzzle = load_puzzle(puzzle_file)
    counting = do_count or limit is not None or distinct or do_enumerate
    if do_unique and counting:
        raise click.UsageError("--unique counts to 2 by itself: leave out --count, --limit, --distinct and --enumerate")
    if do_unique:
        result = tiling.unique(puzzle, time_limit=time_limit, seed=seed, engine=engine)
    elif counting:
        result = tiling.count(puzzle, limit=limit, distinct=distinct, time_limit=time_limit, seed=seed,
                              keep=None if do_enumerate else 1, engine=engine)
    else:
        result = tiling.solve(puzzle, time_limit=time_limit, seed=seed, engine=engine)

    if as_json:
        out: dict[str, Any] = {
            "puzzle": puzzle_file,
            "status": result.status.value,
            "reason": result.reason,
            "count": result.count,
            "exhaustive": result.exhaustive,
            "distinct": result.distinct,
            "symmetries": result.symmetries,
            "seconds": round(result.stats.seconds, 6),
            "solution": result.solution.as_json() if result.solution else None,
        }
        if do_unique:
            out["unique"] = result.unique
        if do_enumerate:
            out["solutions"] = [s.as_json() for s in result.solutions]
        out["stats"] = result.stats.as_json()
        click.echo(jsontext.dumps(out))
    else:
        click.echo(_summary(puzzle_file, result, do_unique))
        if do_enumerate:
            for number, solution in enumerate(result.solutions, start=1):
                click.echo(f"\n#{number}\n{_drawing(solution, puzzle.region)}")
        elif show and result.solution is not None:
            click.echo(f"\n{_drawing(result.solution, puzzle.region)}")
    if result.status is tiling.Status.UNSOLVABLE:
        sys.exit(EXIT_UNSOLVABLE)
    if result.status is tiling.Status.UNKNOWN:
        sys.exit(EXIT_UNKNOWN)


def _summary(source: str, result: tiling.TilingResult, asked_unique: bool) -> str:
    took = f"{result.stats.seconds:.2f} s, {result.stats.engine}"
    if result.stats.branches:
        took += f", {result.stats.branches} {'nodes' if result.stats.engine == 'counter' else 'branches'}"
    status = result.status.value
    if asked_unique and result.unique is not None:
        verdict = "unique" if result.unique else "not unique (at least 2 tilings)"
        return f"{source}: {status}, {verdict} ({took})"
    parts = [f"{source}: {status}"]
    if result.count is not None and result.status is not tiling.Status.UNSOLVABLE:
        what = _plural(result.count, "distinct tiling" if result.distinct else "tiling")
        if result.distinct:
            what += f" up to the region's {result.symmetries} symmetr{'y' if result.symmetries == 1 else 'ies'}"
        parts.append(what if result.exhaustive else f"at least {what}")
    if result.reason:
        parts.append(result.reason)
    return ", ".join(parts) + f" ({took})"
