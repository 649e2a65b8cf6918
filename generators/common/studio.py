"""What the games' studio modules share (``generators.contract.Studio``): a new card's id, and
a deck with a card put in place or added."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from generators.common.errors import RequestError

D = TypeVar("D")


def new_id(cards: Any) -> int:
    """A new card's id: one past the largest number among the cards' ids (1 for none)."""
    numbers = [c.id for c in cards if isinstance(c.id, int) and not isinstance(c.id, bool)]
    return max(numbers, default=0) + 1


def placed(deck: D, card: Any, card_id: Any = None, keep: Callable[[Any, Any], Any] | None = None) -> D:
    """``deck`` (a dataclass with ``cards`` and ``parameters``) with ``card`` in place of card
    ``card_id`` (its id kept; ``keep(old, new)``, if given, makes the card that goes in), or
    added at the end when ``card_id`` is None, the count the deck records (``parameters.cards``)
    following the cards.

    Raises:
        RequestError: no card ``card_id``.
    """
    cards = deck.cards  # type: ignore[attr-defined]
    if card_id is None:
        parameters = dict(deck.parameters)  # type: ignore[attr-defined]
        if isinstance(parameters.get("cards"), int):
            parameters["cards"] = len(cards) + 1
        return replace(deck, cards=tuple(cards) + (card,), parameters=parameters)  # type: ignore[type-var]
    found = [c for c in cards if str(c.id) == str(card_id)]
    if not found:
        raise RequestError(f"card {card_id}: the deck has no such card")
    old = found[0]
    new = replace(card, id=old.id)
    if keep is not None:
        new = keep(old, new)
    return replace(deck, cards=tuple(new if c is old else c for c in cards))  # type: ignore[type-var]
