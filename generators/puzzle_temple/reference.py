"""A reference deck for "more cards like mine": what is taken from a designer's deck.

``Reference`` holds its block set, blocks per face, flips rule and lock box (the defaults of
the request, unless an option overrides them), the difficulty of each of its faces rated by
our rating, its share of unique faces, and its locks (which no generated card may repeat, up
to rotation and reflection). ``profile`` gives its measures to the shared matching
(``generators.common.like``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generators.common import like
from generators.common.like import Profile, Quantiles
from solver.pieces import Piece
from solver.shapes import Shape

#: The class a lock falls in, compared side by side with the reference's.
LOCK_CELLS = "lock cells"


@dataclass(frozen=True, slots=True)
class Reference:
    """See the module docstring."""

    source: str
    block_set: str
    blocks: tuple[Piece, ...]
    blocks_per_face: tuple[int, int]
    flips: bool
    lock_size: tuple[int, int]
    difficulties: tuple[float, ...]
    unique: tuple[bool, ...]
    locks: frozenset[Shape]
    lock_sizes: tuple[int, ...]
    skipped: int

    @property
    def unique_share(self) -> float:
        return sum(self.unique) / len(self.unique)

    @property
    def profile(self) -> Profile:
        """Its measures for the shared matching: face difficulties, lock cells per card,
        unique faces."""
        return Profile(self.difficulties, {LOCK_CELLS: tuple(str(n) for n in self.lock_sizes)}, self.unique)

    @property
    def quantiles(self) -> Quantiles:
        return Quantiles(self.difficulties)

    def unique_target(self, faces: int) -> int:
        return round(self.unique_share * faces)


def read_reference(value: Any, label: str) -> Reference:
    """The reference deck named by ``--like`` (any Puzzle Temple deck, hand-written or
    generated), its faces rated now.

    Raises:
        RequestError: the file cannot be read, is not a Puzzle Temple deck, or has no face
            that can be solved and rated.
    """
    from generators.puzzle_temple.deck import read_deck
    from generators.puzzle_temple.verify import MAX_RATING_STATES  # rate as the verifier does
    from solver.rating import RatingLimit, rate

    if isinstance(value, Reference):
        return value
    deck = like.read_reference(value, label, read_deck)
    difficulties, unique, skipped = [], [], 0
    for card in deck.cards:
        for face in card.faces:
            try:
                rating = rate(deck.puzzle(card, face), max_states=MAX_RATING_STATES)
            except RatingLimit:
                skipped += 1
                continue
            if not rating.tilings:
                skipped += 1
                continue
            difficulties.append(rating.bits)
            unique.append(rating.tilings == 1)
    if not difficulties:
        raise like.refuse(label, value, "it has no face that can be solved and rated")
    per_face = [len(f.blocks) for c in deck.cards for f in c.faces]
    turned = [sorted(c.lock.extent()) for c in deck.cards]  # (short side, long side)
    name = deck.parameters.get("blocks")
    return Reference(
        source=str(value),
        block_set=name if isinstance(name, str) else Path(value).name,
        blocks=deck.blocks,
        blocks_per_face=(min(per_face), max(per_face)),
        flips=deck.flips,
        lock_size=(max(t[1] for t in turned), max(t[0] for t in turned)),
        difficulties=tuple(difficulties),
        unique=tuple(unique),
        locks=frozenset(c.lock.canonical(flips=True) for c in deck.cards),
        lock_sizes=tuple(c.lock.size for c in deck.cards),
        skipped=skipped)
