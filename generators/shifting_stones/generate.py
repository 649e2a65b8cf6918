"""Make a pattern deck whose points follow exact difficulty.

1. Candidates. Candidate ``i`` draws from its own seeded generator: a number of stones in
   ``spec.stones``, a window shape with that many stones (its stones touch every edge of
   the window, so no edge is blank: a blank edge would only pin the window's place), then a
   face per stone, redrawn until the tile set has stones enough. Each is measured over the
   whole state space: the grids that show it (``Space.shows``) and the least number of
   actions from every grid (``Space.distances``). Two candidates that show on exactly the
   same grids are one pattern; the first is kept.
2. Choice. The measured pool is sorted by difficulty and cut into as many runs of equal
   length as the deck has cards; one card is taken from each run, so the deck spans the
   pool's difficulties evenly. Which card each run gives is a local search that evens out
   face use and window shapes across the whole deck (``balance``).
3. Points. The cards, sorted by difficulty, get the mix's points in rising order: no card is
   harder than a card worth more.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from generators.common import deckfile
from generators.common.errors import Shortfall
from generators.common.pool import Pool
from generators.shifting_stones.deck import Card, Deck
from generators.shifting_stones.pattern import SIDE, Pattern
from generators.shifting_stones.space import space
from generators.shifting_stones.spec import Spec
from generators.shifting_stones.tiles import TileSet

#: Candidates measured per round (progress is reported between rounds).
BATCH = 24

#: Decimal places the difficulty is stored with.
PLACES = 3

#: Passes over the runs that ``choose`` makes at most (it stops when a pass changes nothing).
ROUNDS = 50


@dataclass(frozen=True, slots=True)
class Measure:
    """What the search says about a pattern: the mean least number of actions from a uniformly
    random grid, the share of grids that show it already, and the most actions any grid needs."""

    difficulty: float
    shown: float
    max: int


@dataclass(frozen=True, slots=True)
class Candidate:
    index: int
    pattern: Pattern
    key: str  # a digest of the grids that show it
    measure: Measure


@lru_cache(maxsize=1)
def shapes() -> dict[int, tuple[tuple[tuple[bool, ...], ...], ...]]:
    """Every window shape by its number of stones: rows of cells (True a stone) whose stones
    touch all four edges of a window of up to 3x3."""
    out: dict[int, list[tuple[tuple[bool, ...], ...]]] = {}
    for h in range(1, SIDE + 1):
        for w in range(1, SIDE + 1):
            cells = [(r, c) for r in range(h) for c in range(w)]
            for bits in range(1, 1 << len(cells)):
                on = [cells[i] for i in range(len(cells)) if bits >> i & 1]
                if {r for r, _ in on} >= {0, h - 1} and {c for _, c in on} >= {0, w - 1}:
                    rows = tuple(tuple((r, c) in on for c in range(w)) for r in range(h))
                    out.setdefault(len(on), []).append(rows)
    return {k: tuple(v) for k, v in sorted(out.items())}


def measure(tiles: TileSet, pattern: Pattern) -> tuple[str, Measure]:
    """The digest of the grids that show ``pattern`` and its measured difficulty."""
    sp = space(tiles)
    shown = sp.shows(pattern.rows)
    key = hashlib.blake2b(np.packbits(shown).tobytes(), digest_size=16).hexdigest()
    dist = sp.distances(shown)
    total = int(dist.sum(dtype=np.int64))
    return key, Measure(round(total / sp.size, PLACES), round(int(shown.sum()) / sp.size, 6), int(dist.max()))


def draw(spec: Spec, index: int) -> Pattern | None:
    """Candidate ``index``'s pattern (None: no draw fits the tile set)."""
    rng = random.Random(f"shifting-stones:{spec.seed}:{index}")
    table = shapes()
    lo, hi = spec.stones
    stones = [k for k in range(lo, hi + 1) if k in table]
    faces = len(spec.tiles.faces)
    for _ in range(50):
        if not stones:
            return None
        rows = rng.choice(table[rng.choice(stones)])
        pattern = Pattern(tuple(tuple(rng.randrange(faces) if on else None for on in row) for row in rows))
        if pattern.fits(spec.tiles):
            return pattern
    return None


