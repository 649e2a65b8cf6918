"""Files for print-on-demand services: each card face at the service's pixel size, bleed and
safe area, named and ordered as its upload takes them, with a text file saying what goes
where.

The faces come from the game's own one-card-a-page PDF (``--layout cards``), drawn at the
service's card size with its bleed and safe area, and rendered by PDFium at the service's
resolution: what the shop prints is what ``templeforge pdf`` draws. Which file of the game
is a deck is read from the PDFs themselves: every page the card with its bleed, fronts and
backs alternating.

Services (the templates each size follows are cited in docs/paper.md):
    tgc   The Game Crafter: a PNG per face, RGB, 300 dpi, 1/8 in bleed (poker 825 x 1125 px);
    mpc   MakePlayingCards: a PNG per face, RGB, 300 dpi, 36 px bleed (poker 822 x 1122 px);
    dtc   DriveThruCards: one PDF per deck, each card's back before its front, CMYK within
          240 % total ink, PDF/X-1a, 300 dpi, 1/8 in bleed (poker 2.75 x 3.75 in);
    png   any other: a PNG per face at the game's own card size, 300 dpi, 1/8 in bleed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from generators.common.errors import RequestError
from print.common.sizes import CardSize, parse_card_size

MM = 25.4  #: millimetres an inch


@dataclass(frozen=True, slots=True)
class Product:
    """A card size a service sells: its name there and its trim in inches, portrait;
    ``landscape``: the game's cards lie on their side on it (drawn landscape, and each face
    turned a quarter turn clockwise into the service's portrait template)."""

    name: str
    width: float
    height: float
    landscape: bool = False

    def size(self) -> CardSize:
        """The card the game draws on (landscape when turned), in mm."""
        w, h = round(self.width * MM, 3), round(self.height * MM, 3)
        return CardSize(self.name, h, w) if self.landscape else CardSize(self.name, w, h)

    def turned(self) -> Product:
        return Product(self.name, self.width, self.height, not self.landscape)

    def __str__(self) -> str:
        return f"{self.name}{' (cards on their side)' if self.landscape else ''}"


@dataclass(frozen=True, slots=True)
class Service:
    """A print-on-demand service's card upload: resolution, bleed and safe area (inches per
    side), the sizes it sells, its file form and colour."""

    name: str
    title: str
    dpi: int
    bleed: float
    safe: float
    products: tuple[Product, ...]
    form: str                        #: "png": a file per face; "pdf": a file per deck
    colour: str = "rgb"              #: the colour it takes by default
    colours: tuple[str, ...] = ("rgb",)
    ink_limit: int | None = None     #: the most ink in all, in %, when it prints CMYK
    back_first: bool = False         #: in a deck PDF, each card's back before its front
    steps: tuple[int, ...] = ()      #: the deck sizes it sells, when it sells only some
    template: str = ""               #: where its sizes are published

    def pixels(self, product: Product) -> tuple[int, int]:
        """A face's image in pixels, bleed included."""
        return (round((product.width + 2 * self.bleed) * self.dpi),
                round((product.height + 2 * self.bleed) * self.dpi))

    def product(self, name: str) -> Product:
        """A product by name (``NAME-landscape``: the cards on their side)."""
        text = name.strip().lower()
        base = text.removesuffix("-landscape")
        for p in self.products:
            if p.name == base:
                return p.turned() if base != text and p.width != p.height else p
        if not self.products:  # any size the sheets take
            size = parse_card_size(name, "product")
            side = size.landscape
            w, h = (size.height, size.width) if side else (size.width, size.height)
            return Product(size.name.removesuffix("-landscape"), w / MM, h / MM, side)
        raise RequestError(f"product: {self.title} sells {', '.join(p.name for p in self.products)} (each also "
                           f"NAME-landscape), not {name!r}")


