"""A Mystery of the Temples request: its options, declared once, and the Spec they make.

The deck is the five temples (one per colour), each a card with a side for 2-3 players and
one for 4: a track of crystals and its layers with points, every layer proved payable on
every grid side and priced by what it costs in play (``--price play``, the default) or by
its difficulty on every grid side (``--price exact``). With ``--grids-only`` the temples are
given (ours or the box file's) and the generator designs the grid sides instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generators.common import parse
from generators.common.errors import check
from generators.common.options import SEED, WORKERS, Option, choice, output, recorded, switch, whole
from generators.mystery_of_the_temples.box import DEFAULT, SLOTS, Box, parse_box

GAME = "mystery-of-the-temples"

HELP = ("Each card is a temple of one colour, a side for 2-3 players and one for 4: a track of crystals and its "
        "layers. A layer is broken by paying, along the lines of your crystal grid, a run of crystals from either "
        "end of the track up to it. Every layer is proved payable on every grid side (the deck stores a path for "
        "each) and priced by what it costs in play: the turns a player who goes for it needs to break it, from "
        "states seeded games reach (--price exact: by its expected actions from a full grid mid-game); its points "
        "rise with that cost, and the grid sides must be about as hard as each other.")

DECK_NAME = "deck.json"
DEFAULT_OUT = f"output/{GAME}/{DECK_NAME}"

#: Temple decks tried when ``--attempts`` is not given.
ATTEMPTS = 4
#: Grids tried per grid side with ``--grids-only``.
PER_GRID = 4


def _points(value: Any, label: str) -> tuple[int, int]:
    return parse.parse_range(value, label, low=0, high=99)


def _balance(value: Any, label: str) -> float:
    return parse.parse_float(value, label, low=1.0, high=10.0)


OPTIONS: tuple[Option, ...] = (
    Option("box", parse_box, "ours", "the supply, grid sides and temples: `ours` (see "
           "docs/games/mystery-of-the-temples.md) or a box TOML file; the "
           "generator makes temples for its grids (with --grids-only, grids for its temples)",
           metavar="ours|FILE.toml", path=True),
    whole("track", 9, "crystals on a temple's track", low=3, high=12),
    whole("layers", 5, "layers per temple side, at the middle positions of its track", low=1, high=10),
    Option("points", _points, "3-8", "the points a layer may be worth, least to most; points rise with difficulty",
           metavar="MIN-MAX"),
    choice("reading", ("ends", "rows"), "ends", "how a layer is paid: `ends` (a run from either end of the track up "
           "to the layer) or `rows` (each layer its own row of crystals)"),
    Option("balance", _balance, 1.15, "the most the hardest grid side's mean difficulty may be over the easiest's",
           metavar="RATIO"),
    switch("grids_only", False, "design the grid sides for the box's temples instead of temples for its grids"),
    choice("price", ("play", "exact"), "play", "how the layers' points are given out: `play`, by what they cost in "
           "play: the turns a player who goes for a layer needs to break it, from states greedy games reach (verify "
           "plays them again); `exact`, by their difficulty on every grid side from a full grid mid-game (the default "
           "where the published game's rules do not apply: --reading rows, or a box without the six crystal kinds)"),
    SEED,
    whole("attempts", None, "temple decks (or, with --grids-only, grids) to try before choosing", low=1,
          high=10_000, default_text=f"{ATTEMPTS} ({PER_GRID} per grid side with --grids-only)"),
    WORKERS,
    output(DEFAULT_OUT, DECK_NAME),
)


def plays(reading: str, box: Box) -> bool:
    """Whether temples read this way from this box can be priced by play: the engine plays
    the published game (tracks read from their ends, the six crystal kinds)."""
    return reading == "ends" and len(box.names) == 6


@dataclass(frozen=True, slots=True)
class Spec:
    """A temple deck request (see ``OPTIONS``)."""

    box: Box = DEFAULT
    track: int = 9
    layers: int = 5
    points: tuple[int, int] = (3, 8)
    reading: str = "ends"
    balance: float = 1.15
    grids_only: bool = False
    seed: int = 0
    attempts: int | None = None
    workers: int = 1
    price: str = "play"

    @classmethod
    def from_values(cls, values: Mapping[str, Any], given: frozenset[str] = frozenset()) -> Spec:
        from generators.common.pool import default_workers

        workers = values["workers"] if values["workers"] is not None else default_workers()
        price = values.get("price") or "play"
        if "price" not in given and not plays(values["reading"], values["box"]):
            price = "exact"  # the games are played by the published rules only
        return cls(values["box"], values["track"], values["layers"], values["points"], values["reading"],
                   values["balance"], values["grids_only"], values["seed"], values["attempts"], workers, price)

    @property
    def budget(self) -> int:
        if self.attempts is not None:
            return self.attempts
        return PER_GRID * len(self.box.grids) if self.grids_only else ATTEMPTS

    @property
    def positions(self) -> tuple[int, ...]:
        """The layers' positions on a track (1 at the left end): the middle ones."""
        first = (self.track - self.layers) // 2 + 1
        return tuple(range(first, first + self.layers))

    def problems(self) -> list[str]:
        out = []
        if self.layers > self.track:
            out.append(f"layers: {self.layers} layers do not fit a track of {self.track}")
        if self.workers < 1:
            out.append(f"workers: expected at least 1, got {self.workers}")
        if sum(self.box.supply) < SLOTS:
            out.append(f"box: the supply holds {sum(self.box.supply)} crystals, fewer than a grid's {SLOTS} slots")
        if self.grids_only:
            if not self.box.temples:
                out.append("box: --grids-only designs grids for the box's temples, and the box has none")
            if len(self.box.grids) < 1:
                out.append("box: --grids-only needs the number of grid sides to design (the box's grids)")
            low, high = self.points
            for i, temple in enumerate(self.box.temples, start=1):
                for j, layer in enumerate(temple.layers, start=1):
                    if layer.points is not None and not low <= layer.points <= high:
                        out.append(f"box: temples[{i}].layers[{j}].points: {layer.points}, outside --points "
                                   f"{low}-{high}")
        else:
            if not self.box.grids:
                out.append("box: the box has no grid sides to make temples for")
            if self.price == "play" and not plays(self.reading, self.box):
                out.append("price: play plays the published game: tracks read from their ends, and the six crystal "
                           "kinds")
            from solver.paths import longest

            for side in self.box.grids:
                if longest(side.grid) < self.cheapest_run:
                    out.append(f"box: grid {side.name}: its longest path holds {longest(side.grid)} slots, fewer than "
                               f"the {self.cheapest_run} crystals the track's hardest layer asks for")
        return out

    @property
    def cheapest_run(self) -> int:
        """The crystals of the longest of the layers' cheaper runs."""
        return max(min(p, self.track - p + 1) for p in self.positions)

    def checked(self) -> Spec:
        check(self.problems())
        return self

    def parameters(self) -> dict[str, Any]:
        shown = {"box": self.box.title, "attempts": self.budget, "points": f"{self.points[0]}-{self.points[1]}"}
        out = recorded(OPTIONS, {o.name: shown.get(o.name, getattr(self, o.name, None)) for o in OPTIONS})
        if self.price == "exact" or self.grids_only:  # (grids designed for given temples keep their points)
            del out["price"]  # (as decks made before the option say it)
        return out
