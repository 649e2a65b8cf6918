"""Imposition as data: cards on paper, crop marks, backs behind fronts, gutter folds."""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from generators.common.errors import RequestError
from print.common.layout import (
    CLEAR,
    DUPLEX,
    EDGE_MARK,
    FOOTER,
    Box,
    Segment,
    Settings,
    Sheet,
    Slot,
    calibration,
    impose,
)
from print.common.sizes import CARDS, PAPERS, CardSize, parse_card_size, parse_paper


def settings_for(paper: str = "a4", card: str = "poker", **kw: object) -> Settings:
    return Settings(parse_paper(paper), parse_card_size(card), **kw)  # type: ignore[arg-type]


def turn_over(x: float, y: float, edge: str, width: float, height: float) -> tuple[float, float]:
    """Where a point of the front is seen from the back once the sheet is turned over on its
    long or short edge: a half turn in space about the line through the sheet's centre
    along that edge, p -> 2 (p . u) u - p for the unit vector u along the edge."""
    long_is_horizontal = width > height
    along_x = long_is_horizontal if edge == "long" else not long_is_horizontal
    ux, uy = (1.0, 0.0) if along_x else (0.0, 1.0)
    px, py = x - width / 2, y - height / 2
    dot = px * ux + py * uy
    return width / 2 + 2 * dot * ux - px, height / 2 + 2 * dot * uy - py


def collinear_with_edge(mark: Segment, trim: Box) -> bool:
    """Whether a mark lies on the line of one of the trim's four edges."""
    if abs(mark.y0 - mark.y1) < 1e-9:
        return any(abs(mark.y0 - v) < 1e-6 for v in (trim.y, trim.y1))
    return any(abs(mark.x0 - v) < 1e-6 for v in (trim.x, trim.x1))


def check_sheet(sheet: Sheet, offset: bool = False, tight: bool = False) -> None:
    printable = sheet.printable
    assert printable is not None
    art = sheet.art
    for i, a in enumerate(art):
        for b in art[i + 1:]:
            assert not a.overlaps(b), f"page {sheet.number}: two cards' art overlap"
    for slot in sheet.slots:
        assert slot.bleed.contains(slot.trim) and slot.trim.contains(slot.safe)
        if not (offset and slot in sheet.backs):
            assert printable.contains(slot.bleed), f"page {sheet.number}: card {slot.card} leaves the printable area"
    if sheet.info is not None:
        assert printable.contains(sheet.info)
        assert not any(sheet.info.overlaps(a) for a in art)
    for mark in sheet.marks:
        assert mark.length >= 1.0
        assert printable.contains(Box(min(mark.x0, mark.x1), min(mark.y0, mark.y1), abs(mark.x1 - mark.x0),
                                      abs(mark.y1 - mark.y0)))
        for slot in sheet.slots:
            # a mark may reach over a bleed strip that is cut away, never onto a card
            assert not mark.crosses(slot.trim), f"a crop mark runs onto a card: {mark}"
        if sheet.info is not None:
            assert not mark.crosses(sheet.info)
    if any(slot.trim.overlaps(other.bleed) for slot in sheet.slots for other in sheet.slots if other is not slot):
        raise AssertionError(f"page {sheet.number}: a card's bleed runs onto another card")
    if tight:
        # butted cards: their cuts are marked at the sheet's edges only
        # (backs moved by --back-offset keep what room is left: at least 1 mm)
        for group in (sheet.fronts, sheet.backs):
            assert _cut_lines_marked(sheet, group, 1.0 if offset else EDGE_MARK) == [], \
                f"page {sheet.number} ({sheet.kind})"
        return
    # every front card's four trim lines are each marked at least once
    for slot in sheet.fronts:
        t = slot.trim
        mine = [m for m in sheet.marks if collinear_with_edge(m, t) and _near(m, t)]
        lines = {("y", round(m.y0, 6)) if abs(m.y0 - m.y1) < 1e-9 else ("x", round(m.x0, 6)) for m in mine}
        assert {("y", round(t.y, 6)), ("y", round(t.y1, 6)), ("x", round(t.x, 6)), ("x", round(t.x1, 6))} <= lines, \
            f"card {slot.card}: a trim edge has no crop mark"


