"""The ``templeforge`` command line: a thin click layer over the library.

Each command parses its arguments, calls the library, and echoes a short summary. Domain
errors (``TempleforgeError``) become one line on stderr and exit status 2; no tracebacks for
user mistakes.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

import click

from generators.puzzle_temple import generate as generate_module
from generators.puzzle_temple import tiers
from generators.puzzle_temple import verify as verify_module
from generators.puzzle_temple.deck import read_deck, write_deck
from solver import jsontext, tiling
from solver.errors import TempleforgeError
from solver.pieces import PRESETS, is_preset, piece, preset
from solver.puzzle import Solution
from solver.puzzlefile import load_blocks, load_puzzle
from templeforge import __version__, profiles

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


# -- Puzzle Temple decks ----------------------------------------------------------------------

DEFAULT_DECK = "output/puzzle-temple/deck.json"


@main.group()
def generate() -> None:
    """Generate a deck of proved content for one game.

    Example:

        templeforge generate puzzle-temple --cards 36 --blocks-per-face 3 --seed 1
    """


def _block_set(value: str, name: str) -> tuple[Any, str]:
    if is_preset(value):
        return preset(value), value
    if value.endswith(".toml"):
        return load_blocks(value), value
    raise profiles.ProfileError(f"{name}: unknown block set {value!r}: expected a preset "
                                f"({', '.join(PRESETS)}) or a block-set .toml file")


@generate.command("puzzle-temple")
@click.option("--profile", type=click.Path(dir_okay=False), metavar="FILE.toml",
              help="Read the request from a TOML profile; options given here win over it.")
@click.option("--blocks", default="ubongo12", show_default=True, metavar="PRESET|FILE.toml",
              help="The players' block set: a preset or a TOML file with `pieces`.")
@click.option("--cards", type=int, default=36, show_default=True, help="Cards in the deck.")
@click.option("--blocks-per-face", default="3", show_default=True, metavar="N|MIN-MAX",
              help="Blocks on one face (Ubongo: 3 on the easy side, 4 on the hard side).")
@flips_option
@click.option("--lock-cells", default=None, metavar="MIN-MAX",
              help="Limits on a lock's cells (default: whatever the blocks give).")
@click.option("--lock-size", default="7x5", show_default=True, metavar="WxH",
              help="The widest and tallest a lock may be, in cells, so that it fits the card.")
@click.option("--holes/--no-holes", default=False, show_default=True,
              help="Whether a lock may enclose empty squares.")
@click.option("--min-fill", type=float, default=0.6, show_default=True,
              help="The least share of its bounding box a lock fills (keeps locks compact).")
@click.option("--unique/--no-unique", default=False, show_default=True,
              help="Every face must have exactly one solution.")
@click.option("--difficulty", default="thirds", show_default=True, metavar="TARGET",
              help="Cards per tier: any, thirds, ramp (3:2:1), easy, medium, hard, or weights "
                   "like easy:2,medium:2,hard:1.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--attempts", type=int, default=None, metavar="N",
              help="Locks to try before giving up (default 60 per card).")
@click.option("--locks", type=click.Choice(generate_module.LOCK_SOURCES), default="auto", show_default=True,
              help="Where locks come from: random unions of blocks, the joint CP-SAT model, or "
                   "unions first and CP-SAT designs if they fall short.")
@click.option("--designs", type=int, default=None, metavar="N",
              help="CP-SAT designs to try after the random locks (default 4 per card).")
@click.option("--workers", type=int, default=None, metavar="N",
              help="Processes for the candidate search (default: up to 2; the deck is the same).")
@click.option("--out", default=DEFAULT_DECK, show_default=True, metavar="DECK.json",
              help="Where to write the deck (written whole or not at all).")
@click.pass_context
@domain_errors
def puzzle_temple(ctx: click.Context, profile: str | None, **options: Any) -> None:
    """Generate Puzzle Temple lock cards, every face proved to tile its lock.

    Each card gets a connected lock and six different block sets (die faces 1-6), each
    tiling the lock exactly; every face's solutions are counted and its difficulty rated.
    The deck has no two locks alike (up to rotation and reflection) and uses every block
    about equally often. The same request and seed give the same file, byte for byte.
    Exit status: 0 written, 2 an impossible or malformed request (nothing is tried), 3 the
    budget (--attempts, --designs) ran out before the deck was full (nothing is written).

    Example:

        templeforge generate puzzle-temple --blocks-per-face 3-4 --difficulty ramp --seed 7
    """
    values: dict[str, Any] = {}
    labels: dict[str, str] = {}
    if profile is not None:
        for key, value in profiles.load_profile(profile).items():
            values[key] = value
            labels[key] = f"{profile}: {key}"
    for key, value in options.items():
        if key in values and ctx.get_parameter_source(key) is click.core.ParameterSource.DEFAULT:
            continue
        values[key] = value
        labels[key] = "--" + key.replace("_", "-")
    blocks, block_set = _block_set(values["blocks"], labels["blocks"])
    per_face = profiles.parse_range(values["blocks_per_face"], labels["blocks_per_face"])
    cells = values["lock_cells"]
    lock_cells = profiles.parse_range(cells, labels["lock_cells"]) if cells is not None else None
    target = tiers.parse_target(values["difficulty"])
    workers = values["workers"] if values["workers"] is not None else min(2, os.cpu_count() or 1)
    spec = generate_module.Spec(
        blocks=tuple(blocks), block_set=block_set, cards=values["cards"], blocks_per_face=per_face,
        flips=values["flips"], lock_cells=lock_cells,
        lock_size=profiles.parse_size(values["lock_size"], labels["lock_size"]),
        holes=values["holes"], min_fill=float(values["min_fill"]), unique=values["unique"],
        difficulty=target, seed=values["seed"], attempts=values["attempts"], locks=values["locks"],
        designs=values["designs"], workers=workers)
    started = time.perf_counter()
    tty = sys.stderr.isatty()

    def progress(tried: int, usable: int) -> None:
        if tty:
            click.echo(f"\r{tried} locks tried, {usable} usable", err=True, nl=False)

    try:
        deck = generate_module.generate(spec, progress=progress)
    except generate_module.DeckShortfall as err:
        click.echo(f"templeforge: error: {one_line(str(err))}; nothing written", err=True)
        sys.exit(EXIT_UNKNOWN)
    finally:
        if tty:
            click.echo(err=True)
    check = verify_module.verify_deck(deck)
    if not check.ok:  # a bug: the generator proves everything it emits
        raise RuntimeError("the generated deck fails verification: " + "; ".join(check.problems[:3]))
    out = write_deck(deck, values["out"])
    took = time.perf_counter() - started
    faces = sum(len(c.faces) for c in deck.cards)
    click.echo(f"wrote {out}: {_plural(len(deck.cards), 'card')}, {faces} faces, every face proved "
               f"and verified (seed {spec.seed}, {took:.1f} s)")
    click.echo(_deck_figures(deck, check))


def _deck_figures(deck: Any, check: Any) -> str:
    """Block usage, tiers and the difficulty histogram of a deck, as text."""
    lines = []
    sizes = sorted({c.lock.size for c in deck.cards})
    per_face = sorted({len(f.blocks) for c in deck.cards for f in c.faces})
    span = lambda lo, hi: f"{lo}" if lo == hi else f"{lo}-{hi}"  # noqa: E731
    lines.append(f"locks of {span(sizes[0], sizes[-1])} cells; {span(per_face[0], per_face[-1])} blocks per face")
    ratio = check.usage_ratio
    usage = ", ".join(f"{name} {n}" for name, n in check.usage.items())
    lines.append(f"block usage (faces): {usage}; max/min {ratio:.2f}" if ratio is not None
                 else f"block usage (faces): {usage}; some block is never used")
    bounds = deck.parameters.get("tier_bounds")
    if bounds:
        spread = Counter(tiers.tier_of(c.difficulty, tuple(bounds)).value for c in deck.cards
                        if c.difficulty is not None)
        lines.append(f"card tiers by mean face difficulty: easy {spread['easy']}, medium {spread['medium']}, "
                     f"hard {spread['hard']} (easy below {bounds[0]} bits, hard from {bounds[1]})")
    values = [f.difficulty for f in check.faces if f.difficulty is not None]
    if values:
        lines.append("face difficulty (bits, see README):")
        lines.extend(_histogram(values))
    return "\n".join(lines)


def _histogram(values: list[float], width: float = 0.5, bar: int = 40) -> list[str]:
    top = max(values)
    bins = Counter(min(int(v / width), int(top / width)) for v in values)
    most = max(bins.values())
    out = []
    for b in range(min(bins), int(top / width) + 1):
        n = bins.get(b, 0)
        out.append(f"  {b * width:4.1f}-{(b + 1) * width:<4.1f} {'#' * max(n * bar // most, 1 if n else 0):{bar}} {n}")
    return out


@main.command()
@click.argument("deck_file", metavar="DECK.json")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Per face; a face not settled in time is 'unknown', never 'unsolvable'.")
@click.option("--show", "show_all", is_flag=True, help="Draw a solution of every face.")
@domain_errors
def verify(deck_file: str, time_limit: float | None, show_all: bool) -> None:
    """Re-prove every face of a deck and check the deck's rules.

    Each stored solution is checked cell by cell, each face's solutions are counted again and
    its difficulty re-rated; the lock must be connected (hole-free unless the deck allows
    holes), each card needs six different block sets (dice 1-6), and no two locks may be
    alike. A hand-written deck (faces with only `die` and `blocks`) gets every face solved
    and drawn. Exit status: 0 all proved, 1 a face or rule fails (each named on stderr),
    2 bad input, 3 a face was not settled within --time-limit.

    Example:

        templeforge verify output/puzzle-temple/deck.json
    """
    deck = read_deck(deck_file)
    started = time.perf_counter()
    check = verify_module.verify_deck(deck, time_limit=time_limit)
    took = time.perf_counter() - started
    faces = {(f.card, f.die): f for f in check.faces}
    click.echo(f"{deck_file}: {_plural(len(deck.cards), 'card')}, {len(check.faces)} faces "
               f"({'generated, seed ' + str(deck.seed) if deck.seed is not None else 'hand-written'})")
    click.echo(f"{'card':>4} {'cells':>5}  {'solutions, faces 1-6':<22} {'difficulty':>10}  check")
    for card in deck.cards:
        mine = [faces[(card.id, f.die)] for f in card.faces]
        counts = " ".join(_count_text(f) for f in mine)
        rated = [f.difficulty for f in mine if f.difficulty is not None]
        mean = f"{sum(rated) / len(rated):10.2f}" if rated and len(rated) == len(mine) else f"{'-':>10}"
        bad = sum(len(f.problems) for f in mine) + sum(f"card {card.id}:" in p for p in check.rule_problems)
        click.echo(f"{card.id:>4} {card.lock.size:>5}  {counts:<22} {mean}  {'ok' if not bad else 'FAIL'}")
    for card in deck.cards:
        for face in card.faces:
            f = faces[(card.id, face.die)]
            if show_all or face.solution is None:
                click.echo(f"\n{_face_text(deck, card, face, f)}")
    click.echo()
    click.echo(_deck_figures(deck, check))
    click.echo(f"checked in {took:.1f} s")
    for problem in check.problems:
        click.echo(f"templeforge: FAIL {problem}", err=True)
    if check.problems:
        click.echo(f"{deck_file}: {_plural(len(check.problems), 'problem')}", err=True)
        sys.exit(EXIT_UNSOLVABLE)
    if check.unknown:
        where = ", ".join(f.where for f in check.unknown[:5])
        click.echo(f"{deck_file}: not settled within the time limit: {where}", err=True)
        sys.exit(EXIT_UNKNOWN)
    click.echo(f"{deck_file}: OK, every face proved and every rule holds")


def _count_text(f: Any) -> str:
    if f.status is tiling.Status.UNSOLVABLE:
        return "0"
    return str(f.count) if f.exhaustive else f">={f.count}"


def _face_text(deck: Any, card: Any, face: Any, check: Any) -> str:
    head = f"card {card.id}, face {face.die}: {' '.join(face.blocks)}"
    if check.status is tiling.Status.UNSOLVABLE:
        return f"{head}: cannot be solved: {check.reason}"
    if check.status is tiling.Status.UNKNOWN:
        return f"{head}: unknown ({check.reason})"
    unique = {True: "unique", False: "not unique", None: "unique not known"}[check.unique]
    count = _plural(check.count, "solution") if check.exhaustive else f"at least {_plural(check.count, 'solution')}"
    rated = f", {check.difficulty:.2f} bits" if check.difficulty is not None else ""
    text = f"{head}: solvable, {count}, {unique}{rated}"
    if check.solution is not None:
        text += "\n" + _drawing(check.solution, card.lock)
    return text


@main.command()
@click.argument("deck_file", metavar="DECK.json")
@click.option("--card", "card_id", type=int, metavar="N", help="The card to show (default: every card).")
@domain_errors
def show(deck_file: str, card_id: int | None) -> None:
    """Print a card's lock and each face's solution as ASCII.

    Faces without a stored solution (a hand-written deck) are solved on the spot.

    Example:

        templeforge show output/puzzle-temple/deck.json --card 1
    """
    deck = read_deck(deck_file)
    cards = [deck.card(card_id)] if card_id is not None else list(deck.cards)
    for number, card in enumerate(cards):
        if number:
            click.echo()
        click.echo(f"card {card.id}: lock of {card.lock.size} cells")
        click.echo(card.lock.format())
        for face in card.faces:
            click.echo()
            solution = face.solution
            note = ""
            if solution is None:
                result = tiling.solve(deck.puzzle(card, face))
                solution = result.solution
                note = " (solved now)"
            counted = f", {_plural(face.solutions, 'solution')}" if face.solutions is not None else ""
            rated = f", {face.difficulty:.2f} bits" if face.difficulty is not None else ""
            click.echo(f"face {face.die}: {' '.join(face.blocks)}{counted}{rated}{note}")
            click.echo(_drawing(solution, card.lock) if solution is not None else "cannot be solved")
