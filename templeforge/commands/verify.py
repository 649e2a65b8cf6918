"""``templeforge verify``: re-prove every card of any game's deck, trusting nothing stored."""

from __future__ import annotations

import sys
import time

import click

from templeforge.cli import EXIT
from templeforge.options import cluster_option, time_limit_option
from templeforge.terminal import plural, render


class VerifyCommand(click.Command):
    """Its help names what each registered game's verifier checks, read when help is shown
    (so that loading the command does not load every game)."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from generators import GAMES

        said = "\n\n".join(f"{g.title}: {g.load_rules().VERIFY_HELP}" for g in GAMES.values())
        import inspect

        template = self.help or ""
        self.help = inspect.cleandoc(template).replace("{games}", said)
        try:
            super().format_help_text(ctx, formatter)
        finally:
            self.help = template


@click.command(cls=VerifyCommand)
@click.argument("deck_file", metavar="DECK.json")
@time_limit_option("Per face; a face not settled in time is 'unknown', never 'unsolvable'.")
@click.option("--show", "show_all", is_flag=True, help="Draw a solution of every face.")
@click.option("--seal", "seal_it", is_flag=True, help="If the deck passes, rewrite it in place with the proofs "
              "found (a hand-written deck's solutions, counts, difficulties, points) and a seal, so that pdf, "
              "cad and build print it without verifying it again.")
@click.option("--tiers-from", metavar="DECK.json",
              help="Place the cards on this deck's scale (difficulty tiers, points: the game's); default: "
                   "the deck's own, else the default one.")
@click.option("--workers", type=click.IntRange(1, 64), help="Processes to check the cards in, at most the "
              "machine's cores (the check does not depend on it) [default: up to 2].")
@click.option("--strict", is_flag=True, help="A hand-written deck's own points that run against difficulty (a "
              "card worth less but harder than one worth more), or a structure outside the band of our default "
              "deck, fail the deck; without it they are reported beside the tool's scale. A generated deck's "
              "always fail.")
@cluster_option
def verify(deck_file: str, time_limit: float | None, show_all: bool, tiers_from: str | None, seal_it: bool,
           strict: bool, workers: int | None, cluster: str | None) -> None:
    """Re-prove every face of a deck and check the deck's rules.

    The deck's `game` says which game's verifier runs; it does not use the generator. What
    each game's verifier checks:

    {games}

    A deck that `templeforge generate` wrote carries a seal: a hash over its content and
    this verifier's version. pdf, cad and build print a sealed deck without verifying it
    again and verify any other deck first; `--seal` seals a deck that passes.

    Exit status: 0 all proved, 1 a face or rule fails (each named on
    stderr), 2 bad input, 3 a face was not settled within --time-limit, 73 the sealed deck
    could not be written; and, as every command, 70 a bug, 74 standard output, 130
    interrupted, 141 a closed pipe.

    Example:

        templeforge verify output/GAME/deck.json
    """
    from generators import open_deck, read_deck
    from generators.common import seal
    from generators.common.proof import verifier

    info, deck, data = open_deck(deck_file)
    other = None
    if tiers_from is not None:
        other_info, other = read_deck(tiers_from)
        if other_info.name != info.name:
            raise click.UsageError(f"--tiers-from: {tiers_from} is a {other_info.name} deck, "
                                   f"{deck_file} a {info.name} deck")
    started = time.perf_counter()
    rules = info.load_rules()
    from generators.common.pool import cluster as on
    from generators.common.pool import default_workers
    from templeforge.heartbeat import Heartbeat

    with on(cluster), Heartbeat(f"verify {deck_file}") as beat:
        beat.update(f"re-proving {plural(len(deck.cards), 'card')}")
        check = rules.verify(deck, time_limit=time_limit, tiers_from=other, tiers_name=tiers_from or "",
                             strict=strict, workers=workers or default_workers())
    took = time.perf_counter() - started
    made = f"generated, seed {deck.seed}" if deck.seed is not None else "hand-written"
    click.echo(f"{deck_file}: {info.title}, {plural(len(deck.cards), 'card')}, {check.counted} ({made})")
    click.echo(render(rules.report(deck, check, show_all)))
    click.echo(f"checked in {took:.1f} s")
    for problem in check.problems:
        click.echo(f"templeforge: FAIL {problem}", err=True)
    if check.problems:
        click.echo(f"{deck_file}: {plural(len(check.problems), 'problem')}", err=True)
        sys.exit(EXIT["failed"])
    if check.unknown:
        where = ", ".join(f.where for f in check.unknown[:5])
        click.echo(f"{deck_file}: not settled within the time limit: {where}", err=True)
        sys.exit(EXIT["unknown"])
    click.echo(f"{deck_file}: OK, {rules.OK_TEXT}")
    state = seal.state(data, verifier(rules, info))
    if seal_it:
        from generators.common.files import write_atomic
        from generators.common.proof import sealed_text

        done = rules.completed(deck, check)
        write_atomic(deck_file, sealed_text(info, done.dumps()))
        added = " with the proofs it lacked" if done != deck else ""
        click.echo(f"{deck_file}: sealed{added}: pdf, cad and build print it without verifying it again")
    elif state is not seal.State.HOLDS:
        click.echo(f"{deck_file}: {state.value}; --seal seals it, so that pdf, cad and build need not verify it "
                   f"again")


command = verify
