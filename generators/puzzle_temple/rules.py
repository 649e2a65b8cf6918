"""Puzzle Temple through the game contract (``generators.contract.Rules``): the options,
the deck file, generate, verify and the figures, gathered from this package's modules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from generators.contract import Progress
from generators.puzzle_temple.deck import Deck, Face, deck_from_json, schema, write_deck
from generators.puzzle_temple.figures import build_report, cards, report, summary
from generators.puzzle_temple.spec import DECK_NAME, HELP, OPTIONS, Spec

EXAMPLE = "--cards 36 --blocks-per-face 3 --seed 1"
#: The last words of a passing ``templeforge verify``.
OK_TEXT = "every face proved and every rule holds"
#: The verifier's version in every seal: raise it when ``verify`` checks something new.
VERIFIER = "1"
SCALE = "difficulty tiers"
VERIFY_HELP = (
    "Each stored solution is checked cell by cell, each face's solutions are counted again by "
    "two searches the generator does not use and its difficulty re-rated; the lock must be "
    "connected (hole-free unless the deck allows holes), each card needs six different block "
    "sets (dice 1-6), no two locks may be alike, and every recorded parameter must hold. A "
    "hand-written deck (faces with only `die` and `blocks`) gets every face solved and drawn.")


def spec(values: Mapping[str, Any], given: frozenset[str]) -> Spec:
    """The checked request of parsed option values."""
    return Spec.from_values(values, given).checked()


# generate and verify load the solvers when first called, so that help and the registry stay quick.


def generate(spec: Spec, progress: Progress | None = None) -> Deck:
    from generators.puzzle_temple.generate import generate

    return generate(spec, progress)


def verify(deck: Deck, *, time_limit: float | None = None, tiers_from: Deck | None = None,
           tiers_name: str = "", strict: bool = False, workers: int = 1) -> DeckCheck:
    from generators.puzzle_temple.verify import verify_deck

    del strict  # a lock card's tier is measured, never priced by hand
    return verify_deck(deck, time_limit=time_limit, tiers_from=tiers_from, tiers_name=tiers_name, workers=workers)


def completed(deck: Deck, check: DeckCheck) -> Deck:
    """The deck with each face's proof the check found written in where the file had none:
    a solution, the number of solutions (when the count is exact) and the difficulty."""
    from dataclasses import replace

    found = {(f.card, f.die): f for f in check.faces}

    def proved(card_id: Any, face: Face) -> Face:
        f = found.get((card_id, face.die))
        if f is None or f.solution is None:
            return face
        return replace(face, solution=face.solution or f.solution,
                       solutions=face.solutions if face.solutions is not None or not f.exhaustive else f.count,
                       difficulty=face.difficulty if face.difficulty is not None else f.difficulty)

    cards = tuple(replace(c, faces=tuple(proved(c.id, face) for face in c.faces)) for c in deck.cards)
    return replace(deck, cards=cards)


__all__ = ["DECK_NAME", "EXAMPLE", "HELP", "OK_TEXT", "OPTIONS", "SCALE", "VERIFIER", "VERIFY_HELP", "build_report",
           "cards", "completed", "deck_from_json", "generate", "report", "schema", "spec", "summary", "verify",
           "write_deck"]

if TYPE_CHECKING:  # the type checker holds this module to the contract
    import generators.puzzle_temple.rules as _self
    from generators.contract import Rules
    from generators.puzzle_temple.verify import DeckCheck

    _conforms: Rules = _self
