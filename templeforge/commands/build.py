"""``templeforge build``: generate, verify, print and model a game's kit in one command, with
a report."""

from __future__ import annotations

import os
import shlex
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generators import DEFAULT, GAMES  # names only: the registry imports nothing heavy
from generators.common.options import SEED_RANGE
from generators.common.signals import ask_stop, check_stop
from generators.contract import Game

if TYPE_CHECKING:
    from templeforge.pipeline.settings import GameSettings
from templeforge.options import GameChoice, cluster_option
from templeforge.terminal import plural

#: ``--duplex``'s words (``fold`` is ``templeforge pdf``'s ``gutter``, which is taken too).
DUPLEX_CHOICES = ("long", "short", "fold", "gutter", "none")


@click.command()
@click.option("--game", type=GameChoice(["all"]), default=DEFAULT, show_default=True,
              help="The game to build, or all of them.")
@click.option("--profile", metavar="FILE.toml", help="Settings for every stage, in [generate], [pdf] and [cad] "
              "sections; options given here win over it.")
@click.option("--seed", type=click.IntRange(*SEED_RANGE), help="Random seed of the deck [default: the profile's, "
              "else 0].")
@click.option("--out", metavar="DIR", default="output", show_default=True,
              help="Where the kit goes: DIR/<game>/.")
@click.option("--jobs", type=click.IntRange(1, 64), default=os.cpu_count() or 1, show_default="the machine's "
              "cores", help="Processes to use: the PDFs are made beside the 3D kit, the deck by several workers.")
@click.option("--force", is_flag=True, help="Redo every stage, even those whose inputs have not changed.")
@click.option("--duplex", type=click.Choice(DUPLEX_CHOICES), help="Card backs, as `templeforge pdf --duplex`: "
              "long or short (duplex, flipped on that edge, with calibration.pdf), fold (fronts and backs on one "
              "page) or none [default: the profile's [pdf] duplex, else long].")
@click.option("--unverified", is_flag=True, help="Print and model the deck even if it fails verification: every "
              "card, plate and report page then says UNVERIFIED (a passing deck is printed unmarked).")
@click.option("--deck", "deck_file", metavar="DECK.json", help="Build this deck (yours, written by hand, in the "
              "studio or by generate) in place of generating one; its game is the deck's. It is verified, and "
              "written completed and sealed into the kit when it passes.")
@cluster_option
@click.pass_context
def build(ctx: click.Context, game: str, profile: str | None, seed: int | None, out: str, jobs: int, force: bool,
          duplex: str | None, unverified: bool, deck_file: str | None, cluster: str | None) -> None:
    """Build a game's whole kit: generate the deck (or take yours, --deck), verify it
    independently, print its PDFs and model its 3D parts, then write report.html and
    manifest.json, in DIR/<game>/.

    A stage whose inputs (the deck's bytes, its settings, the tool's version) have not
    changed since the last build is not redone. The build fills DIR/.<game>.partial/ and
    replaces DIR/<game>/ only once it is complete: a failure or Ctrl-C leaves the previous
    build as it was. The deck is written sealed once it passes verification; the PDFs and
    the 3D kit are made only from a proved deck (one changed since it was sealed is
    verified again). With --cluster, the deck is generated and verified there (the same
    deck); the PDFs and models are made on this machine.

    Exit status: 0 built, 1 the deck failed verification, 2 bad input, 3 the generator's
    budget ran out, 73 a file could not be written (the previous kit kept); and, as every
    command, 70 a bug, 74 standard output, 130 interrupted, 141 a closed pipe.

    Examples:

        templeforge build --profile examples/profiles/build-small.toml --out output/small

        templeforge build --deck my-deck.json --out output/mine
    """
    from templeforge.pipeline import guard
    from templeforge.pipeline.settings import game_settings, read_profile

    sections = read_profile(profile) if profile else {}
    where = profile or "profile"
    folder = Path(profile).parent if profile else Path(".")
    games = list(GAMES) if game == "all" else [game]
    given = None
    if deck_file is not None:
        given, games = _given(ctx, deck_file, game, seed)
    chosen = [replace(game_settings(GAMES[name], sections, where, folder, seed=seed, jobs=jobs, duplex=duplex),
                      unverified=unverified, deck=given) for name in games]
    root = Path(out)
    from generators.common.pool import cluster as on

    with guard.locked(root), on(cluster):
        for settings in chosen:  # before any work: nothing of the designer's is lost, no symlink followed
            guard.check(root, settings.game.name, owned(settings.game))
        for settings in chosen:
            check_stop()  # a stop that came as the game before was put in place: this one is not begun
            _build(settings, root, profile, seed, jobs, force, duplex, deck_file)


