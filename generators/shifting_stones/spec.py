"""A Shifting Stones deck request: its options, declared once, and the Spec they make.

The deck is a set of pattern cards. ``mix`` says how many cards are worth each number of
points (the published deck: 28 worth 1, 26 worth 2, 13 worth 3 and 5 worth 5); points go
to cards by measured difficulty, so no card is harder than a card worth more. Without
``--mix``, a deck of another size gets the published mix scaled to it; a ``--mix`` alone
sets the deck's size.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generators.common import grading, parse
from generators.common.errors import RequestError, check
from generators.common.options import SEED, WORKERS, Option, output, recorded, whole
from generators.shifting_stones.scale import PUBLISHED_MIX
from generators.shifting_stones.tiles import PLACES, PUBLISHED, TileSet, parse_tile_set

GAME = "shifting-stones"

HELP = ("Each card is a window of up to 3x3 cells, each a stone face or any stone, that the 3x3 grid "
        "must show (never turned). Every card is proved feasible with the tile set, no two cards show "
        "on the same set of grids, and each card's difficulty is measured exactly: the mean least number "
        "of swaps and flips from a random grid, over every grid. Points go by difficulty, in the mix asked.")

DECK_NAME = "deck.json"
DEFAULT_OUT = f"output/{GAME}/{DECK_NAME}"

#: The solo game's mix.
SOLO_MIX = ((1, 8), (2, 4), (3, 3), (5, 1))

#: Candidate patterns measured per card when ``--attempts`` is not given: with 5, the default
#: deck's faces are used within 1.2x of each other (with 3, 1.34x).
PER_CARD = 5

Mix = tuple[tuple[int, int], ...]


def mix_text(mix: Mix) -> str:
    return ",".join(f"{p}:{n}" for p, n in mix)


def parse_mix(value: Any, name: str) -> Mix:
    """``"1:28,2:26,3:13,5:5"`` (or a TOML table ``{1 = 28, ...}``) as ((points, cards), ...)
    in rising points."""
    if isinstance(value, tuple):
        return value
    pairs: list[tuple[Any, Any]]
    if isinstance(value, Mapping):
        pairs = list(value.items())
    elif isinstance(value, str) and re.fullmatch(r"\s*\d{1,3}\s*:\s*\d{1,4}\s*(,\s*\d{1,3}\s*:\s*\d{1,4}\s*)*", value):
        pairs = [tuple(p.split(":")) for p in value.split(",")]  # type: ignore[misc]
    else:
        raise RequestError(f"{name}: expected POINTS:CARDS pairs like 1:28,2:26,3:13,5:5, got {value!r}")
    out: dict[int, int] = {}
    for points, cards in pairs:
        p = parse.parse_int(points, f"{name}: points", low=1, high=99)
        n = parse.parse_int(cards, f"{name}: cards worth {p}", low=1, high=10_000)
        if p in out:
            raise RequestError(f"{name}: {p} points appears twice")
        out[p] = n
    return tuple(sorted(out.items()))


def scaled(mix: Mix, cards: int) -> Mix:
    """``mix`` scaled to ``cards`` (largest remainders), keeping every value at one card at
    least while there are cards enough."""
    shares = grading.counts(cards, {i: n for i, (_, n) in enumerate(mix)})
    counts = [shares[i] for i in range(len(mix))]
    for i in range(len(counts)):  # a value with no card: take one from the largest
        if counts[i] == 0 and cards >= len(counts):
            j = max(range(len(counts)), key=lambda j: counts[j])
            counts[j] -= 1
            counts[i] += 1
    return tuple((p, n) for (p, _), n in zip(mix, counts) if n)


def _tiles(value: Any, label: str) -> TileSet:
    return parse_tile_set(value, label)


def _stones(value: Any, label: str) -> tuple[int, int] | None:
    """``published`` (None: the published deck's stones and windows) or ``N``/``MIN-MAX``."""
    if isinstance(value, str) and value.strip().lower() == PUBLISHED_SHAPE:
        return None
    return parse.parse_range(value, label, low=1, high=PLACES)


#: ``--stones``' default: patterns shaped like the published deck's.
PUBLISHED_SHAPE = "published"


OPTIONS: tuple[Option, ...] = (
    Option("tiles", _tiles, "published", "the stones: `published` (Sun/Moon x1, Fish/Bird x2, Horse/Boat x3, "
           "Seed/Tree x3) or a tile set TOML file (see README)", metavar="published|FILE.toml", path=True),
    whole("cards", 72, "pattern cards in the deck (the published game has 72)", low=1, high=500),
    Option("mix", parse_mix, None, "cards per points value, like `1:28,2:26,3:13,5:5`; alone it sets the "
           "deck size (`1:8,2:4,3:3,5:1` is the solo deck)", metavar="P:N,...",
           default_text="1:28,2:26,3:13,5:5 scaled to --cards"),
    Option("stones", _stones, PUBLISHED_SHAPE, "`published`: patterns shaped like the published deck's (1-4 "
           "stones, mostly 2, in its windows and shares: 1x2, 2x1, 1x3, 3x1, 2x2 and 3x3), points on the "
           "published scale; or `N` or `MIN-MAX` stones a pattern shows, in any window up to 3x3 (`3-6` for a "
           "harder deck)", metavar="published|N|MIN-MAX"),
    SEED,
    whole("attempts", None, "candidate patterns to measure before choosing the deck", low=1, high=100_000,
          default_text=f"{PER_CARD} per card"),
    WORKERS,
    output(DEFAULT_OUT, DECK_NAME),
)


@dataclass(frozen=True, slots=True)
class Spec:
    """A pattern deck request.

    Attributes:
        tiles: the stones.
        cards: cards in the deck.
        mix: cards per points value, in rising points (their sum is ``cards``).
        stones: the least and most stones a pattern shows; None: shaped like the published
            deck (``scale.PUBLISHED_STONES`` and ``PUBLISHED_WINDOWS``).
        seed: the random seed; the same spec and seed give the same deck.
        attempts: candidate patterns to measure (None: ``PER_CARD`` per card).
        workers: processes that measure candidates (the deck does not depend on it).
        mix_given: whether the mix was asked for (else the published mix scaled).
    """

    tiles: TileSet = PUBLISHED
    cards: int = 72
    mix: Mix = PUBLISHED_MIX
    stones: tuple[int, int] | None = None
    seed: int = 0
    attempts: int | None = None
    workers: int = 1

    @classmethod
    def from_values(cls, values: Mapping[str, Any], given: frozenset[str] = frozenset()) -> Spec:
        """The Spec of parsed option values (``generators.common.options.resolve``)."""
        from generators.common.pool import default_workers

        cards, mix = values["cards"], values["mix"]
        if mix is None:
            mix = scaled(PUBLISHED_MIX, cards)
        elif "cards" not in given:
            cards = sum(n for _, n in mix)
        workers = values["workers"] if values["workers"] is not None else default_workers()
        return cls(values["tiles"], cards, mix, values["stones"], values["seed"], values["attempts"], workers)

    @property
    def budget(self) -> int:
        return self.attempts if self.attempts is not None else PER_CARD * self.cards

    def problems(self) -> list[str]:
        out = []
        total = sum(n for _, n in self.mix)
        if total != self.cards:
            out.append(f"mix: {mix_text(self.mix)} adds up to {total} cards, not the deck's {self.cards} "
                       f"(--cards)")
        if self.stones is not None:
            lo, hi = self.stones
            if hi < lo or lo < 1:
                out.append(f"stones: expected 1 <= MIN <= MAX, got {lo}-{hi}")
        if self.budget < self.cards:
            out.append(f"attempts: {self.budget} candidates cannot make {self.cards} cards")
        if self.workers < 1:
            out.append(f"workers: expected at least 1, got {self.workers}")
        return out

    def checked(self) -> Spec:
        """The spec itself, or ``RequestError`` listing every problem."""
        check(self.problems())
        return self

    def parameters(self) -> dict[str, Any]:
        shown = {"tiles": self.tiles.title, "mix": mix_text(self.mix), "attempts": self.budget,
                 "stones": PUBLISHED_SHAPE if self.stones is None else list(self.stones)}
        return recorded(OPTIONS, {o.name: shown.get(o.name, getattr(self, o.name, None)) for o in OPTIONS})