_POKER, _BRIDGE, _TAROT = Product("poker", 2.5, 3.5), Product("bridge", 2.25, 3.5), Product("tarot", 2.75, 4.75)
_MINI, _SQUARE, _JUMBO = Product("mini", 1.75, 2.5), Product("square", 3.5, 3.5), Product("jumbo", 3.5, 5.5)

SERVICES: dict[str, Service] = {
    "tgc": Service("tgc", "The Game Crafter", 300, 0.125, 0.125, (_MINI, _BRIDGE, _POKER, _SQUARE, _TAROT, _JUMBO),
                   "png", template="https://help.thegamecrafter.com/article/39-templates"),
    "mpc": Service("mpc", "MakePlayingCards", 300, 0.12, 0.125, (_MINI, _BRIDGE, _POKER, _SQUARE, _TAROT),
                   "png", steps=(18, 36, 55, 72, 90, 108, 126, 144, 162, 180, 198, 216, 234, 396, 504, 612),
                   template="https://www.makeplayingcards.com/faq-photo.aspx"),
    "dtc": Service("dtc", "DriveThruCards", 300, 0.125, 0.125, (_MINI, _BRIDGE, _POKER, _SQUARE, _TAROT), "pdf",
                   colour="cmyk", colours=("cmyk", "rgb"), ink_limit=240, back_first=True,
                   template="https://help.drivethrupartners.com/hc/en-us/articles/12780748203543-Specifications-for-Print-Cards"),
    "png": Service("png", "one PNG a face", 300, 0.125, 0.125, (), "png"),
}


def service(name: str) -> Service:
    key = name.strip().lower()
    if key not in SERVICES:
        raise RequestError(f"service: expected one of {', '.join(SERVICES)}, got {name!r}")
    return SERVICES[key]


def choose(svc: Service, own: CardSize, fits: Callable[[Product], str | None]) -> Product:
    """The product a deck whose own card is ``own`` goes to, either way up: one of the same
    size (within 1 mm); else the smallest that holds it and that the game can draw on
    (``fits`` gives None, or the game's refusal); else the largest smaller one it can draw on.

    Raises:
        RequestError: no product of the service takes the game's cards (with the game's word
            on the largest).
    """
    if not svc.products:
        return Product(own.name, own.width / MM, own.height / MM)
    ways = sorted((q for p in svc.products for q in ((p,) if p.width == p.height else (p, p.turned()))),
                  key=lambda p: (p.width * p.height, p.size().landscape != own.landscape))
    same = [p for p in ways if abs(p.size().width - own.width) <= 1 and abs(p.size().height - own.height) <= 1]
    larger = [p for p in ways if p not in same and p.size().holds(own.width, own.height)]
    area = {p: p.width * p.height for p in ways}
    # of two alike, the one the game's own way up first
    smaller = sorted((p for p in ways if p not in same and p not in larger),
                     key=lambda p: (-area[p], p.size().landscape != own.landscape))
    said = ""
    for p in [*same, *larger, *smaller]:
        refused = fits(p)
        if refused is None:
            return p
        said = said or refused
    raise RequestError(f"product: none of {svc.title}'s card sizes ({', '.join(p.name for p in svc.products)}) "
                       f"takes these cards, either way up (on the largest: {said})")


@dataclass(frozen=True, slots=True)
class Deck:
    """One deck the service prints: its name (the PDF's), and its faces as images in card
    order (each card's front, and its back, or None)."""

    name: str
    fronts: tuple[object, ...]
    backs: tuple[object, ...]
    labels: tuple[str, ...]


