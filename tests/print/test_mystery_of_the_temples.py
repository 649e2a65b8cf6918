"""Mystery of the Temples on paper beyond the temples and grids: the wilderness, rune and
objective cards and the paper tokens, so that the game plays from the PDFs alone."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from pypdf import PdfReader

from generators.mystery_of_the_temples.box import DEFAULT, OURS_TEMPLES
from generators.mystery_of_the_temples.components import OURS
from generators.mystery_of_the_temples.deck import Card, Deck
from print import mystery_of_the_temples as mot
from print.common.previews import page_text
from print.common.sizes import parse_paper

DECK = Deck(tuple(Card(i + 1, t) for i, t in enumerate(OURS_TEMPLES)))


def test_the_table_cards_and_tokens_hold_everything_the_rules_name() -> None:
    printed = mot.make(DECK, replace(mot.Request("auto", parse_paper("a4"), "none", (0.0, 0.0), 3.0, 2)), "t")
    assert {"cards.pdf", "grids.pdf", "table.pdf", "tokens.pdf"} <= set(printed.files)
    assert printed.table is not None and printed.tokens is not None
    cards = sum(len(p.fronts) for p in printed.table.pages)
    assert cards == len(OURS.wilderness) + len(OURS.runes) + len(OURS.objectives) + 2  # rune objective, track
    tokens = mot.tokens_of(DEFAULT)
    assert sum(len(p.fronts) for p in printed.tokens.pages) == len(tokens) == sum(DEFAULT.supply) + 4 * 6 + 4
    assert [t[1] for t in tokens].count("X") == 20  # five curse markers for each of four players
    assert len(PdfReader(io.BytesIO(printed.files["table.pdf"])).pages) == 10  # 37 tarot cards, 4 a page
    text = " ".join(" ".join(page_text(printed.files["table.pdf"])).split())
    for words in ("Wilderness 1", "Wilderness 10", "Rune objective", "Temple objective", "Score track",
                  "discard 3 crystals", "empty squares", "Resonance"):
        assert words in text, words
    assert any(line for line in mot.summary(printed) if line.startswith("tokens.pdf: 1 page, 88 tokens"))


def test_a_layer_blocked_at_two_players_wears_a_badge_the_card_explains() -> None:
    printed = mot.make(DECK, mot.Request("auto", parse_paper("a4"), "none", (0.0, 0.0), 3.0), "t")
    pages = page_text(printed.files["cards.pdf"])
    text = " ".join(" ".join(pages).split())
    blocked = sum(layer.blocked for t in OURS_TEMPLES for layer in t.layers)
    assert blocked == 5 and text.count("2P") == 2 * blocked  # the badge, and the card's words
    assert text.count("2P: at 2 players a spare marker covers the layer.") == blocked
    unblocked = Deck(tuple(replace(c, temple=replace(c.temple, layers=tuple(replace(layer, blocked=False)
                                                                              for layer in c.temple.layers)))
                           for c in DECK.cards))
    assert "2P" not in " ".join(page_text(mot.make(unblocked, mot.Request("auto", parse_paper("a4"), "none",
                                                                           (0.0, 0.0), 3.0), "t").files["cards.pdf"]))


def test_a_temples_expected_actions_are_printed_only_for_a_designer() -> None:
    from pathlib import Path

    from generators import read_deck

    _, deck = read_deck(Path(__file__).parents[1] / "data" / "mystery-of-the-temples-two-boards-seed-1.json")
    assert any(c.priced is not None for c in deck.cards)
    base = mot.Request("auto", parse_paper("a4"), "none", (0.0, 0.0), 3.0)
    plain = " ".join(page_text(mot.make(deck, base, "t").files["cards.pdf"]))
    marked = " ".join(page_text(mot.make(deck, replace(base, designer_marks=True), "t").files["cards.pdf"]))
    assert "expected actions" not in plain and "expected actions by layer" in marked


@pytest.mark.parametrize("name", ["grids", "cards"])
def test_every_letter_of_a_grid_or_temple_card_lies_inside_its_safe_area(name: str) -> None:
    """The grid cards' header sat on the frame line, 2.55 mm from the cut: every character
    of every grid and temple card (the temples' "2P" badges too) now lies inside the card's
    safe area (as PDFium places it)."""
    import pypdfium2 as pdfium

    from print.common.sizes import MM

    printed = mot.make(DECK, mot.Request("auto", parse_paper("a4"), "long", (0.0, 0.0), 3.0), "t")
    sheets = printed.grids if name == "grids" else printed.imposition
    doc = pdfium.PdfDocument(printed.files[f"{name}.pdf"])
    try:
        for number in range(len(sheets.pages)):
            text = doc[number].get_textpage()
            safes = [slot.safe for slot in sheets.pages[number].fronts + sheets.pages[number].backs]
            for i in range(text.count_chars()):
                left, bottom, right, top = (v / MM for v in text.get_charbox(i))
                if right - left <= 0:
                    continue
                cx, cy = (left + right) / 2, (bottom + top) / 2
                card = [s for s in safes if s.x - 3 <= cx <= s.x1 + 3 and s.y - 3 <= cy <= s.y1 + 3]
                if not card:
                    continue  # the page's margin: its title, page number and ruler
                (safe,) = card
                assert safe.x - 0.2 <= left and right <= safe.x1 + 0.2 and safe.y - 0.2 <= bottom \
                    and top <= safe.y1 + 0.2, f"page {number + 1}: {text.get_text_range(i, 1)!r} outside the safe area"
    finally:
        doc.close()


def test_every_grid_slot_holds_a_paper_crystal_the_same_on_every_board() -> None:
    """Slots were drawn at three sizes (9.8, 8.2 and 6.0 mm) under 16 mm paper crystals: now
    every slot of every board is a paper crystal with 0.3 mm all round, at least 1 mm from
    the next, on boards that print two a sheet of A4."""
    import math

    printed = mot.make(DECK, mot.Request("auto", parse_paper("a4"), "long", (0.0, 0.0), 3.0), "t")
    board, layouts = mot.grid_size(DEFAULT, 3.0 + mot.FRAME_INSET)
    assert (board.width, board.height) == (130.0, 180.0) and len(printed.grids.pages[0].fronts) == 2
    for side in DEFAULT.grids:
        lay = layouts[side.name]
        assert 2 * lay.radius == mot.SLOT >= mot.TOKEN.width + 0.6
        points = [(x * lay.scale, y * lay.scale) for x, y in side.grid.positions]
        closest = min(math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1:])
        assert closest >= mot.SLOT + 1.0 - 1e-9, side.name
