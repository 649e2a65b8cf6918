"""Monolyth through the game contract (``generators.contract.Rules``): the options, the deck
file, generate, verify and the figures, gathered from this package's modules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from generators.contract import Progress
from generators.monolyth.deck import Card, Deck, deck_from_json, schema, write_deck
from generators.monolyth.figures import build_report, cards, report, summary
from generators.monolyth.spec import DECK_NAME, HELP, OPTIONS, Spec

EXAMPLE = "--cards 10 --height 4 --seed 1"
#: The last words of a passing ``templeforge verify``.
OK_TEXT = "every structure built again in its stored order and measured again; every rule holds"
SCALE = "difficulty tiers"
#: The verifier's version in every seal: raise it when ``verify`` checks something new.
VERIFIER = "1"
VERIFY_HELP = (
    "Every card's stored build is replayed cube by cube (pieces of the pool within its counts, inside the board "
    "and below the height limit, every cube supported when placed, the target reached) and its difficulty "
    "measured again; no two cards may ask for the same structure. A hand-written structure list (targets only) "
    "gets a build for each card, or is told which cannot be built.")


def spec(values: Mapping[str, Any], given: frozenset[str]) -> Spec:
    """The checked request of parsed option values."""
    return Spec.from_values(values, given).checked()


def generate(spec: Spec, progress: Progress | None = None) -> Deck:
    from generators.monolyth.generate import generate

    return generate(spec, progress)


def verify(deck: Deck, *, time_limit: float | None = None, tiers_from: Deck | None = None,
           tiers_name: str = "", strict: bool = False, workers: int = 1) -> DeckCheck:
    from generators.monolyth.verify import verify_deck

    return verify_deck(deck, time_limit=time_limit, tiers_from=tiers_from, tiers_name=tiers_name, strict=strict,
                       workers=workers)


def completed(deck: Deck, check: DeckCheck) -> Deck:
    """The deck with each card's build, singles and difficulty written in where the file had
    none."""
    from dataclasses import replace

    found = {str(k.card): k for k in check.cards}

    def proved(card: Card) -> Card:
        k = found.get(str(card.id))
        if k is None or not k.buildable:
            return card
        measured = card.difficulty is None
        return replace(card, witness=card.witness if card.witness is not None else k.witness,
                       singles=card.singles if card.singles is not None else k.singles,
                       difficulty=k.difficulty if measured else card.difficulty,
                       method=k.method if measured else card.method,
                       error=k.error if measured else card.error,
                       bound=k.bound if measured else card.bound)

    return replace(deck, cards=tuple(proved(c) for c in deck.cards))


__all__ = ["DECK_NAME", "EXAMPLE", "HELP", "OK_TEXT", "OPTIONS", "SCALE", "VERIFIER", "VERIFY_HELP", "build_report",
           "cards", "completed", "deck_from_json", "generate", "report", "schema", "spec", "summary", "verify",
           "write_deck"]

if TYPE_CHECKING:  # the type checker holds this module to the contract
    import generators.monolyth.rules as _self
    from generators.contract import Rules
    from generators.monolyth.verify import DeckCheck

    _conforms: Rules = _self
