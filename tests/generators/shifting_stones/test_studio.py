"""Shifting Stones in the studio: the live answer (the generator's one-window search) gives
the figures the independent verifier gives the saved card, and names a card that asks for
the same thing by the grids it shows on."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from generators.shifting_stones import studio, verify
from generators.shifting_stones.deck import read_deck

SAMPLE = Path(__file__).parents[2] / "data" / "shifting-stones-72-seed-1.json"


def test_the_live_measure_is_the_verifiers_on_windows_up_to_nine_stones() -> None:
    deck = read_deck(SAMPLE)
    codes = [*studio.codes(deck), studio.ANY_CODE]
    rng = random.Random(5)
    grids = [["".join(rng.choice(codes) for _ in range(rng.randint(1, 3))) for _ in range(rng.randint(1, 3))]
             for _ in range(14)]
    grids += [["756", "50*", "*57"], ["*34", "47*", "607"], ["01"]]  # nine places, eight stones; an impossible pair
    cards = [studio.card_of(deck, {"grid": g}, "draft") for g in grids]
    live = [studio._measured(deck, c)[0] for c in cards]
    g = verify.grids(deck.tiles)
    shown = [g.showing(c.pattern.rows) for c in cards]
    feasible = [k for k, s in enumerate(shown) if s.any()]
    counts = g.levels([shown[k] for k in feasible])
    bounds, top = verify.scale_of(deck)  # type: ignore[misc]
    assert [m.feasible for m in live] == [s.any() for s in shown]
    assert len(feasible) < len(cards)  # the Sun and Moon of one stone: no grid shows both
    for i, k in enumerate(feasible):
        check = verify.check_card(g, deck, cards[k], bounds, top, shown[k], np.trim_zeros(counts[:, i], "b"))
        m = live[k]
        assert (m.difficulty, m.shown, m.max) == (check.difficulty, check.shown, check.max), grids[k]
        assert m.rated == check.rated, grids[k]
    assert {m.max for m in live if m.feasible} & {13, 15}  # hard windows among them


def test_a_mirror_window_is_not_the_same_card_but_a_repainted_one_is() -> None:
    deck = read_deck(SAMPLE)
    first = deck.cards[0]
    same = studio.prove(deck, studio.draft(deck, first.id))  # as a new card: card 1 asks for it already
    assert same["verdict"] == "not proved" and f"card {first.id} asks for the same thing" in same["items"][1]["text"]
    assert studio.prove(deck, studio.draft(deck, first.id), first.id)["verdict"] == "proved"  # itself, edited
    # a card's mirror image has its figures (the grid is symmetric) but shows on other grids:
    # not the same card, told apart by the grids, not the figures
    for card in deck.cards:
        mirrored = {"grid": [row[::-1] for row in studio.draft(deck, card.id)["grid"]]}
        pattern = studio.card_of(deck, mirrored, "draft").pattern
        if pattern != card.pattern and all(c.pattern != pattern for c in deck.cards):
            break
    else:
        raise AssertionError("every card's mirror is in the deck")
    answer = studio.prove(deck, mirrored)
    assert answer["verdict"] == "proved", answer
    assert f"{card.difficulty:.3f} actions" in answer["items"][0]["text"]  # the same figures as the card's


def test_a_rare_windows_share_is_written_with_its_first_figure_not_as_zero() -> None:
    deck = read_deck(SAMPLE)
    answer = studio.prove(deck, {"grid": ["756", "50*", "*57"]})
    assert "0.0002% of grids show it already" in answer["items"][0]["text"], answer  # 4 of 2,580,480
    assert "50.00% of grids" in studio.prove(deck, {"grid": ["0"]})["items"][0]["text"]
