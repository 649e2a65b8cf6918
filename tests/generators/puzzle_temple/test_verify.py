"""The deck verifier: it re-proves faces and catches every kind of tampering."""

from __future__ import annotations

import dataclasses

import pytest

from generators.puzzle_temple.deck import Card, Deck, deck_from_json
from generators.puzzle_temple.verify import verify_deck
from solver import tiling
from solver.puzzle import Placement, Solution
from solver.shapes import Shape


def _replace_face(deck: Deck, card_index: int, face_index: int, **changes) -> Deck:
    cards = list(deck.cards)
    card = cards[card_index]
    faces = list(card.faces)
    faces[face_index] = dataclasses.replace(faces[face_index], **changes)
    cards[card_index] = dataclasses.replace(card, faces=tuple(faces))
    return dataclasses.replace(deck, cards=tuple(cards))


def test_a_generated_deck_verifies(small_deck) -> None:
    check = verify_deck(small_deck)
    assert check.ok and not check.unknown and len(check.faces) == 24


def test_a_moved_block_in_a_stored_solution_is_caught(small_deck) -> None:
    face = small_deck.cards[1].faces[2]
    first, *rest = face.solution.placements
    moved = Placement(first.piece, tuple((r + 9, c) for r, c in first.cells))
    deck = _replace_face(small_deck, 1, 2, solution=Solution((moved, *rest)))
    problems = verify_deck(deck).problems
    assert problems and all(p.startswith("card 2, face 3: stored solution:") for p in problems)
    assert any("outside the region" in p for p in problems)


def test_a_wrong_count_or_difficulty_is_caught(small_deck) -> None:
    face = small_deck.cards[0].faces[0]
    deck = _replace_face(small_deck, 0, 0, solutions=face.solutions + 1, difficulty=face.difficulty + 1)
    problems = verify_deck(deck).problems
    assert f"card 1, face 1: stores {face.solutions + 1} solution(s) but has {face.solutions}" in problems
    assert any(p.startswith("card 1, face 1: stores difficulty") for p in problems)


def test_card_and_deck_rules(small_deck) -> None:
    cards = list(small_deck.cards)
    turned = Shape(frozenset((c, -r) for r, c in cards[0].lock.cells)).normalized()
    faces = list(cards[1].faces)
    faces[1] = dataclasses.replace(faces[0], die=2)
    cards[1] = Card(2, turned, tuple(faces[:5]) + (dataclasses.replace(faces[5], die=5),))
    problems = verify_deck(dataclasses.replace(small_deck, cards=tuple(cards))).problems
    assert "card 2: the lock is the same as card 1's (up to rotation and reflection)" in problems
    assert "card 2: die number(s) 5 appear on more than one face" in problems
    assert "card 2: faces 1 and 2 have the same blocks" in problems
    assert any(p.startswith("card 2: has 6 face(s); a lock card needs one for every die number (missing 6)")
               for p in problems)


def test_a_hand_written_deck_gets_counts_pictures_and_reasons() -> None:
    deck = deck_from_json({
        "format": "templeforge.deck/1", "game": "puzzle-temple",
        "cards": [{"id": 1, "lock": [".###.", "#####", "####.", ".###."], "faces": [
            {"die": 1, "blocks": ["I3", "L3", "T4", "P"]},
            {"die": 2, "blocks": ["I3", "L3", "T4"]},
            {"die": 3, "blocks": ["X", "I4", "O4", "I2"]},
        ]}],
    })
    check = verify_deck(deck)
    one, two, three = check.faces
    assert one.status is tiling.Status.SOLVED and one.count == 6 and one.unique is False
    assert one.solution is not None and one.difficulty is not None
    assert two.status is tiling.Status.UNSOLVABLE and "area mismatch" in two.reason
    assert any(p.startswith("cannot be solved: area mismatch") for p in two.problems)
    assert three.status is tiling.Status.UNSOLVABLE
    assert "card 1: has 3 face(s)" in " ".join(check.problems)


def test_unique_decks_refuse_faces_with_two_solutions(small_deck) -> None:
    many = next(f for c in small_deck.cards for f in c.faces if f.solutions and f.solutions > 1)
    deck = dataclasses.replace(small_deck, parameters={**small_deck.parameters, "unique": True})
    assert any(f"has {many.solutions}" in p and "unique" in p for p in verify_deck(deck).problems)


def test_a_deck_off_its_difficulty_target_is_caught(small_deck) -> None:
    bounds = small_deck.parameters["tier_bounds"]
    assert not [p for p in verify_deck(small_deck).problems if "asks for difficulty" in p]
    skewed = dataclasses.replace(small_deck, parameters={**small_deck.parameters, "difficulty": "hard",
                                                         "tier_bounds": bounds})
    problems = verify_deck(skewed).problems
    assert any(p.startswith("the deck asks for difficulty hard (easy 0, medium 0, hard 4) but its cards are")
               for p in problems)


