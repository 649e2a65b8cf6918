"""``templeforge stones``: Shifting Stones tools (``solve``: the fewest actions to a pattern)."""

from __future__ import annotations

import click

from generators.common.options import SEED_RANGE
from templeforge.cli import EXIT
from templeforge.terminal import plural


@click.group()
def stones() -> None:
    """Shifting Stones tools.

    Example:

    \b
        templeforge stones solve --grid "Sun Fish Bird / Horse Boat Seed / Tree Seed Horse" --pattern "Moon Fish"
    """


def _grid_picture(faces: tuple[int, ...], names: tuple[str, ...], marked: set[int], width: int) -> list[str]:
    rows = []
    for r in range(3):
        cells = []
        for c in range(3):
            p = r * 3 + c
            name = names[faces[p]]
            cells.append(f"[{name:<{width}}]" if p in marked else f" {name:<{width}} ")
        rows.append("".join(cells).rstrip())
    return rows


@stones.command()
@click.option("--grid", required=True, metavar="GRID",
              help="The grid: three rows split by '/', each three faces (names or letters), or 'random'.")
@click.option("--pattern", required=True, metavar="WINDOW",
              help="The window: up to three rows split by '/', each up to three faces or 'any' ('.').")
@click.option("--tiles", default="published", show_default=True, metavar="published|FILE.toml",
              help="The stones.")
@click.option("--seed", default=0, show_default=True, type=click.IntRange(*SEED_RANGE),
              help="The seed of --grid random.")
def solve(grid: str, pattern: str, tiles: str, seed: int) -> None:
    """Print the fewest swaps and flips that make GRID show WINDOW, each step drawn.

    One breadth-first search from every grid that shows the window, over all the grids the
    tiles can make, gives the least number of actions from each; the path follows it down.
    Exit status: 0 solved, 1 no grid can show the window with these tiles, 2 bad input;
    and, as every command, 70 a bug, 74 standard output, 130 interrupted, 141 a closed pipe.

    Example:

    \b
        templeforge stones solve --grid "S F B / H O E / T E H" --pattern "Moon any / Fish Fish"
    """
    import random

    from generators.shifting_stones.pattern import parse_grid, parse_pattern
    from generators.shifting_stones.space import space
    from generators.shifting_stones.tiles import parse_tile_set

    tile_set = parse_tile_set(tiles, "--tiles")
    window = parse_pattern(pattern, tile_set, "--pattern")
    sp = space(tile_set)
    if grid.strip().lower() == "random":
        start = random.Random(seed).randrange(sp.size)
    else:
        start = sp.state(parse_grid(grid, tile_set, "--grid"))
    names = tile_set.faces
    width = max(len(n) for n in names)
    click.echo("pattern (anywhere in the grid, never turned):")
    for row in window.rows:
        click.echo("  " + "  ".join(f"{'any' if f is None else names[f]:<{width}}" for f in row).rstrip())
    if not window.fits(tile_set):
        click.echo(f"no grid can show this pattern: {window.shortage(tile_set)}", err=True)
        raise SystemExit(EXIT["failed"])
    shown = sp.shows(window.rows)
    dist = sp.distances(shown)
    moves = sp.path(start, dist)
    click.echo(f"\n{plural(len(moves), 'action')}, the fewest possible "
               f"(a random grid needs {float(dist.mean()):.2f} on average):")
    state = start
    click.echo("\nstart:")
    for line in _grid_picture(sp.faces(state), names, set(), width):
        click.echo("  " + line)
    for step, move in enumerate(moves, start=1):
        state = sp.after(state, move)
        touched = {move.a} | ({move.b} if move.b >= 0 else set())
        click.echo(f"\n{step}. {move} ([ ] the stones moved):")
        for line in _grid_picture(sp.faces(state), names, touched, width):
            click.echo("  " + line)
    found = window.places(sp.faces(state))
    click.echo("\nthe grid shows the pattern" + (" already" if not moves else "") + ", here:")
    for line in _grid_picture(sp.faces(state), names, set(found or ()), width):
        click.echo("  " + line)


command = stones
