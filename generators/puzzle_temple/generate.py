"""Generate a Puzzle Temple deck whose every face is proved to tile its lock.

Nouns:
    Spec       what the designer asks for: the block set, the number of cards, blocks per
               face, flips, lock limits, holes, uniqueness, the difficulty target, the seed
               and the search budget. Validated as a whole: an impossible request fails at
               once, naming every parameter at fault.
    Option     one block set that tiles a lock, with its proof (a stored solution, the
               count of tilings) and its difficulty.
    Candidate  a lock with every block set (of the allowed sizes) that tiles it.
    Tier       easy / medium / hard: thirds of the difficulty the candidate pool offers.

How a deck is made, in two phases:

1. *Candidates* (parallel, each from its own seed ``seed:index`` so the result does not
   depend on the number of processes): some blocks in random orientations are laid side by
   side into a connected region, a lock, kept when it is hole-free (unless holes are
   allowed) and within the size limits. Then every block set of an allowed size and the
   lock's area is tried with the exact counter; a lock that at least six sets tile is a
   candidate, each set's tilings counted, one stored and checked by the independent
   verifier, its difficulty rated (``solver.rating``).
2. *Selection* (sequential): cards are chosen from the pool one by one, the scarcest tier
   first; for each, the unused lock and six of its sets that best keep every block's usage
   level and land the card's mean difficulty in its tier (every candidate weighed at once,
   ``_Options``). Locks the same up to rotation and reflection are kept once. A full deck
   then swaps single faces while that levels usage further (``rebalance``).

If the pool cannot fill the deck, more candidates are made and the deck is chosen again
after each round while the pool is small (``SMALL_POOL``), and beyond it (or for a ``--like``
deck) once the pool has grown by a quarter (``GROWTH``: a selection costs the pool's size a
card, so choosing after every round made a deck of N cards take time as N^1.6 and more),
until the budget (``attempts`` random locks) runs out. Then (``locks = auto``, the default) CP-SAT takes over: the joint
model of ``generators.puzzle_temple.lockmodel`` designs a lock and six different block sets
together inside the card's box (``lock_size``), which finds locks where random unions
rarely fit, such as four blocks on a 4x4 card; each design becomes a candidate like any
other (all its block sets counted, proved and rated). When the ``designs`` budget is spent
too, ``DeckShortfall`` says how many cards were made and why.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numpy as np

from generators.common import deckfile, grading
from generators.common.errors import RequestError, Shortfall
from generators.common.grading import Tier
from generators.common.pool import Pool
from generators.puzzle_temple import like
from generators.puzzle_temple.candidates import Candidate, Chosen, Option, rebalance
from generators.puzzle_temple.deck import DICE, FACES, Card, Deck, Face
from generators.puzzle_temple.lockmodel import LockModel
from generators.puzzle_temple.spec import LOCK_SOURCES, Spec
from solver import tiling
from solver.pieces import Piece, random_union
from solver.puzzle import Puzzle
from solver.rating import rate
from solver.shapes import Shape
from solver.verify import verify_solution

__all__ = ["Candidate", "Chosen", "DeckShortfall", "LOCK_SOURCES", "Option", "Spec", "generate", "random_union",
           "rebalance"]


#: Candidate locks made per round; fixed so that the pool never depends on the worker count.
BATCH = 48

#: The pool grows by this factor between two selections of a large pool or a --like deck
#: (see ``generate``).
GROWTH = 1.25

#: A pool of at most this many candidates is chosen from again after every round (each
#: choice is cheap; the 36- and 108-card decks stay what they were).
SMALL_POOL = 400

#: CP-SAT designs per round (each takes about a second).
DESIGN_BATCH = 8

#: CP-SAT's deterministic work limit per design (its own units, about seconds).
DESIGN_WORK = 1.0

#: A possible request the budget could not fill (exit status 3).
DeckShortfall = Shortfall


class CorpusMismatch(RequestError):
    """A ``--from-corpus`` corpus whose rows the counter or the rating do not bear out."""


@dataclass(frozen=True, slots=True)
class _Named:
    """A corpus as the workers see it: its name (its locks go with each batch)."""

    source: str


def _landscape(shape: Shape) -> Shape:
    """The lock turned, if need be, so that it is at least as wide as it is tall."""
    rows, cols = shape.extent()
    if rows <= cols:
        return shape
    return Shape(frozenset((c, -r) for r, c in shape.cells)).normalized()


def draw_lock(spec: Spec, index: int) -> Shape:
    """The lock random-union candidate ``index`` is made from (cheap: no tiling)."""
    rng = random.Random(f"puzzle-temple:{spec.seed}:{index}")
    lo, hi = spec.blocks_per_face
    chosen = rng.sample(spec.blocks, rng.randint(lo, hi))
    return _landscape(random_union(chosen, rng, spec.flips))


def make_candidate(spec: Spec, index: int) -> Candidate | None:
    """Random-union candidate number ``index`` of the pool (see the module docstring), or
    None when the lock drawn for it breaks a limit or fewer than six block sets tile it."""
    return _candidate(spec, index, draw_lock(spec, index))


def _fresh(spec: Spec, indices: range, seen: set[Shape], tried: set[Shape]) -> list[int]:
    """The indices whose lock is worth the tiling work: within the limits, not a lock the
    pool has (``seen``) and not one tried before up to the puzzle's own symmetries (``tried``:
    it would tile the same, so it would be dropped or fail again). Drawing a lock takes half
    a millisecond and making a candidate tens: a large deck draws the same locks again and
    again (at 1,000 cards most of the 60,000 draws), so they are sorted out here, before the
    workers; the pool is what it would be without."""
    areas = spec.areas()
    fresh = []
    for i in indices:
        lock = draw_lock(spec, i)
        if not _within_limits(spec, lock, areas):
            continue
        own = lock.canonical(flips=spec.flips)
        if own in tried or lock.canonical(flips=True) in seen:
            continue
        tried.add(own)
        fresh.append(i)
    return fresh


@lru_cache(maxsize=4)
def _lock_model(blocks: tuple[Piece, ...], size: tuple[int, int], per_face: tuple[int, int],
                cells: tuple[int, int], flips: bool, holes: bool) -> LockModel:
    return LockModel(blocks, size[0], size[1], per_face, cells, flips, holes, work=DESIGN_WORK)


def make_design(spec: Spec, index: int) -> Candidate | None:
    """CP-SAT design number ``index`` (see ``lockmodel``) as a candidate, or None when the
    work limit came first or the lock breaks a limit (``min_fill``)."""
    areas = sorted(spec.areas())
    cells = (areas[0], areas[-1])
    model = _lock_model(spec.blocks, spec.lock_size, spec.blocks_per_face, cells, spec.flips, spec.holes)
    designed = model.design(random.Random(f"puzzle-temple:cp-sat:{spec.seed}:{index}"), seed=index)
    if designed is None:
        return None
    return _candidate(spec, spec.budget + index, _landscape(designed[0]))


def corpus_locks(spec: Spec) -> list[tuple[Shape, tuple[tuple[tuple[str, ...], int, float], ...]]]:
    """The corpus's locks this request allows (size, cells, fill, holes, blocks per face,
    uniqueness), each laid landscape with its allowed block sets, in an order drawn from the
    seed; a lock needs six block sets."""
    mined = spec.from_corpus
    areas = spec.areas()
    width, height = spec.lock_size
    lo, hi = spec.blocks_per_face
    out = []
    for region, options in mined.locks:
        lock = _landscape(Shape.parse(region.replace("/", "\n")))
        rows, cols = lock.extent()
        if lock.size not in areas or cols > width or rows > height or lock.size < spec.min_fill * rows * cols:
            continue
        if not spec.holes and lock.holes():
            continue
        allowed = tuple(o for o in options if lo <= len(o[0]) <= hi and (o[1] == 1 or not spec.unique))
        if len(allowed) >= FACES:
            out.append((lock, allowed))
    random.Random(f"puzzle-temple:corpus:{spec.seed}").shuffle(out)
    return out


def make_from_corpus(job: tuple[Spec, int, tuple[Any, ...]], index: int) -> Candidate:
    """Corpus lock number ``index`` as a candidate: each of its block sets counted again by
    the counter (the corpus's count must hold) and a solution stored and checked; the
    difficulty is the corpus's (the chosen faces are rated again before the deck is made)."""
    spec, start, locks = job
    lock, options = locks[index - start]
    by_name = {b.name: b for b in spec.blocks}
    made = []
    for names, solutions, difficulty in options:
        puzzle = Puzzle(lock, tuple(by_name[n] for n in names), flips=spec.flips)
        result = tiling.count(puzzle, keep=1)
        if result.status is not tiling.Status.SOLVED or result.count != solutions or result.solution is None:
            raise CorpusMismatch(f"from-corpus: {spec.from_corpus.source}: the lock {_picture(lock)} with "
                                 f"{' '.join(names)} has {result.count} solution(s), the corpus says {solutions}; "
                                 f"the corpus is damaged: mine it again")
        if not verify_solution(puzzle, result.solution).ok:
            raise RuntimeError(f"the counter returned a tiling the verifier rejects: {result.solution}")
        made.append(Option(names, solutions, difficulty, result.solution))
    return Candidate(index, lock, tuple(made))


def _picture(lock: Shape) -> str:
    return lock.format().replace("\n", "/")


def _rated_again(spec: Spec, chosen: Chosen) -> None:
    """The chosen faces' corpus difficulties against the rating (a corpus is a file anyone
    may have edited): a difference is the corpus's fault, named, and no deck is made."""
    by_name = {b.name: b for b in spec.blocks}
    for candidate, options, _ in chosen:
        for o in options:
            bits = rate(Puzzle(candidate.lock, tuple(by_name[n] for n in o.blocks), flips=spec.flips)).bits
            if bits != o.difficulty:
                raise CorpusMismatch(f"from-corpus: {spec.from_corpus.source}: the lock {_picture(candidate.lock)} "
                                     f"with {' '.join(o.blocks)} rates {bits} bits, the corpus says {o.difficulty}; "
                                     f"the corpus is damaged: mine it again")


def _within_limits(spec: Spec, lock: Shape, areas: Mapping[int, Any]) -> bool:
    """Whether ``lock`` keeps the request's limits: an area some block sets cover, its box,
    its fill and (unless allowed) no holes."""
    rows, cols = lock.extent()
    width, height = spec.lock_size
    if lock.size not in areas or cols > width or rows > height or lock.size < spec.min_fill * rows * cols:
        return False
    return spec.holes or not lock.holes()


def _candidate(spec: Spec, index: int, lock: Shape) -> Candidate | None:
    """The lock as a candidate: every allowed block set counted, proved and rated."""
    areas = spec.areas()
    if not _within_limits(spec, lock, areas):
        return None
    options = []
    for subset in areas[lock.size]:
        puzzle = Puzzle(lock, subset, flips=spec.flips)
        result = tiling.count(puzzle, keep=1, limit=2 if spec.unique else None)
        if result.status is not tiling.Status.SOLVED or (spec.unique and result.count != 1):
            continue
        solution = result.solution
        if solution is None or not verify_solution(puzzle, solution).ok:
            raise RuntimeError(f"the counter returned a tiling the verifier rejects: {solution}")
        rating = rate(puzzle)
        if rating.tilings != result.count and not spec.unique:
            raise RuntimeError(f"the rating search counted {rating.tilings} tilings, the counter {result.count}")
        options.append(Option(tuple(b.name for b in subset), rating.tilings, rating.bits, solution))
    if len(options) < FACES:
        return None
    return Candidate(index, lock, tuple(options))


def tier_bounds(pool: Sequence[Candidate]) -> tuple[float, float]:
    """The difficulties that split the pool's block sets into thirds (easy below the first,
    hard from the second on)."""
    low, high = grading.quantile_bounds([o.difficulty for c in pool for o in c.options], 3)
    return low, high


def _in_tier(options: Sequence[Option], tier: Tier | None, bounds: tuple[float, float]) -> bool:
    """Whether a card of these faces lies in ``tier`` (the one rule: ``grading.tier_of`` of
    ``grading.mean``, as the verifier computes it)."""
    return tier is None or grading.tier_of(grading.mean(o.difficulty for o in options), bounds) is tier


class _Options:
    """The pool's block sets as flat arrays, each candidate's side by side from ``starts``: the
    selection weighs every candidate of the pool for every card, so it works on the whole pool
    at once (numpy) rather than a candidate at a time.

    Usage costs are kept as sums: a block set's cost is the usage of its blocks before the card
    (``base``) plus what the card's block sets picked so far add, and the latter grows by the
    blocks two sets of one candidate share (``overlap``, counted once for the pool)."""

    def __init__(self, pool: Sequence[Candidate], names: Sequence[str]) -> None:
        index = {name: i for i, name in enumerate(names)}
        for c in pool:
            for o in c.options:
                for b in o.blocks:
                    index.setdefault(b, len(index))
        self.names = list(index)
        blank = len(index)  # a block set shorter than the widest is padded with this column
        width = max(len(o.blocks) for c in pool for o in c.options)
        blocks: list[list[int]] = []
        difficulty: list[float] = []
        rank: list[int] = []
        owner: list[int] = []
        starts: list[int] = []
        overlap: list[np.ndarray] = []
        for ci, c in enumerate(pool):
            starts.append(len(difficulty))
            order = sorted(range(len(c.options)), key=lambda k: c.options[k].blocks)
            ranks = [0] * len(order)
            for place, k in enumerate(order):
                ranks[k] = place
            counts = np.zeros((len(c.options), blank), dtype=np.int64)
            for k, o in enumerate(c.options):
                blocks.append([index[b] for b in o.blocks] + [blank] * (width - len(o.blocks)))
                difficulty.append(o.difficulty)
                rank.append(ranks[k])
                owner.append(ci)
                for b in o.blocks:
                    counts[k, index[b]] += 1
            overlap.append((counts @ counts.T).ravel())
        self.pool = pool
        self.blocks = np.array(blocks, dtype=np.int64).reshape(len(difficulty), width)
        self.difficulty = np.array(difficulty, dtype=np.float64)
        self.rank = np.array(rank, dtype=np.int64)
        self.owner = np.array(owner, dtype=np.int64)
        self.starts = np.array(starts, dtype=np.int64)
        self.local = np.arange(len(difficulty)) - self.starts[self.owner]
        self.size = np.array([len(c.options) for c in pool], dtype=np.int64)
        self.pairs = (np.cumsum(self.size * self.size) - self.size * self.size)[self.owner] \
            + self.local * self.size[self.owner]  # where block set o's row of overlaps starts
        self.overlap = np.concatenate(overlap).astype(np.float64)
        self.own = self.overlap[self.pairs + self.local]  # a block set's overlap with itself

    def choose(self, usage: Counter[str], tier: Tier | None,
               bounds: tuple[float, float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For every candidate at once: the six block sets that keep block usage level and aim
        at the middle of ``tier`` (picked one at a time, the lowest cost first: the usage of its
        blocks, plus 4 x the distance of the mean so far from the aim; ties to the first block
        set in name order), whether their mean lies in ``tier``, and the spread of usage after
        them (the sum of squared counts; lower is better). Returns ``(picks, fits, spread)``:
        picks[c] are indices into this table's block sets."""
        goal = grading.band(tier, bounds) if tier is not None else None
        if goal is None:
            aim = None
        elif math.isinf(goal[0]):
            aim = goal[1] - 0.5
        elif math.isinf(goal[1]):
            aim = goal[0] + 0.5
        else:
            aim = (goal[0] + goal[1]) / 2
        n = len(self.starts)
        base = np.array([usage[name] for name in self.names] + [0], dtype=np.float64)
        alone = base[self.blocks].sum(axis=1)  # each block set's cost before the card
        cost = alone.copy()  # ... and with the card's picks so far
        total = np.zeros(n)  # the picked block sets' difficulties, summed in order
        squares = np.zeros(n)  # what the picks add to the sum of squared usage counts
        taken = np.zeros(len(self.difficulty), dtype=bool)
        picks = np.empty((n, FACES), dtype=np.int64)
        for step in range(FACES):
            weigh = cost if aim is None else \
                cost + 4 * np.abs((total[self.owner] + self.difficulty) / (step + 1) - aim)
            weigh = np.where(taken, np.inf, weigh)
            low = np.minimum.reduceat(weigh, self.starts)
            ties = weigh == low[self.owner]
            first = np.minimum.reduceat(np.where(ties, self.rank, len(self.rank)), self.starts)
            chosen = np.flatnonzero(ties & (self.rank == first[self.owner]))
            picks[:, step] = chosen
            taken[chosen] = True
            # (u + a + p)^2 - (u + a)^2 summed over the blocks: 2 (u + a).p + p.p
            squares += 2 * cost[chosen] + self.own[chosen]
            total = total + self.difficulty[chosen]
            cost = cost + self.overlap[self.pairs + self.local[chosen][self.owner]]
        spread = float((base * base).sum()) + squares
        if tier is None:
            fits = np.ones(n, dtype=bool)
        else:
            # the tier as the verifier computes it (grading.mean, an exact sum); the plain sum
            # decides it except within a hair of a bound, where the exact mean is taken
            mean = total / FACES
            floor, ceiling = grading.band(tier, bounds)
            fits = (mean >= floor) & (mean < ceiling)  # grading.tier_of's bands
            near = np.flatnonzero((np.abs(mean - bounds[0]) < 1e-6) | (np.abs(mean - bounds[1]) < 1e-6))
            for c in near.tolist():
                fits[c] = _in_tier([self.option(k) for k in picks[c].tolist()], tier, bounds)
        return picks, fits, spread

    def option(self, k: int) -> Option:
        """The block set at index ``k``."""
        c = int(self.owner[k])
        return self.pool[c].options[k - int(self.starts[c])]


def select(spec: Spec, pool: Sequence[Candidate], bounds: tuple[float, float]) -> Chosen:
    """Cards from the pool (see the module docstring); possibly fewer than asked for. A full
    deck then has its faces swapped where that levels block usage (``rebalance``)."""
    usage: Counter[str] = Counter({b.name: 0 for b in spec.blocks})
    counts = grading.tier_counts(spec.cards, spec.difficulty)
    table = _Options(pool, [b.name for b in spec.blocks])
    # the scarcest tier first: fewest candidates able to meet it per card wanted
    able = {t: int(table.choose(usage, t, bounds)[1].sum()) for t in counts}
    order = sorted(counts, key=lambda t: (able[t] / max(counts[t], 1), str(t)))
    used = np.zeros(len(pool), dtype=bool)
    chosen: Chosen = []
    for tier in order:
        for _ in range(counts[tier]):
            picks, fits, spread = table.choose(usage, tier, bounds)
            spread[~fits | used] = np.inf
            best = int(np.argmin(spread))  # the first of the lowest, in pool order
            if not np.isfinite(spread[best]):
                break
            options = [table.option(k) for k in picks[best].tolist()]
            used[best] = True
            usage.update(b for o in options for b in o.blocks)
            chosen.append((pool[best], options, tier))
    if len(chosen) == spec.cards:
        rebalance(chosen, usage, lambda trial, tier, old, new: _in_tier(trial, tier, bounds))
    return chosen


def _complete(spec: Spec, chosen: Chosen, pool: Sequence[Candidate]) -> bool:
    """Whether the deck is full (and, for a --like request, matches the reference well
    enough, or the pool holds ``like.POOL`` locks per card and at least ``like.POOL_MIN``,
    beyond which more candidates are not worth making)."""
    if len(chosen) < spec.cards:
        return False
    return (spec.like is None or like.matched(chosen, spec.like, spec.cards)
            or len(pool) >= max(like.POOL * spec.cards, like.POOL_MIN))


def generate(spec: Spec, progress: Any = None) -> Deck:
    """Make the deck ``spec`` asks for (see the module docstring).

    Args:
        spec: the request.
        progress: called as ``progress(tried, candidates)`` after each round, if given.

    Raises:
        RequestError: the request is impossible (before any work is done).
        DeckShortfall: the budget ran out before the deck was full; nothing is returned.
    """
    spec.checked()
    pool: list[Candidate] = []
    seen: set[Shape] = set(spec.like.locks) if spec.like is not None else set()
    sent: set[Shape] = set()  # the random locks sent to be made, up to the puzzle's symmetries
    chosen: Chosen = []
    bounds = (0.0, 0.0)
    tried = designed = selected = 0
    rounds: list[tuple[Any, int, int, int]] = \
        [(make_candidate, spec.budget, BATCH, 4), (make_design, spec.design_budget, DESIGN_BATCH, 1)]
    mined = corpus_locks(spec) if spec.from_corpus is not None else []
    if spec.from_corpus is not None:
        rounds = [(make_from_corpus, min(spec.budget, len(mined)), BATCH, 4)]
        light = replace(spec, from_corpus=_Named(spec.from_corpus.source), like=None)  # what workers need
    with Pool(spec.workers) as workers:
        for make, budget, batch, chunk in rounds:
            done = 0
            while done < budget and not _complete(spec, chosen, pool):
                indices = range(done, min(done + batch, budget))
                job = (light, indices.start, tuple(mined[indices.start:indices.stop])) \
                    if make is make_from_corpus else spec
                wanted: Sequence[int] = _fresh(spec, indices, seen, sent) if make is make_candidate else indices
                for made in workers.map(make, job, wanted, chunk):
                    if made is None:
                        continue
                    key = made.lock.canonical(flips=True)
                    if key not in seen:
                        seen.add(key)
                        pool.append(made)
                done = indices.stop
                if make is not make_design:
                    tried = done
                else:
                    designed = done
                if progress is not None:
                    progress(tried + designed, len(pool))
                # a selection weighs the whole pool for every card: past SMALL_POOL candidates
                # (and for a --like deck always) redo it only once the pool has grown by a
                # quarter (or the budget is spent), so that its cost stays a small multiple of
                # the last one's; a round of CP-SAT designs adds few candidates at a second
                # each, so a plain deck is chosen again after each
                grown = len(pool) >= max(spec.cards, selected * GROWTH) or done == budget
                often = spec.like is None and (len(pool) <= SMALL_POOL or make is make_design)
                if len(pool) >= spec.cards and (often or grown):
                    bounds = tier_bounds(pool)
                    chosen = select(spec, pool, bounds) if spec.like is None else like.select_like(spec, pool)
                    selected = len(pool)
    if spec.from_corpus is not None and len(chosen) >= spec.cards:
        _rated_again(spec, chosen)
    if len(chosen) < spec.cards:
        cards_made = len(chosen) if len(pool) >= spec.cards else len(pool)
        why = (f"only {len(pool)} distinct locks had {FACES} block sets that tile them"
               if len(pool) < spec.cards else
               f"the {len(pool)} usable locks could not meet the difficulty target "
               f"{grading.target_text(spec.difficulty)} for every card")
        if spec.from_corpus is not None:
            effort = (f"{tried} of the {len(mined)} locks of {spec.from_corpus.source} this request allows"
                      + (" (the budget)" if tried < len(mined) else ""))
            advice = "raise attempts, mine a larger box or more blocks per face, widen lock-cells or lock-size"
        else:
            effort = (f"{tried} random locks" + (f" and {designed} CP-SAT designs" if spec.design_budget else "")
                      + " (the budget)")
            advice = "raise attempts or designs, widen lock-cells or lock-size"
        raise DeckShortfall(
            f"made {cards_made} of {spec.cards} cards: after {effort}, {why}; {advice}, or relax the difficulty "
            f"target" + (" or uniqueness" if spec.unique else ""), cards_made, spec.cards)
    return _deck(spec, chosen, bounds)


def _deck(spec: Spec, chosen: Chosen, bounds: tuple[float, float]) -> Deck:
    cards = []
    made = sorted(chosen, key=lambda co: (grading.mean(o.difficulty for o in co[1]), co[0].index))
    for number, (candidate, options, _) in enumerate(made, start=1):
        ordered = sorted(options, key=lambda o: (o.difficulty, o.blocks))
        faces = tuple(Face(die, o.blocks, o.solution, o.solutions, o.difficulty)
                      for die, o in zip(DICE, ordered))
        cards.append(Card(number, candidate.lock, faces))
    parameters = spec.parameters()
    parameters["tier_bounds"] = [bounds[0], bounds[1]]
    return Deck(tuple(cards), spec.blocks, spec.seed, parameters, deckfile.versions())
