"""Drawing imposed sheets: the cards a game draws, and around them what every sheet carries:
crop marks, a fold line, and in the margin the deck's name, the page number, the ids of the
cards on the page and a 100 mm ruler; and the duplex calibration sheet."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from generators.common.proof import stamp
from generators.common.words import plural
from print.common import colours
from print.common.layout import RULER, Box, Calibration, Imposition, Segment, Settings, Slot
from print.common.pdf import MIN_TEXT, SMALL, Document, Pen, draw_stamp, text_width
from print.common.sizes import CardSize, Paper

Draw = Callable[[Pen, Slot], None]

MARK_WIDTH = 0.25
MARK_COLOUR = "#000000"


def id_ranges(ids: Sequence[object]) -> str:
    """Card ids for the margin: runs of consecutive numbers as ``1-8``, others as written."""
    parts: list[str] = []
    run: list[int] = []

    def flush() -> None:
        if run:
            parts.append(f"{run[0]}-{run[-1]}" if len(run) > 2 else ", ".join(map(str, run)))
            run.clear()

    for i in ids:
        if isinstance(i, int) and not isinstance(i, bool) and run and i == run[-1] + 1:
            run.append(i)
            continue
        flush()
        if isinstance(i, int) and not isinstance(i, bool):
            run.append(i)
        else:
            parts.append(str(i))
    flush()
    return ", ".join(parts)


def fit_text(text: str, size: float, width: float, bold: bool = False) -> str:
    """``text`` cut to ``width`` mm with an ellipsis, at a space, never mid-word (a single
    word too long for the width is cut where it must be)."""
    if text_width(text, size, bold) <= width:
        return text
    words = text.split(" ")
    while len(words) > 1:
        words.pop()
        kept = " ".join(words).rstrip(",;:")
        if text_width(kept + " ...", size, bold) <= width:
            return kept + " ..."
    while text and text_width(text + " ...", size, bold) > width:
        text = text[:-1]
    return text.rstrip(", ") + " ..."


def wrap(text: str, size: float, width: float, lines: int = 3, bold: bool = False) -> list[str]:
    """``text`` broken into at most ``lines`` lines of ``width`` mm at ``size`` points (the
    last cut with an ellipsis if the text runs on)."""
    out: list[str] = []
    line = ""
    words = text.split()
    for i, word in enumerate(words):
        trial = f"{line} {word}".strip()
        if line and text_width(trial, size, bold) > width:
            out.append(line)
            line = word
            if len(out) == lines - 1:
                line = fit_text(" ".join(words[i:]), size, width, bold)
                break
        else:
            line = trial
    if line:
        out.append(line)
    return out


def draw_imposition(doc: Document, imposition: Imposition, *, title: str, ids: Sequence[object],
                    front: Draw, back: Draw | None) -> None:
    """Every page of ``imposition``: ``front`` draws a card's face in its slot and ``back``
    its back (each clipped to the slot's bleed box)."""
    total = len(imposition.pages)
    for sheet in imposition.pages:
        with doc.sheet(sheet) as pen:
            text = stamp()
            for slot in sheet.fronts:
                with pen.clipped(slot.bleed):
                    front(pen, slot)
                    if text:
                        draw_stamp(pen, slot.trim, text)
                        pen.stamped = True
            if back is not None:
                for slot in sheet.backs:
                    with pen.clipped(slot.bleed), pen.turned(slot.trim, slot.turn):
                        back(pen, slot)
            # a white edge under each mark keeps it visible where it reaches over dark bleed
            pen.lines(sheet.marks, 3 * MARK_WIDTH, "#FFFFFF")
            pen.lines(sheet.marks, MARK_WIDTH, MARK_COLOUR)
            if sheet.fold is not None:
                _fold(pen, sheet.fold)
            if sheet.info is not None:
                shown = [ids[k] for k in sheet.cards]
                first = f"{title}  |  page {sheet.number} of {total}: {sheet.kind}"
                second = f"cards {id_ranges(shown)}" if shown else ""
                if sheet.info_turn:
                    # a band up the page's side: drawn as a level band of its length, turned
                    band = sheet.info
                    with pen.rotated(band.x1, band.y, 90):
                        margin_note(pen, Box(0.0, 0.0, band.h, band.w), first, second)
                else:
                    margin_note(pen, sheet.info, first, second)


def margin_note(pen: Pen, band: Box, first: str, second: str = "", ruler: bool = True) -> None:
    """The margin band: two lines of text on the left, the ruler on the right."""
    room = band.w - (RULER + 14 if ruler else 0)
    pen.text(band.x, band.y + band.h - 3.0, fit_text(first, SMALL, room), SMALL)
    if second:
        pen.text(band.x, band.y + band.h - 6.0, fit_text(second, SMALL, room), SMALL, colour="#444444")
    if ruler:
        pen.ruler(band.x1 - RULER - 12, band.y + 1.2)


def _fold(pen: Pen, fold: Segment) -> None:
    pen.line(fold, 0.25, "#777777", dash=(2.0, 1.5))
    horizontal = abs(fold.y1 - fold.y0) < 1e-6
    if horizontal:
        pen.text(fold.x0 + 1, fold.y0 + 0.8, "fold", MIN_TEXT, colour="#777777")
    else:
        pen.text(fold.x0 - 0.8, fold.y0 + 1, "fold", MIN_TEXT, colour="#777777", angle=90)


# -- calibration ----------------------------------------------------------------------------

SCALE = 5  #: the scale reads -5 .. +5 mm


#: The front's instructions, a paragraph each.
def calibration_notes(cal: Calibration, title: str) -> list[str]:
    how = "flip on long edge" if cal.duplex == "long" else "flip on short edge"
    return [
        f"{title}: duplex calibration, page 1 of 2 (fronts)",
        f"Print both pages double-sided ({how}) at 100% (no 'fit to page'); check the ruler.",
        "Hold the sheet up to the light and read, on the back, where each cross of this side falls: the number "
        "under its upright line is X, beside its level line Y. Pass the middle reading as --back-offset X,Y (the "
        "crosses near the corners show whether the misregistration is a shift or a turn). These scales already "
        f"include --back-offset {cal.offset[0]:g},{cal.offset[1]:g}.",
    ]


NOTE_LINE = 3.4  #: mm between the instructions' lines


def note_lines(cal: Calibration, title: str) -> list[tuple[str, bool]]:
    """The front's instructions as lines that fit ``cal.notes``' width: (text, bold)."""
    assert cal.notes is not None
    out = []
    for i, paragraph in enumerate(calibration_notes(cal, title)):
        out += [(line, i == 0) for line in wrap(paragraph, MIN_TEXT, cal.notes.w, lines=12, bold=i == 0)]
    return out


def draw_calibration(doc: Document, cal: Calibration, title: str) -> None:
    """Two pages: crosses on the front, with the instructions clear of them; scales behind
    them on the back."""
    from print.common.layout import CROSS

    assert cal.printable is not None and cal.notes is not None
    with doc.page(cal.width, cal.height) as pen:
        for x, y in cal.targets:
            pen.lines([Segment(x - CROSS, y, x + CROSS, y), Segment(x, y - CROSS, x, y + CROSS)], 0.15)
            pen.circle(x, y, 1.2, fill=None, stroke=colours.INK, width=0.15)
        for i, (text, bold) in enumerate(note_lines(cal, title)):
            pen.text(cal.notes.x, cal.notes.y1 - 3 - i * NOTE_LINE, text, MIN_TEXT, bold=bold)
        margin_note(pen, Box(cal.printable.x, cal.printable.y, cal.printable.w, 8), "calibration: fronts")
    with doc.page(cal.width, cal.height) as pen:
        for x, y in cal.scales:
            _scale(pen, x, y, cal.offset)
        pen.text(cal.printable.x, cal.printable.y1 - 4, f"{title}: duplex calibration, page 2 of 2 (backs): "
                 f"read X on the level scale, Y on the upright one", 7.0, bold=True)
        margin_note(pen, Box(cal.printable.x, cal.printable.y, cal.printable.w, 8), "calibration: backs")


def _scale(pen: Pen, x: float, y: float, offset: tuple[float, float]) -> None:
    """Two scales about (x, y), where the front's cross should fall: a level one 6 mm below
    (read X where the cross's upright line meets it) and an upright one 6 mm to the right
    (read Y where its level line meets it); a mark every 0.5 mm, numbered every 2 mm with
    the back offset that reading means, in ``MIN_TEXT`` type: the level scale's numbers
    in three rows and the upright's in two columns, so that neighbours never touch."""
    level, upright = y - 6, x + 6
    ticks = [Segment(x - SCALE, level, x + SCALE, level), Segment(upright, y - SCALE, upright, y + SCALE)]
    for half in range(-2 * SCALE, 2 * SCALE + 1):
        d = half / 2
        tall = 2.0 if half % 4 == 0 else 1.3 if half % 2 == 0 else 0.7
        ticks.append(Segment(x + d, level, x + d, level + tall))
        ticks.append(Segment(upright, y + d, upright - tall, y + d))
    for n, d in enumerate(range(-SCALE + 1, SCALE, 2)):
        row = level - 3.0 - (n % 3) * 2.9
        ticks.append(Segment(x + d, level, x + d, row + 2.6))  # a leader down to the number
        pen.text(x + d, row, f"{offset[0] + d:g}", MIN_TEXT, anchor="middle")
        column = upright + 0.8 + (n % 2) * 6.0
        ticks.append(Segment(upright, y + d, column - 0.3, y + d))
        pen.text(column, y + d - 0.9, f"{offset[1] + d:g}", MIN_TEXT)
    pen.lines(ticks, 0.12)
    pen.text(x - SCALE - 1, level - 0.6, "X", MIN_TEXT, bold=True, anchor="end")
    pen.text(upright, y + SCALE + 1.2, "Y", MIN_TEXT, bold=True, anchor="middle")


# -- what every game's print job shares ---------------------------------------------------------


def deck_title(game: str, seed: int | None, path: object) -> str:
    """The name a deck's sheets carry: ``<game's title> - deck.json (seed 0)``."""
    from pathlib import Path

    made = f"seed {seed}" if seed is not None else "hand-written"
    return f"{game} - {Path(str(path)).name} ({made})"


def calibration_pdf(settings: Settings, imposition: Imposition, title: str, game: str) -> bytes | None:
    """``calibration.pdf`` for duplex printing on a long or short edge (None otherwise)."""
    from print.common.layout import calibration
    from print.common.pdf import Meta

    if settings.duplex not in ("long", "short") or settings.layout == "cards":
        return None  # one card a page: the printing service puts the backs behind the fronts
    doc = Document(Meta(f"{title}: duplex calibration", "read your printer's back offset", game), settings.duplex)
    draw_calibration(doc, calibration(settings, imposition.width, imposition.height), title)
    return doc.data()


def cards_line(imposition: Imposition, size: object, what: str = "") -> str:
    """The summary's line for ``cards.pdf``: pages, card size, cards a page, backs, bleed."""
    s = imposition.settings
    pages = plural(len(imposition.pages), "page")
    if s.layout == "cards":
        return (f"cards.pdf: {pages}, {size} cards{what}, one a page for print-on-demand (each page the card "
                f"and its {s.bleed:g} mm bleed, TrimBox the card), backs: {s.duplex}")
    paper = f"{s.paper.name}{' landscape' if imposition.landscape else ''}"
    bleed = f"bleed {s.bleed:g} mm"
    if s.layout == "tight":
        bleed = f"butted with shared cuts, {bleed} on the outer edges, margin {s.page_margin:g} mm"
    line = (f"cards.pdf: {pages}, {size} cards{what}, {imposition.per_page} a page on {paper} "
            f"({imposition.columns} x {imposition.rows}), backs: {s.duplex}, {bleed}")
    if s.duplex == "gutter" and s.layout in ("sheets", "tight"):
        from dataclasses import replace

        from print.common.layout import per_sheet

        other = "tight" if s.layout == "sheets" else "sheets"
        more = per_sheet(replace(s, layout=other, margin=None if s.auto else s.margin, auto=False))
        if s.auto and s.layout == "tight":
            line += f" (layout auto: tight, where sheets holds {more} a page)"
        elif more > imposition.per_page:
            line += f"; --layout {other} holds {more} a page"
    return line


CALIBRATION_LINE = "calibration.pdf: print it duplex once and read --back-offset off it"


@dataclass(frozen=True, slots=True)
class CardRequest:
    """A print request of the options every card game reads (a game with more has its own)."""

    size: CardSize | str
    paper: Paper
    duplex: str
    back_offset: tuple[float, float]
    bleed: float
    safe: float = 3.0
    margin: float | None = None
    layout: str = "auto"
    designer_marks: bool = False  #: the designer's figures on the player cards (``--designer-marks``)

    def settings(self, size: CardSize) -> Settings:
        return Settings(self.paper, size, self.bleed, self.safe, self.margin, self.duplex, self.back_offset,
                        self.layout)


def card_request(values: Mapping[str, object]) -> CardRequest:
    """The request from the parsed print options (``print.common.options``)."""
    return CardRequest(values["size"], values["paper"], values["duplex"], values["back_offset"],  # type: ignore[arg-type]
                       values["bleed"], values["safe"], values["margin"],  # type: ignore[arg-type]
                       str(values.get("layout", "auto")), bool(values.get("designer_marks", False)))

