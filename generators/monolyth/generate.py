"""Make a structure deck whose every card is proved buildable and priced by expected turns.

1. Candidates. Candidate ``i`` draws from its own seeded generator a structure from one of
   the ``FAMILIES`` (complete levels; a level and a wall; two walls; a corner block;
   towers; stairs; a ring; a cross; a random skyline), turned and mirrored at random.
   Two candidates alike (up to turning, when turning is allowed) are one card.
2. Proof. ``solver.heightmap.build`` finds an ordered build from the pool in which every
   cube is supported when placed, with the fewest singles; its colours are then dealt from
   the pool's counts. A structure with no build within the search budget is dropped.
3. Difficulty. The expected turns to build it when each turn offers four pieces drawn from
   the bag, over ``measure.RUNS`` seeded games of the greedy player (the seed comes from the
   structure, so the verifier plays the same games): one scale for every card. Where the
   height maps the card allows number at most ``measure.EXACT_STATES``, the exact expected
   turns with perfect play are kept beside it as its bound.
4. Choice. The candidates sorted by difficulty are cut into tiers by their thirds (the
   scale). By default (``--difficulty comparable``) only one structure card is played a
   game, so each should come about as soon as any other in play: the ``PACED`` x ``cards``
   candidates round the median difficulty are played (``pace``: the mean round of the first
   claim in seeded greedy games) and the cards are the run of them, by pace, that holds the
   median pace and whose slowest and quickest are nearest (max/min). Otherwise each tier
   gets its share of cards (``--difficulty``), spread evenly across it.
   Made ``--like`` a reference deck: one CP-SAT model picks the cards whose cubes per
   structure follow the reference's and whose difficulties come as near its distribution
   as the pool allows (``choose_like``); no reference structure repeats.
   With ``--coloured N``, ``N`` of every ``cards`` candidates in turn also ask for one
   side's wall in one colour (``paint``); they are proved and priced with the pieces' own
   colours, and the choice takes exactly ``N`` of them, spread over the tiers like the rest.
5. Prophecies. The box's prophecy tokens with their chances (``prophecy``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from generators.common import deckfile, grading
from generators.common.errors import Shortfall
from generators.common.pool import Pool as Workers
from generators.monolyth import pace as pacing
from generators.monolyth.deck import Card, Deck
from generators.monolyth.measure import bound, difficulty, prove
from generators.monolyth.prophecy import prophecies
from generators.monolyth.spec import COMPARABLE, Spec
from generators.monolyth.structure import canonical, symmetries
from solver.heightmap import Step, Target

FAMILIES = ("levels", "level and wall", "two walls", "corner", "towers", "stairs", "ring", "cross", "skyline")



@dataclass(frozen=True, slots=True)
class Candidate:
    index: int
    family: str
    target: Target
    steps: tuple[Step, ...]
    singles: int
    difficulty: float
    method: str
    error: float | None
    bound: float | None
    pace: float | None = None  # the mean round of the first claim in play (``pace``), where measured


def draw(spec: Spec, index: int) -> tuple[str, tuple[int | None, ...]]:
    """Candidate ``index``'s family and heights."""
    rng = random.Random(f"monolyth:{spec.seed}:{index}")
    h = spec.height
    family = FAMILIES[rng.randrange(len(FAMILIES))]
    grid: list[list[int | None]] = [[None] * 4 for _ in range(4)]
    base = rng.choice([None, 1])

    def fill(value: int | None) -> None:
        for row in grid:
            row[:] = [value] * 4

    if family == "levels":
        fill(rng.randint(1, h - 1))
    elif family == "level and wall":
        fill(1)
        grid[0] = [rng.randint(2, h)] * 4
    elif family == "two walls":
        fill(base)
        top = rng.randint(2, h)
        grid[0] = [top] * 4
        if rng.random() < 0.5:
            grid[3] = [top] * 4
        else:
            for row in grid:
                row[0] = top
    elif family == "corner":
        fill(base)
        size = rng.choice([2, 3])
        for y in range(size):
            for x in range(size):
                grid[y][x] = h if size == 2 else rng.randint(2, h)
    elif family == "towers":
        fill(base)
        spots = [(0, 0), (0, 3), (3, 0), (3, 3), (1, 1), (2, 2), (1, 2), (2, 1)]
        for y, x in rng.sample(spots, rng.randint(2, 4)):
            grid[y][x] = h
    elif family == "stairs":
        start = rng.choice([0, 1])
        for y in range(4):
            grid[y] = [min(h, start + y)] * 4 if start + y > 0 else [None] * 4
    elif family == "ring":
        fill(rng.randint(2, h))
        grid[1][1] = grid[1][2] = grid[2][1] = grid[2][2] = base
    elif family == "cross":
        fill(base)
        top = rng.randint(2, h)
        for i in range(4):
            grid[1][i] = grid[2][i] = top if rng.random() < 0.5 or i in (1, 2) else grid[1][i]
            grid[i][1] = grid[i][2] = top
    else:  # a random skyline
        for y in range(4):
            for x in range(4):
                grid[y][x] = rng.choice([None, 1, 1, 2, 2, h])
    heights = tuple(v for row in grid for v in row)
    forms = symmetries(heights, spec.board)
    return family, forms[rng.randrange(len(forms))]


