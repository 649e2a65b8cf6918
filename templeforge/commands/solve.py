"""``templeforge solve``: tile a puzzle file, count its tilings, or check uniqueness."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from templeforge.cli import EXIT
from templeforge.options import json_option, seed_option, time_limit_option
from templeforge.terminal import plural

if TYPE_CHECKING:
    from solver import tiling
    from solver.puzzle import Solution


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


@click.command()
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
@time_limit_option("Give up after this long; the answer is then 'unknown', never 'unsolvable'.")
@seed_option("CP-SAT random seed.")
@click.option("--engine", type=click.Choice(["auto", "counter", "cp-sat"]), default="auto",
              show_default=True,
              help="auto: the compiled counter for regions up to 64 cells, CP-SAT beyond.")
@json_option
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
    (names, presets or tables), `flips` and `mode`; see examples/.

    Exit status: 0 solved, 1 proved unsolvable, 2 bad input, 3 unknown (a limit was hit
    first); and, as every command, 70 a bug, 74 standard output, 130 interrupted, 141 a
    closed pipe.

    Example:

        templeforge solve examples/pentominoes-3x20.toml --count --distinct --show
    """
    from solver import jsontext, tiling
    from solver.puzzlefile import load_puzzle

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
        sys.exit(EXIT["failed"])
    if result.status is tiling.Status.UNKNOWN:
        sys.exit(EXIT["unknown"])


def _summary(source: str, result: tiling.TilingResult, asked_unique: bool) -> str:
    from solver import tiling

    took = f"{result.stats.seconds:.2f} s, {result.stats.engine}"
    if result.stats.branches:
        took += f", {result.stats.branches} {'nodes' if result.stats.engine == 'counter' else 'branches'}"
    status = result.status.value
    if asked_unique and result.unique is not None and result.status is tiling.Status.SOLVED:
        verdict = "unique" if result.unique else "not unique (at least 2 tilings)"
        return f"{source}: {status}, {verdict} ({took})"
    parts = [f"{source}: {status}"]
    if result.count is not None and result.status is not tiling.Status.UNSOLVABLE:
        what = plural(result.count, "distinct tiling" if result.distinct else "tiling")
        if result.distinct:
            what += f" up to the region's {result.symmetries} symmetr{'y' if result.symmetries == 1 else 'ies'}"
        parts.append(what if result.exhaustive else f"at least {what}")
    if result.reason:
        parts.append(result.reason)
    return ", ".join(parts) + f" ({took})"


command = solve
