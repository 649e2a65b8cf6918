"""Mystery of the Temples through the game contract (``generators.contract.Rules``): the
options, the deck file, generate, verify and the figures, gathered from this package's
modules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from generators.contract import Progress
from generators.mystery_of_the_temples.deck import Card, Deck, deck_from_json, schema, write_deck
from generators.mystery_of_the_temples.figures import build_report, cards, report, summary
from generators.mystery_of_the_temples.spec import DECK_NAME, HELP, OPTIONS, Spec

EXAMPLE = "--track 9 --layers 5 --seed 1"
#: The last words of a passing ``templeforge verify``.
OK_TEXT = "every layer paid again along its paths on every grid side and measured again; every rule holds"
SCALE = "points"
#: The verifier's version in every seal: raise it when ``verify`` checks something new.
VERIFIER = "3"  # 2: free layers and the rows' colours checked; 3: the tracks' shape
VERIFY_HELP = (
    "Every layer's stored paths are followed along each grid side's lines (simple paths as long as their runs; a run "
    "stored as unpayable has no such path), its difficulty on every grid side is measured again on the same seeded "
    "grids, points must rise with difficulty, no layer may be free (a run of colourless crystals only), the grid "
    "sides must be balanced and a generated deck's tracks are shaped like the game's (each side mostly its own colour, "
    "colourless positions rare). A hand-written deck (temples and "
    "grids without measures) gets payability, difficulty per grid, suggested points and the grids' balance.")


def spec(values: Mapping[str, Any], given: frozenset[str]) -> Spec:
    """The checked request of parsed option values."""
    return Spec.from_values(values, given).checked()


def generate(spec: Spec, progress: Progress | None = None) -> Deck:
    from generators.mystery_of_the_temples.generate import generate

    return generate(spec, progress)


def verify(deck: Deck, *, time_limit: float | None = None, tiers_from: Deck | None = None,
           tiers_name: str = "", strict: bool = False, workers: int = 1) -> DeckCheck:
    from generators.mystery_of_the_temples.verify import verify_deck

    return verify_deck(deck, time_limit=time_limit, tiers_from=tiers_from, tiers_name=tiers_name, strict=strict,
                       workers=workers)


def completed(deck: Deck, check: DeckCheck) -> Deck:
    """The deck with each layer's measures (and, where the file gave none, its suggested
    points) written in, and the grid sides' means."""
    from dataclasses import replace

    found = {str(k.card): k for k in check.cards}
    suggested = {str(c.id): s for c, s in zip(deck.cards, check.suggested)}

    def proved(card: Card) -> Card:
        k = found.get(str(card.id))
        if k is None or k.problems or len(k.priced) != len(card.temple.layers):
            return card
        layers = tuple(layer if layer.points is not None else replace(layer, points=suggested[str(card.id)][n])
                       for n, layer in enumerate(card.temple.layers))
        return replace(card, temple=replace(card.temple, layers=layers),
                       priced=card.priced if card.priced is not None else k.priced)

    means = deck.means if deck.means is not None else check.balance.means
    return replace(deck, cards=tuple(proved(c) for c in deck.cards), means=means)


__all__ = ["DECK_NAME", "EXAMPLE", "HELP", "OK_TEXT", "OPTIONS", "SCALE", "VERIFIER", "VERIFY_HELP", "build_report",
           "cards", "completed", "deck_from_json", "generate", "report", "schema", "spec", "summary", "verify",
           "write_deck"]

if TYPE_CHECKING:  # the type checker holds this module to the contract
    import generators.mystery_of_the_temples.rules as _self
    from generators.contract import Rules
    from generators.mystery_of_the_temples.verify import DeckCheck

    _conforms: Rules = _self