def _given(ctx: click.Context, deck_file: str, game: str, seed: int | None) -> tuple[tuple[str, bytes], list[str]]:
    """The designer's deck (``--deck``): its file's name and bytes, and its game, the one
    game built. A deck that cannot be read, a ``--game`` that is not the deck's, or a
    ``--seed`` (a given deck is not generated) is one line, exit 2."""
    from generators import open_deck
    from templeforge.cli import fail

    if seed is not None:
        fail(f"--seed: {deck_file} is built as it is, not generated: leave --seed out", 2)
    info, _, _ = open_deck(deck_file)
    named = ctx.get_parameter_source("game") is not click.core.ParameterSource.DEFAULT
    if named and game != info.name:
        fail(f"--game {game}: {deck_file} is a {info.name} deck; leave --game out or name that game", 2)
    return (deck_file, Path(deck_file).read_bytes()), [info.name]


def _build(settings: GameSettings, root: Path, profile: str | None, seed: int | None, jobs: int,
           force: bool, duplex: str | None = None, deck_file: str | None = None) -> None:
    from templeforge.cli import fail
    from templeforge.pipeline import report
    from templeforge.pipeline.display import display
    from templeforge.pipeline.runner import StageFailed, build_game

    name = settings.game.name
    command = canonical(name, profile, seed, settings.unverified, duplex, deck_file)
    started = time.perf_counter()
    try:
        outcome = build_game(settings, root, command=command, jobs=jobs, force=force, display=display(name),
                             report=report.make)
    except StageFailed as err:
        kept = f"{root / name}/ keeps the previous build" if (root / name).exists() else "nothing was written"
        fail(f"{name}: the {err.stage} stage stopped: {err}; {kept}", err.status)
        return
    try:  # the kit is in place: a stop that comes as it is said stops the next game, not this one
        redone = [s for s, r in outcome.records.items() if not r.cached]
        files = sum(1 for p in outcome.folder.rglob("*") if p.is_file())
        did = f"redid {', '.join(redone)}" if redone else "nothing to redo: every stage's inputs are unchanged"
        click.echo(f"built {outcome.folder}/: {plural(files, 'file')}, {did} ({time.perf_counter() - started:.1f} s); "
                   f"open {outcome.folder}/report.html")
    except KeyboardInterrupt:
        ask_stop()


def canonical(game: str, profile: str | None, seed: int | None, unverified: bool = False,
              duplex: str | None = None, deck_file: str | None = None) -> str:
    """The command that rebuilds this kit (without --out, --jobs and --force, which do not
    change what is built)."""
    words = ["templeforge", "build", "--deck", deck_file] if deck_file else ["templeforge", "build", "--game", game]
    if profile:
        words += ["--profile", profile]
    if seed is not None:
        words += ["--seed", str(seed)]
    if duplex is not None:
        words += ["--duplex", duplex]
    if unverified:
        words.append("--unverified")
    return shlex.join(words)


#: What a build (or the pdf and cad commands with their default --out) puts in any game's
#: folder, besides the game's deck and PDFs.
OWNED = {"report.html", "manifest.json", "build.json"}


def owned(game: Game) -> set[str]:
    """The top-level files a build of ``game`` makes in its folder (with models/ and
    previews/, which ``templeforge.pipeline.guard`` knows)."""
    from print import paper_of

    return OWNED | {game.load_rules().DECK_NAME} | {name for name, _ in paper_of(game).FILES}


command = build
