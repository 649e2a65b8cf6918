"""The PDF writer: ReportLab with reproducible bytes, embedded fonts, metadata and page boxes,
and a pen that draws in millimetres.

Every document is made with ``invariant=1`` (no creation date or random file id), so the
same inputs give the same bytes. Text is set in Bitstream Vera Sans, the TrueType font that
ReportLab ships, embedded (subset) in every file: no page depends on the fonts of the
machine that opens it. Every page gets a TrimBox and a BleedBox around its cards.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass

from reportlab.lib.colors import HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from generators.common.deckfile import versions
from generators.common.proof import stamp
from print.common import colours
from print.common.layout import RULER, Box, Segment, Sheet
from print.common.sizes import MM

SANS = "TF-Sans"
BOLD = "TF-Sans-Bold"
_FONTS = {SANS: "Vera.ttf", BOLD: "VeraBd.ttf"}

#: Text sizes in points. ``MIN_TEXT`` is the least any page prints: smaller text is hard
#: to read on a home printer and on a card held at arm's length.
MIN_TEXT = 7.0
SMALL = MIN_TEXT
BODY = 8.0

Cell = tuple[int, int]


def _register_fonts() -> None:
    for name, file in _FONTS.items():
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, file))


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width of ``text`` in mm at ``size`` points."""
    _register_fonts()
    return float(pdfmetrics.stringWidth(text, BOLD if bold else SANS, size)) / MM


def _pt(value: float) -> float:
    return value * MM


