"""The sheet furniture: margin notes and text fitting."""

from __future__ import annotations

from print.common.pdf import text_width
from print.common.sheets import fit_text, id_ranges, wrap


def test_card_ids_in_the_margin_collapse_runs_of_numbers() -> None:
    assert id_ranges([1, 2, 3, 4, 7, 8, "A1", 10]) == "1-4, 7, 8, A1, 10"
    assert id_ranges([]) == ""


def test_text_is_cut_or_wrapped_to_fit_its_width() -> None:
    long = "cannot be solved: the blocks cover 8 cells and the lock has 17 " * 3
    cut = fit_text(long, 6, 40)
    assert cut.endswith(" ...") and text_width(cut, 6) <= 40
    assert long.startswith(cut.removesuffix(" ...") + " "), "cut at a space, never mid-word"
    footer = "cards Sun/Moon, Fish/Bird, Fish/Bird, Horse/Boat, Horse/Boat, Horse/Boat, Seed/Tree"
    assert fit_text(footer, 6, 60).removesuffix(" ...").split(" ")[-1] in footer.replace(",", "").split(" ")
    lines = wrap(long, 6, 40, lines=3)
    assert len(lines) == 3 and all(text_width(line, 6) <= 40 for line in lines)
    assert lines[-1].endswith(" ...")
    assert wrap("short", 6, 40) == ["short"]
