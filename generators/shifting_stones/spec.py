"""A Shifting Stones deck request: its options, declared once, and the Spec they make.

The deck is a set of pattern cards. ``mix`` says how many cards are worth each number of
points (the published deck: 28 worth 1, 26 worth 2, 13 worth 3 and 5 worth 5); points go
to cards by measured difficulty, so no card is harder than a card worth more. Without
``--mix``, a deck of another size gets the published mix scaled to it; a ``--mix`` alone
sets the deck's size.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generators.common import parse
from generators.common.errors import RequestError, check
from generators.common.options import SEED, WORKERS, Option, output, recorded, whole
from generators.shifting_stones.scale import PUBLISHED_MIX, Mix, mix_text, parse_mix, scaled
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

#: Candidates a deck made ``--like`` a reference measures at least when ``--attempts`` is not
#: given: a small deck needs a pool wide enough to follow the reference's shape and
#: difficulties at once.
LIKE_MIN = 200

def _tiles(value: Any, label: str) -> TileSet:
    return parse_tile_set(value, label)


def _stones(value: Any, label: str) -> tuple[int, int] | None:
    """``published`` (None: the published deck's stones and windows) or ``N``/``MIN-MAX``."""
    if isinstance(value, str) and value.strip().lower() == PUBLISHED_SHAPE:
        return None
    return parse.parse_range(value, label, low=1, high=PLACES)


#: ``--stones``' default: patterns shaped like the published deck's.
PUBLISHED_SHAPE = "published"
#: ``parameters.stones`` of a deck made ``--like`` a reference: shaped like the reference's.
LIKE_SHAPE = "like"


#: ``--price play``'s games when it names none.
PLAY_GAMES = 2000


def _price(value: Any, label: str) -> tuple[str, int]:
    """``exact`` or ``play[:GAMES]``."""
    text = str(value).strip().lower()
    if text == "exact":
        return ("exact", 0)
    if text == "play":
        return ("play", PLAY_GAMES)
    if text.startswith("play:"):
        return ("play", parse.parse_int(text[5:], label, low=1, high=1_000_000))
    raise RequestError(f"{label}: expected exact, play or play:GAMES, got {value!r}")


def price_text(price: tuple[str, int]) -> str:
    return "exact" if price[0] == "exact" else f"play:{price[1]}"


def _like(value: Any, label: str) -> Any:
    from generators.shifting_stones.reference import read_reference

    return read_reference(value, label)


OPTIONS: tuple[Option, ...] = (
    Option("tiles", _tiles, "published", "the stones: `published` (Sun/Moon x1, Fish/Bird x2, Horse/Boat x3, "
           "Seed/Tree x3) or a tile set TOML file (see docs/games/shifting-stones.md)", metavar="published|FILE.toml",
           path=True),
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
          default_text=f"{PER_CARD} per card (at least {LIKE_MIN} with --like)"),
    WORKERS,
    Option("like", _like, None, "make a deck like this one: its tiles and points mix become the defaults, "
           "and the cards follow its difficulty distribution, stones per pattern and window shapes, "
           "none of its patterns repeated", metavar="DECK.json", default_text="none", path=True),
    Option("price", _price, "exact", "how the mix's points are given out: `exact`, by each card's exact difficulty "
           "(the least actions from a random grid: the published deck's measure); `play[:GAMES]`, by what each card "
           f"costs in play: GAMES (default {PLAY_GAMES}) four-player games of greedy agents blind to the points, as "
           "`templeforge playtest` prices cards (verify plays them again)", metavar="exact|play[:GAMES]"),
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
        like: a reference deck (``reference.Reference``) whose shape and difficulties the
            deck follows, or None.
        price: how the mix's points are given out: ("exact", 0), by exact difficulty, or
            ("play", GAMES), by effort in GAMES four-player games (``playtest.prices``).
    """

    tiles: TileSet = PUBLISHED
    cards: int = 72
    mix: Mix = PUBLISHED_MIX
    stones: tuple[int, int] | None = None
    seed: int = 0
    attempts: int | None = None
    workers: int = 1
    like: Any = None
    price: tuple[str, int] = ("exact", 0)

    @classmethod
    def from_values(cls, values: Mapping[str, Any], given: frozenset[str] = frozenset()) -> Spec:
        """The Spec of parsed option values (``generators.common.options.resolve``). With
        ``like``, the reference's tiles and points mix (scaled to the deck) replace the
        defaults of the options not ``given``."""
        from generators.common.pool import default_workers

        cards, mix, tiles, like = values["cards"], values["mix"], values["tiles"], values.get("like")
        if like is not None:
            if "tiles" not in given:
                tiles = like.tiles
            elif tiles != like.tiles:
                from generators.common.like import refuse

                raise refuse("--like", like.source, f"its tiles are {like.tiles.title}, the request's "
                             f"{tiles.title} (leave --tiles out to use the reference's)")
            if "stones" in given:
                raise RequestError("--stones: a deck made --like a reference takes its stones per pattern from "
                                   "the reference; leave --stones out")
            if mix is None and like.mix is not None:
                mix = scaled(like.mix, cards)
        if mix is None:
            mix = scaled(PUBLISHED_MIX, cards)
        elif "cards" not in given:
            cards = sum(n for _, n in mix)
        workers = values["workers"] if values["workers"] is not None else default_workers()
        return cls(tiles, cards, mix, values["stones"], values["seed"], values["attempts"], workers, like,
                   values.get("price", ("exact", 0)))

    @property
    def budget(self) -> int:
        if self.attempts is not None:
            return self.attempts
        return max(PER_CARD * self.cards, LIKE_MIN if self.like is not None else 0)

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
        shape = LIKE_SHAPE if self.like is not None else PUBLISHED_SHAPE
        shown = {"tiles": self.tiles.title, "mix": mix_text(self.mix), "attempts": self.budget,
                 "stones": shape if self.stones is None else list(self.stones),
                 "like": self.like.source if self.like is not None else None, "price": price_text(self.price)}
        out = recorded(OPTIONS, {o.name: shown.get(o.name, getattr(self, o.name, None)) for o in OPTIONS})
        if self.price[0] == "exact":
            del out["price"]  # (as decks made before the option say it)
        return out
