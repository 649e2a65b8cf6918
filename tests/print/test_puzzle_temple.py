"""Puzzle Temple on paper: card layout as data, sizes, answers, paper-block packing, and the
PDFs themselves (pages, fonts, ids, boxes, bytes, and pixels measured on real renders)."""

from __future__ import annotations

import io
import math
from dataclasses import replace

import pytest
from PIL import Image
from pypdf import PdfReader

from generators.common.errors import RequestError
from generators.puzzle_temple.deck import Card, Deck, Face, read_deck
from print import puzzle_temple as pt
from print.common.layout import Box
from print.common.previews import page_text, render
from print.common.sizes import CardSize, parse_card_size, parse_paper, presets
from solver.pieces import preset
from solver.shapes import Shape

A4 = parse_paper("a4")


def request(**kw: object) -> pt.Request:
    base = pt.Request("auto", A4, "none", (0.0, 0.0), 3.0, 15.0, 4)
    return replace(base, **kw)


@pytest.fixture(scope="module")
def printed(print_deck: Deck) -> pt.Printed:
    return pt.make(print_deck, request(duplex="long"), "test deck")


# -- layout as data ------------------------------------------------------------------------------


def parts(lay: pt.CardLayout) -> list[tuple[str, Box]]:
    out = [("frame", lay.frame)]
    for row in lay.rows:
        out.append((f"die {row.die}", row.face))
        for icon in row.icons:
            rows = max(r for r, _ in icon.cells) + 1
            cols = max(c for _, c in icon.cells) + 1
            out.append((f"icon {icon.name}", Box(icon.x, icon.top - rows * lay.icon, cols * lay.icon, rows * lay.icon)))
    return out


@pytest.mark.parametrize("pitch", [10.0, 15.0, 20.0])
def test_every_part_of_every_card_lies_in_the_safe_zone_and_none_overlap(print_deck: Deck, pitch: float) -> None:
    size = pt.choose_size(print_deck, pitch, 3.0)
    m = pt.row_scale(print_deck, size, pitch, 3.0)
    safe = Box(3.0, 3.0, size.width - 6, size.height - 6)
    for card in print_deck.cards:
        lay = pt.layout(print_deck, card, size, pitch, 3.0, m)
        boxes = parts(lay)
        for name, box in boxes:
            assert safe.contains(box), f"card {card.id}: {name} leaves the safe zone"
            assert box.y1 <= safe.y1 - pt.HEAD + 1e-6, f"card {card.id}: {name} runs into the header"
        for i, (a, box_a) in enumerate(boxes):
            for b, box_b in boxes[i + 1:]:
                assert not box_a.overlaps(box_b), f"card {card.id}: {a} overlaps {b}"
        # the lock is drawn at the pitch, cell for cell, inside its frame
        lock = lay.lock_box()
        assert lay.frame.contains(lock)
        rows, cols = card.lock.extent()
        assert {(round(lock.w, 6), round(lock.h, 6))} <= {(cols * pitch, rows * pitch), (rows * pitch, cols * pitch)}
        assert len(lay.lock) == len(card.lock)
        assert [row.die for row in lay.rows] == [1, 2, 3, 4, 5, 6]


def test_auto_size_is_the_smallest_preset_that_holds_every_card(print_deck: Deck) -> None:
    size = pt.choose_size(print_deck, 15.0, 3.0)
    smaller = [p for p in presets() if p.width * p.height < size.width * size.height]
    for p in smaller:
        with pytest.raises(RequestError, match=r"^size: card \S+ needs at least"):
            pt.check_size(print_deck, p, 15.0, 3.0)
    pt.check_size(print_deck, size, 15.0, 3.0)
    # a finer pitch fits a smaller card
    fine = pt.choose_size(print_deck, 8.0, 3.0)
    assert fine.width * fine.height < size.width * size.height


