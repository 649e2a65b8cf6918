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