def is_coloured(spec: Spec, index: int) -> bool:
    """Whether candidate ``index`` asks for colours: ``coloured`` of every ``cards`` in turn."""
    return index % spec.cards < spec.coloured


def paint(spec: Spec, index: int, target: Target) -> Target | None:
    """``target`` with one side's wall in one colour: the side whose edge holds the most of
    the target's cubes (ties drawn), the colour drawn from the pool's; None when no side
    shows at least ``MIN_WALL`` cubes."""
    rng = random.Random(f"monolyth:{spec.seed}:{index}:colour")
    board = spec.board
    n = board.width - 1
    edges = {"north": [(x, 0) for x in range(board.width)], "east": [(n, y) for y in range(board.depth)],
             "south": [(x, n) for x in range(board.width)], "west": [(0, y) for y in range(board.depth)]}
    walls = {side: [(x, y, z) for x, y in cells for z in range(target.heights[board.column(x, y)] or 0)]
             for side, cells in edges.items()}
    most = max(len(cubes) for cubes in walls.values())
    if most < MIN_WALL:
        return None
    side = rng.choice([side for side, cubes in walls.items() if len(cubes) == most])
    colour = rng.choice(spec.pool.colour_names)
    cubes = sorted(walls[side], key=lambda c: (c[2], c[1], c[0]))
    return Target(target.heights, tuple((cube, colour) for cube in cubes), target.rule)


#: The fewest cubes a coloured wall asks for.
MIN_WALL = 4


def make_candidate(spec: Spec, index: int) -> Candidate | None:
    family, heights = draw(spec, index)
    target = Target(heights, (), spec.rule)
    if target.reached((0,) * spec.board.columns):
        return None
    if is_coloured(spec, index):
        painted = paint(spec, index, target)
        if painted is None:
            return None
        target = painted
    proof = prove(spec.pool, spec.board, target)
    if proof is None:
        return None
    value, method, error = difficulty(spec.pool, spec.board, target)
    return Candidate(index, family, target, proof[0], proof[1], value, method, error,
                     bound(spec.pool, spec.board, target))


def choose(spec: Spec, pool: Sequence[Candidate]) -> tuple[list[Candidate], tuple[float, float]]:
    """The cards: the plain ones and the coloured ones (``--coloured``) each spread over the
    tiers (by the thirds of the whole pool) by their shares, evenly across each tier."""
    ranked = sorted(pool, key=lambda c: (c.difficulty, c.index))
    bounds = grading.quantile_bounds([c.difficulty for c in ranked])
    low, high = (bounds[0], bounds[1]) if len(bounds) == 2 else (0.0, 0.0)
    chosen: list[Candidate] = []
    if spec.difficulty == COMPARABLE:  # candidates with a pace (``paced``) by it, the others by difficulty
        plain = comparable(by_pace([c for c in ranked if not c.target.colours]), spec.cards - spec.coloured,
                           _pace)
        painted = by_pace([c for c in ranked if c.target.colours])
        return plain + nearest(painted, spec.coloured, plain, _pace), (low, high)
    for coloured, count in ((False, spec.cards - spec.coloured), (True, spec.coloured)):
        group = [c for c in ranked if bool(c.target.colours) == coloured]
        chosen += _spread(spec, group, count, (low, high))
    return chosen, (low, high)


def _difficulty(c: Candidate) -> float:
    return c.difficulty


def _pace(c: Candidate) -> float:
    return c.pace if c.pace is not None else c.difficulty


def by_pace(ranked: Sequence[Candidate]) -> list[Candidate]:
    """The candidates whose pace was measured, by pace (the others when none was)."""
    paced = [c for c in ranked if c.pace is not None]
    return sorted(paced, key=lambda c: (_pace(c), c.index)) if paced else list(ranked)