def _near(mark: Segment, trim: Box) -> bool:
    reach = 12.0
    return (trim.x - reach <= min(mark.x0, mark.x1) <= trim.x1 + reach
            and trim.y - reach <= min(mark.y0, mark.y1) <= trim.y1 + reach)


# -- fitting -------------------------------------------------------------------------------------


def test_nine_poker_cards_fit_an_a4_page_without_bleed_and_eight_with_it() -> None:
    flat = impose(9, settings_for(bleed=0))
    assert (flat.per_page, flat.columns, flat.rows, flat.landscape) == (9, 3, 3, False)
    bled = impose(9, settings_for(bleed=3))
    # 3 x 69.5 mm does not fit 200 mm across; on its side the page takes 4 x 2
    assert (bled.per_page, bled.columns, bled.rows, bled.landscape) == (8, 4, 2, True)
    assert len(bled.pages) == 2 and [len(p.fronts) for p in bled.pages] == [8, 1]


def test_the_grid_is_centred_across_the_page_and_in_the_area_above_the_margin_band() -> None:
    imp = impose(9, settings_for(bleed=0))
    sheet = imp.pages[0]
    art = sheet.bleed_box()
    assert math.isclose(art.cx, sheet.width / 2, abs_tol=1e-6)
    assert sheet.printable is not None
    lift = FOOTER + 2 * CLEAR  # no bleed: the bottom trim line stays clear of the band for its marks
    usable_cy = (sheet.printable.y + lift + sheet.printable.y1) / 2
    assert math.isclose(art.cy, usable_cy, abs_tol=1e-6)


def test_cards_are_in_reading_order() -> None:
    sheet = impose(9, settings_for(bleed=0)).pages[0]
    trims = [s.trim for s in sorted(sheet.fronts, key=lambda s: s.card)]
    assert trims[0].y1 > trims[3].y1 > trims[6].y1
    assert trims[0].x < trims[1].x < trims[2].x


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("card", sorted(CARDS))
@pytest.mark.parametrize("duplex", DUPLEX)
@pytest.mark.parametrize("layout", ["sheets", "tight"])
def test_every_preset_on_every_paper_keeps_the_rules(paper: str, card: str, duplex: str, layout: str) -> None:
    s = settings_for(paper, card, duplex=duplex, layout=layout)
    try:
        imp = impose(11, s)
    except RequestError as err:
        assert "do not fit" in str(err)
        return
    fronts = sorted(slot.card for p in imp.pages for slot in p.fronts)
    assert fronts == list(range(11))
    if duplex != "none":
        assert sorted(slot.card for p in imp.pages for slot in p.backs) == list(range(11))
    for sheet in imp.pages:
        check_sheet(sheet, tight=layout == "tight")


# found by CI: no bleed, and the rows fill the height, so the bottom row sits on the footer band
@settings(max_examples=60, deadline=None)
@example(w=73.0, h=94.75, bleed=0.0, margin=0.25, paper="a3", duplex="none", count=11, layout="sheets")
@given(w=st.floats(20, 200), h=st.floats(20, 280), bleed=st.floats(0, 6), margin=st.floats(0, 15),
       paper=st.sampled_from(sorted(PAPERS)), duplex=st.sampled_from(DUPLEX), count=st.integers(1, 30),
       layout=st.sampled_from(["sheets", "tight"]))
def test_any_card_size_keeps_the_rules(w: float, h: float, bleed: float, margin: float, paper: str, duplex: str,
                                       count: int, layout: str) -> None:
    s = Settings(parse_paper(paper), CardSize("custom", round(w, 2), round(h, 2)), round(bleed, 2), 3.0,
                 round(margin, 2), duplex, layout=layout)
    try:
        imp = impose(count, s)
    except RequestError as err:
        assert "do not fit" in str(err)
        return
    for sheet in imp.pages:
        check_sheet(sheet, tight=layout == "tight")


def test_a_card_larger_than_the_page_is_an_error_that_says_what_it_needs() -> None:
    needs = r"^size: a5 .* do not fit on letter .* one needs 164\.0 x 234\.0 mm of paper \(and gutter"
    with pytest.raises(RequestError, match=needs):
        impose(3, Settings(parse_paper("letter"), parse_card_size("a5"), bleed=3, margin=5, duplex="gutter"))
    assert impose(3, Settings(parse_paper("letter"), parse_card_size("a5"))).per_page == 1


