"""``templeforge pdf``: print-and-play PDFs of a deck (cards, answer key, paper pieces) and
PNG previews of every page."""

from __future__ import annotations

import time
from typing import Any

import click

# the declarations are light (no ReportLab): `templeforge --help` stays quick
from print.common.options import OPTIONS, OUT  # noqa: E402  (after the templeforge imports on purpose)
from templeforge.options import declared, out_folder, paper_deck, unverified_option
from templeforge.terminal import plural


@click.command()
@click.argument("deck_file", metavar="DECK.json")
@declared(OPTIONS)
@click.option("--previews/--no-previews", default=True, help="Render PNG previews of every page and a contact "
              "sheet of the card fronts [default: on]")
@unverified_option
def pdf(deck_file: str, previews: bool, unverified: bool, **given: Any) -> None:
    """Write print-and-play PDFs for a deck: cards.pdf (fronts, and backs unless --duplex
    none), the game's own sheets (an answer key, paper pieces), calibration.pdf (with
    --duplex long or short) and previews/*.png.

    Every card is printed with crop marks; each page's margin carries the deck's name, the
    page number, the ids of its cards and a 100 mm ruler (measure it: if it is not 100 mm,
    the printer scaled the page; print at 100%). Files are written to temporary names and
    renamed into place; a bad option writes nothing.

    Only a proved deck is printed: a deck sealed by `templeforge generate` or `verify
    --seal` (and unchanged since) is trusted; any other deck (hand-written, edited) is
    verified first, and printed with the proofs the verifier finds.

    Exit status: 0 written, 1 the deck fails verification (nothing written), 2 bad input,
    73 a file could not be written; and, as every command, 70 a bug, 74 standard output,
    130 interrupted, 141 a closed pipe.

    Example:

        templeforge pdf output/GAME/deck.json --paper letter --duplex long
    """
    from generators.common.options import resolve
    from generators.common.proof import prove

    given = {k: v for k, v in given.items() if v is not None}
    resolved = resolve(OPTIONS, given)
    info, deck, data, module = paper_deck(deck_file, given)
    from print import deck_files
    out = out_folder(resolved.values["out"], OUT, info.name)
    from generators.common.files import output_path, write_files

    output_path(f"{out}/", "cards.pdf")  # can be written, checked before any work
    started = time.perf_counter()
    from templeforge.heartbeat import Heartbeat

    with Heartbeat(f"pdf {deck_file}") as beat:
        beat.update("proving the deck")
        proved = prove(info, deck, data, deck_file, unverified=unverified)
        click.echo(proved.said)
        beat.update("drawing the pages")
        files, lines = deck_files(info, proved.deck, resolved.values, module.deck_title(deck, deck_file), previews,
                                  stamp=proved.stamp)
    written = write_files(out, files)
    if previews:  # pages of an earlier, longer run would mislead
        for old in sorted((out / "previews").glob("*.png")):
            if f"previews/{old.name}" not in files:
                old.unlink()
    took = time.perf_counter() - started
    for line in lines:
        click.echo(line)
    click.echo(f"wrote {plural(len(written), 'file')} to {out}/ in {took:.1f} s")


command = pdf