def comparable(ranked: Sequence[Candidate], cards: int,
               value: Callable[[Candidate], float] = _difficulty) -> list[Candidate]:
    """``cards`` neighbours of ``ranked`` (sorted by ``value``) that hold its median and whose
    largest and least ``value`` are nearest (max/min; the earlier run on a tie)."""
    if cards <= 0:
        return []
    if len(ranked) <= cards:
        return list(ranked)
    middle = (len(ranked) - 1) // 2
    starts = range(max(0, middle - cards + 1), min(middle, len(ranked) - cards) + 1)
    best = min(starts, key=lambda i: (value(ranked[i + cards - 1]) / value(ranked[i]), i))
    return list(ranked[best:best + cards])


def nearest(ranked: Sequence[Candidate], cards: int, beside: Sequence[Candidate],
            value: Callable[[Candidate], float] = _difficulty) -> list[Candidate]:
    """``cards`` of ``ranked`` nearest (by ratio of ``value``) the middle of ``beside``'s, or
    ``ranked``'s own comparable run when ``beside`` is empty."""
    if cards <= 0 or not ranked:
        return []
    if not beside:
        return comparable(ranked, cards, value)
    centre = (min(map(value, beside)) * max(map(value, beside))) ** 0.5
    return sorted(ranked, key=lambda c: (abs(math.log(value(c) / centre)), c.index))[:cards]


#: With ``--difficulty comparable``, the candidates played for their pace: this many times
#: the cards asked, round the median difficulty (plain and coloured apart).
PACED = 2