@pytest.mark.parametrize("kw, field", [({"bleed": -1}, "bleed"), ({"bleed": 11}, "bleed"), ({"margin": -2}, "margin"),
                                       ({"duplex": "both"}, "duplex"), ({"back_offset": (6.0, 0.0), "duplex": "long"},
                                                                        "back-offset"),
                                       ({"back_offset": (1.0, 0.0)}, "back-offset")])
def test_bad_settings_name_their_field(kw: dict, field: str) -> None:
    with pytest.raises(RequestError, match=f"^{field}: "):
        impose(3, settings_for(**kw))


# -- backs ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("card", ["poker", "tarot", "a6", "mini-euro"])
@pytest.mark.parametrize("edge", ["long", "short"])
@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.5, -0.75)])
@pytest.mark.parametrize("layout", ["sheets", "tight"])
def test_each_back_lands_behind_its_front_when_the_sheet_is_turned_on_that_edge(
        paper: str, card: str, edge: str, offset: tuple[float, float], layout: str) -> None:
    imp = impose(13, settings_for(paper, card, duplex=edge, back_offset=offset, layout=layout))
    assert len(imp.pages) % 2 == 0
    for front_page, back_page in zip(imp.pages[::2], imp.pages[1::2]):
        assert (front_page.kind, back_page.kind) == ("fronts", "backs")
        backs = {s.card: s for s in back_page.backs}
        assert set(backs) == {s.card for s in front_page.fronts}
        for front in front_page.fronts:
            back = backs[front.card]
            x, y = turn_over(front.trim.cx, front.trim.cy, edge, front_page.width, front_page.height)
            assert math.isclose(back.trim.cx, x + offset[0], abs_tol=1e-6)
            assert math.isclose(back.trim.cy, y + offset[1], abs_tol=1e-6)
            assert (round(back.trim.w, 6), round(back.trim.h, 6)) == (round(front.trim.w, 6), round(front.trim.h, 6))
        check_sheet(back_page, offset=offset != (0.0, 0.0), tight=layout == "tight")


def test_turning_a_portrait_sheet_on_its_long_edge_swaps_left_and_right() -> None:
    # the physical model the test uses, pinned on the case everyone knows (a book's page)
    assert turn_over(10, 20, "long", 210, 297) == pytest.approx((200, 20))
    assert turn_over(10, 20, "short", 210, 297) == pytest.approx((10, 277))
    assert turn_over(10, 20, "long", 297, 210) == pytest.approx((10, 190))


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("card", ["poker", "bridge", "square", "a6"])
@pytest.mark.parametrize("layout", ["sheets", "tight"])
def test_gutter_fold_backs_mirror_their_fronts_across_the_fold(paper: str, card: str, layout: str) -> None:
    imp = impose(7, settings_for(paper, card, duplex="gutter", layout=layout))
    for sheet in imp.pages:
        assert sheet.kind == "fronts and backs" and sheet.fold is not None
        fold = sheet.fold
        vertical = abs(fold.x0 - fold.x1) < 1e-9
        backs = {s.card: s for s in sheet.backs}
        assert set(backs) == {s.card for s in sheet.fronts}
        for front in sheet.fronts:
            back = backs[front.card]
            expected = front.trim.mirrored_x(fold.x0) if vertical else front.trim.mirrored_y(fold.y0)
            assert back.trim.rounded(5) == expected.rounded(5)
            # a back across a level fold is drawn upside down, so it reads upright once folded
            assert back.turn == (0 if vertical else 180)
        for a in sheet.art:
            assert not fold.crosses(a)
        # the fold keeps 5 mm or more from every card's bleed, on both sides
        for slot in (*sheet.fronts, *sheet.backs):
            b = slot.bleed
            gap = min(abs(b.x - fold.x0), abs(b.x1 - fold.x0)) if vertical else \
                min(abs(b.y - fold.y0), abs(b.y1 - fold.y0))
            assert gap >= 5.0 - 1e-9, (card, paper, gap)