class Pen:
    """Draws on one page in millimetres (origin at the page's bottom-left)."""

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas
        self.stamped = False  #: the page's card fronts carry the stamp (so the page needs none)

    # -- state ---------------------------------------------------------------------------

    @contextmanager
    def turned(self, box: Box, degrees: int) -> Iterator[None]:
        """Draw upside down about ``box``'s centre when ``degrees`` is 180."""
        c = self.canvas
        c.saveState()
        if degrees:
            c.translate(_pt(box.cx), _pt(box.cy))
            c.rotate(degrees)
            c.translate(-_pt(box.cx), -_pt(box.cy))
        try:
            yield
        finally:
            c.restoreState()

    @contextmanager
    def rotated(self, x: float, y: float, degrees: float) -> Iterator[None]:
        """Draw with the origin moved to (x, y) and the axes turned ``degrees`` anticlockwise."""
        c = self.canvas
        c.saveState()
        c.translate(_pt(x), _pt(y))
        c.rotate(degrees)
        try:
            yield
        finally:
            c.restoreState()

    @contextmanager
    def clipped(self, box: Box) -> Iterator[None]:
        c = self.canvas
        c.saveState()
        path = c.beginPath()
        path.rect(_pt(box.x), _pt(box.y), _pt(box.w), _pt(box.h))
        c.clipPath(path, stroke=0, fill=0)
        try:
            yield
        finally:
            c.restoreState()

    # -- shapes --------------------------------------------------------------------------

    @contextmanager
    def paint(self, fill: str | None, stroke: str | None, width: float = 0.2,
              dash: Sequence[float] | None = None, cap: int = 0, join: int = 1) -> Iterator[dict[str, int]]:
        """The canvas set to fill and stroke as asked, restored afterwards; yields the
        ``stroke``/``fill`` flags for ReportLab's drawing calls."""
        c = self.canvas
        c.saveState()
        if fill:
            c.setFillColor(HexColor(fill))
        if stroke:
            c.setStrokeColor(HexColor(stroke))
            c.setLineWidth(_pt(width))
            c.setLineCap(cap)
            c.setLineJoin(join)
            if dash:
                c.setDash([_pt(d) for d in dash])
        try:
            yield {"stroke": 1 if stroke else 0, "fill": 1 if fill else 0}
        finally:
            c.restoreState()

    def rect(self, box: Box, fill: str | None = None, stroke: str | None = None, width: float = 0.2,
             radius: float = 0.0, dash: Sequence[float] | None = None) -> None:
        args = (_pt(box.x), _pt(box.y), _pt(box.w), _pt(box.h))
        with self.paint(fill, stroke, width, dash, join=0) as flags:
            if radius:
                self.canvas.roundRect(*args, _pt(radius), **flags)
            else:
                self.canvas.rect(*args, **flags)

    def line(self, seg: Segment, width: float = 0.2, colour: str = colours.INK,
             dash: Sequence[float] | None = None, cap: int = 0) -> None:
        self.lines([seg], width, colour, dash, cap)

    def lines(self, segs: Iterable[Segment], width: float = 0.2, colour: str = colours.INK,
              dash: Sequence[float] | None = None, cap: int = 0) -> None:
        with self.paint(None, colour, width, dash, cap, join=0):
            path = self.canvas.beginPath()
            for s in segs:
                path.moveTo(_pt(s.x0), _pt(s.y0))
                path.lineTo(_pt(s.x1), _pt(s.y1))
            self.canvas.drawPath(path, stroke=1, fill=0)

    def circle(self, x: float, y: float, r: float, fill: str | None = colours.INK, stroke: str | None = None,
               width: float = 0.2) -> None:
        with self.paint(fill, stroke, width) as flags:
            self.canvas.circle(_pt(x), _pt(y), _pt(r), **flags)

    def polygon(self, points: Sequence[tuple[float, float]], fill: str | None = colours.INK,
                stroke: str | None = None, width: float = 0.2) -> None:
        with self.paint(fill, stroke, width) as flags:
            path = self.canvas.beginPath()
            path.moveTo(_pt(points[0][0]), _pt(points[0][1]))
            for x, y in points[1:]:
                path.lineTo(_pt(x), _pt(y))
            path.close()
            self.canvas.drawPath(path, **flags)

    def text(self, x: float, y: float, text: str, size: float = BODY, *, bold: bool = False,
             anchor: str = "start", colour: str = colours.INK, angle: float = 0) -> None:
        """``text`` with its baseline at ``y``; ``anchor`` start, middle or end at ``x``;
        turned ``angle`` degrees anticlockwise about (x, y).

        Raises:
            ValueError: ``size`` is under ``MIN_TEXT`` points.
        """
        if size < MIN_TEXT - 1e-9:
            raise ValueError(f"text {text!r} at {size:g} pt: no text is printed under {MIN_TEXT:g} pt")
        c = self.canvas
        c.saveState()
        c.setFillColor(HexColor(colour))
        c.setFont(BOLD if bold else SANS, size)
        c.translate(_pt(x), _pt(y))
        if angle:
            c.rotate(angle)
        if anchor == "middle":
            c.drawCentredString(0, 0, text)
        elif anchor == "end":
            c.drawRightString(0, 0, text)
        else:
            c.drawString(0, 0, text)
        c.restoreState()

    def centred_text(self, x: float, y: float, text: str, size: float, *, bold: bool = False,
                     colour: str = colours.INK) -> None:
        """``text`` centred on (x, y) both ways (cap height centred)."""
        self.text(x, y - 0.36 * size / MM, text, size, bold=bold, anchor="middle", colour=colour)

    # -- composite figures ---------------------------------------------------------------

    def cells(self, cells: Iterable[Cell], x: float, top: float, pitch: float, fill: str,
              edge: str = colours.INK, edge_width: float = 0.35, grid: str | None = None,
              grid_width: float = 0.15, letter: str | None = None, letter_size: float | None = None) -> None:
        """A polyomino: ``cells`` as (row, column), row 0 at ``top``, column 0 at ``x``,
        each ``pitch`` mm; filled, with its outline drawn along the edges it does not share
        (and, given ``grid``, thin lines along the edges it does), and ``letter`` in the cell
        nearest its middle (left out where the cell is too small for ``MIN_TEXT``)."""
        cells = sorted(set(cells))
        for r, c in cells:
            self.rect(Box(x + c * pitch, top - (r + 1) * pitch, pitch, pitch), fill=fill)
        inner, outer = _edges(cells, x, top, pitch)
        if grid:
            self.lines(inner, grid_width, grid)
        self.lines(outer, edge_width, edge, cap=2)
        if letter:
            r, c = middle_cell(cells)
            size = letter_size or pitch * MM * 0.62
            if size < MIN_TEXT:
                return
            self.centred_text(x + (c + 0.5) * pitch, top - (r + 0.5) * pitch, letter, size, bold=True,
                              colour=colours.text_on(fill))

    def pips(self, box: Box, n: int, fill: str = colours.PAPER, ink: str = colours.INK) -> None:
        """A die face showing ``n`` (1-6) in a square ``box``."""
        self.rect(box, fill=fill, stroke=ink, width=max(0.2, box.w * 0.04), radius=box.w * 0.16)
        r = box.w * 0.095
        lo, mid, hi = 0.26, 0.5, 0.74
        spots = {
            1: [(mid, mid)],
            2: [(lo, hi), (hi, lo)],
            3: [(lo, hi), (mid, mid), (hi, lo)],
            4: [(lo, lo), (lo, hi), (hi, lo), (hi, hi)],
            5: [(lo, lo), (lo, hi), (mid, mid), (hi, lo), (hi, hi)],
            6: [(lo, lo), (lo, mid), (lo, hi), (hi, lo), (hi, mid), (hi, hi)],
        }[n]
        for fx, fy in spots:
            self.circle(box.x + fx * box.w, box.y + fy * box.h, r, fill=ink)

    def ruler(self, x: float, y: float, length: float = RULER) -> None:
        """A ruler from (x, y) to the right: a tick every mm, longer every 5 and 10 mm."""
        ticks = [Segment(x, y, x + length, y)]
        for mm in range(int(length) + 1):
            tall = 2.2 if mm % 10 == 0 else 1.4 if mm % 5 == 0 else 0.8
            ticks.append(Segment(x + mm, y, x + mm, y + tall))
        self.lines(ticks, 0.12)
        for cm in (0, 50, 100):
            if cm <= length:
                self.text(x + cm, y + 2.7, f"{cm}", MIN_TEXT, anchor="middle")
        self.text(x + length + 1.5, y + 0.4, f"{length:g} mm", MIN_TEXT)


