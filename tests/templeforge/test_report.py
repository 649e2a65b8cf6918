"""The report's pieces drawn alone: pictures at one scale with their letters, and tables
whose word columns sort in their own order."""

from __future__ import annotations

import re

from generators.common.figures import Table
from templeforge.pipeline import report


def test_every_picture_is_drawn_at_one_scale_with_a_letter_in_each_cell() -> None:
    small, large = report.picture_svg("AB\n.B", {"A": "#ff0000"}), report.picture_svg("ABCDEF\nABCDEF\n..C...", {})
    assert 'width="32" height="32"' in small and f'width="{6 * report.CELL}" height="{3 * report.CELL}"' in large
    assert re.findall(r">([A-Z])</text>", small) == ["A", "B", "B"]
    assert len(re.findall(r"</text>", large)) == 13


def test_a_word_column_sorts_in_its_own_order() -> None:
    table = Table(("card", "tier"), (("1", "hard"), ("2", "easy"), ("3", "medium")), "><",
                  orders=((1, ("easy", "medium", "hard")),))
    page = report.table_html(table)
    assert re.findall(r'data-v="(\d)">([a-z]+)</td>', page) == [("2", "hard"), ("0", "easy"), ("1", "medium")]


def test_the_paper_guidance_follows_the_layout_and_the_backs() -> None:
    from print.common.sizes import parse_paper
    from templeforge.pipeline.printing import paper_html

    a4 = parse_paper("a4")
    home = paper_html({"paper": a4, "duplex": "short", "bleed": 3.0, "layout": "sheets"}, ["cards.pdf", "x/y.pdf"])
    assert "<strong>100% scale</strong>" in home and "flipped on the short edge" in home and "x/y.pdf" not in home
    assert "3 mm past each cut" in home
    shop = paper_html({"paper": a4, "duplex": "long", "bleed": 2.0, "layout": "cards"}, ["cards.pdf", "stones.pdf"])
    assert "one card a page, for a print-on-demand service" in shop and "2 mm bleed" in shop
    assert "the page after it" in shop and "(stones.pdf) are sheets" in shop
    assert "fronts only" in paper_html({"paper": a4, "duplex": "none", "layout": "cards"}, ["cards.pdf"])
    tight = paper_html({"paper": a4, "duplex": "long", "bleed": 3.0, "layout": "tight"}, ["cards.pdf"])
    assert "share their cuts" in tight and "inner lines of one direction first" in tight
    assert "3 mm past the outer cuts" in tight and "3 mm past each cut" not in tight


def test_a_bar_chart_of_many_bars_labels_every_kth_so_labels_do_not_run_together() -> None:
    labels = [str(n) for n in range(60)]
    svg = report.bars_svg(labels, [float(n % 7) for n in range(60)], "scores")
    assert svg.count("<rect") == 60 and svg.count("<title>") == 60  # every bar, named on hover
    under = [t for t in svg.split("<text")[1:] if 'text-anchor="middle"' in t]
    assert len(under) <= report.LABELS and ">0</text>" in under[0] and ">4</text>" in under[1]
    few = report.bars_svg(["a", "b", "c"], [1.0, 2.0, 3.0], "few")
    assert len([t for t in few.split("<text")[1:] if 'text-anchor="middle"' in t]) == 3
