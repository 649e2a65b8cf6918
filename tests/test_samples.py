"""The sample decks in ``tests/data/`` stay true: each passes the current verifier (the same
check on two workers as on one), and
(``-m slow``) each is exactly what the generator makes today for its request, with one
worker where the file was made with two, so the samples also hold the generators to "the
deck does not depend on the workers"."""

from __future__ import annotations

import pytest

from generators import read_deck
from tests.data import DATA
from tests.data.make import SAMPLES, generate

#: Samples whose verifier takes seconds: checked under -m slow (they are verified in the
#: tests that read them, too).
LONG_SAMPLES = {"monolyth-3-seed-2.json", "shifting-stones-72-seed-1.json", "shifting-stones-12-seed-5.json"}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in LONG_SAMPLES else n
                                  for n in sorted(SAMPLES)])
def test_each_sample_passes_the_verifier(name: str) -> None:
    info, deck = read_deck(DATA / name)
    assert info.name == SAMPLES[name][0]
    check = info.load_rules().verify(deck)
    assert check.ok, check.problems[:3]
    request = SAMPLES[name][1]
    assert deck.seed == request["seed"] and len(deck.cards) == request.get("cards", len(deck.cards))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_each_sample_is_verified_alike_side_by_side(name: str) -> None:
    info, deck = read_deck(DATA / name)
    assert info.load_rules().verify(deck, workers=2) == info.load_rules().verify(deck)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_each_sample_is_what_the_generator_makes(name: str) -> None:
    game, request = SAMPLES[name]
    assert generate(game, {**request, "workers": 1}) == (DATA / name).read_text(), (
        f"the generator makes another {name} now: run `python -m tests.data.make` and say why in the commit")
