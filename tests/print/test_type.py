"""What a reader sees on every printed page of both games: no text under 7 pt, the card
frame on the safe line with the card's content inside it, and the calibration sheet's
instructions clear of its crosses."""

from __future__ import annotations

import math

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

from print import puzzle_temple as pt
from print import shifting_stones as ss
from print.common.layout import CROSS, FRAME_INSET, Box, calibration, impose
from print.common.pdf import MIN_TEXT, Document, Meta, text_width
from print.common.sheets import NOTE_LINE, calibration_notes, note_lines
from print.common.sizes import parse_card_size, parse_paper
from tests.print.common.test_layout import settings_for

A4 = parse_paper("a4")


def font_sizes(data: bytes) -> set[float]:
    """Every character's font size on every page, in points, as PDFium reads them."""
    pdf = pdfium.PdfDocument(data)
    sizes = set()
    for page in pdf:
        text = page.get_textpage()
        for i in range(text.count_chars()):
            if chr(raw.FPDFText_GetUnicode(text, i)).strip():
                sizes.add(round(raw.FPDFText_GetFontSize(text, i), 2))
    return sizes


@pytest.fixture(scope="module")
def every_pdf(print_deck, small_stones_deck) -> dict[str, bytes]:
    out = {}
    for duplex in ("long", "gutter"):
        temple = pt.make(print_deck, pt.Request("auto", A4, duplex, (0.0, 0.0), 3.0, 15.0, 2), "t")
        stones = ss.make(small_stones_deck, ss.Request("auto", A4, duplex, (0.0, 0.0), 3.0, 2), "s")
        out.update({f"temple {duplex} {n}": d for n, d in temple.files.items() if n.endswith(".pdf")})
        out.update({f"stones {duplex} {n}": d for n, d in stones.files.items() if n.endswith(".pdf")})
    letter = parse_paper("letter")
    temple = pt.make(print_deck, pt.Request("auto", letter, "long", (0.0, 0.0), 3.0, 15.0, 2, layout="tight"), "t")
    stones = ss.make(small_stones_deck, ss.Request(parse_card_size("poker"), letter, "long", (0.0, 0.0), 3.0, 2,
                                                   layout="tight"), "s")
    out["temple tight cards.pdf"] = temple.files["cards.pdf"]
    out["stones tight cards.pdf"] = stones.files["cards.pdf"]
    return out


def test_no_page_of_either_game_prints_text_under_7_pt(every_pdf: dict[str, bytes]) -> None:
    assert {"temple long cards.pdf", "temple long answers.pdf", "temple long blocks.pdf",
            "temple long calibration.pdf", "stones long cards.pdf", "stones long stones.pdf",
            "stones gutter cards.pdf", "stones tight cards.pdf"} <= set(every_pdf)
    for name, data in every_pdf.items():
        sizes = font_sizes(data)
        assert sizes and min(sizes) >= MIN_TEXT - 0.01, (name, sorted(sizes)[:3])


def test_the_pen_refuses_text_under_7_pt() -> None:
    doc = Document(Meta("t", "t", "t"))
    with doc.page(100, 100) as pen:
        pen.text(10, 10, "readable", MIN_TEXT)
        with pytest.raises(ValueError, match="no text is printed under 7 pt"):
            pen.text(10, 20, "too small", 6.9)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("card", ["poker", "a6", "tarot"])
def test_the_calibration_instructions_lie_clear_of_every_cross(paper: str, duplex: str, card: str) -> None:
    s = settings_for(paper, card, duplex=duplex)
    imposition = impose(9, s)
    cal = calibration(s, imposition.width, imposition.height)
    notes = cal.notes
    assert notes is not None and cal.printable is not None
    for x, y in cal.targets:
        cross = Box(x - CROSS, y - CROSS, 2 * CROSS, 2 * CROSS)
        assert cross.x1 <= notes.x or cross.x >= notes.x1 or cross.y1 <= notes.y or cross.y >= notes.y1, (x, y)
    title = "Puzzle Temple - a-very-long-deck-name.json (seed 123456)"
    lines = note_lines(cal, title)
    assert " ".join(t for t, _ in lines).split() == " ".join(calibration_notes(cal, title)).split(), "nothing cut"
    assert all(text_width(t, MIN_TEXT, bold) <= notes.w + 1e-6 for t, bold in lines)
    assert 3 + (len(lines) - 1) * NOTE_LINE + 1 <= notes.h
    assert notes.x >= cal.printable.x and notes.x1 <= cal.printable.x1 and notes.y1 <= cal.printable.y1


def test_the_card_frame_lies_on_the_safe_line_and_the_content_inside_it(print_deck, small_stones_deck) -> None:
    """Both games draw the card's frame on the safe line (``slot.safe``), where a cut a
    little off leaves it even, and lay the card out ``FRAME_INSET`` inside it."""
    size = parse_card_size("a6")
    inside = 3.0 + FRAME_INSET
    lay = pt.layout(print_deck, print_deck.cards[0], size, 15.0, inside)
    content = Box(inside, inside, size.width - 2 * inside, size.height - 2 * inside)
    boxes = [lay.frame, *(row.face for row in lay.rows)]
    assert all(b.x >= content.x - 1e-9 and b.x1 <= content.x1 + 1e-9 and b.y >= content.y - 1e-9
               and b.y1 <= content.y1 + 1e-9 for b in boxes)
    for card in small_stones_deck.cards:
        stones = ss.layout(card, ss.AUTO, inside)
        e = 1e-9
        box = Box(inside - e, inside - e, ss.AUTO.width - 2 * inside + 2 * e, ss.AUTO.height - 2 * inside + 2 * e)
        bx, by, r = stones.badge
        assert box.x <= stones.tray.x and stones.tray.x1 <= box.x1 and box.y <= stones.tray.y
        assert box.x <= bx - r and by + r <= box.y1