def test_a_size_too_small_names_the_card_and_what_it_needs(print_deck: Deck) -> None:
    with pytest.raises(RequestError) as err:
        pt.make(print_deck, request(size=parse_card_size("mini-euro")), "t")
    message = str(err.value)
    assert message.startswith("size: card ") and "needs at least" in message and "mini-euro (44 x 68 mm)" in message
    w, h = (float(v) for v in message.split("needs at least ")[1].split(" mm")[0].split(" x "))
    assert CardSize("x", w, h).holds(w, h) and (w > 44 or h > 68)
    # the preset it names holds that card (and every smaller one would not)
    named = message.split("the smallest preset that holds it is ")[1].split(" (")[0]
    holding = parse_card_size(named)
    card = next(c for c in print_deck.cards if f"card {c.id} " in message)
    single = Deck((card,), print_deck.blocks)
    pt.check_size(single, holding, 15.0, 3.0)
    assert holding.width * holding.height > 44 * 68


def test_a_lock_larger_than_every_preset_asks_for_a_custom_size_or_finer_pitch() -> None:
    big = Shape.parse("\n".join(["#" * 12] * 12))
    faces = tuple(Face(d, ("O4",) * 36) for d in range(1, 7))
    deck = Deck((Card(1, big, faces),), (preset("ubongo12")[4],))
    with pytest.raises(RequestError, match=r"^size: card 1 needs .* more than the largest preset"):
        pt.choose_size(deck, 15.0, 3.0)


# -- answers ----------------------------------------------------------------------------------------


def test_a_hand_written_deck_is_solved_here_and_an_impossible_face_says_why() -> None:
    deck = read_deck("examples/hand-deck.json")
    card = deck.cards[0]
    broken = Face(6, ("O4", "O4"))  # 8 cells for a lock of 17
    deck = replace(deck, cards=(replace(card, faces=card.faces[:5] + (broken,)),))
    found = pt.answers(deck, deck.cards[0])
    assert [a.die for a in found] == [1, 2, 3, 4, 5, 6]
    solved = [a for a in found if a.solution is not None]
    assert len(solved) >= 3
    for a in found:
        assert a.note == "solved here"
        if a.solution is not None:
            assert a.difficulty is not None and a.reason is None
            assert sorted(c for cells in a.solution.values() for c in cells) == sorted(card.lock.cells)
        else:
            assert a.reason.startswith("cannot be solved: ")
    assert found[5].solution is None and found[5].reason is not None
    assert found[5].reason.startswith("cannot be solved: ") and "area" in found[5].reason


def test_stored_solutions_are_used_as_they_are(print_deck: Deck) -> None:
    card = print_deck.cards[0]
    for face, a in zip(card.faces, pt.answers(print_deck, card)):
        assert a.note == "" and a.difficulty == face.difficulty
        assert a.solution == {p.piece: p.cells for p in face.solution.placements}


# -- paper blocks --------------------------------------------------------------------------------------


@pytest.mark.parametrize("flips", [True, False])
@pytest.mark.parametrize("players", [1, 4, 9])
def test_packing_places_every_block_once_per_player_on_as_few_pages_as_cells_allow(flips: bool, players: int) -> None:
    blocks = [(p.name, p.shape) for p in preset("ubongo12")]
    packing = pt.pack(blocks, players, 18, 13, flips)
    placed = [p for page in packing.pages for p in page]
    assert sorted((p.name, p.player) for p in placed) == sorted((n, k) for n, _ in blocks
                                                                 for k in range(1, players + 1))
    for page in packing.pages:
        seen: set[tuple[int, int]] = set()
        for p in page:
            assert all(0 <= r < 18 and 0 <= c < 13 for r, c in p.cells)
            assert not seen & set(p.cells)
            seen |= set(p.cells)
            shape = dict(blocks)[p.name]
            assert Shape(frozenset(p.cells)).is_congruent(shape, flips=flips), f"{p.name} is not its block"
    assert len(packing.pages) <= packing.lower_bound + (1 if players > 4 else 0)
    if players <= 4:
        assert len(packing.pages) == packing.lower_bound == 1


def test_a_block_larger_than_the_page_is_an_error() -> None:
    with pytest.raises(RequestError, match="^pitch: block I4 .* does not fit on a page of 2 x 3 cells"):
        pt.pack([("I4", preset("ubongo12")[3].shape)], 1, 2, 3, True)


# -- the PDFs --------------------------------------------------------------------------------------------


