"""``templeforge playtest``: whole games of a deck played by agents under its game's rules
(``generators.common.playtest``), and what they say about seats, length and cards."""

from __future__ import annotations

import sys

import click

from templeforge.options import cluster_option, seed_option


@click.command()
@click.argument("deck_file", metavar="DECK.json")
@click.option("--players", type=int, default=4, show_default=True, help="Players at the table.")
@click.option("--games", type=click.IntRange(1, 10_000_000), default=200, show_default=True,
              help="Games played with the agents (and as many again, blind to the printed points, to price "
                   "the cards).")
@seed_option("The seed every game's deal is drawn from.")
@click.option("--agents", default="greedy", show_default=True, metavar="NAME[,NAME...]",
              help="Each seat's agent, repeated round the table: random (any legal move), greedy (the move "
                   "that looks best one step ahead), search (its own turn searched two moves deep), rollout (its best "
                   "moves each tried on many deals of the hidden cards, followed by random play).")
@click.option("--workers", type=click.IntRange(1, 64), help="Worker processes; the results do not depend on it "
              "[default: up to 2].")
@cluster_option
@click.option("--out", metavar="DIR", help="Where playtest.json, playtest.html, games.parquet and cards.parquet go "
              "[default: output/<deck>-playtest/].")
def playtest(deck_file: str, players: int, games: int, seed: int, agents: str, workers: int | None,
             cluster: str | None, out: str | None) -> None:
    """Play whole games of a deck under the published rules, with agents in every seat, and
    write what they show: each seat's wins (ties split) with a 95% interval, the scores and
    the length of a game, and each card's worth in play, priced by agents blind to the
    printed points (the turns a card is held for each time it is scored), with the points
    it would carry on the deck's own scale and how they agree with the printed ones.
    playtest.json also lists findings to read: a seat outside its fair share, a card never
    scored, a game that did not end.

    Files (written together, or none): playtest.json; playtest.html (the same as pictures:
    wins by seat with their intervals, the length of a game, each card's value in play
    against its points, the scores per seat, the cards, the game's own questions);
    games.parquet (one row per game:
    kind, game, seed, seats, agents, scores, winner, winners, turns, ended); cards.parquet (one row per
    card: id, players, dealt, scored, value, points, suggested_points). The same request
    gives the same bytes on any number of workers.

    Exit status: 0 written, 2 bad input (a deck whose game has no rules engine yet, a
    player count the rules do not allow, an unknown agent), 73 a file could not be
    written; and, as every command, 70 a bug, 74 standard output, 130 interrupted, 141 a
    closed pipe.

    Example:

        templeforge playtest output/GAME/deck.json --players 4 --games 500
    """
    import hashlib
    from pathlib import Path

    from generators import GAMES, open_deck
    from generators.common import playtest as pt
    from generators.common.errors import RequestError
    from generators.common.files import write_files
    from generators.common.pool import cluster as on
    from generators.common.pool import default_workers
    from templeforge.heartbeat import Heartbeat
    from templeforge.pipeline import playpage

    info, deck, _ = open_deck(deck_file)
    if not info.engine:
        playable = ", ".join(g.name for g in GAMES.values() if g.engine)
        raise RequestError(f"{deck_file}: {info.title} has no rules engine yet (playtests: {playable})")
    engine = info.load_engine()
    request = pt.Request(players, games, seed, tuple(a.strip() for a in agents.split(",") if a.strip()))
    pt.check_request(engine, request)
    engine.start(deck, players, seed)  # a deck that cannot be dealt: refused before any game
    folder = Path(out) if out is not None else Path("output") / f"{Path(deck_file).stem}-playtest"
    with on(cluster), Heartbeat(f"playtest {deck_file}") as beat, \
            click.progressbar(length=2 * games, label="playing games", file=sys.stderr, show_pos=True) as bar:

        def step(done: int, total: int) -> None:
            bar.update(done - bar.pos)
            beat.update(f"{done} of {total} games")

        files, said = playpage.played(info, deck, request, hashlib.sha256(Path(deck_file).read_bytes()).hexdigest(),
                                      f"Playtest: {Path(deck_file).name} ({info.title})",
                                      workers or default_workers(), progress=step)
    write_files(folder, files)
    for seat in said["seats"]:
        low, high = seat["ci95"]
        click.echo(f"seat {seat['seat']} ({seat['agent']}): wins {seat['win_rate']:.1%} "
                   f"[{low:.1%}, {high:.1%}], mean score {seat['mean_score']:.1f}")
    length = said["length"]
    click.echo(f"a game: {length['mean_turns']:.1f} turns on average (10%-90%: {length['p10']:g}-{length['p90']:g})")
    for finding in said["findings"]:
        click.echo(f"finding: {finding}")
    click.echo(f"wrote playtest.json, playtest.html, games.parquet and cards.parquet to {folder}/")


command = playtest