def make_candidate(spec: Spec, index: int) -> Candidate | None:
    pattern = draw(spec, index)
    if pattern is None:
        return None
    key, found = measure(spec.tiles, pattern)
    return Candidate(index, pattern, key, found)


def balance(chosen: Sequence[Candidate], faces: int) -> float:
    """How unevenly ``chosen`` uses faces and window shapes (0: perfectly even): the
    chi-square distance of face use from equal use, plus one for every pair of cards that
    share a window shape."""
    use = Counter(f for c in chosen for f in c.pattern.fixed)
    mean = sum(use.values()) / faces
    spread = sum((use[f] - mean) ** 2 for f in range(faces)) / mean if mean else 0.0
    shared = sum(n * (n - 1) // 2 for n in Counter(c.pattern.shape for c in chosen).values())
    return spread + shared


def choose(spec: Spec, pool: Sequence[Candidate]) -> list[Candidate]:
    """One card from each of ``spec.cards`` equal runs of the pool sorted by difficulty, the
    runs' choices together evening out face use and window shapes (``balance``): each run
    starts at its easiest card, then, run by run, a card that lowers the deck's imbalance
    takes its run's place, until no single change helps."""
    ranked = sorted(pool, key=lambda c: (c.measure.difficulty, c.index))
    n = spec.cards
    runs = [ranked[len(ranked) * j // n: len(ranked) * (j + 1) // n] for j in range(n)]
    faces = len(spec.tiles.faces)
    chosen = [run[0] for run in runs]
    score = balance(chosen, faces)
    for _ in range(ROUNDS):
        better = False
        for j, run in enumerate(runs):
            for c in run:
                if c is chosen[j]:
                    continue
                trial = [*chosen[:j], c, *chosen[j + 1:]]
                trial_score = balance(trial, faces)
                if trial_score < score - 1e-9:
                    chosen, score, better = trial, trial_score, True
        if not better:
            break
    return chosen


def points(spec: Spec, chosen: Sequence[Candidate]) -> list[tuple[Candidate, int]]:
    """The mix's points given in order of difficulty."""
    ranked = sorted(chosen, key=lambda c: (c.measure.difficulty, c.index))
    values = [p for p, n in spec.mix for _ in range(n)]
    return list(zip(ranked, values))


def generate(spec: Spec, progress: Callable[[int, int], None] | None = None) -> Deck:
    """Make the deck ``spec`` asks for (see the module docstring).

    Raises:
        RequestError: the request is impossible (before any work).
        Shortfall: fewer distinct feasible patterns than cards within the budget.
    """
    spec.checked()
    pool: list[Candidate] = []
    seen: set[str] = set()
    budget = spec.budget
    with Pool(spec.workers) as workers:
        for start in range(0, budget, BATCH):
            for made in workers.map(make_candidate, spec, range(start, min(start + BATCH, budget))):
                if made is not None and made.key not in seen:
                    seen.add(made.key)
                    pool.append(made)
            if progress is not None:
                progress(min(start + BATCH, budget), len(pool))
    if len(pool) < spec.cards:
        lo, hi = spec.stones
        raise Shortfall(f"made {len(pool)} of {spec.cards} cards: {budget} candidates (the budget) gave only "
                        f"{len(pool)} distinct feasible patterns of {lo}-{hi} stones with tiles "
                        f"{spec.tiles.title}; raise attempts, widen stones, or ask for fewer cards",
                        len(pool), spec.cards)
    priced = sorted(points(spec, choose(spec, pool)), key=lambda cp: (cp[1], cp[0].measure.difficulty,
                                                                     cp[0].index))
    cards = tuple(Card(number, c.pattern, p, c.measure.difficulty, c.measure.shown, c.measure.max)
                  for number, (c, p) in enumerate(priced, start=1))
    return Deck(cards, spec.tiles, spec.seed, spec.parameters(), deckfile.versions())

