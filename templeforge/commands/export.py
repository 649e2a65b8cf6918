"""``templeforge export``: a deck's files for somewhere else than a home printer: a
print-on-demand service's upload (``export shop``)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from print.common.options import OPTIONS
from templeforge.options import declared, paper_deck, unverified_option
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
    from generators.common.errors import RequestError
    from generators.common.files import output_path, write_files
    from generators.common.options import resolve
    from generators.common.proof import prove, stamped
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
    info, deck, data, module = paper_deck(deck_file, given)
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


@export.command()
@click.argument("deck_file", metavar="DECK.json")
@click.option("--url-base", metavar="URL", help="Where the images and models will be hosted (https://.../): each "
              "file's address is URL followed by its path under --out [default: file:/// addresses of the files "
              "where they are written, for a table on this machine].")
@click.option("--models/--no-models", default=True, help="The game's plastic pieces as coloured 3D models (OBJ "
              "meshes from the kit; a few seconds more) [default: on].")
@declared(tuple(o for o in OPTIONS if o.name in KEPT))
@click.option("--out", metavar="DIR", help="Output folder [default: output/GAME/tts/].")
@unverified_option
def tts(deck_file: str, url_base: str | None, models: bool, out: str | None, unverified: bool,
        **given: Any) -> None:
    """Write a deck as a Tabletop Simulator saved object: its decks of cards on sheets (at
    most 10 x 7 cards a sheet, within 4096 px a side) with their backs, every card named
    and described by its printed words; its boards as tiles; with --models, its plastic
    pieces as coloured models. Copy NAME.json and NAME.png into Tabletop Simulator's
    "Saves/Saved Objects" folder (Windows: Documents/My Games/Tabletop Simulator/Saves/
    Saved Objects; macOS: ~/Library/Tabletop Simulator/Saves/Saved Objects; Linux:
    ~/.local/share/Tabletop Simulator/Saves/Saved Objects) and take it from Objects >
    Saved Objects. Images and models are read from their file:/// paths, or from
    --url-base once uploaded there (keep the folder's layout).

    Only a proved deck is exported. Files are written together or not at all.

    Exit status: 0 written, 1 the deck fails verification, 2 bad input (a bad --url-base,
    an option the game does not use), 73 a file could not be written; and, as every
    command, 70 a bug, 74 standard output, 130 interrupted, 141 a closed pipe.

    Example:

        templeforge export tts output/GAME/deck.json
    """
    import json

    from generators.common.errors import RequestError
    from generators.common.files import output_path, write_files
    from generators.common.proof import prove
    from solver.names import slug
    from templeforge.heartbeat import Heartbeat

    if url_base is not None and not (url_base.startswith(("https://", "http://")) and url_base.endswith("/")):
        raise RequestError(f"--url-base: expected an http(s) address ending in /, got {url_base!r}")
    given = {k: v for k, v in given.items() if v is not None}
    info, deck, data, module = paper_deck(deck_file, given, frozenset({"players"}) if models else frozenset())
    folder = Path(out) if out is not None else Path("output") / info.name / "tts"
    name = slug(f"{info.title} {Path(deck_file).stem}")
    output_path(f"{folder}/", f"{name}.json")
    started = time.perf_counter()
    with Heartbeat(f"export tts {deck_file}") as beat:
        beat.update("proving the deck")
        proved = prove(info, deck, data, deck_file, unverified=unverified)
        click.echo(proved.said)
        beat.update("drawing the cards")
        title = module.deck_title(deck, deck_file)
        files, objects, lines = _table(module, proved, given, title)
        if models:
            beat.update("making the pieces")
            files_m, objects_m, lines_m = _models(info, proved, given)
            files.update(files_m)
            objects += objects_m
            lines += lines_m
    if THUMBNAIL in files:
        files[f"{name}.png"] = files.pop(THUMBNAIL)
    where = (url_base or folder.resolve().as_uri() + "/")
    text = json.dumps(_addressed(_saved(title, objects), where), indent=2, ensure_ascii=False)
    files[f"{name}.json"] = (text + "\n").encode()
    written = write_files(folder, files)
    for line in lines:
        click.echo(line)
    click.echo(f"wrote {plural(len(written), 'file')} to {folder}/ in {time.perf_counter() - started:.1f} s: copy "
               f"{name}.json and {name}.png into Tabletop Simulator's Saves/Saved Objects folder"
               + (f" and upload the rest to {url_base}" if url_base else ""))


#: A file's address in the saved object, until the folder's is known.
HERE = "@here/"
THUMBNAIL = "@thumbnail"


def _fitted(image: Any, side: int) -> Any:
    scale = side / max(image.width, image.height)
    return image.resize((round(image.width * scale), round(image.height * scale)))


def _saved(title: str, objects: list[dict[str, Any]]) -> dict[str, Any]:
    from print.common import tts

    return tts.saved_object(title, objects)


def _addressed(value: Any, where: str) -> Any:
    """``value`` with every ``@here/PATH`` as ``where`` + PATH."""
    if isinstance(value, dict):
        return {k: _addressed(v, where) for k, v in value.items()}
    if isinstance(value, list):
        return [_addressed(v, where) for v in value]
    if isinstance(value, str) and value.startswith(HERE):
        return where + value[len(HERE):]
    return value


def _table(module: Any, proved: Any, given: dict[str, Any], title: str
           ) -> tuple[dict[str, bytes], list[dict[str, Any]], list[str]]:
    """The paper side: each deck's sheets, each board's sides, and their objects."""
    import pypdfium2 as pdfium

    from generators.common.options import resolve
    from generators.common.proof import stamped
    from print.common import tts
    from print.common.previews import page_text

    values = resolve(OPTIONS, {**given, "layout": "cards", "duplex": "long", "bleed": "0"}).values
    with stamped(proved.stamp):
        printed = module.make(proved.deck, module.request(values), title)
    card = printed.imposition.settings.card
    files: dict[str, bytes] = {}
    objects: list[dict[str, Any]] = []
    lines: list[str] = []
    key = 1
    x = 0.0
    for pdf_name in sorted(printed.files):
        if not pdf_name.endswith(".pdf"):
            continue
        doc = pdfium.PdfDocument(printed.files[pdf_name])
        try:
            pages = [doc[i] for i in range(len(doc))]
            one_a_page = pages and len(pages) % 2 == 0 and all(
                [round(v, 2) for v in p.get_trimbox()] == [round(v, 2) for v in p.get_mediabox()] for p in pages)
            if not one_a_page:
                continue
            sizes = {tuple(round(v, 2) for v in p.get_size()) for p in pages}
            w_pt, h_pt = pages[0].get_size()
            images = [p.render(scale=300 / 72).to_pil().convert("RGB") for p in pages]
        finally:
            doc.close()
        texts = page_text(printed.files[pdf_name])
        stem = pdf_name.removesuffix(".pdf")
        fronts, backs = images[0::2], images[1::2]
        is_deck = len(sizes) == 1 and abs(w_pt * 25.4 / 72 - card.width) < 0.5 and abs(h_pt * 25.4 / 72 -
                                                                                          card.height) < 0.5
        if is_deck:
            labels = list(printed.labels) if pdf_name == "cards.pdf" else []
            names = [(_card_name(labels[k]) if len(labels) == len(fronts) else f"{stem} {k + 1}")
                     for k in range(len(fronts))]
            descriptions = [tts.description(t) for t in texts[0::2]]
            one_back = len({b.tobytes() for b in backs}) == 1
            found = tts.sheets(len(fronts), f"images/{stem}")
            size = tts.face_size(w_pt / h_pt, max(s.cols for s in found), max(s.rows for s in found))
            urls = []
            for sheet in found:
                files[sheet.name] = tts.sheet_image(fronts, sheet, size, hidden=backs[0])
                if one_back:
                    back = f"images/{stem}-back.png"
                    files[back] = tts.png(backs[0].resize(size))
                else:
                    back = sheet.name.replace(f"images/{stem}-", f"images/{stem}-backs-")
                    files[back] = tts.sheet_image(backs, sheet, size, hidden=backs[0])
                urls.append((sheet, HERE + sheet.name, HERE + back))
            scale = (w_pt / 72) / tts.TTS_CARD
            objects.append(tts.deck_object(f"{title}: {stem}", key, urls, not one_back, names, descriptions,
                                           tts.transform(x, 0.0, scale)))
            key += len(found)
            x += 4.0 * scale
            lines.append(f"{stem}: {len(fronts)} cards on {plural(len(found), 'sheet')} of {size[0]} x {size[1]} px "
                         f"a card, {'one back' if one_back else 'a back each'}")
            if THUMBNAIL not in files:  # the saved object's picture: the first deck's first card
                files[THUMBNAIL] = tts.png(_fitted(fronts[0], 256))
            continue
        for k, (front, back) in enumerate(zip(fronts, backs)):
            a, b = f"images/{stem}-{k + 1}-front.png", f"images/{stem}-{k + 1}-back.png"
            files[a], files[b] = tts.png(front), tts.png(back)
            w_in = front.width / 300  # rendered at 300 dpi
            objects.append(tts.tile_object(f"{stem} {k + 1}", HERE + a, HERE + b,
                                           tts.transform(2.5 * w_in * k - 6.0, 8.0, w_in / 2)))
        lines.append(f"{stem}: {plural(len(fronts), 'board')} as tiles, both sides")
    for pdf_name, imposition, names in getattr(printed, "pieces", ()):
        (cut, placed), said = _pieces(printed.files[pdf_name], imposition, names, pdf_name.removesuffix(".pdf"))
        files.update(cut)
        objects += placed
        lines.append(said)
    return files, objects, lines


def _pieces(pdf: bytes, imposition: Any, names: Any, stem: str) -> tuple[tuple[dict[str, bytes], list[Any]], str]:
    """A sheet of paper pieces cut into its pieces along their trims, rendered on a clear
    background: a piece printed on both sides as a two-sided tile; one printed on one side
    as a token, whose outline the table takes from the picture's clear background (a round
    crystal stays round). Pieces of one name (the twelve red crystals) share one picture."""
    import pypdfium2 as pdfium

    from print.common import tts
    from print.common.previews import pixel_box

    doc = pdfium.PdfDocument(pdf)
    try:
        pages = [doc[i].render(scale=300 / 72, fill_color=(255, 255, 255, 0)).to_pil().convert("RGBA")
                 for i in range(len(doc))]
    finally:
        doc.close()
    faces: dict[int, Any] = {}
    backs: dict[int, Any] = {}
    width: dict[int, float] = {}
    for page, sheet in zip(pages, imposition.pages):
        for slot in sheet.fronts:
            faces[slot.card] = page.crop(pixel_box(slot.trim, sheet.height, 300))
            width[slot.card] = slot.trim.w / 25.4
        for slot in sheet.backs:
            backs[slot.card] = page.crop(pixel_box(slot.trim, sheet.height, 300))
    files: dict[str, bytes] = {}
    objects: list[Any] = []
    seen: dict[tuple[str, str], str] = {}

    def stored(image: Any, name: str, side: str) -> str:
        if (name, side) not in seen:
            seen[name, side] = f"images/{stem}-{len(seen) + 1}.png"
            files[seen[name, side]] = tts.png(image)
        return HERE + seen[name, side]

    for k in sorted(faces):
        place = tts.transform(-12.0 + 1.5 * (k % 16), 14.0 + 1.5 * (k // 16), width[k] / 2)
        if k in backs:
            objects.append(tts.tile_object(names[k], stored(faces[k], names[k], "front"),
                                           stored(backs[k], names[k], "back"), place, thickness=0.1))
        else:
            objects.append(tts.token_object(names[k], stored(faces[k], names[k], "front"), place))
    two = sum(1 for k in faces if k in backs)
    kind = "two-sided tiles" if two == len(faces) else "tokens cut to their outline" if not two else "pieces"
    return (files, objects), f"{stem}: {plural(len(faces), 'piece')} as {kind} ({plural(len(seen), 'picture')})"


def _card_name(label: str) -> str:
    return f"card {label}" if label[:1].isdigit() else label


def _models(info: Any, proved: Any, given: dict[str, Any]) -> tuple[dict[str, bytes], list[dict[str, Any]], list[str]]:
    """The plastic side: each piece as a coloured OBJ with its palette, an object per copy."""
    from cad import kit_models
    from cad.common import obj
    from cad.common.profile import PRINTERS, Physical
    from generators.common.proof import stamped

    players = int(given.get("players", 4))
    with stamped(proved.stamp):
        made = kit_models(info, proved.deck, physical=Physical(), bed=next(iter(PRINTERS.values())), players=players)
    files: dict[str, bytes] = {}
    objects: list[dict[str, Any]] = []
    most = 0
    place = 0
    for model in made:
        mesh, palette = obj.obj(model.parts, model.key)
        files[f"models/{model.key}.obj"], files[f"models/{model.key}.png"] = mesh, palette
        most = max(most, obj.vertices(model.parts))
        for _ in range(model.copies):
            col, row = place % 12, place // 12
            objects.append({
                "Name": "Custom_Model", "Transform": {"posX": -12.0 + 2.0 * col, "posY": 1.0, "posZ": -6.0 - 2.0 * row,
                                                      "rotX": 0.0, "rotY": 180.0, "rotZ": 0.0, "scaleX": 1.0,
                                                      "scaleY": 1.0, "scaleZ": 1.0},
                "Nickname": model.title, "Description": "", "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0},
                "Locked": False, "Grid": True, "Snap": True,
                "CustomMesh": {"MeshURL": f"{HERE}models/{model.key}.obj",
                               "DiffuseURL": f"{HERE}models/{model.key}.png", "NormalURL": "", "ColliderURL": "",
                               "Convex": True, "MaterialIndex": 0, "TypeIndex": 0, "CastShadows": True}})
            place += 1
    lines = [f"models: {plural(len(made), 'piece')} ({plural(place, 'object')} with their copies), coloured, at most "
             f"{most} vertices a piece"] if made else []
    return files, objects, lines
