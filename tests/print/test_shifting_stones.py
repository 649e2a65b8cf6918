"""Shifting Stones on paper: card layout as data, the PDFs (pages, fonts, ids, bytes) and
pixels on real renders (a stone's colour where the layout puts it, the backs behind)."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from pypdf import PdfReader

from generators.common.errors import RequestError
from generators.shifting_stones.deck import Deck
from generators.shifting_stones.symbols import PICTURES, PLAIN, symbols
from generators.shifting_stones.tiles import PUBLISHED
from print import shifting_stones as ss
from print.common.layout import FRAME_INSET, Box
from print.common.previews import page_text, render
from print.common.sizes import CardSize, parse_paper

A4 = parse_paper("a4")


def request(**kw: object) -> ss.Request:
    return replace(ss.Request("auto", A4, "none", (0.0, 0.0), 3.0, 2), **kw)


@pytest.fixture(scope="module")
def printed(small_stones_deck: Deck) -> ss.Printed:
    return ss.make(small_stones_deck, request(duplex="long"), "test stones")


def test_every_symbol_is_a_set_of_simple_polygons_in_the_unit_square() -> None:
    for symbol in [*PICTURES.values(), *PLAIN]:
        for polygon in symbol:
            assert len(polygon) >= 3
            assert all(-1.0 <= v <= 1.0 for point in polygon for v in point)
    faces = ("Sun", "Cat", "Dog")
    made = symbols(faces)
    assert made[0] == symbols(PUBLISHED.faces)[0] and made[1] != made[2], "unknown faces get plain shapes in turn"


def test_each_cell_lies_in_the_safe_zone_the_same_size_on_every_card(small_stones_deck: Deck) -> None:
    size = ss.AUTO
    safe = Box(3, 3, size.width - 6, size.height - 6)
    sizes = set()
    for card in small_stones_deck.cards:
        lay = ss.layout(card, size, 3.0)
        assert len(lay.cells) == card.pattern.height * card.pattern.width
        for box, _ in lay.cells:
            assert safe.contains(box) and lay.tray.contains(box)
            sizes.add(round(box.w, 6))
        boxes = [b for b, _ in lay.cells]
        assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
        x, y, r = lay.badge
        assert safe.contains(Box(x - r, y - r, 2 * r, 2 * r)) and not Box(x - r, y - r, 2 * r, 2 * r).overlaps(lay.tray)
    assert len(sizes) == 1


def test_a_card_too_small_for_a_readable_window_names_the_size(small_stones_deck: Deck) -> None:
    with pytest.raises(RequestError, match=r"size: a 30x40 .* less than the 9 mm"):
        ss.make(small_stones_deck, request(size=CardSize("30x40", 30, 40)), "t")


def test_the_pdfs_hold_the_cards_the_reference_cards_and_the_stones(printed: ss.Printed,
                                                                    small_stones_deck: Deck) -> None:
    assert set(printed.files) == {"cards.pdf", "stones.pdf", "calibration.pdf"}
    cards = PdfReader(io.BytesIO(printed.files["cards.pdf"]))
    kinds = [sheet.kind for sheet in printed.imposition.pages]
    assert len(cards.pages) == len(kinds) and kinds.count("backs") == kinds.count("fronts") == 2
    assert printed.labels == tuple(str(c.id) for c in small_stones_deck.cards) + ("ref 1", "ref 2")
    text = " ".join(page_text(printed.files["cards.pdf"]))
    for card in small_stones_deck.cards:
        assert f"#{card.id}" in text
    assert text.count("Shifting Stones: reference") == 2
    stones = PdfReader(io.BytesIO(printed.files["stones.pdf"]))
    assert len(stones.pages) == 2 and sum(len(p.fronts) for p in printed.stones.pages) == 9


def test_every_font_is_embedded(printed: ss.Printed) -> None:
    for name, data in printed.files.items():
        for page in PdfReader(io.BytesIO(data)).pages:
            for font in (page["/Resources"].get("/Font") or {}).values():
                font = font.get_object()
                descriptor = font.get("/FontDescriptor") or font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
                assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), name


def test_the_same_deck_gives_the_same_bytes(small_stones_deck: Deck, printed: ss.Printed) -> None:
    again = ss.make(small_stones_deck, request(duplex="long"), "test stones")
    assert again.files == printed.files


def test_a_stone_is_printed_in_its_colour_where_the_layout_puts_it(printed: ss.Printed,
                                                                   small_stones_deck: Deck) -> None:
    dpi = 100
    page = render(printed.files["cards.pdf"], dpi)[0]
    sheet = printed.imposition.pages[0]
    checked = 0
    for slot in sheet.fronts:
        card = small_stones_deck.cards[slot.card]
        lay = ss.layout(card, printed.size, 3.0 + FRAME_INSET)
        for box, face in lay.cells:
            if face is None:
                continue
            # the cell's lower-left corner area: inside the stone, clear of its symbol and letter
            x = slot.trim.x + box.x + box.w * 0.12
            y = slot.trim.y + box.y + box.h * 0.12
            px, py = round(x / 25.4 * dpi), round((sheet.height - y) / 25.4 * dpi)
            got = page.getpixel((px, py))[:3]
            want = tuple(int(PUBLISHED.colour(face)[i:i + 2], 16) for i in (1, 3, 5))
            assert max(abs(a - b) for a, b in zip(got, want)) <= 24, (card.id, face, got, want)
            checked += 1
    assert checked >= 8


def test_a_cards_difficulty_is_printed_only_for_a_designer(small_stones_deck: Deck) -> None:
    """A player's card carries what play needs; the designer's figure (its difficulty) is on
    it only with --designer-marks (a playtest copy)."""
    assert any(c.difficulty is not None for c in small_stones_deck.cards)
    plain = " ".join(page_text(ss.make(small_stones_deck, request(), "t").files["cards.pdf"]))
    marked = " ".join(page_text(ss.make(small_stones_deck, request(designer_marks=True), "t").files["cards.pdf"]))
    assert "difficulty" not in plain and "difficulty" in marked
