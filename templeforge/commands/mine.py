"""``templeforge mine <game>``: a game's corpus as Parquet (``generators.common.mine``), one
subcommand per registered game that mines one (``generators.contract.Game.mine``)."""

from __future__ import annotations

import sys
import time
from typing import Any

import click

from generators import GAMES
from generators.contract import Game, Miner
from templeforge.cli import LazyGroup
from templeforge.options import cluster_option, declared


class Mines(LazyGroup):
    """A subcommand per game with a miner, each built only when it is looked up."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name, g in GAMES.items() if g.mine]

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        game = GAMES.get(name)
        return game_command(game) if game is not None and game.mine else None

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The help, its example the first game that mines a corpus."""
        import inspect

        template = self.help or ""
        first = next((g for g in GAMES.values() if g.mine), None)
        example = f"templeforge mine {first.name} {first.load_miner().EXAMPLE}" if first else "templeforge mine GAME"
        self.help = inspect.cleandoc(template).replace("{example}", example)
        try:
            super().format_help_text(ctx, formatter)
        finally:
            self.help = template


def game_command(info: Game) -> click.Command:
    miner = info.load_miner()
    default_out = f"output/{info.name}-corpus.parquet"

    @click.command(info.name, help=_help(info, miner, default_out), short_help=f"{info.title}'s corpus.")
    @declared(miner.OPTIONS)
    @click.option("--out", metavar="FILE.parquet", default=default_out, show_default=True,
                  help="The corpus file; its chunks wait in FILE.parquet.parts/ until it is complete.")
    @click.option("--workers", type=click.IntRange(1, 64), help="Worker processes (on --cluster dask: the "
                  "LocalCluster's workers); the corpus does not depend on it [default: up to 2].")
    @cluster_option
    def run(out: str, workers: int | None, cluster: str | None, **given: Any) -> None:
        run_mine(info, miner, {k: v for k, v in given.items() if v is not None}, out, workers, cluster)

    return run


def _help(info: Game, miner: Miner, default_out: str) -> str:
    columns = "; ".join(f"{c.name} ({c.type}): {c.doc}" for c in miner.COLUMNS)
    return (f"{miner.HELP}\n\nColumns, in order: {columns}.\n\n"
            f"The work is cut into chunks, mined side by side on the --cluster's workers; each "
            f"finished chunk is kept (written atomically, with its hash), so a run that was stopped resumes where "
            f"it stopped. The corpus is then written in one go: the same request gives the same bytes on any "
            f"executor and number of workers. Ctrl-C keeps the finished chunks and writes no corpus.\n\nExit "
            f"status: 0 written (or already complete), 2 a malformed request or an --out that is not a corpus, "
            f"73 a file could not be written; and, as every command, 70 a bug, 74 standard output, 130 interrupted "
            f"(the finished chunks kept), 141 a closed pipe.\n\nExample:\n\n"
            f"    templeforge mine {info.name} {miner.EXAMPLE}")


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


class Bar:
    """A progress bar on a terminal's stderr: chunks done, rows, rate and time left."""

    WIDTH = 24

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self.started = time.perf_counter()
        self.shown = False
        self.beat: Any = None  # a Heartbeat: what a log is told every so often

    def __call__(self, done: int, total: int, rows: int, fresh: int) -> None:
        if self.beat is not None:
            self.beat.update(f"{done}/{total} chunks, {rows:,} rows")
        if not self.tty:
            return
        took = time.perf_counter() - self.started
        filled = self.WIDTH * done // total if total else self.WIDTH
        rate = fresh / took if took > 0 and fresh else 0.0
        left = f"ETA {_clock((total - done) / rate)}" if rate else "ETA --:--"
        click.echo(f"\r[{'#' * filled}{'.' * (self.WIDTH - filled)}] {done}/{total} chunks, {rows:,} rows, "
                   f"{rate:.2f} chunks/s, {left} ", err=True, nl=False)
        self.shown = True

    def end(self) -> None:
        if self.shown:
            click.echo(err=True)


def run_mine(info: Game, miner: Miner, given: dict[str, Any], out: str, workers: int | None,
             cluster: str | None) -> None:
    from generators.common import mine
    from generators.common.options import resolve
    from generators.common.pool import cluster as on
    from generators.common.pool import default_workers
    from templeforge.terminal import plural

    values = resolve(miner.OPTIONS, given).values
    plan = miner.plan(values)
    from templeforge.heartbeat import Heartbeat

    bar = Bar()
    with on(cluster), Heartbeat(f"mine {info.name}") as beat:
        bar.beat = beat
        try:
            done = mine.run(info.name, miner, plan, out, workers or default_workers(), progress=bar)
        finally:
            bar.end()
    if not done.fresh:
        click.echo(f"{done.path}: already complete for this request ({plural(done.rows, 'row')}, "
                   f"{plural(done.chunks, 'chunk')}); nothing to do")
        return
    again = f", {done.kept} kept from the previous run" if done.kept else ""
    damaged = ""
    if done.damaged:
        named = ", ".join(done.damaged_chunks[:5]) + (f" and {done.damaged - 5} more" if done.damaged > 5 else "")
        damaged = f", {done.damaged} damaged and mined again ({named})"
    click.echo(f"wrote {done.path}: {plural(done.rows, 'row')} from {plural(done.chunks, 'chunk')}{again}{damaged} "
               f"({done.seconds:.1f} s of mining)")


@click.group(cls=Mines)
def mine_group() -> None:
    """Mine a game's whole content space into a Parquet corpus: `templeforge mine GAME --help` shows a
    game's options and columns.

    Example:

        {example}
    """


command = mine_group