def round_the_median(ranked: Sequence[Candidate], n: int) -> list[Candidate]:
    """The ``n`` neighbours of ``ranked`` (sorted by difficulty) centred on its median."""
    if len(ranked) <= n:
        return list(ranked)
    start = min(max(0, (len(ranked) - n) // 2), len(ranked) - n)
    return list(ranked[start:start + n])


def _paced(job: tuple[Spec, Sequence[Target], Sequence[Any]], index: int) -> float:
    spec, targets, tokens = job
    return pacing.pace(spec.pool, spec.height, spec.rule, spec.turn, targets[index], tokens, games=pacing.GAMES)[0]


def paced(spec: Spec, pool: Sequence[Candidate], tokens: Sequence[Any], workers: Any) -> list[Candidate]:
    """``pool`` with the pace measured for the ``PACED`` x cards candidates round the median
    difficulty, plain and coloured apart."""
    from dataclasses import replace

    ranked = sorted(pool, key=lambda c: (c.difficulty, c.index))
    chosen: list[Candidate] = []
    for coloured, count in ((False, spec.cards - spec.coloured), (True, spec.coloured)):
        if count:
            chosen += round_the_median([c for c in ranked if bool(c.target.colours) == coloured], PACED * count)
    targets = [c.target for c in chosen]
    measured = dict(zip((c.index for c in chosen), workers.map(_paced, (spec, targets, tuple(tokens)),
                                                                 range(len(targets)))))
    return [replace(c, pace=measured[c.index]) if c.index in measured else c for c in pool]


def _spread(spec: Spec, ranked: Sequence[Candidate], cards: int, bounds: tuple[float, float]) -> list[Candidate]:
    if cards == 0:
        return []
    assert not isinstance(spec.difficulty, str)  # comparable is chosen by comparable()
    shares = grading.tier_counts(cards, spec.difficulty)
    chosen: list[Candidate] = []
    for tier, n in shares.items():
        if tier is None:
            band = list(ranked)
        else:
            lo, hi = grading.band(tier, bounds)
            band = [c for c in ranked if lo <= c.difficulty < hi]
        picked = [band[int((i + 0.5) * len(band) / n)] for i in range(n)] if n and len(band) >= n else band[:n]
        chosen.extend(picked)
    if len(chosen) < cards:  # a thin tier: the nearest others
        rest = [c for c in ranked if c not in chosen]
        chosen.extend(rest[:cards - len(chosen)])
    return chosen


def choose_like(spec: Spec, pool: Sequence[Candidate]) -> list[Candidate]:
    """The cards of a deck like ``spec.like``, by CP-SAT: the reference's cubes per structure
    (in bands) scaled to the deck and the KS distance between the difficulties as small as
    the pool allows (``generators.common.like.bound_ks``)."""
    from ortools.sat.python import cp_model

    from generators.common.like import bound_ks, natural
    from generators.monolyth.reference import CUBES, cubes_band

    reference = spec.like
    assert reference is not None  # only called for a --like request
    ranked = sorted(pool, key=lambda c: (c.difficulty, c.index))
    model = cp_model.CpModel()
    x = [model.new_bool_var(f"c{c.index}") for c in ranked]
    model.add(sum(x) == spec.cards)
    model.add(sum(v for v, c in zip(x, ranked) if c.target.colours) == spec.coloured)
    cost: list[Any] = []
    for band, n in reference.profile.class_targets(CUBES, spec.cards, natural).items():
        off = model.new_int_var(0, spec.cards, f"b{band}")
        members = [v for v, c in zip(x, ranked) if cubes_band(c.target.heights) == band]
        model.add(sum(members) - n <= off)
        model.add(n - sum(members) <= off)
        cost.append(OFF_CLASS * off)
    cost += bound_ks(model, x, [c.difficulty for c in ranked], reference.difficulties, spec.cards, OFF_CLASS)
    model.minimize(sum(cost))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = spec.seed % (1 << 31)
    solver.parameters.max_deterministic_time = 1.0
    if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):  # pragma: no cover - always feasible
        return ranked[:spec.cards]
    return [c for v, c in zip(x, ranked) if solver.value(v)]


#: A card off the reference's cubes per structure costs this much (a card's worth of KS gap
#: past the aim costs ten times as much).
OFF_CLASS = 1_000_000


def generate(spec: Spec, progress: Callable[[int, int], None] | None = None) -> Deck:
    """Make the deck ``spec`` asks for (see the module docstring).

    Raises:
        RequestError: the request is impossible (before any work).
        Shortfall: fewer distinct buildable structures than cards within the budget.
    """
    spec.checked()
    seen: dict[tuple[int | None, ...], int] = {}
    taken = spec.like.keys if spec.like is not None else frozenset()
    for i in range(spec.budget):
        _, heights = draw(spec, i)
        if canonical(heights, spec.board, True) in taken:  # no reference structure repeats, turned or not
            continue
        seen.setdefault(canonical(heights, spec.board, spec.turn), i)
    fresh = sorted(seen.values())
    pool: list[Candidate] = []
    with Workers(spec.workers) as workers:
        for start in range(0, len(fresh), 8):
            for made in workers.map(make_candidate, spec, fresh[start:start + 8]):
                if made is not None:
                    pool.append(made)
            if progress is not None:
                progress(min(start + 8, len(fresh)), len(pool))
    if len(pool) < spec.cards:
        raise Shortfall(f"made {len(pool)} of {spec.cards} cards: {spec.budget} candidates (the budget) gave only "
                        f"{len(pool)} distinct buildable structures; raise attempts or ask for fewer cards",
                        len(pool), spec.cards)
    painted = sum(1 for c in pool if c.target.colours)
    if painted < spec.coloured or len(pool) - painted < spec.cards - spec.coloured:
        usable = min(painted, spec.coloured) + min(len(pool) - painted, spec.cards - spec.coloured)
        raise Shortfall(f"made {usable} of {spec.cards} cards: {spec.budget} candidates (the budget) gave {painted} "
                        f"distinct buildable coloured structures for {spec.coloured} coloured cards and "
                        f"{len(pool) - painted} plain ones for {spec.cards - spec.coloured}; raise attempts or ask "
                        f"for fewer cards", usable, spec.cards)
    tokens = (prophecies(spec.pool, spec.height, spec.prophecies, spec.pool.prophecy_tokens)
              if spec.prophecies or spec.pool.prophecy_tokens else ())
    if spec.difficulty == COMPARABLE and spec.like is None:
        with Workers(spec.workers) as workers:
            pool = paced(spec, pool, tokens, workers)
    chosen, bounds = choose(spec, pool)
    if spec.like is not None:
        chosen = choose_like(spec, pool)
    ordered = sorted(chosen, key=lambda c: (c.difficulty, c.index))
    cards = tuple(Card(n, c.target, c.difficulty, c.method, c.error, c.singles, c.steps, c.bound)
                  for n, c in enumerate(ordered, start=1))
    parameters = spec.parameters()
    parameters["tier_bounds"] = [bounds[0], bounds[1]]
    return Deck(cards, spec.pool, spec.height, spec.rule, spec.turn, spec.seed, parameters, deckfile.versions(),
                True, tokens)
