"""Monolyth on paper: the tokens in their kinds' outlines, cut along them."""

from __future__ import annotations

from generators.monolyth.deck import Deck
from generators.monolyth.pool import TOKEN_COLOURS
from print import monolyth as mp
from print.common.previews import render
from print.common.sizes import parse_paper

DPI = 150


def test_each_kind_of_token_is_printed_in_its_own_outline_with_the_cut_along_it() -> None:
    """A level token is round, a structure token a hexagon, a prophecy token a rounded
    square (as in plastic): the colour fills the outline and its bleed, the paper shows
    outside it, and the cut line runs along the outline."""
    deck = Deck(())
    printed = mp.make(deck, mp.Request("auto", parse_paper("a4"), "none", (0.0, 0.0), 3.0), "t")
    (image,) = render(printed.files["tokens.pdf"], DPI)[:1]
    page = printed.tokens.pages[0]
    height = image.height

    def pixel(x_mm: float, y_mm: float) -> tuple[int, int, int]:
        return image.getpixel((round(x_mm / 25.4 * DPI), round(height - y_mm / 25.4 * DPI)))

    def close(a: tuple[int, int, int], b: str) -> bool:
        want = tuple(int(b[i:i + 2], 16) for i in (1, 3, 5))
        return all(abs(x - y) <= 24 for x, y in zip(a, want))

    seen = set()
    kinds = ["level"] * len(deck.pool.level_tokens) + ["structure"] * len(deck.pool.structure_tokens)
    for slot in page.fronts:
        if slot.card >= len(kinds):
            continue
        kind, t = kinds[slot.card], slot.trim
        seen.add(kind)
        assert close(pixel(t.cx, t.cy - 9.0), TOKEN_COLOURS[kind]), kind  # inside: its colour
        corner = pixel(t.x + 1.0, t.y + 1.0)  # the trim box's corner: outside a round or six-sided token
        assert min(corner) > 235, (kind, corner)
        top = min((pixel(t.cx, t.y1 + d / 10) for d in range(-5, 6)), key=sum)  # the cut line, atop the outline
        assert max(top) < 120, (kind, top)
    assert seen == {"level", "structure"}
