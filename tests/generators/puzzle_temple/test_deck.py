"""The deck file: round trips, the schema, and errors that name the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from generators.puzzle_temple.deck import DeckError, deck_from_json, read_deck, schema, write_deck

HAND = {
    "format": "templeforge.deck/1",
    "game": "puzzle-temple",
    "cards": [
        {"id": 1, "lock": [".###.", "#####", "####.", ".###."],
         "faces": [{"die": 1, "blocks": ["I3", "L3", "T4", "P"]}]},
    ],
}


def test_the_schema_is_a_valid_json_schema() -> None:
    Draft202012Validator.check_schema(schema())


def test_a_generated_deck_round_trips_byte_for_byte(small_deck, tmp_path: Path) -> None:
    path = write_deck(small_deck, tmp_path / "deck.json")
    again = read_deck(path)
    assert again == small_deck
    assert again.dumps() == path.read_text()
    assert not list(tmp_path.glob(".*.tmp"))  # the temporary file was renamed away


def test_the_file_keeps_its_field_order_and_draws_pictures_row_by_row(small_deck) -> None:
    from dataclasses import replace

    from generators.common.deckfile import versions

    small_deck = replace(small_deck, versions=versions())  # as generated (the sample leaves them out)
    data = json.loads(small_deck.dumps())
    assert list(data) == ["format", "game", "seed", "parameters", "versions", "blocks", "cards"]
    assert set(data["versions"]) == {"templeforge", "ortools"}
    card = data["cards"][0]
    assert list(card) == ["id", "lock", "faces"] and isinstance(card["lock"], list)
    assert list(card["faces"][0]) == ["die", "blocks", "solution", "solutions", "difficulty"]
    assert '"lock": [\n' in small_deck.dumps()


def test_a_hand_written_deck_names_library_pieces() -> None:
    deck = deck_from_json(HAND)
    assert [b.name for b in deck.blocks] == ["I3", "L3", "T4", "P"]
    assert deck.cards[0].lock.size == 15 and deck.cards[0].faces[0].solution is None
    assert deck.flips and not deck.blocks_listed


def test_a_lock_may_be_one_string_and_solutions_follow_its_picture() -> None:
    data = json.loads(json.dumps(HAND))
    data["cards"][0]["lock"] = "\n..##\n..##\n"  # two empty columns: cells move with the lock
    data["cards"][0]["faces"][0] = {"die": 1, "blocks": ["O4"], "solution": {"O4": [[0, 2], [0, 3], [1, 2], [1, 3]]}}
    deck = deck_from_json(data)
    assert deck.cards[0].lock.sorted_cells() == ((0, 0), (0, 1), (1, 0), (1, 1))
    assert deck.cards[0].faces[0].solution.placements[0].cells == ((0, 0), (0, 1), (1, 0), (1, 1))


@pytest.mark.parametrize("change, field", [
    (lambda d: d["cards"][0]["faces"][0].update(die=7), "cards[1].faces[1].die"),
    (lambda d: d.update(format="templeforge.deck/2"), "format"),
    (lambda d: d["cards"][0].update(colour="red"), "cards[1]: unknown key(s)"),
    (lambda d: d["cards"][0].update(lock="#x#"), "cards[1].lock"),
    (lambda d: d["cards"][0]["faces"][0].update(blocks=["I3", "I3"]), "cards[1].faces[1].blocks"),
    (lambda d: d["cards"][0]["faces"][0]["blocks"].append("Q9"), "cards[1].faces[1].blocks[5]: unknown block 'Q9'"),
    (lambda d: d.pop("cards"), "'cards' is a required property"),
])
def test_bad_decks_name_the_field(change, field: str) -> None:
    data = json.loads(json.dumps(HAND))
    change(data)
    with pytest.raises(DeckError) as err:
        deck_from_json(data, "mine.json")
    assert str(err.value).startswith("mine.json: ") and field in str(err.value)


def test_bad_json_gives_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "deck.json"
    path.write_text('{\n  "format": "templeforge.deck/1",\n  "game": ,\n}')
    with pytest.raises(DeckError, match=r"deck.json: line 3, column 11: not valid JSON"):
        read_deck(path)


def test_a_block_listed_nowhere_is_an_error_when_the_deck_lists_blocks() -> None:
    data = json.loads(json.dumps(HAND))
    data["blocks"] = {"I3": "###"}
    with pytest.raises(DeckError, match=r"cards\[1\].faces\[1\].blocks\[2\]: 'L3' is not one of the deck's blocks"):
        deck_from_json(data)


# -- defects found by trying the project as a new user --------------------------


def _hand(**card) -> dict:
    data = json.loads(json.dumps(HAND))
    data["cards"][0].update(card)
    return data


def test_card_ids_may_be_labels_and_must_be_unique() -> None:
    data = _hand(id="A1")
    data["cards"].append(dict(data["cards"][0], id="B7", lock=["###", "###"]))
    deck = deck_from_json(data)
    assert [c.id for c in deck.cards] == ["A1", "B7"] and deck.card("B7").lock.size == 6
    data["cards"][1]["id"] = "A1"
    with pytest.raises(DeckError, match=r"cards\[2\].id: 'A1' is also the id of cards\[1\]"):
        deck_from_json(data)
    with pytest.raises(DeckError, match=r"cards\[1\].id"):
        deck_from_json(_hand(id=1.0))  # a number with a fraction is not an id
    with pytest.raises(DeckError, match=r"cards\[1\].id"):
        deck_from_json(_hand(id=True))


def test_a_bad_lock_character_is_named_by_card_row_and_column() -> None:
    # one rule, the picture reader's: indentation and trailing spaces are layout, a space
    # inside a row is an error (the schema leaves characters to the reader)
    assert deck_from_json(_hand(lock=["  ###.", "  #####", "  ####.", "  .###. "])).cards[0].lock.size == 15
    with pytest.raises(DeckError, match=r"cards\[1\].lock: row 2, column 2: unexpected ' '"):
        deck_from_json(_hand(lock=["###", "# #", "###"]))
    with pytest.raises(DeckError, match=r"cards\[1\].lock: row 1, column 2: unexpected 'x'"):
        deck_from_json(_hand(lock="#x#"))


def test_unknown_block_names_are_said_once_with_one_hint() -> None:
    faces = [{"die": d, "blocks": ["Q9", "R2", "I3"]} for d in range(1, 7)]
    data = _hand(faces=faces)
    data["cards"] = [dict(data["cards"][0], id=i, faces=faces) for i in range(1, 200)]
    with pytest.raises(DeckError) as err:
        deck_from_json(data)
    text = str(err.value)
    assert text.count("'Q9'") == 1 and text.count("'R2'") == 1 and text.count("templeforge shapes") == 1
    assert len(text) < 600


def test_a_face_refuses_a_solution_placing_blocks_it_does_not_list(small_deck) -> None:
    from generators.puzzle_temple.deck import Face

    face = small_deck.cards[0].faces[0]
    with pytest.raises(ValueError, match="places"):
        Face(face.die, face.blocks[:-1], face.solution)
    data = json.loads(small_deck.dumps())
    data["cards"][0]["faces"][0]["blocks"].pop()
    with pytest.raises(DeckError, match=r"cards\[1\].faces\[1\].solution: places"):
        deck_from_json(data)


def test_one_letter_per_block_for_the_whole_deck(small_deck) -> None:
    from generators.puzzle_temple.figures import cards

    key = small_deck.letters()
    assert len(set(key.values())) == len(key) == len(small_deck.blocks)
    legends = {line for f in cards(small_deck, small_deck.cards) for line in f.picture.splitlines()
               if " = " in line}
    pairs = {pair for line in legends for pair in line.split(", ")}
    letters = {}
    for pair in pairs:
        letter, name = pair.split(" = ")
        assert letters.setdefault(name, letter) == letter  # the same letter on every face
        assert key[name] == letter


def test_game_names_of_tiles_are_read_as_aliases() -> None:
    deck = deck_from_json(_hand(faces=[{"die": 1, "blocks": ["I3", "V3", "T4", "P5"]}]))
    assert {b.name for b in deck.blocks} == {"I3", "V3", "T4", "P5"}
    assert deck.block("V3").shape == deck_from_json(_hand()).block("L3").shape


@pytest.mark.parametrize("text, message", [
    ('{"format": "templeforge.deck/1", "game": "puzzle-temple", "cards": [{"id": 1, "lock": "##", '
     '"faces": [{"die": 1, "blocks": ["I2"], "difficulty": NaN}]}]}', "NaN is not a number JSON allows"),
    ('{"format": "templeforge.deck/1", "game": "puzzle-temple", "blocks": {"\\ud800": "##"}, "cards": []}',
     "lone surrogate"),
    ('{"format": "templeforge.deck/1", "game": "puzzle-temple", "parameters": {"tier_bounds": "abc"}, '
     '"cards": [{"id": 1, "lock": "##", "faces": [{"die": 1, "blocks": ["I2"]}]}]}', "parameters.tier_bounds"),
])
def test_fuzzed_decks_get_one_clear_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "deck.json"
    path.write_text(text)
    with pytest.raises(DeckError, match=message):
        read_deck(path)
