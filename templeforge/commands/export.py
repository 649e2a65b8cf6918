"""``templeforge export``: a deck's files for somewhere else than a home printer: a
print-on-demand service's upload (``export shop``)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from print.common.options import OPTIONS
from templeforge.options import declared, unverified_option
from templeforge.terminal import plural

#: The print options a service leaves to the designer (the sheet's geometry is the service's).
KEPT = ("pitch", "players", "designer_marks")


@click.group()
def export() -> None:
    """A deck's files for somewhere other than a home printer: a print-on-demand service's
    upload (`export shop`).

    Example:

        templeforge export shop output/GAME/deck.json --service dtc
    """


@export.command()
@click.argument("deck_file", metavar="DECK.json")
@click.option("--service", required=True, metavar="tgc|mpc|dtc|png",
              help="Where the cards go: tgc (The Game Crafter: a PNG a face, RGB), mpc (MakePlayingCards: a PNG a "
                   "face, RGB), dtc (DriveThruCards: a PDF a deck, each back before its front, CMYK within 240 % "
                   "ink), png (a PNG a face at the game's own card size).")
@click.option("--product", metavar="NAME", help="The service's card size (tgc: mini, bridge, poker, square, tarot, "
              "jumbo; mpc and dtc: mini, bridge, poker, square, tarot; png: any --size of templeforge pdf) "
              "[default: the size of the game's cards, else the smallest that holds them, else the largest the "
              "game can draw on].")
@click.option("--colour", "colour", type=click.Choice(["rgb", "cmyk"]), help="Colour of the files: cmyk (dtc only: "
              "PNG holds no CMYK, and The Game Crafter takes RGB) [default: the service's: cmyk for dtc, else "
              "rgb].")
@declared(tuple(o for o in OPTIONS if o.name in KEPT))
@click.option("--out", metavar="DIR", help="Output folder [default: output/GAME/shop-SERVICE/].")
@unverified_option
def shop(deck_file: str, service: str, product: str | None, colour: str | None, out: str | None, unverified: bool,
         **given: Any) -> None:
    """Write a deck's card faces as a print-on-demand service's upload takes them: at its
    pixel size with its bleed and safe area, named and ordered as it asks, and UPLOAD.txt
    saying which file goes where (the card size to order, the deck size where a service
    sells only some, each file's card).

    The faces are the game's own cards (as `templeforge pdf --layout cards` draws them) at
    the service's card size, rendered at 300 dpi. A deck with several decks of cards (a
    game's table cards beside its main deck) gives a folder or PDF each; boards and tokens
    stay in `templeforge pdf`'s files. With --colour cmyk the pages are converted by
    LittleCMS for a SWOP press within the service's ink limit (this needs Debian's
    ghostscript and liblcms2-utils), and the summary says the most ink any pixel takes.

    Only a proved deck is exported (as `templeforge pdf`). Files are written together or
    not at all; faces of an earlier export of the same deck that this one does not make are removed.

    Exit status: 0 written, 1 the deck fails verification, 2 bad input (an unknown
    service or product, CMYK where the service takes RGB, a size the game cannot draw
    on), 73 a file could not be written; and, as every command, 70 a bug, 74 standard
    output, 130 interrupted, 141 a closed pipe.

    Example:

        templeforge export shop output/GAME/deck.json --service tgc
    """
    from generators import open_deck
    from generators.common.errors import RequestError
    from generators.common.files import output_path, write_files
    from generators.common.options import resolve
    from generators.common.proof import prove, stamped
    from print import paper_of
    from print.common import shop as shops
    from templeforge.heartbeat import Heartbeat

    svc = shops.service(service)
    colour = colour or svc.colour
    if colour not in svc.colours:
        raise RequestError(f"--colour {colour}: {svc.title} takes {' or '.join(c.upper() for c in svc.colours)} "
                           f"files")
    if colour == "cmyk":
        from print.common import cmyk

        why = cmyk.available()
        if why:
            raise RequestError(why)
    chosen = svc.product(product) if product is not None else None
    given = {k: v for k, v in given.items() if v is not None}
    info, deck, data = open_deck(deck_file)
    module = paper_of(info)
    unused = sorted(set(given) - module.USES)
    if unused:
        flags = ", ".join(o.flag for o in OPTIONS if o.name in unused)
        raise click.UsageError(f"{flags}: not used for {info.title} decks")
    folder = Path(out) if out is not None else Path("output") / info.name / f"shop-{svc.name}"
    output_path(f"{folder}/", "UPLOAD.txt")  # can be written, checked before any work
    title = module.deck_title(deck, deck_file)
    sheet = {"layout": "cards", "duplex": "long", "bleed": f"{svc.bleed * shops.MM:.3f}",
             "safe": f"{svc.safe * shops.MM:.3f}"}
    started = time.perf_counter()
    made: dict[str, Any] = {}

    with Heartbeat(f"export shop {deck_file}") as beat:
        beat.update("proving the deck")
        proved = prove(info, deck, data, deck_file, unverified=unverified)
        click.echo(proved.said)

        def draw(size: str) -> Any:
            if size not in made:
                values = resolve(OPTIONS, {**given, **sheet, "size": size}).values
                with stamped(proved.stamp):
                    made[size] = module.make(proved.deck, module.request(values), title)
            return made[size]

        def fits(p: shops.Product) -> str | None:
            try:
                draw(_mm(p))
            except RequestError as refused:
                return str(refused)
            return None

        beat.update("drawing the cards")
        if chosen is None:
            own = draw("auto").imposition.settings.card
            chosen = shops.choose(svc, own, fits)
        printed = draw(_mm(chosen))  # a product named: its own refusal says why
        beat.update("rendering the faces")
        card = chosen.size()
        page = (card.width + 2 * svc.bleed * shops.MM, card.height + 2 * svc.bleed * shops.MM)
        w, h = svc.pixels(chosen)
        found = shops.decks(printed.files, page, svc.dpi, (h, w) if chosen.landscape else (w, h),
                            {"cards.pdf": printed.labels}, turn=chosen.landscape)
        files, lines = shops.package(svc, chosen, found, colour, title, _author())
    written = write_files(folder, files)
    mine = {p.resolve() for p in written}
    for name in {k.split("/")[0] for k in files if "/" in k}:  # an earlier, longer export's faces would be uploaded too
        for old in sorted([*(folder / name).glob("fronts/*.png"), *(folder / name).glob("backs/*.png"),
                           folder / name / "back.png"]):
            if old.is_file() and old.resolve() not in mine:
                old.unlink()
    for line in lines:
        click.echo(line)
    if proved.stamp:
        click.echo(f"every card front says {proved.stamp}: the deck was not proved")
    click.echo(f"wrote {plural(len(written), 'file')} to {folder}/ for {svc.title} ({chosen}) in "
               f"{time.perf_counter() - started:.1f} s: read UPLOAD.txt")


def _mm(p: Any) -> str:
    """A product's trim as the sheets' ``WxH`` in mm."""
    size = p.size()
    return f"{size.width:g}x{size.height:g}"


def _author() -> str:
    from generators.common.deckfile import versions

    return f"templeforge {versions()['templeforge']}"


command = export
