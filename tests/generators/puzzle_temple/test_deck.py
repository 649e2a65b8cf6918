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
    (lambda d: d["cards"][0]["faces"][0].update(die=7), "cards[0].faces[0].die"),
    (lambda d: d.update(format="templeforge.deck/2"), "format"),
    (lambda d: d["cards"][0].update(colour="red"), "cards[0]: unknown key(s)"),
    (lambda d: d["cards"][0].update(lock="#x#"), "cards[0].lock"),
    (lambda d: d["cards"][0]["faces"][0].update(blocks=["I3", "I3"]), "cards[0].faces[0].blocks"),
    (lambda d: d["cards"][0]["faces"][0]["blocks"].append("Q9"), "cards[0].faces[0].blocks[4]: unknown block 'Q9'"),
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
    with pytest.raises(DeckError, match=r"cards\[0\].faces\[0\].blocks\[1\]: 'L3' is not one of the deck's blocks"):
        deck_from_json(data)