def test_the_pdfs_have_the_pages_the_imposition_and_packing_ask_for(printed: pt.Printed, print_deck: Deck) -> None:
    imp = printed.imposition
    fronts = math.ceil(len(print_deck.cards) / imp.per_page)
    assert len(PdfReader(io.BytesIO(printed.files["cards.pdf"])).pages) == 2 * fronts
    assert len(PdfReader(io.BytesIO(printed.files["blocks.pdf"])).pages) == len(printed.packing.pages)
    assert len(PdfReader(io.BytesIO(printed.files["answers.pdf"])).pages) == printed.answer_pages
    assert len(PdfReader(io.BytesIO(printed.files["calibration.pdf"])).pages) == 2
    assert set(printed.files) == {"cards.pdf", "answers.pdf", "blocks.pdf", "calibration.pdf"}


def test_every_font_is_embedded_and_the_metadata_names_the_tool(printed: pt.Printed) -> None:
    for name, data in printed.files.items():
        reader = PdfReader(io.BytesIO(data))
        fonts = 0
        for page in reader.pages:
            for font in (page["/Resources"].get("/Font") or {}).values():
                font = font.get_object()
                fonts += 1
                descriptor = font.get("/FontDescriptor") or font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
                descriptor = descriptor.get_object()
                assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), \
                    f"{name}: font {font.get('/BaseFont')} is not embedded"
        assert fonts > 0
        meta = reader.metadata
        assert meta.title.startswith("test deck") and meta.creator.startswith("templeforge ")
        assert meta.subject
        prefs = reader.trailer["/Root"]["/ViewerPreferences"]
        assert prefs["/PrintScaling"] == "/None", f"{name}: a viewer may scale it to fit the page"


def test_every_page_has_trim_and_bleed_boxes_around_its_cards(printed: pt.Printed) -> None:
    reader = PdfReader(io.BytesIO(printed.files["cards.pdf"]))
    mm = 72 / 25.4
    for page, sheet in zip(reader.pages, printed.imposition.pages):
        assert "/TrimBox" in page and "/BleedBox" in page
        trim = [float(v) / mm for v in page["/TrimBox"]]
        box = sheet.trim_box()
        assert trim == pytest.approx([box.x, box.y, box.x1, box.y1], abs=0.01)
        bleed = [float(v) / mm for v in page["/BleedBox"]]
        assert bleed[0] <= trim[0] and bleed[2] >= trim[2]


def test_card_ids_are_found_on_their_pages_by_text_extraction(printed: pt.Printed, print_deck: Deck) -> None:
    texts = page_text(printed.files["cards.pdf"])
    for text, sheet in zip(texts, printed.imposition.pages):
        for slot in sheet.fronts:
            card_id = str(print_deck.cards[slot.card].id)
            assert any(line.strip() == card_id for line in text.splitlines()), f"card {card_id} not on its page"
    answers = "\n".join(page_text(printed.files["answers.pdf"]))
    for card in print_deck.cards:
        assert f"card {card.id}" in answers


def test_the_same_deck_gives_the_same_bytes(print_deck: Deck, printed: pt.Printed) -> None:
    again = pt.make(print_deck, request(duplex="long"), "test deck")
    assert again.files == printed.files


# -- pixels ---------------------------------------------------------------------------------------------------


DPI = 200


def line_centres(values: list[float], drop: float = 60) -> list[float]:
    """Centres of the dark runs along a scan line (darker than the line's bright level by
    ``drop``)."""
    bright = sorted(values)[int(len(values) * 0.8)]
    dark = [v < bright - drop for v in values]
    out, start = [], None
    for i, d in enumerate(dark + [False]):
        if d and start is None:
            start = i
        elif not d and start is not None:
            out.append((start + i - 1) / 2)
            start = None
    return out


def runs(cells: tuple[tuple[int, int], ...]) -> list[tuple[int, int, int]]:
    """(row, first column, last column) of every run of adjacent cells in a row."""
    out = []
    for r in sorted({r for r, _ in cells}):
        cols = sorted(c for rr, c in cells if rr == r)
        start = cols[0]
        for a, b in zip(cols, cols[1:] + [None]):
            if b != a + 1:
                out.append((r, start, a))
                start = b
    return out


