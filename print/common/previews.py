"""PNG previews rendered from the finished PDF by a real renderer (PDFium, via pypdfium2), so
that what a designer looks at is what the printer gets; and a contact sheet of card fronts
cut from those renders along their trim boxes."""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageDraw

from print.common.layout import Box, Sheet


def render(pdf: bytes, dpi: float = 100) -> list[Image.Image]:
    """Every page of ``pdf`` as an RGB image at ``dpi``."""
    doc = pdfium.PdfDocument(pdf)
    try:
        return [doc[i].render(scale=dpi / 72).to_pil().convert("RGB") for i in range(len(doc))]
    finally:
        doc.close()


def page_text(pdf: bytes) -> list[str]:
    """The text of every page, as PDFium extracts it."""
    doc = pdfium.PdfDocument(pdf)
    try:
        out = []
        for i in range(len(doc)):
            text = doc[i].get_textpage()
            out.append(text.get_text_range())
            text.close()
        return out
    finally:
        doc.close()


def png(image: Image.Image) -> bytes:
    """PNG bytes (no timestamps: the same pixels give the same bytes)."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=False)
    return buf.getvalue()


def pixel_box(box: Box, page_height: float, dpi: float) -> tuple[int, int, int, int]:
    """A box in mm (PDF origin bottom-left) as a pixel box (left, top, right, bottom)."""
    px = dpi / 25.4
    top, bottom = page_height - box.y1, page_height - box.y
    return round(box.x * px), round(top * px), round(box.x1 * px), round(bottom * px)


def fronts(pages: Sequence[Image.Image], sheets: Sequence[Sheet], dpi: float) -> list[tuple[int, Image.Image]]:
    """Every card front cut from the rendered pages along its trim: (the card's index in the
    deck, the image), in card order."""
    found = sorted(((slot.card, i, slot) for i, sheet in enumerate(sheets) for slot in sheet.fronts),
                   key=lambda t: t[0])
    return [(card, pages[i].crop(pixel_box(slot.trim, sheets[i].height, dpi))) for card, i, slot in found]


def contact_sheet(pages: Sequence[Image.Image], sheets: Sequence[Sheet], labels: Sequence[str], dpi: float,
                  columns: int = 6, thumb_height: int = 300) -> Image.Image:
    """Every card front cut from the rendered pages along its trim, in card order, in a grid
    with each card's label under it."""
    crops = []
    for card, crop in fronts(pages, sheets, dpi):
        scale = thumb_height / crop.height
        crops.append((labels[card], crop.resize((max(1, round(crop.width * scale)), thumb_height),
                                                Image.Resampling.LANCZOS)))
    if not crops:
        return Image.new("RGB", (1, 1), "white")
    width = max(c.width for _, c in crops)
    pad, caption = 12, 18
    rows = math.ceil(len(crops) / columns)
    cols = min(columns, len(crops))
    sheet = Image.new("RGB", (pad + cols * (width + pad), pad + rows * (thumb_height + caption + pad)), "#DDDDDD")
    draw = ImageDraw.Draw(sheet)
    for n, (label, crop) in enumerate(crops):
        r, c = divmod(n, columns)
        x = pad + c * (width + pad) + (width - crop.width) // 2
        y = pad + r * (thumb_height + caption + pad)
        sheet.paste(crop, (x, y))
        draw.text((x, y + thumb_height + 3), label, fill="#000000")
    return sheet


def write_pngs(images: Sequence[Image.Image], folder: Path, stem: str) -> list[tuple[Path, bytes]]:
    """The files to write for ``images``: ``stem-01.png`` and on."""
    digits = max(2, len(str(len(images))))
    return [(folder / f"{stem}-{i + 1:0{digits}d}.png", png(image)) for i, image in enumerate(images)]


DPI = 100  #: preview resolution: a 36-card deck's pages in a few seconds, cells still sharp


def previews(pdfs: Mapping[str, bytes], imposition: object, labels: Sequence[str],
             dpi: float = DPI) -> dict[str, bytes]:
    """PNG files for every page of every PDF (``previews/cards-01.png`` ...) and
    ``previews/contact-sheet.png`` of the card fronts of ``cards.pdf``, laid out by
    ``imposition``."""
    out: dict[str, bytes] = {}
    for name in sorted(pdfs):
        images = render(pdfs[name], dpi)
        stem = name.removesuffix(".pdf")
        for path, data in write_pngs(images, Path("previews"), stem):
            out[str(path)] = data
        if name == "cards.pdf":
            sheets = imposition.pages  # type: ignore[attr-defined]
            out["previews/contact-sheet.png"] = png(contact_sheet(images, sheets, labels, dpi))
    return out
