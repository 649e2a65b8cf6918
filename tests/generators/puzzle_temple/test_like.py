""""More cards like mine": a reference deck's defaults, its distribution matched, its locks
left alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generators.common import grading
from generators.common.errors import RequestError
from generators.common.options import resolve
from generators.puzzle_temple.deck import read_deck
from generators.puzzle_temple.generate import generate
from generators.puzzle_temple.like import AIM
from generators.puzzle_temple.reference import read_reference
from generators.puzzle_temple.spec import OPTIONS, Spec
from generators.puzzle_temple.verify import verify_deck

REFERENCE = str(Path(__file__).parents[3] / "examples" / "like-reference.json")
EASY = str(Path(__file__).parents[3] / "examples" / "like-easy-36.json")


@pytest.fixture(scope="module")
def reference():
    return read_reference(REFERENCE, "--like")


@pytest.fixture(scope="module")
def like_deck(reference):
    values = resolve(OPTIONS, {"like": reference, "cards": "12", "workers": "2"})
    return generate(Spec.from_values(values.values, values.given))


@pytest.mark.slow  # the default deck at full size
def test_the_reference_is_unlike_the_default_deck(reference, default_deck) -> None:
    default = [f.difficulty for c in default_deck.cards for f in c.faces]
    assert grading.ks_distance(default, reference.difficulties) > 0.8
    assert reference.blocks_per_face == (4, 4) and reference.flips is True
    assert len(reference.difficulties) == 48 and 0.3 < reference.unique_share < 0.6


def test_the_reference_gives_its_measures_to_the_shared_matching(reference) -> None:
    profile = reference.profile
    assert profile.difficulties == reference.difficulties and profile.unique == reference.unique
    assert sorted(profile.classes["lock cells"]) == sorted(str(n) for n in reference.lock_sizes)
    assert reference.quantiles.values() == tuple(sorted(set(reference.difficulties)))


def test_a_deck_like_36_faces_of_three_blocks() -> None:
    """A reference of 36 faces (six cards of three blocks): the generated faces come within
    the aim of its difficulties, and the summary puts both sides next to each other."""
    easy = read_reference(EASY, "--like")
    assert len(easy.difficulties) == 36 and easy.blocks_per_face == (3, 3)
    values = resolve(OPTIONS, {"like": easy, "cards": "6", "workers": "1"})
    deck = generate(Spec.from_values(values.values, values.given))
    mine = [f.difficulty for c in deck.cards for f in c.faces]
    assert grading.ks_distance(mine, easy.difficulties) <= AIM
    assert not {c.lock.canonical(flips=True) for c in deck.cards} & easy.locks
    check = verify_deck(deck)
    assert check.ok
    from generators.puzzle_temple.figures import likeness

    facts = likeness(deck, check, easy)
    assert facts[0].text.startswith(f"KS distance {grading.ks_distance(mine, easy.difficulties):.3f}")


@pytest.mark.slow  # 36 cards
def test_a_full_deck_like_36_faces() -> None:
    easy = read_reference(EASY, "--like")
    values = resolve(OPTIONS, {"like": easy, "workers": "2"})
    deck = generate(Spec.from_values(values.values, values.given))
    mine = [f.difficulty for c in deck.cards for f in c.faces]
    assert len(deck.cards) == 36 and grading.ks_distance(mine, easy.difficulties) <= AIM
    unique = sum(f.solutions == 1 for c in deck.cards for f in c.faces) / len(mine)
    assert abs(unique - easy.unique_share) <= 0.05


def test_options_override_the_reference(reference) -> None:
    values = resolve(OPTIONS, {"like": reference, "blocks_per_face": "3", "lock_size": "7x5"})
    spec = Spec.from_values(values.values, values.given)
    assert spec.blocks_per_face == (3, 3) and spec.lock_size == (7, 5) and spec.difficulty is None
    values = resolve(OPTIONS, {"like": reference})
    spec = Spec.from_values(values.values, values.given)
    assert spec.blocks_per_face == (4, 4) and spec.lock_size == reference.lock_size
    assert spec.parameters()["like"] == REFERENCE


@pytest.mark.slow  # a 12-card deck matched to the reference; the command test covers the path
def test_a_deck_like_the_reference(like_deck, reference) -> None:
    mine = [f.difficulty for c in like_deck.cards for f in c.faces]
    assert grading.ks_distance(mine, reference.difficulties) <= AIM
    unique = sum(f.solutions == 1 for c in like_deck.cards for f in c.faces) / len(mine)
    assert abs(unique - reference.unique_share) <= 0.1
    assert all(len(f.blocks) == 4 for c in like_deck.cards for f in c.faces)
    width, height = reference.lock_size
    box = sorted((width, height))
    assert all(a <= b for c in like_deck.cards for a, b in zip(sorted(c.lock.extent()), box))
    assert not {c.lock.canonical(flips=True) for c in like_deck.cards} & reference.locks
    assert verify_deck(like_deck).ok


@pytest.mark.slow  # generates a deck through the CLI
def test_the_command_prints_the_distance_and_lock_sizes(tmp_path: Path) -> None:
    from templeforge.cli import main

    out = tmp_path / "like.json"
    result = CliRunner().invoke(main, ["generate", "puzzle-temple", "--like", REFERENCE, "--cards", "6",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "KS distance" in result.output and "lock cells" in result.output and "in the reference" in result.output
    assert read_deck(out).parameters["like"] == REFERENCE


def test_a_reference_that_cannot_be_read_is_named(tmp_path: Path) -> None:
    with pytest.raises(RequestError, match="--like: .*missing.json"):
        read_reference(str(tmp_path / "missing.json"), "--like")
    unsolvable = tmp_path / "unsolvable.json"
    unsolvable.write_text('{"format": "templeforge.deck/1", "game": "puzzle-temple", "cards": [{"id": 1, '
                          '"lock": ["###"], "faces": [{"die": 1, "blocks": ["I2"]}]}]}')
    with pytest.raises(RequestError, match="^--like: cannot make a deck like .*unsolvable.json: it has no face"):
        read_reference(str(unsolvable), "--like")
