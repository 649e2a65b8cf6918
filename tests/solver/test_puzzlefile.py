"""Puzzle files: the examples load, and every kind of bad input is named precisely."""

from __future__ import annotations

from pathlib import Path

import pytest

from solver.puzzle import Mode
from solver.puzzlefile import PuzzleFileError, load_puzzle, parse_puzzle

EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("*.toml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_loads(path: Path) -> None:
    puzzle = load_puzzle(path)
    assert puzzle.region.size > 0 and puzzle.pieces


def test_a_full_file() -> None:
    puzzle = parse_puzzle('''
title = "x"
region = """
###
#.#
"""
pieces = ["I2", { name = "L3", count = 2 }, { name = "Hook", shape = "##" }]
flips = false
mode = "subset"
''')
    assert [p.name for p in puzzle.pieces] == ["I2", "L3", "L3", "Hook"]
    assert puzzle.mode is Mode.SUBSET and puzzle.flips is False
    assert puzzle.region.cells == {(0, 0), (0, 1), (0, 2), (1, 0), (1, 2)}


def test_presets_expand_and_3d_regions_read_layers() -> None:
    puzzle = parse_puzzle('region = "##\\n##\\n\\n##\\n##"\npieces = [{ name = "O4", count = 2 }]')
    assert puzzle.region.dim == 3 and puzzle.region.size == 8
    assert len(parse_puzzle('region = "#####"\npieces = ["pentominoes"]').pieces) == 12


def error(text: str) -> str:
    with pytest.raises(PuzzleFileError) as info:
        parse_puzzle(text, "lock.toml")
    message = str(info.value)
    assert message.startswith("lock.toml: ") and "\n" not in message
    return message


def test_unknown_keys_are_rejected() -> None:
    assert "unknown key(s) colour" in error('region = "##"\npieces = ["I2"]\ncolour = "red"')
    assert "field 'pieces[1]': unknown key(s) size" in error('region = "##"\npieces = [{ name = "I2", size = 2 }]')


def test_wrong_types_name_the_field() -> None:
    assert "field 'flips': expected true or false" in error('region = "##"\npieces = ["I2"]\nflips = "yes"')
    assert "field 'mode'" in error('region = "##"\npieces = ["I2"]\nmode = "some"')
    assert "field 'region': expected an ASCII picture" in error('region = 5\npieces = ["I2"]')
    assert "field 'pieces': expected a non-empty list" in error('region = "##"\npieces = "I2"')
    assert "field 'pieces[1].count'" in error('region = "##"\npieces = [{ name = "I2", count = 0 }]')
    assert "field 'pieces[1].count'" in error('region = "##"\npieces = [{ name = "I2", count = true }]')
    assert "field 'pieces[2]': expected a piece name or a table" in error('region = "##"\npieces = ["I2", 3]')


def test_missing_and_empty_fields() -> None:
    assert "field 'region' is missing" in error('pieces = ["I2"]')
    assert "field 'pieces' is missing" in error('region = "##"')
    assert "the region is empty" in error('region = """\n...\n...\n"""\npieces = ["I2"]')
    assert "an empty list" in error('region = "##"\npieces = []')


def test_a_malformed_picture_names_the_file_line() -> None:
    text = 'title = "t"\nregion = """\n###\n#x#\n"""\npieces = ["I2"]\n'
    assert "field 'region' (file line 4), column 2: unexpected 'x'" in error(text)
    inline = 'region = "##"\npieces = [{ name = "Q", shape = "#?" }]'
    assert "field 'pieces[1].shape' (picture line 1), column 2: unexpected '?'" in error(inline)


def test_unknown_pieces_and_bad_shapes() -> None:
    assert "unknown piece or preset 'Q7'" in error('region = "##"\npieces = ["Q7"]')
    assert "field 'pieces[1].name': unknown piece 'Q7'" in error('region = "##"\npieces = [{ name = "Q7" }]')
    assert "not connected" in error('region = "##"\npieces = [{ name = "Q", shape = "#.#" }]')
    assert "3D piece(s) soma_V in a 2D region" in error('region = "##"\npieces = ["soma_V"]')
    assert "given to two different shapes" in error(
        'region = "####"\npieces = ["I2", { name = "I2", shape = "#\\n#\\n#" }]')


def test_all_problems_come_back_at_once() -> None:
    message = error('region = "#x"\npieces = ["Q7"]\nflips = 1\nextra = 2')
    for part in ("unknown key(s) extra", "field 'region'", "field 'flips'", "'Q7'"):
        assert part in message


def test_invalid_toml_and_unreadable_files(tmp_path: Path) -> None:
    assert "not valid TOML" in error('region = "##\npieces = ["I2"]')
    with pytest.raises(PuzzleFileError, match="cannot read the file"):
        load_puzzle(tmp_path / "missing.toml")


def test_block_set_files(tmp_path) -> None:
    from solver.puzzlefile import PuzzleFileError, load_blocks
    good = tmp_path / "blocks.toml"
    good.write_text('title = "mine"\npieces = ["I3", { name = "Q", shape = "##\\n#." }]\n')
    assert [p.name for p in load_blocks(good)] == ["I3", "Q"]
    bad = tmp_path / "bad.toml"
    bad.write_text('colour = 1\ntitle = 2\n')
    with pytest.raises(PuzzleFileError) as err:
        load_blocks(bad)
    message = str(err.value)
    assert message.startswith(f"{bad}: unknown key(s) colour")
    assert "field 'pieces' is missing" in message and "field 'title': expected a string" in message


def test_solid_pieces_are_not_mirrored_unless_the_file_says_so() -> None:
    from solver import tiling

    cube = 'region = """\n###\n###\n###\n\n###\n###\n###\n\n###\n###\n###\n"""\npieces = ["soma"]\n'
    rigid = parse_puzzle(cube)
    assert rigid.flips is False
    assert tiling.count(rigid).count == 11520
    assert parse_puzzle(cube + "flips = true\n").flips is True
    assert parse_puzzle('region = "###"\npieces = ["I3"]').flips is True  # flat pieces turn over


def test_limits_on_copies_and_region_size(tmp_path: Path) -> None:
    with pytest.raises(PuzzleFileError, match=r"pieces\[1\].count': expected a whole number from 1 to 1000"):
        parse_puzzle('region = "##"\npieces = [{ name = "I2", count = 100000000000 }]')
    big = "\n".join(["#" * 100] * 50)
    with pytest.raises(PuzzleFileError, match="5000 cells, more than the 4096"):
        parse_puzzle(f'region = """\n{big}\n"""\npieces = ["I2"]')
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(PuzzleFileError, match="deep.toml: not valid TOML"):
        load_puzzle(deep)
    with pytest.raises(PuzzleFileError, match="it is a folder"):
        load_puzzle(tmp_path)
