"""``templeforge generate <game>``: one subcommand per registered game, its options made
from the game's declaration (``generators.<game>.spec.OPTIONS``)."""

from __future__ import annotations

import sys
import time
from typing import Any

import click

from generators import GAMES, GameInfo
from templeforge.cli import LazyGroup
from templeforge.options import declared, profile_option
from templeforge.terminal import plural


class Games(LazyGroup):
    """Subcommands built from the game registry, each only when it is looked up."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(GAMES)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        return game_command(GAMES[name]) if name in GAMES else None


def game_command(info: GameInfo) -> click.Command:
    spec = info.module("spec")

    @click.command(info.name, help=_help(info, spec), short_help=info.summary)
    @profile_option
    @declared(spec.OPTIONS)
    def run(profile: str | None, **given: Any) -> None:
        run_generate(info, spec, profile, {k: v for k, v in given.items() if v is not None})

    return run


def _help(info: GameInfo, spec: Any) -> str:
    return (f"{info.summary}\n\n{spec.HELP}\n\nEvery option is also a key of a TOML --profile (with _ for -). "
            f"The same request and seed give the same file, byte for byte. Exit status: 0 written, "
            f"2 an impossible or malformed request (nothing is tried), 3 the budget ran out before the "
            f"deck was full (nothing is written).\n\nExample:\n\n    templeforge generate {info.name} --seed 7")


def run_generate(info: GameInfo, spec_module: Any, profile: str | None, given: dict[str, Any]) -> None:
    from generators.common.files import output_path
    from generators.common.options import resolve

    resolved = resolve(spec_module.OPTIONS, given, profile)
    target = output_path(resolved.values["out"], spec_module.DECK_NAME)
    spec = spec_module.Spec.from_values(resolved.values, resolved.given).checked()

    generate = info.module("generate")
    verify = info.module("verify")
    figures = info.module("figures")
    deck_module = info.module("deck")
    started = time.perf_counter()
    tty = sys.stderr.isatty()

    def progress(tried: int, usable: int) -> None:
        if tty:
            click.echo(f"\r{tried} candidates tried, {usable} usable", err=True, nl=False)

    try:
        deck = generate.generate(spec, progress=progress)
    finally:
        if tty:
            click.echo(err=True)
    written = deck_module.write_deck(deck, target)
    check = verify.verify_deck(deck_module.read_deck(written))  # the file as written, read back
    if not check.ok:  # a bug: the generator proves everything it emits
        written.unlink(missing_ok=True)
        raise RuntimeError("the generated deck fails verification: " + "; ".join(check.problems[:3]))
    took = time.perf_counter() - started
    click.echo(f"wrote {written}: {plural(len(deck.cards), 'card')}, {check.counted}, every one proved "
               f"and verified (seed {spec.seed}, {took:.1f} s)")
    from templeforge.terminal import render

    click.echo(render(figures.summary(deck, check, spec)))


@click.group(cls=Games)
def generate() -> None:
    """Generate a deck of proved content for one game.

    Example:

        templeforge generate puzzle-temple --cards 36 --blocks-per-face 3 --seed 1
    """


command = generate
