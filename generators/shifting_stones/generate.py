"""Make a pattern deck whose points follow exact difficulty.

1. Candidates. Candidate ``i`` draws from its own seeded generator. Shaped like the
   published deck (``--stones published``, the default): a window and a stone count from the
   published deck's (``scale.PUBLISHED_WINDOWS`` and ``PUBLISHED_STONES``; in a 3x3 window the
   stones may lie anywhere, pinning their places; in a smaller one they touch every edge),
   faces drawn in proportion to the tiles that carry them. With ``--stones MIN-MAX``: a
   number of stones in the range and any window shape with that many stones touching its
   edges, faces drawn evenly. Faces are redrawn until the tile set has stones enough. Each
   candidate is measured over the whole state space: the grids that show it
   (``Space.shows``) and the least number of actions from every grid (``Space.distances``).
   Two candidates that show on exactly the same grids are one pattern; the first is kept.
2. Choice. Shaped like the published deck: one CP-SAT model picks the cards, with the
   published windows and stone counts scaled to the deck (``shape_targets``), as many cards
   in each points value's band of the absolute scale (``scale``) as the mix asks, each
   value's mean difficulty as near its anchor as the pool allows, and face use in
   proportion to the tiles (each target soft, the shape and bands weighing most; the model
   runs on one worker within a deterministic time, so the same seed gives the same deck).
   With ``--stones MIN-MAX``: the pool sorted by difficulty is cut into as many runs as the
   deck has cards, one card from each, the choices evening out face use and window shapes
   (``balance``).
3. Points. The cards, sorted by difficulty, get the mix's points in rising order: no card is
   harder than a card worth more (shaped like the published deck, each card's points are
   then those the absolute scale gives it wherever the pool allowed).
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from generators.common import deckfile, grading
from generators.common.errors import Shortfall
from generators.common.pool import Pool
from generators.shifting_stones import scale
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


@lru_cache(maxsize=1)
def published_cells() -> tuple[tuple[tuple[int, int], int, tuple[tuple[tuple[bool, ...], ...], ...]], ...]:
    """The (window, stones, layouts) a pattern shaped like the published deck's may take:
    every published window with every published stone count it holds. In a 3x3 window the
    stones may lie anywhere (the window fits one way, so they pin their places); in a
    smaller one they touch all four edges (a blank edge would only narrow where it fits)."""
    out = []
    for (h, w), _ in scale.PUBLISHED_WINDOWS:
        cells = [(r, c) for r in range(h) for c in range(w)]
        for k, _ in scale.PUBLISHED_STONES:
            layouts = []
            for bits in range(1, 1 << len(cells)):
                on = [cells[i] for i in range(len(cells)) if bits >> i & 1]
                if len(on) != k:
                    continue
                edges = {r for r, _ in on} >= {0, h - 1} and {c for _, c in on} >= {0, w - 1}
                if (h, w) != (SIDE, SIDE) and not edges:
                    continue
                layouts.append(tuple(tuple((r, c) in on for c in range(w)) for r in range(h)))
            if layouts:
                out.append(((h, w), k, tuple(layouts)))
    return tuple(out)


@lru_cache(maxsize=1)
def _cell_weights() -> tuple[float, ...]:
    """How often candidates take each of ``published_cells``: a window's share of the
    published deck spread over its stone counts, plus an even floor, so that rare cells
    (four stones in a 3x3 window, where the hardest cards come from) are drawn too."""
    cells = published_cells()
    per_window = Counter(window for window, _, _ in cells)
    share = dict(scale.PUBLISHED_WINDOWS)
    total = sum(share.values())
    return tuple(share[window] / total / per_window[window] + 0.5 / len(cells) for window, _, _ in cells)


def shape_targets(cards: int) -> tuple[dict[tuple[int, int], int], dict[int, int]]:
    """The published windows and stone counts scaled to ``cards`` (largest remainders)."""
    return (grading.counts(cards, dict(scale.PUBLISHED_WINDOWS)),
            grading.counts(cards, dict(scale.PUBLISHED_STONES)))


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
    if spec.stones is None:
        return _draw_published(spec.tiles, rng)
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


def _draw_published(tiles: TileSet, rng: random.Random) -> Pattern | None:
    """A pattern shaped like the published deck's, its faces drawn in proportion to the tiles
    that carry them."""
    cells = published_cells()
    _, _, layouts = rng.choices(cells, weights=_cell_weights())[0]
    rows = rng.choice(layouts)
    weights = [tile.count for tile in tiles.tiles for _ in tile.faces]
    for _ in range(50):
        pattern = Pattern(tuple(tuple(rng.choices(range(len(weights)), weights=weights)[0] if on else None
                                      for on in row) for row in rows))
        if pattern.fits(tiles):
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


#: The CP-SAT choice's weights: a card off the published shape or off its band outweighs any
#: closeness of means (milli-actions) or of face use (per stone).
OFF_SHAPE = 1_000_000
FACE = 25
#: The CP-SAT choice's deterministic time limit (about seconds on this machine).
CHOICE_TIME = 1.0


def choose_published(spec: Spec, pool: Sequence[Candidate]) -> list[Candidate]:
    """The cards of a deck shaped like the published one, by CP-SAT (see the module
    docstring); a pool too small for the shape gets the nearest deck it allows."""
    from ortools.sat.python import cp_model

    ranked = sorted(pool, key=lambda c: (c.measure.difficulty, c.index))
    windows, stones = shape_targets(spec.cards)
    mix = dict(spec.mix)
    steps = scale.bounds(list(mix))
    tiles = spec.tiles
    weights = [tile.count for tile in tiles.tiles for _ in tile.faces]
    planned = sum(k * n for k, n in stones.items())
    model = cp_model.CpModel()
    x = [model.new_bool_var(f"c{c.index}") for c in ranked]
    model.add(sum(x) == spec.cards)
    cost: list[cp_model.LinearExprT] = []

    def near(terms: Sequence[cp_model.LinearExprT], target: int, weight: int, name: str) -> None:
        off = model.new_int_var(0, 10 * spec.cards * 10_000, name)
        model.add(sum(terms) - target <= off)
        model.add(target - sum(terms) <= off)
        cost.append(weight * off)

    for window, n in windows.items():
        near([v for v, c in zip(x, ranked) if (c.pattern.height, c.pattern.width) == window], n, OFF_SHAPE,
             f"w{window}")
    for k, n in stones.items():
        near([v for v, c in zip(x, ranked) if c.pattern.stones == k], n, OFF_SHAPE, f"s{k}")
    band = [scale.rate(c.measure.difficulty, steps) for c in ranked]
    for p, n in mix.items():
        mine = [(v, c) for v, c, b in zip(x, ranked, band) if b == p]
        near([v for v, _ in mine], n, OFF_SHAPE, f"b{p}")
        near([round(c.measure.difficulty * 1000) * v for v, c in mine], round(n * scale.anchor(p) * 1000), 1,
             f"a{p}")
    for f, w in enumerate(weights):
        use = [c.pattern.fixed.count(f) * v for v, c in zip(x, ranked) if f in c.pattern.fixed]
        near(use, round(planned * w / sum(weights)), FACE, f"f{f}")
    model.minimize(sum(cost))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = spec.seed % (1 << 31)
    solver.parameters.max_deterministic_time = CHOICE_TIME
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):  # pragma: no cover - the model is always feasible
        return choose(spec, pool)
    return [c for v, c in zip(x, ranked) if solver.value(v)]


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
    # a pattern drawn twice is measured once (drawing is cheap, measuring is not)
    drawn: dict[Pattern, int] = {}
    for i in range(budget):
        pattern = draw(spec, i)
        if pattern is not None:
            drawn.setdefault(pattern, i)
    fresh = sorted(drawn.values())
    with Pool(spec.workers) as workers:
        for start in range(0, len(fresh), BATCH):
            for made in workers.map(make_candidate, spec, fresh[start:start + BATCH]):
                if made is not None and made.key not in seen:
                    seen.add(made.key)
                    pool.append(made)
            if progress is not None:  # candidates tried: drawn up to the last one measured
                end = min(start + BATCH, len(fresh))
                progress(fresh[end - 1] + 1 if end < len(fresh) else budget, len(pool))
    if len(pool) < spec.cards:
        lo, hi = spec.stones or (1, max(k for k, _ in scale.PUBLISHED_STONES))
        raise Shortfall(f"made {len(pool)} of {spec.cards} cards: {budget} candidates (the budget) gave only "
                        f"{len(pool)} distinct feasible patterns of {lo}-{hi} stones with tiles "
                        f"{spec.tiles.title}; raise attempts, widen stones, or ask for fewer cards",
                        len(pool), spec.cards)
    chosen = choose(spec, pool) if spec.stones is not None else choose_published(spec, pool)
    priced = sorted(points(spec, chosen), key=lambda cp: (cp[1], cp[0].measure.difficulty,
                                                                     cp[0].index))
    cards = tuple(Card(number, c.pattern, p, c.measure.difficulty, c.measure.shown, c.measure.max)
                  for number, (c, p) in enumerate(priced, start=1))
    return Deck(cards, spec.tiles, spec.seed, spec.parameters(), deckfile.versions())

