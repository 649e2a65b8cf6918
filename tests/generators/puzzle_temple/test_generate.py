"""The Puzzle Temple generator: what it promises about every deck, and its refusals."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from generators.common.errors import RequestError as SpecError
from generators.common.grading import TARGETS, Tier, parse_target, tier_counts, tier_of
from generators.puzzle_temple.deck import DICE, Deck
from generators.puzzle_temple.generate import DeckShortfall, Spec, generate
from generators.puzzle_temple.verify import verify_deck
from solver import tiling
from solver.pieces import piece, preset


def keeps_every_promise(deck: Deck, cards: int) -> None:
    assert len(deck.cards) == cards and [c.id for c in deck.cards] == list(range(1, cards + 1))
    check = verify_deck(deck)
    assert check.ok, check.problems[:5]
    for card in deck.cards:
        assert card.lock.is_connected() and not card.lock.holes()
        rows, cols = card.lock.extent()
        assert cols <= 7 and rows <= 5 and rows <= cols
        assert tuple(f.die for f in card.faces) == DICE
        assert len({frozenset(f.blocks) for f in card.faces}) == 6
        assert all(len(f.blocks) == 3 for f in card.faces)
    assert len({c.lock.canonical() for c in deck.cards}) == cards
    assert check.usage_ratio is not None and check.usage_ratio <= 1.5
    bounds = tuple(deck.parameters["tier_bounds"])
    tiers = Counter(tier_of(c.difficulty, bounds) for c in deck.cards)
    assert tiers == Counter(tier_counts(cards, TARGETS["thirds"]))


def test_a_small_deck_keeps_every_promise(small_deck: Deck) -> None:
    keeps_every_promise(small_deck, 4)


@pytest.mark.slow  # the default deck at full size
def test_the_default_deck_keeps_every_promise(default_deck: Deck) -> None:
    keeps_every_promise(default_deck, 36)


@pytest.mark.slow  # the default deck at full size
def test_stored_counts_and_ratings_are_the_solvers(default_deck) -> None:
    card = default_deck.cards[-1]
    for face in card.faces:
        result = tiling.count(default_deck.puzzle(card, face))
        assert result.count == face.solutions and result.exhaustive


@pytest.mark.slow  # the default deck, twice
def test_the_same_seed_gives_the_same_bytes_whatever_the_workers(default_deck) -> None:
    again = generate(Spec(preset("ubongo12"), seed=0, workers=1))
    assert again.dumps() == default_deck.dumps()
    other = generate(Spec(preset("ubongo12"), cards=4, seed=1))
    assert other.cards[0].lock != default_deck.cards[0].lock or other.dumps() != default_deck.dumps()


def test_a_range_of_blocks_per_face_and_a_ramp() -> None:
    deck = generate(Spec(preset("ubongo12"), cards=12, blocks_per_face=(3, 4),
                         difficulty=parse_target("ramp"), seed=2))
    check = verify_deck(deck)
    assert check.ok and check.usage_ratio <= 1.5
    sizes = {len(f.blocks) for c in deck.cards for f in c.faces}
    assert sizes <= {3, 4} and len(sizes) == 2
    tiers = Counter(tier_of(c.difficulty, tuple(deck.parameters["tier_bounds"])) for c in deck.cards)
    assert tiers == {Tier.EASY: 6, Tier.MEDIUM: 4, Tier.HARD: 2}


def test_unique_faces_have_one_solution_each() -> None:
    deck = generate(Spec(preset("ubongo12"), cards=3, unique=True, difficulty=None, seed=3))
    assert all(f.solutions == 1 for c in deck.cards for f in c.faces)
    assert verify_deck(deck).ok


@pytest.mark.parametrize("change, parameter", [
    (dict(blocks_per_face=(13, 13)), "blocks-per-face: 13 is more than the 12 blocks"),
    (dict(lock_cells=(2, 4)), "lock-cells: 3 blocks of ubongo12 cover 8 to 15 cells, outside 2-4"),
    (dict(lock_size=(2, 2)), "lock-size"),
    (dict(cards=0), "cards"),
    (dict(min_fill=1.5), "min-fill"),
    (dict(locks="magic"), "locks: expected one of auto, union, cp-sat"),
])
def test_impossible_requests_fail_at_once_naming_the_parameter(change, parameter: str) -> None:
    with pytest.raises(SpecError, match=parameter):
        generate(Spec(preset("ubongo12"), **change))


def test_too_few_block_sets_for_six_faces() -> None:
    blocks = (piece("I2"), piece("I3"), piece("L3"), piece("O4"))
    with pytest.raises(SpecError, match="blocks-per-face: .* only 4 block set"):
        Spec(blocks, block_set="mine", blocks_per_face=(3, 3)).checked()


@pytest.mark.slow
def test_a_budget_too_small_says_how_many_cards_it_made() -> None:
    with pytest.raises(DeckShortfall) as err:
        generate(Spec(preset("ubongo12"), cards=36, attempts=30, designs=2, seed=1))
    assert err.value.wanted == 36 and err.value.made < 36
    assert f"made {err.value.made} of 36 cards: after 30 random locks and 2 CP-SAT designs" in str(err.value)


@pytest.mark.slow  # a minute of CP-SAT designs
def test_cp_sat_designs_fill_a_card_too_small_for_random_locks() -> None:
    # four blocks on a 4x4 card: random unions rarely fit the box; the joint model does
    spec = Spec(preset("ubongo12"), cards=3, blocks_per_face=(4, 4), lock_size=(4, 4), attempts=48,
                difficulty=None, seed=2)
    with pytest.raises(DeckShortfall):
        generate(dataclasses.replace(spec, locks="union"))
    deck = generate(spec)
    assert verify_deck(deck).ok
    assert any(c.lock.extent() == (4, 4) for c in deck.cards)
    assert all(max(c.lock.extent()) <= 4 for c in deck.cards)


def test_tier_counts_share_cards_by_largest_remainder() -> None:
    assert tier_counts(36, parse_target("thirds")) == {Tier.EASY: 12, Tier.MEDIUM: 12, Tier.HARD: 12}
    assert tier_counts(10, parse_target("easy:2,hard:1")) == {Tier.EASY: 7, Tier.HARD: 3}
    assert tier_counts(5, None) == {None: 5}


@pytest.mark.parametrize("text", ["hardest", "easy:x", "easy:0", "easy:-1"])
def test_bad_difficulty_targets(text: str) -> None:
    with pytest.raises(SpecError, match="difficulty"):
        parse_target(text)


def test_a_request_with_millions_of_block_sets_is_refused_before_enumerating_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import itertools

    def enumerated(*args: object) -> None:
        raise AssertionError("the block sets were enumerated")

    monkeypatch.setattr(itertools, "combinations", enumerated)
    with pytest.raises(SpecError, match="blocks-per-face: hexominoes has 23535820 block sets"):
        Spec(preset("hexominoes"), block_set="hexominoes", blocks_per_face=(8, 8), lock_size=(12, 12)).checked()
