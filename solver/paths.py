"""Runs of coloured crystals paid along the lines of a grid (``solver.grids``).

Nouns:
    Grid     slots joined by lines (``solver.grids.Grid``).
    State    a crystal per slot: a colour index (``COLOURLESS`` is 0, the colours 1..) or
             ``EMPTY`` (-1).
    Run      the colours a payment must follow, in order: a colour index per crystal, 0
             (colourless) taking any crystal (a coloured crystal may stand in for a
             colourless one).
    Path     slots pulled one after another along lines, no slot twice: ``paths(grid, k)``
             lists every one of ``k`` slots in both directions (a run is read in order, so
             a path and its reverse pay different runs).

A run is *payable* on a grid when a path of its length exists; a state *pays* it when some
path holds, position by position, crystals that match (``paying``).

What a payment costs from a state (``actions``): each crystal of the run not already in
place on the path takes one action: a swap that brings a matching crystal from elsewhere
on the grid (a crystal not itself in place; each used once), or, where the grid has none
to spare, collecting one from the supply, which takes 1/p draws on average for a colour
drawn with chance p (one draw for a colourless position: any crystal will do). The least
over every path of the run's length is the state's cost. ``min_swaps`` is the exact least
number of swaps alone (a swap may put two crystals in place at once), by search.

The compiled loops use numba; ``paths`` enumerates by depth-first search.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from solver.grids import Grid

COLOURLESS = 0
EMPTY = -1


def paths(grid: Grid, k: int) -> np.ndarray:
    """Every directed simple path of ``k`` slots, as rows of slot indices (in a fixed
    order: by first slot, then depth-first)."""
    if k < 1:
        raise ValueError("a path has at least one slot")
    return _paths(grid.adjacency(), k)


@njit(cache=True)
def _paths(adj: np.ndarray, k: int) -> np.ndarray:  # pragma: no cover - compiled
    n = adj.shape[0]
    out = []
    path = np.zeros(k, dtype=np.int64)
    used = np.zeros(n, dtype=np.bool_)
    nxt = np.zeros(k, dtype=np.int64)
    for start in range(n):
        path[0] = start
        used[start] = True
        depth = 0
        nxt[0] = 0
        if k == 1:
            out.append(path.copy())
            used[start] = False
            continue
        while depth >= 0:
            if depth == k - 1:
                out.append(path.copy())
                used[path[depth]] = False
                depth -= 1
                continue
            here = path[depth]
            moved = False
            while nxt[depth] < n:
                b = nxt[depth]
                nxt[depth] += 1
                if adj[here, b] and not used[b]:
                    depth += 1
                    path[depth] = b
                    used[b] = True
                    nxt[depth] = 0
                    moved = True
                    break
            if not moved:
                used[path[depth]] = False
                depth -= 1
    result = np.empty((len(out), k), dtype=np.int64)
    for i in range(len(out)):
        result[i] = out[i]
    return result


def longest(grid: Grid) -> int:
    """The most slots a simple path of the grid holds."""
    k = 1
    while k < grid.slots and len(paths(grid, k + 1)):
        k += 1
    return k


@njit(cache=True, nogil=True)
def _fits(crystal: int, need: int) -> bool:  # pragma: no cover - compiled
    return crystal >= 0 and (need == COLOURLESS or crystal == need)


@njit(cache=True, nogil=True)
def _paying(state: np.ndarray, ps: np.ndarray, run: np.ndarray) -> int:  # pragma: no cover - compiled
    for i in range(ps.shape[0]):
        ok = True
        for j in range(run.shape[0]):
            if not _fits(state[ps[i, j]], run[j]):
                ok = False
                break
        if ok:
            return i
    return -1


def paying(state: Sequence[int], ps: np.ndarray, run: Sequence[int]) -> int:
    """The index of the first path in ``ps`` whose crystals pay ``run``, or -1."""
    return int(_paying(np.asarray(state, dtype=np.int64), ps, np.asarray(run, dtype=np.int64)))


def paying_paths(state: Sequence[int], ps: np.ndarray, run: Sequence[int]) -> np.ndarray:
    """The indices of every path in ``ps`` whose crystals pay ``run`` (the colourless rule:
    any crystal pays a colourless position, an empty slot pays nothing)."""
    if not len(ps):
        return np.zeros(0, dtype=np.int64)
    held = np.asarray(state, dtype=np.int64)[ps]
    want = np.asarray(run, dtype=np.int64)[None, :]
    fits = (held >= 0) & ((want == COLOURLESS) | (held == want))
    return np.flatnonzero(fits.all(axis=1))


@njit(cache=True, nogil=True)
def _prefixes(ps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """For ``_actions``: ``shared[i]``, how many first slots path ``i`` shares with path
    ``i - 1``; ``after[i, d]``, the first path past ``i`` that differs from it within its
    first ``d + 1`` slots (``paths`` lists paths depth-first, so the paths that share a
    prefix come one after another)."""
    n, k = ps.shape
    shared = np.zeros(n, dtype=np.int64)
    for i in range(1, n):
        d = 0
        while d < k and ps[i, d] == ps[i - 1, d]:
            d += 1
        shared[i] = d
    after = np.empty((n, k), dtype=np.int64)
    nxt = np.full(k, n, dtype=np.int64)
    for i in range(n - 1, -1, -1):
        for d in range(k):
            after[i, d] = nxt[d]
        for d in range(shared[i], k):
            nxt[d] = i
    return shared, after


#: How far a prefix's cost must pass the best cost before its paths are ruled out: the
#: prefix's figure is summed in another order than a path's, so it may differ in its last bits.
_MARGIN = 1e-9


@njit(cache=True, nogil=True)
def _term(c: int, need: np.ndarray, used: np.ndarray, total: np.ndarray, draw: np.ndarray) -> float:  # pragma: no cover
    """What colour ``c``'s missing crystals cost: one action each while the grid has spares
    of it, ``draw[c]`` each beyond."""
    moved = min(need[c], total[c] - used[c])
    return float(moved + (need[c] - moved) * draw[c])


@njit(cache=True, nogil=True)
def _actions(state: np.ndarray, ps: np.ndarray, shared: np.ndarray, after: np.ndarray, run: np.ndarray,
             draw: np.ndarray, colours: int, bound: float = np.inf) -> float:  # pragma: no cover - compiled
    # Paths are read as the tree of their prefixes (``_prefixes``): a path reads only the
    # slots past the prefix it shares with the one before. A prefix's cost (the path's cost
    # with its other slots left out; every draw costs at least one action) only grows as
    # the path goes on, so a prefix that costs ``best`` already rules out every path that
    # starts with it. ``bound``: a cost already known (the other run's). A path that
    # survives is costed in full, as it always was, so the least cost is the same figure.
    total = np.zeros(colours, dtype=np.int64)
    for s in range(state.shape[0]):
        if state[s] >= 0:
            total[state[s]] += 1
    best = bound
    n, k = ps.shape
    used = np.zeros(colours, dtype=np.int64)  # crystals in place on the prefix read, by colour
    need = np.zeros(colours, dtype=np.int64)  # crystals it lacks, by colour
    low = np.zeros(k + 1, dtype=np.float64)  # low[d]: the cost of the first d slots
    read = 0  # slots of the last path read into used, need and low
    last = 0  # that path
    i = 0
    while i < n:
        keep = min(shared[i], read) if i > 0 else 0
        for j in range(read - 1, keep - 1, -1):  # back to the prefix this path shares
            crystal = state[ps[last, j]]
            if _fits(crystal, run[j]):
                used[crystal] -= 1
            else:
                need[run[j]] -= 1
        read = keep
        last = i
        cut = -1
        for j in range(keep, k):
            crystal = state[ps[i, j]]
            if _fits(crystal, run[j]):  # in place: one spare fewer of its colour
                c, counts, colourless = crystal, used, 0.0
            else:  # missing: a colourless one costs one action, whatever the spares
                c, counts, colourless = run[j], need, 1.0
            if c == COLOURLESS:
                counts[c] += 1
                grow = colourless
            else:
                before = _term(c, need, used, total, draw)
                counts[c] += 1
                grow = _term(c, need, used, total, draw) - before
            low[j + 1] = low[j] + grow
            read = j + 1
            if low[j + 1] >= best + _MARGIN:
                cut = j
                break
        if cut < 0 and low[k] >= best + _MARGIN:  # the shared prefix alone costs too much
            cut = keep - 1
        if cut >= 0:
            while cut > 0 and low[cut] >= best + _MARGIN:  # a shorter prefix already did
                cut -= 1
            i = after[i, cut]
            continue
        cost = 0.0
        left = 0
        for c in range(1, colours):
            spare = total[c] - used[c]
            moved = min(need[c], spare)
            cost += moved + (need[c] - moved) * draw[c]
            left += spare - moved
        left += total[COLOURLESS] - used[COLOURLESS]
        moved = min(need[COLOURLESS], left)
        cost += moved + (need[COLOURLESS] - moved) * draw[COLOURLESS]
        if cost < best:
            best = cost
            if best == 0.0:
                break
        i += 1
    return best


def draw_costs(supply: Sequence[int]) -> np.ndarray:
    """Expected draws for a crystal of each colour (``supply[c]`` crystals of colour c in
    the bag): 1/p for a colour, one draw for colourless (any crystal serves there)."""
    total = sum(supply)
    out = np.array([total / n if n else np.inf for n in supply], dtype=np.float64)
    out[COLOURLESS] = 1.0
    return out


def actions(state: Sequence[int], ps: np.ndarray, run: Sequence[int], supply: Sequence[int]) -> float:
    """A state's cost to pay ``run`` (see the module docstring): the least over the paths."""
    if not len(ps):
        return float("inf")
    shared, after = _prefixes(ps)
    return float(_actions(np.asarray(state, dtype=np.int64), ps, shared, after, np.asarray(run, dtype=np.int64),
                          draw_costs(supply), len(supply)))


