"""``templeforge generate <game>``: one subcommand per registered game, its options made
from the game's declaration (``generators.<game>.spec.OPTIONS``)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import click

from generators import GAMES
from generators.contract import Game, Rules
from templeforge.cli import LazyGroup
from templeforge.options import cluster_option, declared, profile_option
from templeforge.terminal import plural


class Games(LazyGroup):
    """Subcommands built from the game registry, each only when it is looked up."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(GAMES)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        return game_command(GAMES[name]) if name in GAMES else None

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The help, its example naming the default game (every game takes --seed)."""
        import inspect

        from generators import DEFAULT

        template = self.help or ""
        self.help = inspect.cleandoc(template).replace(
            "{example}", f"templeforge generate {DEFAULT} --seed 7")
        try:
            super().format_help_text(ctx, formatter)
        finally:
            self.help = template


def game_command(info: Game) -> click.Command:
    rules = info.load_rules()

    @click.command(info.name, help=_help(info, rules), short_help=info.summary)
    @profile_option
    @declared(rules.OPTIONS)
    @cluster_option
    def run(profile: str | None, cluster: str | None, **given: Any) -> None:
        from generators.common.pool import cluster as on

        with on(cluster):
            run_generate(info, rules, profile, {k: v for k, v in given.items() if v is not None})

    return run


def _help(info: Game, rules: Rules) -> str:
    return (f"{info.summary}\n\n{rules.HELP}\n\nEvery option is also a key of a TOML --profile (with _ for -). "
            f"The same request and seed give the same file, byte for byte. Exit status: 0 written, "
            f"2 an impossible or malformed request (nothing is tried), 3 the budget ran out before the "
            f"deck was full (nothing is written), 73 the deck could not be written; and, as every command, 70 a "
            f"bug, 74 standard output, 130 interrupted, 141 a closed pipe.\n\nExample:\n\n"
            f"    templeforge generate {info.name} "
            f"{rules.EXAMPLE}")


def where(path: Path) -> str:
    """Where a file went, as the user will look for it: relative to the working folder when
    it is inside it, else absolute (a profile's ``out`` is relative to the profile)."""
    resolved = path.resolve()
    try:
        return str(resolved.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(resolved)


def run_generate(info: Game, rules: Rules, profile: str | None, given: dict[str, Any]) -> None:
    from generators.common.files import output_path
    from generators.common.options import resolve

    resolved = resolve(rules.OPTIONS, given, profile)
    target = output_path(resolved.values["out"], rules.DECK_NAME)
    spec = rules.spec(resolved.values, resolved.given)
    started = time.perf_counter()
    tty = sys.stderr.isatty()
    from templeforge.heartbeat import Heartbeat

    with Heartbeat(f"generate {info.name}") as beat:

        def progress(tried: int, usable: int) -> None:
            beat.update(f"{tried} candidates tried, {usable} usable")
            if tty:
                click.echo(f"\r{tried} candidates tried, {usable} usable", err=True, nl=False)

        try:
            deck = rules.generate(spec, progress=progress)
        finally:
            if tty:
                click.echo(err=True)
        written = rules.write_deck(deck, target)
        from generators import read_deck

        _, again = read_deck(written)  # the file as written, read back
        from generators.common.pool import default_workers

        beat.update(f"verifying the {plural(len(deck.cards), 'card')} written")
        check = rules.verify(again, workers=resolved.values.get("workers") or default_workers())
    if not check.ok:  # a bug: the generator proves everything it emits
        written.unlink(missing_ok=True)
        raise RuntimeError("the generated deck fails verification: " + "; ".join(check.problems[:3]))
    from generators.common.files import write_atomic
    from generators.common.proof import sealed_text

    write_atomic(written, sealed_text(info, written.read_text("utf-8")))  # proved: the printers trust it
    took = time.perf_counter() - started
    click.echo(f"wrote {where(written)}: {plural(len(deck.cards), 'card')}, {check.counted}, every one proved "
               f"and verified (seed {spec.seed}, {took:.1f} s)")
    from templeforge.terminal import render

    click.echo(render(rules.summary(deck, check, spec)))


@click.group(cls=Games)
def generate() -> None:
    """Generate a deck of proved content for one game: `templeforge generate GAME --help`
    shows a game's options.

    Example:

        {example}
    """


command = generate
