"""Monolyth structure cards that ask for colours: reading them, proving them with the pieces'
own colours and counts, pricing them, telling them apart, generating and printing them."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from generators.common.errors import RequestError
from generators.monolyth import generate as gen
from generators.monolyth.deck import Card, Deck, deck_from_json
from generators.monolyth.figures import target_picture
from generators.monolyth.measure import difficulty, prove
from generators.monolyth.pool import DEFAULT, pool_from
from generators.monolyth.spec import Spec
from generators.monolyth.structure import colour_words, colours_from, key, target_from
from generators.monolyth.verify import pool_kinds, verify_deck
from solver.heightmap import CONTAIN, Board, Step, Target, build, replay

BOARD = Board(4, 4, 3)
NORTH_WALL = [[x, 0, z] for x in range(4) for z in range(3)]


def wall(colour: str = "red") -> Target:
    plain = target_from(["3333", "1111", "1111", "1111"], BOARD, CONTAIN, "t")
    return colours_from({colour: NORTH_WALL}, plain, BOARD, DEFAULT.colour_names, "c")


def test_colours_are_read_by_cube_and_refused_by_name() -> None:
    t = wall()
    assert len(t.colours) == 12 and t.colour_at()[(2, 0, 1)] == "red"
    plain = target_from(["22..", "....", "....", "...."], BOARD, CONTAIN, "t")
    with pytest.raises(RequestError) as err:
        colours_from({"pink": [[0, 0, 0]], "red": [[0, 0, 2], [2, 0, 0], [9, 0, 0], [0, 0, 0]], "blue": [[0, 0, 0]],
                      "green": "x"}, plain, BOARD, DEFAULT.colour_names, "cards[3].colours")
    problems = err.value.problems
    assert any("cards[3].colours.pink: not a colour of the pool" in p for p in problems)
    assert any("cube [0, 0, 2] is not part of the structure (it is in a column of height 2)" in p for p in problems)
    assert any("cube [2, 0, 0] is not part of the structure (it is in a free column)" in p for p in problems)
    assert any("cube [9, 0, 0] is outside the 4x4x3 space" in p for p in problems)
    assert any("cards[3].colours.blue: cube [0, 0, 0] is also red" in p for p in problems)
    assert any("cards[3].colours.green: expected a list of cubes" in p for p in problems)


def test_a_coloured_card_is_proved_with_the_pieces_own_colours() -> None:
    target = wall("blue")
    proof = prove(DEFAULT, BOARD, target)
    assert proof is not None
    steps, singles = proof
    assert not replay(steps, pool_kinds(Deck((), DEFAULT)), BOARD, target)
    on_wall = [s for s in steps if any(y == 0 for _, y, _ in s.cubes)]
    assert on_wall and all(s.colour == "blue" for s in on_wall)
    # the same build painted otherwise fails the replay, naming the cube and the colour
    wrong = tuple(replace(s, colour="red") if s in on_wall[:1] else s for s in steps)
    assert any("the target wants blue" in p for p in replay(wrong, pool_kinds(Deck((), DEFAULT)), BOARD, target))


def test_singles_keep_their_colours_counts() -> None:
    # a 1x1x3 red tower of three singles: only with three red singles in the box
    tower = colours_from({"red": [[0, 0, 0], [0, 0, 1], [0, 0, 2]]},
                         target_from(["3...", "....", "....", "...."], BOARD, CONTAIN, "t"), BOARD, ["red"], "c")
    cube = [k for k in pool_kinds(Deck((), DEFAULT)) if k.name == "single"][0]
    assert build([], BOARD, tower, singles=["red"], single_counts=[3], max_singles=6).singles == 3
    found = build([], BOARD, tower, singles=["red"], single_counts=[2], max_singles=6)
    assert not found.buildable and found.exhausted
    assert cube.shape.size == 1


@pytest.mark.slow
def test_colours_make_a_card_harder_and_are_part_of_what_tells_cards_apart() -> None:
    plain = target_from(["3333", "1111", "1111", "1111"], BOARD, CONTAIN, "t")
    red, _, _ = difficulty(DEFAULT, BOARD, wall())
    same, _, _ = difficulty(DEFAULT, BOARD, plain)
    assert red > same + 1.0  # every wall cube must come red: fewer useful offers each turn
    east = colours_from({"red": [[3, y, z] for y in range(4) for z in range(3)]},
                        target_from(["1113", "1113", "1113", "1113"], BOARD, CONTAIN, "t"), BOARD,
                        DEFAULT.colour_names, "c")
    assert key(east, BOARD, True) == key(wall(), BOARD, True) != key(wall("blue"), BOARD, True)
    assert key(east, BOARD, False) != key(wall(), BOARD, False)
    assert key(plain, BOARD, True) != key(wall(), BOARD, True)


def test_colours_in_words_and_in_the_terminal() -> None:
    letters = DEFAULT.letters
    assert colour_words(wall(), BOARD, letters) == ["every cube of the north wall red (R)"]
    corner = colours_from({"blue": [[0, 0, 1], [1, 0, 1], [0, 1, 1], [1, 1, 1]], "yellow": [[0, 0, 0]]},
                          target_from(["22..", "22..", "....", "...."], BOARD, CONTAIN, "t"), BOARD,
                          DEFAULT.colour_names, "c")
    assert colour_words(corner, BOARD, letters) == ["1 cube yellow (Y) at level 1 (the map's bands)",
                                                    "every cube of level 2 blue (B)"]
    picture = target_picture(Card(1, corner), BOARD, letters).splitlines()
    assert picture[0].split() == ["heights", "level", "1", "level", "2"]
    assert picture[1].split() == ["2", "2", ".", ".", "Y", ".", "B", "B"]
    assert picture[-1] == "Y yellow, B blue; . any colour"


def test_letters_stay_distinct_when_initials_clash() -> None:
    pool = replace(DEFAULT, colours=(("blue", "#0072B2"), ("black", "#000000"), ("brown", "#8B4513")))
    assert pool.letters == {"blue": "B", "black": "L", "brown": "R"}


@pytest.mark.slow
def test_a_coloured_card_survives_the_deck_file_and_the_verifier(tmp_path: Path) -> None:
    data = {"format": "templeforge.deck/1", "game": "monolyth",
            "cards": [{"id": "red wall", "target": ["3333", "1111", "1111", "1111"], "colours": {"red": NORTH_WALL}},
                      {"id": "plain", "target": ["3333", "1111", "1111", "1111"]},
                      {"id": "red again", "target": ["1113", "1113", "1113", "1113"],
                       "colours": {"red": [[3, y, z] for y in range(4) for z in range(3)]}}]}
    deck = deck_from_json(data)
    assert deck.cards[0].target == wall() and not deck.cards[1].target.colours
    check = verify_deck(deck)
    assert check.rule_problems == ("card red again asks for the same structure as card red wall (turned or mirrored)",)
    built = check.check("red wall")
    assert built.buildable and built.witness is not None and built.difficulty is not None
    assert built.difficulty > check.check("plain").difficulty  # type: ignore[operator]
    again = deck_from_json(json.loads(Deck(deck.cards[:1], DEFAULT).dumps()))
    assert again.cards[0].target == deck.cards[0].target


@pytest.mark.slow
def test_the_generator_makes_exactly_the_coloured_cards_asked() -> None:
    spec = Spec(cards=2, coloured=1, attempts=4, difficulty=None, seed=3, workers=1, prophecies=0)
    deck = gen.generate(spec)
    painted = [c for c in deck.cards if c.target.colours]
    assert len(painted) == 1 and deck.parameters["coloured"] == 1
    check = verify_deck(deck_from_json(json.loads(deck.dumps())))
    assert check.ok, check.problems
    colours = {c for _, c in painted[0].target.colours}
    assert len(colours) == 1
    witness = painted[0].witness
    assert witness is not None
    wanted = painted[0].target.colour_at()
    assert all(s.colour == wanted[q] for s in witness for q in s.cubes if q in wanted)
    assert "coloured: 3 coloured cards, but the deck has only 2 cards" in Spec(cards=2, coloured=3).problems()


def test_a_pool_without_the_colour_cannot_prove_the_card() -> None:
    few = pool_from({**DEFAULT.as_json(), "pieces": [p for p in DEFAULT.as_json()["pieces"] if p["colour"] != "red"],
                     "singles": {"red": 0, "yellow": 6}}, "few.toml", BOARD)
    assert prove(few, BOARD, wall()) is None
    found = build(list(few.pieces), BOARD, wall(), singles=["yellow"], single_counts=[6], max_singles=6)
    assert not found.buildable and found.exhausted and found.nodes == 0  # counted, not searched
    assert Step("I2", "red", ((0, 0, 0), (0, 0, 1))).colour == "red"
