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
   then those the absolute scale gives it wherever the pool allowed). With ``--price play``
   the same mix is then given out again by each card's effort in play (four-player games
   of greedy agents blind to the points, ``playtest.prices``), the cards kept in order.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from generators.common import deckfile, grading
from generators.common.errors import Shortfall
from generators.common.pool import Pool
from generators.shifting_stones import scale
from generators.shifting_stones.deck import Card, Deck
from generators.shifting_stones.pattern import SIDE, Layout, Pattern
from generators.shifting_stones.space import Measure, measure
from generators.shifting_stones.spec import Spec
from generators.shifting_stones.tiles import TileSet

if TYPE_CHECKING:
    from generators.shifting_stones.reference import Reference

__all__ = ["Candidate", "Measure", "choose", "choose_like", "choose_published", "generate", "like_cells", "measure"]

#: Candidates measured per round (progress is reported between rounds).
BATCH = 24

#: Passes over the runs that ``choose`` makes at most (it stops when a pass changes nothing).
ROUNDS = 50


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


@cache
def layouts_of(height: int, width: int, stones: int) -> tuple[Layout, ...]:
    """The stone layouts a pattern of ``stones`` in a ``height`` x ``width`` window may take:
    in a 3x3 window anywhere (the window fits one way, so the stones pin their places); in a
    smaller one touching all four edges (a blank edge would only narrow where it fits)."""
    cells = [(r, c) for r in range(height) for c in range(width)]
    out = []
    for bits in range(1, 1 << len(cells)):
        on = [cells[i] for i in range(len(cells)) if bits >> i & 1]
        if len(on) != stones:
            continue
        edges = {r for r, _ in on} >= {0, height - 1} and {c for _, c in on} >= {0, width - 1}
        if (height, width) != (SIDE, SIDE) and not edges:
            continue
        out.append(tuple(tuple((r, c) in on for c in range(width)) for r in range(height)))
    return tuple(out)


@lru_cache(maxsize=1)
def published_cells() -> tuple[tuple[tuple[int, int], int, tuple[Layout, ...]], ...]:
    """The (window, stones, layouts) a pattern shaped like the published deck's may take:
    every published window with every published stone count it holds (``layouts_of``)."""
    out = []
    for (h, w), _ in scale.PUBLISHED_WINDOWS:
        for k, _ in scale.PUBLISHED_STONES:
            layouts = layouts_of(h, w, k)
            if layouts:
                out.append(((h, w), k, layouts))
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


@lru_cache(maxsize=4)
def like_cells(reference: Reference) -> tuple[tuple[tuple[tuple[int, int], int, tuple[Layout, ...]], ...],
                                               tuple[float, ...]]:
    """The (window, stones, layouts) cells a pattern like ``reference``'s may take, and how
    often candidates take each: the reference's cells, each with its own layouts and those of
    ``layouts_of``, weighted by the reference's cards in it plus an even floor."""
    cells = tuple((window, k, tuple(sorted(set(layouts) | set(layouts_of(*window, k)))))
                  for (window, k), _, layouts in reference.cells)
    total = sum(n for _, n, _ in reference.cells)
    weights = tuple(n / total + 0.5 / len(cells) for _, n, _ in reference.cells)
    return cells, weights


def shape_targets(cards: int) -> tuple[dict[tuple[int, int], int], dict[int, int]]:
    """The published windows and stone counts scaled to ``cards`` (largest remainders)."""
    return (grading.counts(cards, dict(scale.PUBLISHED_WINDOWS)),
            grading.counts(cards, dict(scale.PUBLISHED_STONES)))


def draw(spec: Spec, index: int) -> Pattern | None:
    """Candidate ``index``'s pattern (None: no draw fits the tile set)."""
    rng = random.Random(f"shifting-stones:{spec.seed}:{index}")
    if spec.like is not None:
        return _draw_cells(spec.tiles, rng, *like_cells(spec.like))
    if spec.stones is None:
        return _draw_cells(spec.tiles, rng, published_cells(), _cell_weights())
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


def _draw_cells(tiles: TileSet, rng: random.Random, cells: Sequence[tuple[tuple[int, int], int, tuple[Layout, ...]]],
                weights: Sequence[float]) -> Pattern | None:
    """A pattern in one of ``cells`` (drawn by ``weights``), its faces drawn in proportion to
    the tiles that carry them."""
    _, _, layouts = rng.choices(cells, weights=weights)[0]
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


class _Choice:
    """A CP-SAT model that picks ``cards`` of ``ranked``, its soft targets added one by one."""

    def __init__(self, spec: Spec, ranked: Sequence[Candidate]) -> None:
        from ortools.sat.python import cp_model

        self.spec, self.ranked = spec, ranked
        self.model = cp_model.CpModel()
        self.x = [self.model.new_bool_var(f"c{c.index}") for c in ranked]
        self.model.add(sum(self.x) == spec.cards)
        self.cost: list[Any] = []

    def near(self, terms: Sequence[Any], target: int, weight: int, name: str) -> None:
        """Cost ``weight`` for every unit ``sum(terms)`` is off ``target``."""
        off = self.model.new_int_var(0, 10 * self.spec.cards * 10_000, name)
        self.model.add(sum(terms) - target <= off)
        self.model.add(target - sum(terms) <= off)
        self.cost.append(weight * off)

    def count(self, members: Sequence[bool], target: int, weight: int, name: str) -> None:
        """As many chosen cards as ``target`` among the ``members`` (one flag per card)."""
        self.near([v for v, m in zip(self.x, members) if m], target, weight, name)

    def faces(self, stones: int) -> None:
        """Face use in proportion to the tiles that carry each face, over ``stones`` in all."""
        tiles = self.spec.tiles
        weights = [tile.count for tile in tiles.tiles for _ in tile.faces]
        for f, w in enumerate(weights):
            use = [c.pattern.fixed.count(f) * v for v, c in zip(self.x, self.ranked) if f in c.pattern.fixed]
            self.near(use, round(stones * w / sum(weights)), FACE, f"f{f}")

    def solve(self) -> list[Candidate] | None:
        from ortools.sat.python import cp_model

        self.model.minimize(sum(self.cost))
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = self.spec.seed % (1 << 31)
        solver.parameters.max_deterministic_time = CHOICE_TIME
        status = solver.solve(self.model)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):  # pragma: no cover - the model is always feasible
            return None
        return [c for v, c in zip(self.x, self.ranked) if solver.value(v)]


