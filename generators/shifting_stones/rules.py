"""Shifting Stones through the game contract (``generators.contract.Rules``): the options,
the deck file, generate, verify and the figures, gathered from this package's modules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from generators.contract import Progress
from generators.shifting_stones.deck import Card, Deck, deck_from_json, schema, write_deck
from generators.shifting_stones.figures import build_report, cards, report, summary
from generators.shifting_stones.spec import DECK_NAME, HELP, OPTIONS, Spec

EXAMPLE = "--cards 72 --seed 1"
#: The last words of a passing ``templeforge verify``.
OK_TEXT = "every pattern feasible, distinct and measured again; every rule holds"
SCALE = "points scale"
#: The verifier's version in every seal: raise it when ``verify`` checks something new.
VERIFIER = "1"
VERIFY_HELP = (
    "Every window is matched against every grid and its difficulty measured again by a "
    "search the generator does not use; windows must be feasible and distinct (no two "
    "showing on exactly the same grids), points must never fall as difficulty rises, and the "
    "recorded mix and parameters must hold. A hand-written pattern list (windows only) gets "
    "each pattern's difficulty and the points it would earn.")


def spec(values: Mapping[str, Any], given: frozenset[str]) -> Spec:
    """The checked request of parsed option values."""
    return Spec.from_values(values, given).checked()


# generate and verify load the solvers when first called, so that help and the registry stay quick.


def generate(spec: Spec, progress: Progress | None = None) -> Deck:
    from generators.shifting_stones.generate import generate

    return generate(spec, progress)


def verify(deck: Deck, *, time_limit: float | None = None, tiers_from: Deck | None = None,
           tiers_name: str = "", strict: bool = False, workers: int = 1) -> DeckCheck:
    from generators.shifting_stones.verify import verify_deck

    return verify_deck(deck, time_limit=time_limit, tiers_from=tiers_from, tiers_name=tiers_name, strict=strict,
                       workers=workers)


def completed(deck: Deck, check: DeckCheck) -> Deck:
    """The deck with each card's measures written in where the file had none: its
    difficulty, share of grids showing it, most actions and (when no card has points) the
    points it earns on the check's scale."""
    from dataclasses import replace

    points = all(c.points is None for c in deck.cards)
    found = {str(k.card): k for k in check.cards}

    def measured(card: Card) -> Card:
        k = found.get(str(card.id))
        if k is None or not k.feasible:
            return card
        return replace(card, points=k.rated if points else card.points,
                       difficulty=card.difficulty if card.difficulty is not None else k.difficulty,
                       shown=card.shown if card.shown is not None else k.shown,
                       max=card.max if card.max is not None else k.max)

    return replace(deck, cards=tuple(measured(c) for c in deck.cards))


__all__ = ["DECK_NAME", "EXAMPLE", "HELP", "OK_TEXT", "OPTIONS", "SCALE", "VERIFIER", "VERIFY_HELP", "build_report",
           "cards", "completed", "deck_from_json", "generate", "report", "schema", "spec", "summary", "verify",
           "write_deck"]

if TYPE_CHECKING:  # the type checker holds this module to the contract
    import generators.shifting_stones.rules as _self
    from generators.contract import Rules
    from generators.shifting_stones.verify import DeckCheck

    _conforms: Rules = _self