def decks(pdfs: Mapping[str, bytes], page_mm: tuple[float, float], dpi: int, pixels: tuple[int, int],
          labels: Mapping[str, Sequence[str]], turn: bool = False) -> list[Deck]:
    """The decks among a game's PDFs drawn one card a page with backs: every page the
    product's card with its bleed (``page_mm``), fronts and backs alternating; each face
    rendered at ``dpi`` and cut to ``pixels`` exactly (the page's own way up), then, with
    ``turn``, turned a quarter turn clockwise."""
    import pypdfium2 as pdfium

    out = []
    w_pt, h_pt = (v * 72 / MM for v in page_mm)
    for name in sorted(pdfs):
        if not name.endswith(".pdf"):
            continue
        doc = pdfium.PdfDocument(pdfs[name])
        try:
            sizes = [doc[i].get_size() for i in range(len(doc))]
            if not sizes or len(sizes) % 2 or any(abs(w - w_pt) > 0.05 or abs(h - h_pt) > 0.05 for w, h in sizes):
                continue
            faces = [_render(doc[i], dpi, pixels, turn) for i in range(len(doc))]
        finally:
            doc.close()
        stem = name.removesuffix(".pdf")
        shown = tuple(labels.get(name, ()))
        count = len(faces) // 2
        names = shown if len(shown) == count else tuple(f"card {k + 1}" for k in range(count))
        out.append(Deck(stem, tuple(faces[0::2]), tuple(faces[1::2]), names))
    return out


def _render(page: object, dpi: int, pixels: tuple[int, int], turn: bool) -> object:
    """A page at ``dpi``, cut to ``pixels`` (PDFium rounds the page's size up: at most a
    pixel of the bleed's outer edge goes), turned clockwise with ``turn``."""
    from PIL import Image

    image = page.render(scale=dpi / 72).to_pil().convert("RGB")  # type: ignore[attr-defined]
    w, h = pixels
    if image.width < w or image.height < h or image.width > w + 1 or image.height > h + 1:
        raise RuntimeError(f"a page rendered at {image.size}, expected {pixels}")
    image = image.crop((0, 0, w, h))
    return image.transpose(Image.Transpose.ROTATE_270) if turn else image


def png(image: object, dpi: int) -> bytes:
    """A face as PNG with its resolution recorded (the same bytes for the same pixels)."""
    import io

    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(dpi, dpi))  # type: ignore[attr-defined]
    return buffer.getvalue()


def _same(images: Sequence[bytes]) -> bool:
    return len({hashlib.sha256(b).hexdigest() for b in images}) == 1


def order_step(svc: Service, count: int) -> int | None:
    """The deck size to order for ``count`` cards where the service sells only some."""
    return next((s for s in svc.steps if s >= count), None) if svc.steps else None


def _card(label: str) -> str:
    return f"card {label}" if label[:1].isdigit() else label


def _inches(v: float) -> str:
    return f"{v:.3f}".rstrip("0").rstrip(".")