def test_a_face_too_big_to_rate_is_counted_but_not_rated(monkeypatch, small_deck) -> None:
    from generators.puzzle_temple import verify
    monkeypatch.setattr(verify, "MAX_RATING_STATES", 1)
    hand = deck_from_json({
        "format": "templeforge.deck/1", "game": "puzzle-temple",
        "cards": [{"id": 1, "lock": [".###.", "#####", "####.", ".###."],
                   "faces": [{"die": 1, "blocks": ["I3", "L3", "T4", "P"]}]}],
    })
    face = verify_deck(hand).faces[0]
    assert face.count == 6 and face.difficulty is None and not face.problems
    stored = verify_deck(small_deck).problems
    assert any("too big to rate (over 1 search states)" in p for p in stored)


def test_every_recorded_parameter_is_checked(small_deck) -> None:
    from generators.puzzle_temple.deck import Face

    params = dict(small_deck.parameters)
    # a 9x2 lock in a deck that says 7x5, with faces of one block where it says 3
    wide = Shape.parse("#########\n#########")
    faces = tuple(Face(d, blocks) for d, blocks in zip(range(1, 7), [("I2",) * 1] * 6))
    deck = dataclasses.replace(small_deck, cards=small_deck.cards[:3] + (Card(4, wide, faces),))
    problems = verify_deck(deck).problems
    assert "card 4: the lock is 9x2 cells, larger than parameters.lock_size 7x5" in problems
    assert any(p.startswith("card 4, face 1: 1 blocks, outside parameters.blocks_per_face 3-3") for p in problems)
    params.update(cards=5, lock_cells=[12, 12], min_fill=0.99)
    problems = verify_deck(dataclasses.replace(small_deck, parameters=params)).problems
    assert "parameters.cards: records 5 cards, the deck has 4" in problems
    assert any("outside parameters.lock_cells 12-12" in p for p in problems)
    assert any("less than parameters.min_fill 0.99" in p for p in problems)


def test_tier_bounds_must_be_ordered_numbers(small_deck) -> None:
    for bad, message in (([1], "expected two numbers"), ("abc", "expected two numbers"),
                         ([7.0, 5.0], "the easy bound 7.0 is above the hard bound 5.0")):
        params = dict(small_deck.parameters, tier_bounds=bad)
        problems = verify_deck(dataclasses.replace(small_deck, parameters=params)).problems
        assert any(p.startswith("parameters.tier_bounds:") and message in p for p in problems), problems


def test_the_verifier_recounts_with_engines_the_generator_does_not_use(small_deck, monkeypatch) -> None:
    from solver import counter

    def refuse(*args, **kwargs):
        raise AssertionError("the verifier used the generator's counter")

    monkeypatch.setattr(counter, "count", refuse, raising=False)
    monkeypatch.setattr(counter, "search", refuse, raising=False)
    assert verify_deck(small_deck).ok


@pytest.mark.slow  # the default deck at full size
def test_the_default_tier_scale_is_the_default_decks(default_deck) -> None:
    from generators.puzzle_temple.verify import DEFAULT_TIER_BOUNDS

    assert tuple(default_deck.parameters["tier_bounds"]) == DEFAULT_TIER_BOUNDS


def test_a_hand_written_deck_is_placed_on_a_tier_scale(small_deck) -> None:
    hand = dataclasses.replace(small_deck, parameters={}, seed=None)
    check = verify_deck(hand)
    assert check.scale == "the default deck's tiers" and all(check.tier(c.id) for c in hand.cards)
    other = dataclasses.replace(small_deck, parameters={"tier_bounds": [0.0, 0.1]})
    check = verify_deck(hand, tiers_from=other, tiers_name="other.json")
    assert check.scale == "the tiers of other.json" and {check.tier(c.id).value for c in hand.cards} == {"hard"}


def test_a_generated_card_with_die_faces_swapped_is_caught(small_deck) -> None:
    """Faces go from die 1 (easiest) to 6: swapping faces 1 and 6 of a generated card keeps
    every face solvable, but the card is no longer the card the generator promised."""
    card = small_deck.cards[0]
    first, last = card.faces[0], card.faces[5]
    assert first.difficulty < last.difficulty
    swapped = (dataclasses.replace(last, die=1),) + card.faces[1:5] + (dataclasses.replace(first, die=6),)
    cards = (Card(card.id, card.lock, swapped),) + small_deck.cards[1:]
    problems = verify_deck(dataclasses.replace(small_deck, cards=cards)).problems
    assert any(p.startswith("card 1: face 1 (difficulty") and "a generated card's faces go from die 1 (easiest)" in p
               for p in problems), problems
    assert verify_deck(small_deck).ok
