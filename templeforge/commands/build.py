"""``templeforge build``: generate, verify, print and model a game's kit in one command, with
a report."""

from __future__ import annotations

import os
import shlex
import time
from pathlib import Path

import click

from generators import DEFAULT, GAMES  # names only: the registry imports nothing heavy
from generators.contract import Game
from templeforge.options import GameChoice
from templeforge.terminal import plural


@click.command()
@click.option("--game", type=GameChoice(["all"]), default=DEFAULT, show_default=True,
              help="The game to build, or all of them.")
@click.option("--profile", metavar="FILE.toml", help="Settings for every stage, in [generate], [pdf] and [cad] "
              "sections; options given here win over it.")
@click.option("--seed", type=click.IntRange(0, 2**31 - 1), help="Random seed of the deck [default: the profile's, "
              "else 0].")
@click.option("--out", metavar="DIR", default="output", show_default=True,
              help="Where the kit goes: DIR/<game>/.")
@click.option("--jobs", type=click.IntRange(1, 64), default=os.cpu_count() or 1, show_default="the machine's "
              "cores", help="Processes to use: the PDFs are made beside the 3D kit, the deck by several workers.")
@click.option("--force", is_flag=True, help="Redo every stage, even those whose inputs have not changed.")
def build(game: str, profile: str | None, seed: int | None, out: str, jobs: int, force: bool) -> None:
    """Build a game's whole kit: generate the deck, verify it independently, print its PDFs
    and model its 3D parts, then write report.html and manifest.json, in DIR/<game>/.

    A stage whose inputs (the deck's bytes, its settings, the tool's version) have not
    changed since the last build is not redone. The build fills DIR/.<game>.partial/ and
    replaces DIR/<game>/ only once it is complete: a failure or Ctrl-C leaves the previous
    build as it was. Exit status: 0 built, 1 the deck failed verification, 2 bad input,
    130 interrupted.

    Example:

        templeforge build --profile examples/profiles/build-small.toml --out output/small
    """
    from templeforge.cli import fail
    from templeforge.pipeline import report
    from templeforge.pipeline.display import display
    from templeforge.pipeline.runner import StageFailed, build_game
    from templeforge.pipeline.settings import game_settings, read_profile

    sections = read_profile(profile) if profile else {}
    where = profile or "profile"
    folder = Path(profile).parent if profile else Path(".")
    games = list(GAMES) if game == "all" else [game]
    chosen = [game_settings(GAMES[name], sections, where, folder, seed=seed, jobs=jobs) for name in games]
    root = Path(out)
    for settings in chosen:
        _check_folder(root / settings.game.name, settings.game)
    for settings in chosen:
        name = settings.game.name
        command = canonical(name, profile, seed)
        started = time.perf_counter()
        try:
            outcome = build_game(settings, root, command=command, jobs=jobs, force=force, display=display(name),
                                 report=report.make)
        except StageFailed as err:
            kept = f"{root / name}/ keeps the previous build" if (root / name).exists() else "nothing was written"
            fail(f"{name}: the {err.stage} stage stopped: {err}; {kept}", err.status)
            return
        redone = [s for s, r in outcome.records.items() if not r.cached]
        files = sum(1 for p in outcome.folder.rglob("*") if p.is_file())
        did = f"redid {', '.join(redone)}" if redone else "nothing to redo: every stage's inputs are unchanged"
        click.echo(f"built {outcome.folder}/: {plural(files, 'file')}, {did} ({time.perf_counter() - started:.1f} s); "
                   f"open {outcome.folder}/report.html")


def canonical(game: str, profile: str | None, seed: int | None) -> str:
    """The command that rebuilds this kit (without --out, --jobs and --force, which do not
    change what is built)."""
    words = ["templeforge", "build", "--game", game]
    if profile:
        words += ["--profile", profile]
    if seed is not None:
        words += ["--seed", str(seed)]
    return shlex.join(words)


#: What a build (or the pdf and cad commands with their default --out) puts in any game's
#: folder, besides the game's deck and PDFs.
OWNED = {"models", "previews", "report.html", "manifest.json", "build.json"}


def owned(game: Game) -> set[str]:
    """The names a build of ``game`` makes in its folder; a build replaces the folder whole,
    so anything else there is refused."""
    from print import paper_of

    return OWNED | {game.load_rules().DECK_NAME} | {name for name, _ in paper_of(game).FILES}


def _check_folder(folder: Path, game: Game) -> None:
    """A build replaces its folder whole: refuse one that holds anything a build would not
    make, naming it."""
    from generators.common.files import OutputError

    mine = owned(game)
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{folder}: cannot build there: it is a file")
    foreign = sorted(p.name for p in folder.iterdir() if p.name not in mine) if folder.is_dir() else []
    if foreign:
        shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
        raise OutputError(f"{folder}/ holds {shown}, which a build does not make (a build replaces the folder "
                          f"whole): move them away or choose another --out")


command = build
