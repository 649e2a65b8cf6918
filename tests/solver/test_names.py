"""The name rule (solver.names): what a name read from a user's file may be, and the file
names made of names."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver import names

BAD = ["../../../../GEN-ESCAPE", "/etc/passwd", "I2/x", "a\\b", "a\x00b", "x" * 300, ".hidden", "", " L4", "L4 ",
       "a:b", "a*b", "\n"]
GOOD = ["L4", "I2", "pentomino F", "red", "Sun", "block_7", "v1.2", "Würfel", "颜色", "x" * names.MAX_NAME]


@pytest.mark.parametrize("value", BAD)
def test_bad_names_are_refused_with_the_place_named(value: str) -> None:
    assert not names.is_name(value)
    with pytest.raises(names.BadName, match=r"^blocks\.toml: pieces\[1\]\.name: "):
        names.check_name(value, "blocks.toml: pieces[1].name")


@pytest.mark.parametrize("value", GOOD)
def test_good_names_pass(value: str) -> None:
    assert names.check_name(value, "here") == value


def test_names_that_differ_only_by_case_space_or_dash_are_one_file() -> None:
    problems = names.name_problems([("a", "L4"), ("b", "l4"), ("c", "big stone"), ("d", "big-stone"), ("e", "T4")])
    assert len(problems) == 2
    assert problems[0].startswith("b: 'l4' and 'L4' (a)")
    assert problems[1].startswith("d: 'big-stone' and 'big stone' (c)")
    assert names.name_problems([("a", "L4"), ("a", "L4")]) == []  # the same name twice is not a clash


def test_slug_and_unique_slugs() -> None:
    assert names.slug("piece", "L4", "dark red", lower=True) == "piece-l4-dark-red"
    assert names.slug("block", "I2") == "block-I2"
    with pytest.raises(names.BadName):
        names.slug("block", "../x")
    assert names.unique_slugs(["a b", "c"], "piece") == {"a b": "a-b", "c": "c"}
    with pytest.raises(names.BadName, match="'A-B' and 'a b' would both be written as 'a-b'"):
        names.unique_slugs(["A-B", "a b"], "piece")


@given(st.text(max_size=80))
def test_a_good_name_is_a_single_path_part_that_stays_put(value: str) -> None:
    """Whatever the text, a name that passes is one plain file-name part: joined to a
    folder it names a child of that folder."""
    from pathlib import PurePosixPath, PureWindowsPath

    if names.is_name(value):
        for kind in (PurePosixPath, PureWindowsPath):
            path = kind("out") / f"block-{names.slug(value)}.stl"
            assert path.parent == kind("out") and ".." not in path.parts
