"""The deck verifier: it re-proves faces and catches every kind of tampering."""

from __future__ import annotations

import dataclasses

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