@dataclass(frozen=True, slots=True)
class Measured:
    """A run (the cheaper of two) over seeded mid-game grids: the mean cost in actions, its
    standard error, the share of grids that already pay, and the grids played."""

    mean: float
    error: float
    paid: float
    runs: int


@njit(cache=True, nogil=True)
def _measure(runs: int, seed: int, slots: int, supply: np.ndarray, ps_a: np.ndarray, run_a: np.ndarray,
             ps_b: np.ndarray, run_b: np.ndarray, draw: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    np.random.seed(seed)
    colours = supply.shape[0]
    bag = np.empty(supply.sum(), dtype=np.int64)
    at = 0
    for c in range(colours):
        for _ in range(supply[c]):
            bag[at] = c
            at += 1
    out = np.empty(runs, dtype=np.float64)
    state = np.empty(slots, dtype=np.int64)
    shared_a, after_a = _prefixes(ps_a)
    shared_b, after_b = _prefixes(ps_b)
    for r in range(runs):
        # a full grid mid-game: ``slots`` crystals from the bag, in random slots
        for i in range(slots):
            j = i + np.random.randint(bag.shape[0] - i)
            bag[i], bag[j] = bag[j], bag[i]
            state[i] = bag[i]
        cost = _actions(state, ps_a, shared_a, after_a, run_a, draw, colours) if ps_a.shape[0] else np.inf
        if ps_b.shape[0] and cost > 0.0:
            cost = min(cost, _actions(state, ps_b, shared_b, after_b, run_b, draw, colours, cost))
        out[r] = cost
    return out


def measure(grid: Grid, runs: Sequence[Sequence[int]], supply: Sequence[int], *, games: int = 2000,
            seed: int = 0) -> Measured:
    """The expected cost of paying the cheaper of ``runs`` (a layer's left and right runs)
    from a full grid mid-game: ``games`` seeded grids, each its slots filled with crystals
    drawn from the supply's bag without replacement and placed at random (the player has
    been collecting for other curses too), each costed by ``actions``.

    Raises:
        ValueError: no run is payable on the grid (no path of its length).
    """
    table = [(paths(grid, len(r)), np.asarray(r, dtype=np.int64)) for r in runs]
    table = [(ps, r) for ps, r in table if len(ps)]
    if not table:
        raise ValueError("no run is payable on this grid: no path has its length")
    if sum(supply) < grid.slots:
        raise ValueError(f"the supply holds {sum(supply)} crystals, fewer than the grid's {grid.slots} slots")
    table.sort(key=lambda t: len(t[1]))  # the shorter run first: its cost bounds the longer one's search
    (ps_a, run_a), (ps_b, run_b) = table[0], table[-1] if len(table) > 1 else (np.zeros((0, 1), np.int64),
                                                                               np.zeros(1, np.int64))
    costs = _measure(games, seed % (1 << 31), grid.slots, np.asarray(supply, dtype=np.int64), ps_a, run_a, ps_b,
                     run_b, draw_costs(supply))
    error = float(costs.std(ddof=1) / np.sqrt(games)) if games > 1 else 0.0
    return Measured(float(costs.mean()), error, float((costs == 0).mean()), games)


def from_empty(runs: Sequence[Sequence[int]], supply: Sequence[int]) -> float:
    """The exact expected crystals collected, from an empty grid, until the cheaper of
    ``runs`` can be paid, each crystal drawn with the supply's odds (with replacement) and
    placed well: into a still-open position of a run that needs its colour (a colour's own
    position before a colourless one). Lines do not matter here (a grid has room for both
    runs' paths); ``measure`` is the grid's own figure.

    A dynamic programme over what each run still needs: per colour, the open positions.
    """
    odds = np.asarray(supply, dtype=np.float64) / sum(supply)
    colours = len(supply)

    def needs(run: Sequence[int]) -> tuple[int, ...]:
        return tuple(sum(1 for c in run if c == k) for k in range(colours))

    memo: dict[tuple[tuple[int, ...], ...], float] = {}

    def after(need: tuple[int, ...], crystal: int) -> tuple[int, ...]:
        out = list(need)
        if crystal != COLOURLESS and out[crystal]:
            out[crystal] -= 1
        elif out[COLOURLESS]:
            out[COLOURLESS] -= 1
        return tuple(out)

    def value(state: tuple[tuple[int, ...], ...]) -> float:
        if any(not any(n) for n in state):
            return 0.0
        if state in memo:
            return memo[state]
        stay = 0.0
        total = 0.0
        for crystal in range(colours):
            if odds[crystal] == 0:
                continue
            # a crystal fills one open position of one run (a slot holds one crystal): the best
            options = []
            for i in range(len(state)):
                moved = after(state[i], crystal)
                if moved != state[i]:
                    options.append(tuple(moved if j == i else n for j, n in enumerate(state)))
            if not options:
                stay += odds[crystal]
                continue
            total += odds[crystal] * min(value(o) for o in options)
        result = (1.0 + total) / (1.0 - stay)
        memo[state] = result
        return result

    return float(value(tuple(needs(r) for r in runs)))


def min_swaps(state: Sequence[int], ps: np.ndarray, run: Sequence[int], *, limit: int = 8) -> int | None:
    """The exact least number of swaps (of any two slots' crystals) after which some path of
    ``ps`` pays ``run``, by iterative deepening (a swap changes two slots, so half the
    crystals out of place, rounded up, bounds what is left) over swaps that put a matching
    crystal into a path position that lacks one (some optimal order has every swap do so);
    None beyond ``limit`` swaps or when the grid lacks the crystals."""
    start = tuple(int(v) for v in state)
    rows = [tuple(int(v) for v in p) for p in ps]
    need = [int(c) for c in run]

    def fits(crystal: int, want: int) -> bool:
        return crystal >= 0 and (want == COLOURLESS or crystal == want)

    def wrong(s: tuple[int, ...], p: tuple[int, ...]) -> int:
        return sum(1 for slot, want in zip(p, need) if not fits(s[slot], want))

    def feasible(p: tuple[int, ...]) -> bool:
        counts: dict[int, int] = {}
        for v in start:
            if v >= 0:
                counts[v] = counts.get(v, 0) + 1
        coloured = [c for c in need if c != COLOURLESS]
        for c in set(coloured):
            if counts.get(c, 0) < coloured.count(c):
                return False
        return sum(counts.values()) >= len(need)

    candidates = [p for p in rows if feasible(p)]
    if not candidates:
        return None

    def search(s: tuple[int, ...], p: tuple[int, ...], depth: int, seen: dict[tuple[int, ...], int]) -> bool:
        w = wrong(s, p)
        if w == 0:
            return True
        if (w + 1) // 2 > depth or seen.get(s, -1) >= depth:
            return False
        seen[s] = depth
        for slot, want in zip(p, need):
            if fits(s[slot], want):
                continue
            for other in range(len(s)):
                if other == slot or not fits(s[other], want):
                    continue
                t = list(s)
                t[slot], t[other] = t[other], t[slot]
                if search(tuple(t), p, depth - 1, seen):
                    return True
        return False

    for depth in range(limit + 1):
        for p in candidates:
            if search(start, p, depth, {}):
                return depth
    return None