def package(svc: Service, product: Product, found: Sequence[Deck], colour: str, title: str,
            author: str) -> tuple[dict[str, bytes], list[str]]:
    """The files to upload and ``UPLOAD.txt`` (what goes where), and the summary's lines.

    A service that takes a file per face gets ``DECK/fronts/NNN.png`` and ``DECK/back.png``
    (one back for the whole deck, when every card's back is the same) or ``DECK/backs/NNN.png``;
    one that takes a PDF gets ``DECK.pdf``, a page per face (each card's back before its front
    where the service asks so), in CMYK within its ink limit when ``colour`` is cmyk.
    """
    if not found:
        raise RequestError("the deck has no cards drawn one a page (nothing to send to a print service)")
    w, h = svc.pixels(product)
    bleed_px, safe_px = svc.bleed * svc.dpi, svc.safe * svc.dpi
    cut = (round(product.width * svc.dpi), round(product.height * svc.dpi))
    safe = (round((product.width - 2 * svc.safe) * svc.dpi), round((product.height - 2 * svc.safe) * svc.dpi))
    files: dict[str, bytes] = {}
    head = [f"{svc.title}: {title}",
            f"Card size: {product.name}, {_inches(product.width)} x {_inches(product.height)} in"
            + (": the cards lie on their side, each face turned a quarter turn clockwise into the portrait template "
               "(turn it back to read it)." if product.landscape else "."),
            f"Each face: {w} x {h} px at {svc.dpi} dpi: the card ({cut[0]} x {cut[1]} px) and "
            f"{_inches(svc.bleed)} in ({bleed_px:g} px) of bleed on every side, cut away; every word and symbol "
            f"inside the safe area, {safe[0]} x {safe[1]} px, {_inches(svc.safe)} in ({safe_px:g} px) inside the "
            f"cut.",
            f"Colour: {'CMYK' if colour == 'cmyk' else 'RGB'}."]
    if svc.template:
        head.append(f"The service's template: {svc.template}")
    body: list[str] = []
    lines: list[str] = []
    for deck in found:
        count = len(deck.fronts)
        if svc.form == "pdf":
            faces = []
            for front, back in zip(deck.fronts, deck.backs):
                faces.extend([back, front] if svc.back_first else [front, back])
            if colour == "cmyk":
                from print.common import cmyk

                assert svc.ink_limit is not None
                pages = [cmyk.to_cmyk(f, svc.ink_limit) for f in faces]  # type: ignore[arg-type]
                most = max(cmyk.ink(p) for p in pages)
                note = (f"CMYK for the SWOP press (Ghostscript's profile, named as the output intent), at most "
                        f"{svc.ink_limit} % ink in all (the most on any pixel: {most:.1f} %), PDF/X-1a:2003")
            else:
                pages = list(faces)  # type: ignore[arg-type]
                note = "RGB"
            from print.common import cmyk

            page = ((product.width + 2 * svc.bleed) * MM, (product.height + 2 * svc.bleed) * MM)
            files[f"{deck.name}.pdf"] = cmyk.pdf(pages, page[0], page[1], svc.bleed * MM, f"{title}: {deck.name}",
                                                 author)
            order = "each card's back, then its front" if svc.back_first else "each card's front, then its back"
            body += ["", f"{deck.name}.pdf: {count} cards, {2 * count} pages ({order}); {note}.",
                     *(f"  pages {2 * k + 1}-{2 * k + 2}: {_card(label)}" for k, label in enumerate(deck.labels))]
            lines.append(f"{deck.name}.pdf: {count} cards, {2 * count} pages ({order}), {w} x {h} px a face at "
                         f"{svc.dpi} dpi, {note}")
            continue
        fronts = [png(f, svc.dpi) for f in deck.fronts]
        backs = [png(b, svc.dpi) for b in deck.backs]
        one_back = _same(backs)
        digits = max(3, len(str(count)))
        for k, data in enumerate(fronts):
            files[f"{deck.name}/fronts/{k + 1:0{digits}d}.png"] = data
        if one_back:
            files[f"{deck.name}/back.png"] = backs[0]
        else:
            for k, data in enumerate(backs):
                files[f"{deck.name}/backs/{k + 1:0{digits}d}.png"] = data
        step = order_step(svc, count)
        body += ["", f"{deck.name}: {count} cards."]
        if one_back:
            body.append(f"  {deck.name}/back.png: the back of every card (upload it once, as the deck's back)")
        else:
            body.append(f"  {deck.name}/backs/NNN.png: each card's own back, the same number as its front")
        if svc.steps:
            if step is None:
                body.append(f"  {svc.title} sells decks of at most {svc.steps[-1]} cards: split this one")
            else:
                body.append(f"  order the {step}-card deck ({svc.title} sells {', '.join(map(str, svc.steps[:6]))}, "
                            f"... cards){'' if step == count else f'; {step - count} places are left over'}")
        body += [f"  {deck.name}/fronts/{k + 1:0{digits}d}.png: {_card(label)}" for k, label in enumerate(deck.labels)]
        backs_said = "1 back for all" if one_back else f"{count} backs"
        lines.append(f"{deck.name}: {count} fronts and {backs_said}, PNG {w} x {h} px at {svc.dpi} dpi "
                     f"({product}, {_inches(svc.bleed)} in bleed)")
    files["UPLOAD.txt"] = ("\n".join(head + body) + "\n").encode()
    return files, lines
