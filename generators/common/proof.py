"""Nothing unproven printed: the gate between a deck file and paper or plastic.

Every command that prints a deck (``pdf``, ``cad``, ``build``) passes it through ``prove``:

* a deck whose seal holds for this verifier (``generators.common.seal``) was proved as it
  is, and is printed without proving it twice;
* any other deck (hand-written, edited, sealed by another verifier) is verified first. A
  deck the verifier rejects is refused with its first failing line (``Unproved``, status 1);
  a passing deck is printed with every proof the verifier found written in (a hand-written
  deck's solutions, counts, difficulties, points: ``Rules.completed``);
* ``unverified`` (the commands' ``--unverified``, for a designer's sketch) skips the
  verifier, and the deck is printed marked UNVERIFIED on every card, plate and page.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from generators.common import seal
from generators.common.errors import Unproved
from generators.contract import Check, Game, Rules

#: What every card, plate and report page of a deck printed without proof says.
STAMP = "UNVERIFIED"

#: What paper and plastic made now must say (``stamped``): read by ``print.common.pdf``
#: (every page and card front) and ``cad.common.kit`` (every plate and object), so that no
#: game's own printer needs to know.
_STAMP: ContextVar[str | None] = ContextVar("stamp", default=None)


@contextmanager
def stamped(text: str | None) -> Iterator[None]:
    """Within this, everything printed or modelled says ``text`` (None: nothing)."""
    token = _STAMP.set(text)
    try:
        yield
    finally:
        _STAMP.reset(token)


def stamp() -> str | None:
    """What everything printed or modelled now must say, if anything (see ``stamped``)."""
    return _STAMP.get()


@dataclass(frozen=True)
class Proved:
    """A deck on its way to print.

    Attributes:
        deck: the deck to print (with the proofs the verifier found, when it ran).
        proved: False when it is printed without proof (``--unverified``): mark it.
        said: one line for the designer on what was trusted or checked.
        check: the verifier's check, when it ran now.
    """

    deck: Any
    proved: bool
    said: str
    check: Check | None = None

    @property
    def stamp(self) -> str | None:
        """What every printed card, plate and page must say, if anything."""
        return None if self.proved else STAMP


def verifier(rules: Rules, game: Game) -> str:
    """The seal's ``by`` for a game's verifier as it is now."""
    return seal.verifier(game.name, rules.VERIFIER)


def sealed_text(game: Game, text: str) -> str:
    """A deck file's text sealed by ``game``'s verifier (call only after it passed)."""
    return seal.sealed(text, verifier(game.load_rules(), game))


def prove(game: Game, deck: Any, data: Any, source: str, *, unverified: bool = False) -> Proved:
    """The deck to print from a deck file (``data``: the file parsed, for its seal).

    Raises:
        Unproved: the verifier rejects the deck (status 1) or a limit left a card
            unsettled (status 3); the message is the first failing line.
    """
    rules = game.load_rules()
    state = seal.state(data, verifier(rules, game))
    if state is seal.State.HOLDS:
        return Proved(deck, True, f"{source}: sealed by its verifier: proved, not verified again")
    if unverified:
        return Proved(deck, False, f"{source}: {state.value}, not verified (--unverified): every card, plate and "
                                   f"page says {STAMP}")
    started = time.perf_counter()
    from generators.common.pool import default_workers

    check = rules.verify(deck, workers=default_workers())
    if check.problems:
        more = len(check.problems) - 1
        rest = f" (and {more} more: templeforge verify {source})" if more else ""
        raise Unproved(f"{source}: {state.value}; verified before printing: FAIL {check.problems[0]}{rest}; "
                       f"nothing printed (--unverified prints it marked {STAMP})", 1)
    if check.unknown:
        where = ", ".join(u.where for u in check.unknown[:3])
        raise Unproved(f"{source}: {state.value}; verified before printing: not settled: {where}; nothing "
                       f"printed", 3)
    done = rules.completed(deck, check)
    added = " (the proofs it lacked written in)" if done != deck else ""
    return Proved(done, True, f"{source}: {state.value}; verified now: {check.counted} proved{added} "
                              f"({time.perf_counter() - started:.1f} s)", check)
