"""The seal on a proved deck file: a SHA-256 over the deck's content and the verifier's version.

A deck that passed its game's verifier carries ``"seal": {"by": ..., "sha256": ...}`` right
after its envelope (``format``, ``game``, ``seed``, ``parameters``, ``versions``). ``by`` names
the verifier (``<game> verifier 1, templeforge 0.10.0``); ``sha256`` is the hash of
``by`` and of the deck's content: every other field, as canonical JSON (sorted keys, no
spaces), so that re-indenting the file keeps the seal and changing any value, key or card
breaks it. The printers (pdf, cad, build) trust a deck whose seal holds for the verifier they
run and verify any other deck before printing it.

A seal guards against edits, mistakes and stale proofs, not against forgery: anyone with
this code can seal a file. It is a cache of the verifier's verdict, never a signature.
"""

from __future__ import annotations

import hashlib
import json
from enum import Enum
from typing import Any

from generators.common import deckfile

KEY = "seal"

#: The envelope fields the seal follows in a written file.
ENVELOPE = ("format", "game", "seed", "parameters", "versions")


class State(Enum):
    """What a deck file's seal says."""

    HOLDS = "sealed"            #: the content is what the current verifier proved
    NONE = "not sealed"         #: no seal (hand-written, or from before seals)
    BROKEN = "changed since it was sealed"   #: a field was changed after sealing
    STALE = "sealed by another verifier"     #: sealed, but by a verifier other than this one
    MALFORMED = "its seal is malformed"      #: a seal that is not {by, sha256}


def verifier(game: str, version: str) -> str:
    """The ``by`` of a seal: the game's verifier version and Templeforge's."""
    return f"{game} verifier {version}, templeforge {deckfile.versions()['templeforge']}"


def digest(data: dict[str, Any], by: str) -> str:
    """The hash a seal holds for a deck's parsed content (its ``seal`` field left out)."""
    content = {k: v for k, v in data.items() if k != KEY}
    text = json.dumps([by, content], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def state(data: Any, by: str) -> State:
    """What the seal of a parsed deck file says to the verifier ``by``."""
    if not isinstance(data, dict) or KEY not in data:
        return State.NONE
    seal = data[KEY]
    if not isinstance(seal, dict) or set(seal) != {"by", "sha256"} or not all(isinstance(v, str)
                                                                             for v in seal.values()):
        return State.MALFORMED
    if seal["by"] != by:
        return State.STALE
    return State.HOLDS if seal["sha256"] == digest(data, by) else State.BROKEN


def sealed(text: str, by: str) -> str:
    """A deck file's text with the seal of ``by`` (any old seal replaced), in the house style."""
    data = deckfile.loads(text, "<deck>")
    data.pop(KEY, None)
    out = {k: data[k] for k in ENVELOPE if k in data}
    out[KEY] = {"by": by, "sha256": digest(data, by)}
    out.update((k, v) for k, v in data.items() if k not in out)
    return deckfile.dumps(out)


def unsealed(data: Any) -> Any:
    """The parsed deck without its seal (what a game's reader checks)."""
    return {k: v for k, v in data.items() if k != KEY} if isinstance(data, dict) else data