def grey(image: Image.Image, y: int, x0: int, x1: int) -> list[float]:
    return [sum(image.getpixel((x, y))) / 3 for x in range(x0, x1)]


def test_the_lock_is_printed_at_the_pitch_and_a_paper_block_matches_its_cell(printed: pt.Printed,
                                                                              print_deck: Deck) -> None:
    px = DPI / 25.4
    pages = render(printed.files["cards.pdf"], DPI)
    sheet = printed.imposition.pages[0]
    slot = sheet.fronts[0]
    lay = printed.lays[slot.card]
    lock = lay.lock_box().shifted(slot.trim.x, slot.trim.y)
    # scan along the middle of the lock's longest run of cells in a row, edge to edge
    r, first, last = max(((r, c0, c1) for r, c0, c1 in runs(lay.lock)), key=lambda t: (t[2] - t[1], -t[0]))
    y = round((sheet.height - (lock.y1 - (r + 0.5) * lay.pitch)) * px)
    left = round((lock.x + first * lay.pitch - 0.4) * px)
    right = round((lock.x + (last + 1) * lay.pitch + 0.4) * px)
    centres = line_centres(grey(pages[0], y, left, right))
    gaps = [b - a for a, b in zip(centres, centres[1:])]
    row = range(first, last + 1)
    assert len(gaps) == len(row) >= 2
    for g in gaps:
        assert g == pytest.approx(15.0 * px, abs=1.5), f"lock cell of {g / px:.2f} mm, not 15 mm"

    blocks = render(printed.files["blocks.pdf"], DPI)[0]
    grid, _, _ = pt.blocks_grid(A4, 5.0, 15.0)
    long_ones = [p for p in printed.packing.pages[0] if p.name == "I4"]
    cells = sorted(long_ones[0].cells)
    edge = 0.3 / 15.0  # from just inside the outline's outer side, in cells
    if len({r for r, _ in cells}) == 1:  # lying down: scan along its row
        r, (c0, c1) = cells[0][0], (cells[0][1], cells[-1][1])
        y = round((A4.height - (grid.y1 - (r + 0.2) * 15.0)) * px)  # above the letter
        x0, x1 = (round((grid.x + (c0 - edge) * 15.0) * px), round((grid.x + (c1 + 1 + edge) * 15.0) * px))
        values = grey(blocks, y, x0, x1)
    else:  # standing up: scan down its column
        c, (r0, r1) = cells[0][1], (cells[0][0], cells[-1][0])
        x = round((grid.x + (c + 0.2) * 15.0) * px)  # beside the letter
        y0 = round((A4.height - grid.y1 + (r0 - edge) * 15.0) * px)
        y1 = round((A4.height - grid.y1 + (r1 + 1 + edge) * 15.0) * px)
        values = [sum(blocks.getpixel((x, yy))) / 3 for yy in range(y0, y1)]
    found = line_centres(values, drop=25)
    block_gaps = [b - a for a, b in zip(found, found[1:])]
    assert len(block_gaps) == 4, "an I4 block shows its outline and three cell lines"
    for g in block_gaps:
        assert g == pytest.approx(gaps[0], abs=1.5), "a paper block's cell differs from the card's lock cell"


def test_the_answer_key_draws_each_solution_on_the_lock_as_the_card_shows_it(print_deck: Deck) -> None:
    turned = 0
    for card in print_deck.cards:
        # a card size that only the lock turned a quarter fits, where there is one
        options = pt._options(print_deck, card, 15.0)
        sizes = [CardSize("t", o.width + 6, o.height + 6) for o in options if o.turned]
        sizes = [z for z in sizes if not any(pt._fits(o, z, 3.0) for o in options if not o.turned)]
        for size in sizes[:1] + [pt.choose_size(print_deck, 15.0, 3.0)]:
            lay = pt.layout(print_deck, card, size, 15.0, 3.0)
            turned += lay.turned
            for a in pt.answers(print_deck, card):
                drawn = [c for cells in a.solution.values() for c in pt.as_drawn(cells, card, lay)]
                assert sorted(drawn) == sorted(lay.lock)
    assert turned > 0
