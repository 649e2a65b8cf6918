"""A Monolyth deck request: its options, declared once, and the Spec they make.

The deck is a set of structure cards: each a target shape on the 4x4 board (a height per
column, ``.`` for any), proved buildable from the pool by an ordered build and priced by the
expected number of turns it takes when each turn offers four random pieces from the ring.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generators.common import grading, parse
from generators.common.errors import check
from generators.common.grading import Tier
from generators.common.options import SEED, WORKERS, Option, choice, output, recorded, switch, whole
from generators.monolyth.pool import DEFAULT, SIDE, Pool, parse_pool
from solver.heightmap import CONTAIN, RULES, Board

GAME = "monolyth"

HELP = ("Each card is a structure on the 4x4 board (a height per column, '.' for any) that a build must "
        "match. Every card is proved buildable from the pool by an ordered build in which every cube is "
        "supported when placed (the deck stores it), no two cards are alike (up to turning, when turning is "
        "allowed), and each card's difficulty is the expected number of turns to build it when each turn "
        "offers four random pieces: exact by dynamic programming where the height maps are few enough, "
        "seeded simulation beyond.")

DECK_NAME = "deck.json"
DEFAULT_OUT = f"output/{GAME}/{DECK_NAME}"

#: Candidate structures tried per card when ``--attempts`` is not given, up to ``POOL``
#: candidates; a larger deck tries ``LARGE_PER_CARD`` a card, at least ``POOL`` (the pool
#: only needs to hold the cards' run round the median, and every candidate plays 2,000
#: games: 20 cards cost 1.3 times 10, not twice).
PER_CARD = 6
POOL = 60
LARGE_PER_CARD = 3


def _pool(value: Any, label: str) -> Pool:
    return parse_pool(value, label)


def _height(value: Any, label: str) -> int:
    height = parse.parse_int(value, label, low=3, high=4)
    return height


def _like(value: Any, label: str) -> Any:
    from generators.monolyth.reference import read_reference

    return read_reference(value, label)


#: ``--difficulty``'s default: cards about as hard as each other (one is played a game).
COMPARABLE = "comparable"


def _difficulty(value: Any, label: str) -> dict[Tier, int] | str | None:
    if value is None:
        return None
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, str) and value.strip().lower() == COMPARABLE:
        return COMPARABLE
    return grading.parse_target(value, label)


OPTIONS: tuple[Option, ...] = (
    Option("pool", _pool, "ours", "the pieces, singles, boards and tokens: `ours` (see docs/games/monolyth.md) or a "
           "pool TOML file",
           metavar="ours|FILE.toml", path=True),
    whole("cards", 10, "structure cards in the deck (the box has 10)", low=1, high=200),
    Option("height", _height, 3, "the monolith's height: 3 (3-4 players) or 4 (1-2 players)", metavar="3|4"),
    choice("rule", RULES, CONTAIN, "when a build matches a card: `contain` (it reaches at least the card's heights) "
           "or `equal` (it is exactly the card where the card says); printed on every card"),
    switch("turn", True, "whether a build may match a card turned or mirrored (printed on every card)"),
    Option("difficulty", _difficulty, COMPARABLE, "`comparable`: cards that come about as soon as each other in "
           "play (only one is played a game): the candidates round the median difficulty are played for their pace, "
           "the round of the first claim, and the run of them whose slowest and quickest are nearest is taken; or "
           "cards per tier, by difficulty: `any`, `thirds`, `ramp` (3:2:1), `easy`, `medium`, `hard`, or weights "
           "such as `easy:2,medium:2,hard:1`", metavar="TARGET"),
    whole("coloured", 0, "how many of the cards also ask for a colour: every cube of one side's wall in one colour "
          "of the pool (proved with the pieces' own colours and counts)", low=0, high=200),
    whole("prophecies", 20, "prophecy tokens in the box, their values shared out so that each value's tokens are "
          "worth the same expected points (0: none; a pool's own prophecy_tokens win)", low=0, high=200),
    SEED,
    whole("attempts", None, "candidate structures to try before choosing the deck", low=1, high=100_000,
          default_text=f"{PER_CARD} per card up to {POOL}, then {LARGE_PER_CARD} per card, at least {POOL} (twice "
                       f"that with --like)"),
    WORKERS,
    Option("like", lambda v, n: _like(v, n), None, "make cards like this deck's: its height, rule, turning and pool "
           "become the defaults, the cards follow its difficulty distribution and cubes per structure, and none of "
           "its structures repeats", metavar="DECK.json", default_text="none", path=True),
    output(DEFAULT_OUT, DECK_NAME),
)


@dataclass(frozen=True, slots=True)
class Spec:
    """A structure deck request (see ``OPTIONS``)."""

    pool: Pool = DEFAULT
    cards: int = 10
    height: int = 3
    rule: str = CONTAIN
    turn: bool = True
    difficulty: dict[Tier, int] | str | None = COMPARABLE
    coloured: int = 0
    prophecies: int = 20
    seed: int = 0
    attempts: int | None = None
    workers: int = 1
    like: Any = None  # a generators.monolyth.reference.Reference

    @classmethod
    def from_values(cls, values: Mapping[str, Any], given: frozenset[str] = frozenset()) -> Spec:
        from generators.common.pool import default_workers

        workers = values["workers"] if values["workers"] is not None else default_workers()
        rest = {name: values[name] for name in ("pool", "height", "rule", "turn", "difficulty")}
        like = values.get("like")
        if like is not None:  # the reference's height, rule, turning and pool, unless asked otherwise
            for name in ("pool", "height", "rule", "turn"):
                if name not in given:
                    rest[name] = getattr(like, name)
            if "difficulty" not in given:
                rest["difficulty"] = None
        return cls(rest["pool"], values["cards"], rest["height"], rest["rule"], rest["turn"], rest["difficulty"],
                   values["coloured"], values["prophecies"], values["seed"], values["attempts"], workers, like)

    @property
    def board(self) -> Board:
        return Board(SIDE, SIDE, self.height)

    @property
    def budget(self) -> int:
        if self.attempts is not None:
            return self.attempts
        tries = min(PER_CARD * self.cards, max(POOL, LARGE_PER_CARD * self.cards))
        return tries * (2 if self.like is not None else 1)

    def problems(self) -> list[str]:
        out = []
        if self.budget < self.cards:
            out.append(f"attempts: {self.budget} candidates cannot make {self.cards} cards")
        if self.coloured > self.cards:
            out.append(f"coloured: {self.coloured} coloured cards, but the deck has only {self.cards} cards")
        if self.workers < 1:
            out.append(f"workers: expected at least 1, got {self.workers}")
        squares = SIDE * self.height
        for v in sorted(set(self.pool.prophecy_tokens)):
            if v > squares:
                out.append(f"pool: prophecy_tokens: {v} is more than the {squares} squares a side of a "
                           f"{SIDE}x{SIDE}x{self.height} monolith shows")
        if self.pool.cubes < SIDE * SIDE * self.height:
            out.append(f"pool: {self.pool.title} holds {self.pool.cubes} cubes, fewer than the "
                       f"{SIDE}x{SIDE}x{self.height} monolith's {SIDE * SIDE * self.height}")
        return out

    def checked(self) -> Spec:
        check(self.problems())
        return self

    def parameters(self) -> dict[str, Any]:
        shown = {"pool": self.pool.title, "attempts": self.budget,
                 "difficulty": (self.difficulty if isinstance(self.difficulty, str)
                                else grading.target_text(self.difficulty)),
                 "like": self.like.source if self.like is not None else None}
        return recorded(OPTIONS, {o.name: shown.get(o.name, getattr(self, o.name, None)) for o in OPTIONS})