def test_calibration_scales_sit_behind_the_crosses_with_the_offset() -> None:
    s = settings_for(duplex="short", back_offset=(0.5, -1.0))
    cal = calibration(s, 210, 297)
    assert len(cal.targets) == len(cal.scales) == 5
    for (x, y), (sx, sy) in zip(cal.targets, cal.scales):
        bx, by = turn_over(x, y, "short", 210, 297)
        assert (sx, sy) == pytest.approx((bx + 0.5, by - 1.0))
    with pytest.raises(RequestError, match="^duplex: "):
        calibration(settings_for(duplex="gutter"), 210, 297)


# -- sizes ---------------------------------------------------------------------------------------


def test_card_sizes_parse_presets_turned_presets_and_millimetres() -> None:
    assert (parse_card_size("poker").width, parse_card_size("poker").height) == (63.5, 88.9)
    turned = parse_card_size("Tarot-landscape")
    assert (turned.width, turned.height, turned.name) == (120.65, 69.85, "tarot-landscape")
    assert (parse_card_size("63.5x88.9").width, parse_card_size("70X120").height) == (63.5, 120.0)
    for bad in ("huge", "0x50", "70x", "-3x40", "500x500", ""):
        with pytest.raises(RequestError, match="^--size: "):
            parse_card_size(bad, "--size")
    with pytest.raises(RequestError, match="^paper: unknown paper 'a9'"):
        parse_paper("a9")


def _cut_lines_marked(sheet: Sheet, slots: tuple[Slot, ...], least: float = EDGE_MARK) -> list[str]:
    """Every cut line of a grid of ``slots`` that lacks a crop mark of at least ``least``
    beyond the grid's trim at either end (both ends along each line), outside every trim."""
    if not slots:
        return []
    grid = Box.union(s.trim for s in slots)
    missing = []
    for vertical, (lo, hi), ends in ((True, (grid.y, grid.y1), ("bottom", "top")),
                                     (False, (grid.x, grid.x1), ("left", "right"))):
        for v in sorted({v for s in slots for v in ((s.trim.x, s.trim.x1) if vertical else (s.trim.y, s.trim.y1))}):
            spans = [sorted((m.y0, m.y1) if vertical else (m.x0, m.x1)) for m in sheet.marks
                     if m.length >= least - 1e-9 and all(abs(c - v) < 1e-6 for c in
                                                            ((m.x0, m.x1) if vertical else (m.y0, m.y1)))]
            if not any(b <= lo + 1e-6 for _, b in spans):
                missing.append(f"{'x' if vertical else 'y'} = {v:.2f} at the {ends[0]}")
            if not any(a >= hi - 1e-6 for a, _ in spans):
                missing.append(f"{'x' if vertical else 'y'} = {v:.2f} at the {ends[1]}")
    return missing