def choose_published(spec: Spec, pool: Sequence[Candidate]) -> list[Candidate]:
    """The cards of a deck shaped like the published one, by CP-SAT (see the module
    docstring); a pool too small for the shape gets the nearest deck it allows."""
    ranked = sorted(pool, key=lambda c: (c.measure.difficulty, c.index))
    windows, stones = shape_targets(spec.cards)
    mix = dict(spec.mix)
    steps = scale.bounds(list(mix))
    choice = _Choice(spec, ranked)
    for window, n in windows.items():
        choice.count([(c.pattern.height, c.pattern.width) == window for c in ranked], n, OFF_SHAPE, f"w{window}")
    for k, n in stones.items():
        choice.count([c.pattern.stones == k for c in ranked], n, OFF_SHAPE, f"s{k}")
    band = {c.index: scale.rate(c.measure.difficulty, steps) for c in ranked}
    for p, n in mix.items():
        choice.count([band[c.index] == p for c in ranked], n, OFF_SHAPE, f"b{p}")
        choice.near([round(c.measure.difficulty * 1000) * v for v, c in zip(choice.x, ranked) if band[c.index] == p],
                    round(n * scale.anchor(p) * 1000), 1, f"a{p}")
    planned = sum(k * n for k, n in stones.items())
    choice.faces(planned)
    return choice.solve() or choose(spec, pool)


def choose_like(spec: Spec, pool: Sequence[Candidate]) -> list[Candidate]:
    """The cards of a deck like ``spec.like``, by CP-SAT: the reference's window shapes and
    stones per pattern scaled to the deck, the KS distance between the cards' difficulties
    and the reference's as small as the pool allows (each unit past ``AIM`` weighing most),
    and face use in proportion to the tiles. The distance is exact in the model
    (``generators.common.like.bound_ks``)."""
    from generators.common.like import bound_ks, natural
    from generators.shifting_stones.reference import STONES, WINDOW, window_of

    reference = spec.like
    assert reference is not None  # only called for a --like request
    ranked = sorted(pool, key=lambda c: (c.measure.difficulty, c.index))
    profile = reference.profile
    choice = _Choice(spec, ranked)
    for window, n in profile.class_targets(WINDOW, spec.cards, natural).items():
        choice.count([window_of(c.pattern) == window for c in ranked], n, OFF_SHAPE, f"w{window}")
    for k, n in profile.class_targets(STONES, spec.cards, natural).items():
        choice.count([str(c.pattern.stones) == k for c in ranked], n, OFF_SHAPE, f"s{k}")
    # a card's worth of gap past the aim outweighs a missed shape; within it, a little less
    choice.cost.extend(bound_ks(choice.model, choice.x, [c.measure.difficulty for c in ranked],
                                reference.difficulties, spec.cards, OFF_SHAPE))
    choice.faces(round(sum(profile.class_targets(STONES, spec.cards).get(str(k), 0) * k for k in range(1, 10))))
    return choice.solve() or choose(spec, pool)


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
    seen: set[str] = set(spec.like.keys) if spec.like is not None else set()  # no reference pattern repeats
    budget = spec.budget
    # a pattern drawn twice is measured once (drawing is cheap, measuring is not)
    drawn: dict[Pattern, int] = {}
    for i in range(budget):
        pattern = draw(spec, i)
        if pattern is not None:
            drawn.setdefault(pattern, i)
    fresh = sorted(drawn.values())
    with Pool(spec.workers, tasks=len(fresh)) as workers:  # a few patterns: measured in this process
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
    if spec.like is not None:
        chosen = choose_like(spec, pool)
    elif spec.stones is not None:
        chosen = choose(spec, pool)
    else:
        chosen = choose_published(spec, pool)
    priced = sorted(points(spec, chosen), key=lambda cp: (cp[1], cp[0].measure.difficulty,
                                                                     cp[0].index))
    cards = tuple(Card(number, c.pattern, p, c.measure.difficulty, c.measure.shown, c.measure.max)
                  for number, (c, p) in enumerate(priced, start=1))
    deck = Deck(cards, spec.tiles, spec.seed, spec.parameters(), deckfile.versions())
    if spec.price[0] == "play":
        deck = priced_by_play(deck, spec.price[1], spec.workers)
    return deck


def priced_by_play(deck: Deck, games: int, workers: int = 1) -> Deck:
    """The deck with its mix of points given out again by each card's effort in ``games``
    pricing games (``playtest.prices``), the cards in the same order."""
    from dataclasses import replace

    from generators.common.playtest import prices

    points = prices("generators.shifting_stones.engine", deck, [int(c.points) for c in deck.cards],  # type: ignore[arg-type]
                    games, deck.seed or 0, workers)
    return replace(deck, cards=tuple(replace(c, points=p) for c, p in zip(deck.cards, points)))

