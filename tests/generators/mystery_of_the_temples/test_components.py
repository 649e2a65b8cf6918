"""The wilderness, rune and objective cards and grid 4A's bonuses: ours by default, a
designer's own from the box TOML or the deck file, checked, and played by the engine."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from generators.common.deckfile import DeckError
from generators.common.errors import RequestError
from generators.mystery_of_the_temples import components as parts
from generators.mystery_of_the_temples import engine
from generators.mystery_of_the_temples.box import DEFAULT, OURS_TEMPLES, box_from
from generators.mystery_of_the_temples.deck import Card, Deck, deck_from_json
from generators.mystery_of_the_temples.verify import component_problems

DECK = Deck(tuple(Card(i + 1, t) for i, t in enumerate(OURS_TEMPLES)))


def test_ours_are_playable_and_shaped_as_the_rules_say() -> None:
    ours = parts.OURS
    assert parts.problems_of(ours, len(DEFAULT.colours)) == []
    assert [w.number for w in ours.wilderness] == list(range(1, 11))
    assert [w.kind for w in ours.wilderness] == ["direct", "enhancement", "direct", "enhancement", "direct",
                                                  "conversion", "direct", "enhancement", "direct", "conversion"]
    assert len(ours.runes) == 20 and all(sum(1 for r in ours.runes if r.symbol == s) == 4 for s in range(5))
    on_circle = [w.symbol for w in ours.wilderness] + list(ours.temple_symbols)
    assert all(on_circle.count(s) == 3 for s in range(5))  # each symbol on three of the fifteen cards
    assert sorted(ours.objectives) == [1, 2, 3, 4, 5] and len(ours.bonuses) == parts.MARKERS


def test_the_deck_file_carries_them_and_reads_them_back() -> None:
    data = json.loads(DECK.dumps())
    assert [w["kind"] for w in data["wilderness"]][:2] == ["direct", "enhancement"]
    assert data["runes"][0] == {"symbol": "sun", "crystals": ["colourless"], "points": 0}
    assert data["objectives"] == ["red", "yellow", "blue", "green", "purple"]
    assert deck_from_json(data).box.components == parts.OURS
    data["runes"] = [{"symbol": "sun", "points": 2}] * 20  # every rune a sun worth 2 points
    data["objectives"] = ["red", "blue", "green"]
    mine = deck_from_json(data)
    assert {r.points for r in mine.box.components.runes} == {2} and mine.box.components.objectives == (1, 3, 4)
    assert deck_from_json(json.loads(mine.dumps())).box.components == mine.box.components


@pytest.mark.parametrize("field, value, said, misread", [
    ("wilderness", [{"number": 1, "kind": "teleport", "symbol": "sun"}], "wilderness[1].kind: expected one of", True),
    ("runes", [{"symbol": "comet"}], "runes[1].symbol: 'comet' is not a symbol", True),
    ("runes", [{"symbol": "sun", "crystals": ["gold"]}], "runes[1].crystals[1]: 'gold' is not a colour", True),
    ("temple_symbols", {"red": "comet"}, "temple_symbols.red: 'comet' is not a symbol", True),
    ("objectives", ["red", "red", "blue"], "objectives: each names a different temple", False),
    ("bonuses", [{"points": 1}], "bonuses: one for each of the 5 markers", False),
])
def test_a_designers_own_are_checked_field_by_field(field: str, value: object, said: str, misread: bool) -> None:
    """A designer's box is refused for either; a deck file is refused for what cannot be read,
    and what cannot be played is verify's to say."""
    with pytest.raises(RequestError, match=said.replace("[", r"\[").replace("]", r"\]").replace(".", r"\.")):
        box_from({field: value}, "box.toml")
    data = json.loads(DECK.dumps())
    data[field] = value
    if misread:
        with pytest.raises(DeckError, match=field):
            deck_from_json(data)
    else:
        assert any(said in p for p in component_problems(deck_from_json(data), []))


def test_verify_holds_the_cards_to_the_supply_and_notes_ours_on_other_colours() -> None:
    greedy = replace(parts.OURS, wilderness=(replace(parts.OURS.wilderness[0], crystals=(4,) * 7),) +
                     parts.OURS.wilderness[1:])
    deck = replace(DECK, box=replace(DEFAULT, components=greedy))
    notes: list[str] = []
    assert component_problems(deck, notes) == ["wilderness 1: gives 7 green, the supply holds 6"] and notes == []
    two = box_from({"colours": [{"name": "clear", "rgb": "#FFFFFF", "supply": 20},
                                {"name": "red", "rgb": "#D55E00", "supply": 20}]}, "box.toml")
    assert component_problems(replace(DECK, box=two), notes) == [] and "do not fit" in notes[0]


def test_the_engine_plays_a_designers_runes() -> None:
    rich = replace(parts.OURS, runes=tuple(replace(r, crystals=(), points=3) for r in parts.OURS.runes))
    deck = replace(DECK, box=replace(DEFAULT, components=rich))
    s = engine.start(deck, 3, 2)
    red = s.table.circle.index((0, 1))
    mine = next(r.id for r in rich.runes if r.symbol == rich.temple_symbols[0])
    s = replace(s, runes=((mine,),) + s.runes[1:], piles=tuple(tuple(x for x in p if x != mine) for p in s.piles),
                at=(red, -1, -1), phase="act", kept=(0, 0, 0))
    after = engine.apply(s, ("collect",))
    assert after.points[0] == s.points[0] + 3
    bad = replace(DECK, box=replace(DEFAULT, components=replace(rich, runes=rich.runes[:5])))
    with pytest.raises(RequestError, match="cannot be played: runes: 5 cards, the set-up deals 20"):
        engine.start(bad, 3, 1)