@pytest.mark.parametrize("duplex", ["none", "long", "short", "gutter"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("card", ["poker", "bridge", "tarot", "mini-euro", "square", "stone"])
@pytest.mark.parametrize("layout", ["sheets", "tight"])
def test_every_cut_line_is_marked_at_both_sheet_edges_on_fronts_and_backs(card: str, paper: str,
                                                                            duplex: str, layout: str) -> None:
    """A guillotine lines up on the marks at the sheet's edges, so every cut (inner ones too)
    needs a mark of at least 3 mm beyond the grid at both ends, outside the trim, on the
    fronts and on the backs: Shifting Stones' stone sheets (30 mm squares, no safe zone,
    gutter-fold by default) and every card size both games print."""
    from print.shifting_stones import STONE_SIZE

    size = STONE_SIZE if card == "stone" else parse_card_size(card)
    s = Settings(parse_paper(paper), size, 3.0, 0.0 if card == "stone" else 3.0, None, duplex, layout=layout)
    imp = impose(20, s)
    for sheet in imp.pages:
        check_sheet(sheet, tight=layout == "tight")
        for group in (sheet.fronts, sheet.backs):
            assert _cut_lines_marked(sheet, group) == [], f"page {sheet.number} ({sheet.kind})"


# -- the tight layout ----------------------------------------------------------------------------


@pytest.mark.parametrize("paper, band", [("a4", "foot"), ("letter", "side")])
@pytest.mark.parametrize("duplex", ["none", "long", "short"])
def test_nine_poker_cards_butt_on_a4_and_letter_sharing_their_cuts(paper: str, band: str, duplex: str) -> None:
    """The tight layout: 9 poker cards a page on A4 and on Letter with the default bleed,
    each card touching its neighbours (one cut between two cards), the bleed only across the
    grid's outer edges, every cut line marked at both sheet edges; on Letter the margin
    band runs up the side, there being 6.35 mm above and below the cards."""
    imp = impose(9, settings_for(paper, duplex=duplex, layout="tight"))
    assert (imp.per_page, imp.columns, imp.rows, imp.landscape) == (9, 3, 3, False)
    assert imp.settings.page_margin == 3.0  # the tight layout's own margin
    for sheet in imp.pages:
        group = sheet.fronts or sheet.backs
        trims = [s.trim for s in group]
        grid = Box.union(trims)
        assert grid.w == pytest.approx(3 * 63.5) and grid.h == pytest.approx(3 * 88.9)  # butted: no gaps
        xs = sorted({round(v, 6) for t in trims for v in (t.x, t.x1)})
        ys = sorted({round(v, 6) for t in trims for v in (t.y, t.y1)})
        assert len(xs) == 4 and len(ys) == 4  # 4 cuts each way, shared by neighbours
        for slot in group:
            t, b = slot.trim, slot.bleed
            for inner, outer, at_edge in ((t.x, b.x, t.x <= grid.x + 1e-6), (b.x1, t.x1, t.x1 >= grid.x1 - 1e-6),
                                          (t.y, b.y, t.y <= grid.y + 1e-6), (b.y1, t.y1, t.y1 >= grid.y1 - 1e-6)):
                assert (inner - outer == pytest.approx(3.0)) if at_edge else (inner - outer == pytest.approx(0.0))
        check_sheet(sheet, tight=True)
        assert sheet.info is not None
        if band == "foot":
            assert (sheet.info_turn, sheet.info.h) == (0, FOOTER)
        else:
            assert sheet.info_turn == 90 and sheet.info.w == FOOTER and sheet.info.h > 250
        for m in sheet.marks:
            assert m.length >= EDGE_MARK - 1e-9


def test_the_tight_layout_takes_the_margin_given_and_says_what_a_card_needs() -> None:
    # at a 5 mm margin Letter has 1.35 mm above and below three poker cards: too little for marks
    imp = impose(9, settings_for("letter", layout="tight", margin=5.0))
    assert imp.per_page == 8 and imp.settings.page_margin == 5.0
    assert settings_for(layout="sheets").page_margin == 5.0
    # a card with room for a 3 mm mark beyond each edge, a 3 mm margin, and the 8 mm band below
    with pytest.raises(RequestError, match=r"one needs 262\.0 x 271\.0 mm of paper"):
        impose(1, Settings(parse_paper("a4"), CardSize("custom", 250, 250), layout="tight"))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_gutter_fold_by_default_holds_four_poker_cards_a_sheet_its_fold_clear_of_every_bleed(paper: str) -> None:
    """The default layout (auto) takes the tight layout for a gutter fold where it holds more:
    four poker cards a sheet (sheets holds two), the fold at least 3 mm from any bleed; a
    layout asked for is kept, and its summary line says which holds more."""
    from dataclasses import replace

    from print.common.sheets import cards_line

    poker = CardSize("poker", *CARDS["poker"])
    auto = Settings(parse_paper(paper), poker, duplex="gutter", layout="auto")
    assert auto.layout == "tight" and auto.auto
    imposition = impose(76, auto)
    assert imposition.per_page == 4 and len(imposition.pages) == 19
    for page in imposition.pages:
        assert page.fold is not None
        vertical = page.fold.x0 == page.fold.x1
        for slot in page.fronts + page.backs:
            b = slot.bleed
            gap = min(abs(b.x - page.fold.x0), abs(b.x1 - page.fold.x0)) if vertical else \
                min(abs(b.y - page.fold.y0), abs(b.y1 - page.fold.y0))
            assert gap >= 3.0 - 1e-9
    assert "(layout auto: tight, where sheets holds 2 a page)" in cards_line(imposition, poker)
    sheets = impose(76, replace(auto, layout="sheets", margin=None, auto=False))
    assert sheets.per_page == 2 and cards_line(sheets, poker).endswith("; --layout tight holds 4 a page")
    assert Settings(parse_paper(paper), poker, duplex="long", layout="auto").layout == "sheets"