def middle_cell(cells: Sequence[Cell]) -> Cell:
    """The cell nearest the shape's centre of mass (ties: the first in row order)."""
    cy = sum(r for r, _ in cells) / len(cells)
    cx = sum(c for _, c in cells) / len(cells)
    return min(cells, key=lambda rc: ((rc[0] - cy) ** 2 + (rc[1] - cx) ** 2, rc))


def _edges(cells: Sequence[Cell], x: float, top: float, pitch: float) -> tuple[list[Segment], list[Segment]]:
    """The shared (inner) and unshared (outline) cell edges of a polyomino."""
    have = set(cells)
    inner, outer = [], []
    for r, c in cells:
        x0, x1 = x + c * pitch, x + (c + 1) * pitch
        y1, y0 = top - r * pitch, top - (r + 1) * pitch
        sides = (((r - 1, c), Segment(x0, y1, x1, y1)), ((r + 1, c), Segment(x0, y0, x1, y0)),
                 ((r, c - 1), Segment(x0, y0, x0, y1)), ((r, c + 1), Segment(x1, y0, x1, y1)))
        for other, seg in sides:
            if other not in have:
                outer.append(seg)
            elif other > (r, c):
                inner.append(seg)
    return inner, outer


@dataclass(frozen=True, slots=True)
class Meta:
    """A document's metadata."""

    title: str
    subject: str
    keywords: str = ""


STAMP_RED = "#C62828"


def draw_stamp(pen: Pen, box: Box, text: str, alpha: float = 0.5) -> None:
    """``text`` across ``box`` on its diagonal, large, red and see-through: it cannot be
    missed, and what is under it stays readable."""
    import math

    angle = math.degrees(math.atan2(box.h, box.w))
    diagonal = math.hypot(box.w, box.h)
    size = min(0.7 * diagonal / max(text_width(text, 1.0, bold=True), 1e-6), 0.22 * min(box.w, box.h) * MM)
    c = pen.canvas
    c.saveState()
    c.setFillAlpha(alpha)
    c.translate(_pt(box.x + box.w / 2), _pt(box.y + box.h / 2))
    c.rotate(angle)
    c.setFillColor(HexColor(STAMP_RED))
    c.setFont(BOLD, size)
    c.drawCentredString(0, -0.36 * size, text)
    c.restoreState()


class Document:
    """One PDF, built page by page in memory; ``data()`` gives its bytes. While
    ``generators.common.proof.stamped`` is in force, its title carries the stamp and every
    page shows it (across each card front drawn by ``print.common.sheets``, else across the
    page)."""

    def __init__(self, meta: Meta, duplex: str = "none") -> None:
        if stamp():
            meta = Meta(f"{stamp()}: {meta.title}", meta.subject, meta.keywords)
        _register_fonts()
        self.buffer = io.BytesIO()
        self.canvas = Canvas(self.buffer, invariant=1, pageCompression=1, initialFontName=SANS, initialFontSize=BODY)
        tool = f"templeforge {versions()['templeforge']}"
        self.canvas.setTitle(meta.title)
        self.canvas.setSubject(meta.subject)
        self.canvas.setAuthor(tool)
        self.canvas.setCreator(tool)
        if meta.keywords:
            self.canvas.setKeywords(meta.keywords)
        # print at 100%: a viewer that honours it offers no "fit to page" (the ruler checks the rest)
        self.canvas.setViewerPreference("PrintScaling", "None")
        if duplex in ("long", "short"):
            self.canvas.setViewerPreference("Duplex", "DuplexFlipLongEdge" if duplex == "long"
                                            else "DuplexFlipShortEdge")
        self.pages = 0

    @contextmanager
    def page(self, width: float, height: float, trim: Box | None = None, bleed: Box | None = None) -> Iterator[Pen]:
        """A page of ``width`` x ``height`` mm; ``trim`` and ``bleed`` become its TrimBox and
        BleedBox (the whole page when not given)."""
        c = self.canvas
        c.setPageSize((_pt(width), _pt(height)))
        whole = Box(0, 0, width, height)
        for name, box in (("trim", trim or whole), ("bleed", bleed or trim or whole)):
            box = _within(box, whole)
            c.setCropBox(tuple(round(_pt(v), 3) for v in (box.x, box.y, box.x1, box.y1)), name=name)
        pen = Pen(c)
        yield pen
        text = stamp()
        if text and not pen.stamped:
            draw_stamp(pen, trim or whole, text, alpha=0.35)
        c.showPage()
        self.pages += 1

    def sheet(self, sheet: Sheet) -> AbstractContextManager[Pen]:
        """A page for an imposed sheet, boxed around its cards."""
        return self.page(sheet.width, sheet.height, sheet.trim_box() if sheet.slots else None,
                         sheet.bleed_box() if sheet.slots else None)

    def data(self) -> bytes:
        return bytes(self.canvas.getpdfdata())


def _within(box: Box, outer: Box) -> Box:
    x, y = max(box.x, outer.x), max(box.y, outer.y)
    return Box(x, y, min(box.x1, outer.x1) - x, min(box.y1, outer.y1) - y)
