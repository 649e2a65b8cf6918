"""Options declared once: profiles, the command line and the README share them."""

from __future__ import annotations

from pathlib import Path

import pytest

from generators import GAMES, game
from generators.common import parse
from generators.common.errors import RequestError
from generators.common.options import markdown_table, resolve

ROOT = Path(__file__).parents[3]
#: The README and the documentation's pages, where the option tables live.
README = "\n".join(p.read_text() for p in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))])


@pytest.mark.parametrize("name", list(GAMES))
def test_the_readme_holds_every_games_option_table(name: str) -> None:
    table = markdown_table(game(name).load_rules().OPTIONS)
    assert table in README, f"the README's option table for {name} is out of date:\n{table}"


@pytest.mark.parametrize("name", [name for name, g in GAMES.items() if g.mine])
def test_the_readme_holds_every_miners_options_and_columns(name: str) -> None:
    from generators.common.corpus import markdown_columns

    miner = game(name).load_miner()
    for table in (markdown_table(miner.OPTIONS), markdown_columns(miner.COLUMNS)):
        assert table in README, f"the README's mining tables for {name} are out of date:\n{table}"


def test_the_command_line_wins_over_the_profile(tmp_path: Path) -> None:
    from generators.puzzle_temple.spec import OPTIONS

    profile = tmp_path / "p.toml"
    profile.write_text('cards = 12\nblocks_per_face = "3-4"\nseed = 3\n')
    values = resolve(OPTIONS, {"seed": "9"}, profile).values
    assert (values["cards"], values["blocks_per_face"], values["seed"]) == (12, (3, 4), 9)


def test_every_bad_value_is_named_at_once(tmp_path: Path) -> None:
    from generators.puzzle_temple.spec import OPTIONS

    with pytest.raises(RequestError) as err:
        resolve(OPTIONS, {"cards": "0", "lock_size": "0x0", "workers": "0", "min_fill": "nan"})
    text = str(err.value)
    for label in ("--cards", "--lock-size", "--workers", "--min-fill"):
        assert label in text
    profile = tmp_path / "p.toml"
    profile.write_text("a = " + "[" * 20 + "1" + "]" * 20 + "\ncolour = 1\n")
    with pytest.raises(RequestError, match="unknown key 'a'.*unknown key 'colour'"):
        resolve(OPTIONS, {}, profile)


@pytest.mark.parametrize("value, expected", [(3, (3, 3)), ("3-4", (3, 4)), ([2, 5], (2, 5)), ("7", (7, 7))])
def test_ranges(value, expected) -> None:
    assert parse.parse_range(value, "x") == expected


@pytest.mark.parametrize("value", ["4-3", "0", "a", True, 1.5, [1], "99999999999999999999"])
def test_bad_ranges(value) -> None:
    with pytest.raises(RequestError, match="^x: "):
        parse.parse_range(value, "x")


def test_sizes_and_numbers() -> None:
    assert parse.parse_size("7x5", "s") == (7, 5) and parse.parse_size([3, 2], "s") == (3, 2)
    with pytest.raises(RequestError, match="at most 12x12"):
        parse.parse_size("60x60", "s", high=12)
    with pytest.raises(RequestError, match="whole number"):
        parse.parse_int(1.0, "n")
    with pytest.raises(RequestError, match="at most"):
        parse.parse_int("3000000000", "n", high=2**31 - 1)
    assert parse.parse_offset("0.5,-1", "o") == (0.5, -1.0)


def test_the_readme_holds_the_print_option_table() -> None:
    from print.common.options import OPTIONS

    table = markdown_table(OPTIONS)
    assert table in README, f"the README's print option table is out of date:\n{table}"