# -- one card a page, for print-on-demand --------------------------------------------------------


def test_one_card_a_page_is_the_card_and_its_bleed_with_its_back_after_it() -> None:
    s = settings_for("a4", "poker", duplex="long", layout="cards")
    imposition = impose(3, s)
    assert [(p.kind, p.cards) for p in imposition.pages] == [("front", (0,)), ("back", (0,)), ("front", (1,)),
                                                            ("back", (1,)), ("front", (2,)), ("back", (2,))]
    for page in imposition.pages:
        (slot,) = page.slots
        assert (page.width, page.height) == pytest.approx((63.5 + 6, 88.9 + 6))
        assert slot.bleed == Box(0, 0, page.width, page.height)
        assert (slot.trim.x, slot.trim.y, slot.trim.w, slot.trim.h) == pytest.approx((3, 3, 63.5, 88.9))
        assert page.marks == () and page.info is None and page.fold is None
    assert [p.kind for p in impose(2, settings_for(layout="cards")).pages] == ["front", "front"]


def test_a_print_on_demand_pdf_has_a_trim_box_on_the_card_and_no_calibration_sheet(small_stones_deck) -> None:
    printed = ss.make(small_stones_deck, ss.Request("auto", A4, "long", (0.0, 0.0), 3.0, 1, layout="cards"), "s")
    assert "calibration.pdf" not in printed.files
    pdf = pdfium.PdfDocument(printed.files["cards.pdf"])
    assert len(pdf) == 2 * (len(small_stones_deck.cards) + 1)  # each card and the reference card, with backs
    pt_per_mm = 72 / 25.4
    for page in pdf:
        assert page.get_bleedbox() == pytest.approx(page.get_mediabox(), abs=0.01)
        x0, y0, x1, y1 = page.get_trimbox()
        assert (x0 / pt_per_mm, y0 / pt_per_mm, (x1 - x0) / pt_per_mm, (y1 - y0) / pt_per_mm) == \
            pytest.approx((3, 3, 63.5, 88.9), abs=0.01)


def test_an_unknown_layout_is_one_line_naming_the_option(small_stones_deck, tmp_path) -> None:
    from click.testing import CliRunner

    from generators.shifting_stones.deck import write_deck
    from templeforge.cli import main

    deck = write_deck(small_stones_deck, tmp_path / "deck.json")
    result = CliRunner().invoke(main, ["pdf", str(deck), "--layout", "poster", "--out", str(tmp_path / "o")],
                                prog_name="templeforge")
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "layout" in result.stderr and not (tmp_path / "o").exists()


# -- the tight layout ----------------------------------------------------------------------------


def test_a_tight_letter_sheet_holds_nine_butted_poker_cards_and_its_band_reads_up_the_side(
        small_stones_deck) -> None:
    """On Letter, 9 poker cards butted in a 3 x 3 grid: the page's TrimBox is the grid, its
    BleedBox the grid and the 3 mm outer bleed; the margin band's words run up the right side
    (PDFium reads them turned a quarter) and name the page and the cards."""
    letter = parse_paper("letter")
    printed = ss.make(small_stones_deck, ss.Request(parse_card_size("poker"), letter, "long", (0.0, 0.0), 3.0, 2,
                                                    layout="tight"), "deck")
    assert printed.imposition.per_page == 9
    pdf = pdfium.PdfDocument(printed.files["cards.pdf"])
    pt_per_mm = 72 / 25.4
    first = pdf[0]
    x0, y0, x1, y1 = (v / pt_per_mm for v in first.get_trimbox())
    assert (x1 - x0, y1 - y0) == pytest.approx((3 * 63.5, 3 * 88.9), abs=0.01)
    b0, c0, b1, c1 = (v / pt_per_mm for v in first.get_bleedbox())
    assert (x0 - b0, y0 - c0, b1 - x1, c1 - y1) == pytest.approx((3, 3, 3, 3), abs=0.01)
    text = first.get_textpage()
    words = text.get_text_bounded()
    assert "page 1 of" in words and "cards 1-9" in words
    start = words.index("page 1 of")
    left, bottom, right, top = text.get_charbox(start)
    assert left / pt_per_mm > x1  # right of the cards
    letters = [i for i in range(text.count_chars()) if text.get_charbox(i)[0] / pt_per_mm > x1 + 3]
    assert len(letters) > 40
    angles = {round(raw.FPDFText_GetCharAngle(text, i), 2) for i in letters
              if chr(raw.FPDFText_GetUnicode(text, i)).strip()}
    assert angles == {round(3 * math.pi / 2, 2)} or angles == {round(math.pi / 2, 2)}, angles  # turned a quarter


def test_the_margin_is_auto_or_millimetres() -> None:
    from generators.common.errors import RequestError
    from generators.common.options import resolve
    from print.common.options import OPTIONS

    assert resolve(OPTIONS, {}).values["margin"] is None  # auto: the layout's own
    assert resolve(OPTIONS, {"margin": "4.5"}).values["margin"] == 4.5
    for bad in ("abc", "40", "-1"):
        with pytest.raises(RequestError, match=r"--margin: expected auto or a margin of 0-30 mm"):
            resolve(OPTIONS, {"margin": bad})
