"""How many turns a target takes when the pieces come at random (``solver.heightmap``'s
nouns).

``expected_turns`` computes, by dynamic programming over every height map the target allows,
the expected number of turns to reach the target when each turn offers ``offer`` pieces
drawn from the pool (in proportion to the counts, with replacement) and the player places
the best of them, or a single of an offered piece's colour, optimally. ``simulate_turns``
plays seeded games of a greedy player where the height maps are too many. Both loops are
compiled with numba.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from solver.heightmap import CONTAIN, Board, Kind, Placement, Target, placements, single

# -- expected turns ---------------------------------------------------------------------------------------

#: The most height maps ``expected_turns`` enumerates.
MAX_STATES = 4_000_000


class TooManyStates(ValueError):
    pass


def state_count(target: Target, board: Board) -> int:
    n = 1
    for limit in target.limits(board):
        n *= limit + 1
    return n


@dataclass(frozen=True, slots=True)
class _Compiled:
    """A target's placements as arrays for the compiled loops: bucketed by (anchor column,
    its base), each row with all its columns and bases, the state index it adds, its kind
    and its cubes; singles are kinds ``kinds + colour``."""

    limits: np.ndarray
    strides: np.ndarray
    goal: np.ndarray
    contain: bool
    cols: np.ndarray
    bases: np.ndarray
    adds: np.ndarray
    delta: np.ndarray
    kind: np.ndarray
    size: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    probs: np.ndarray
    colour_of: np.ndarray
    kinds: int
    colours: int


def _compile(kinds: Sequence[Kind], board: Board, target: Target, singles: bool) -> _Compiled:
    limits = target.limits(board)
    weights = np.array([k.count if k.count is not None else 1 for k in kinds], dtype=np.float64)
    colours = sorted({k.colour for k in kinds})
    moves = placements(kinds, board, target)
    if singles:
        moves += [Placement(len(kinds) + i, p.cubes, p.base)
                  for i, colour in enumerate(colours)
                  for p in placements([single(colour)], board, target)]
    strides = np.ones(board.columns, dtype=np.int64)
    for c in range(1, board.columns):
        strides[c] = strides[c - 1] * (limits[c - 1] + 1)
    order = sorted(range(len(moves)), key=lambda i: (moves[i].base[0][0], moves[i].base[0][1]))
    width = max(len(p.base) for p in moves) if moves else 1
    cols = np.full((len(moves), width), -1, dtype=np.int64)
    bases = np.zeros((len(moves), width), dtype=np.int64)
    adds = np.zeros((len(moves), width), dtype=np.int64)
    delta = np.zeros(len(moves), dtype=np.int64)
    kind = np.zeros(len(moves), dtype=np.int64)
    size = np.zeros(len(moves), dtype=np.int64)
    starts = np.zeros((board.columns, board.height + 2), dtype=np.int64)
    ends = np.zeros((board.columns, board.height + 2), dtype=np.int64)
    for row, i in enumerate(order):
        p = moves[i]
        for j, (c, b, n) in enumerate(p.base):
            cols[row, j], bases[row, j], adds[row, j] = c, b, n
            delta[row] += n * strides[c]
        kind[row] = p.kind
        # what the greedy player counts: cubes in the columns the target asks for
        size[row] = sum(n for c, _, n in p.base if target.heights[c] is not None)
    for row in range(len(order)):
        c, b = int(cols[row, 0]), int(bases[row, 0])
        if ends[c, b] == 0:
            starts[c, b] = row
        ends[c, b] = row + 1
    return _Compiled(np.array(limits, dtype=np.int64), strides,
                     np.array([-1 if t is None else t for t in target.heights], dtype=np.int64),
                     target.rule == CONTAIN, cols, bases, adds, delta, kind, size, starts, ends,
                     weights / weights.sum(), np.array([colours.index(k.colour) for k in kinds], dtype=np.int64),
                     len(kinds), len(colours))


def expected_turns(kinds: Sequence[Kind], board: Board, target: Target, *, offer: int = 4,
                   singles: bool = True, max_states: int = MAX_STATES) -> float:
    """The expected number of turns from an empty board to ``target`` (see the module
    docstring), exact.

    Raises:
        TooManyStates: the target allows more than ``max_states`` height maps.
        ValueError: the target cannot be reached with these pieces (no singles, say).
    """
    states = state_count(target, board)
    if states > max_states:
        raise TooManyStates(f"{states} height maps, more than {max_states}")
    k = _compile(kinds, board, target, singles)
    value = _dp(states, k.limits, k.strides, k.goal, k.contain, k.cols, k.bases, k.delta, k.kind, k.starts,
                k.ends, k.probs, k.colour_of, k.kinds, k.colours, singles, offer)
    result = float(value[0])
    if not np.isfinite(result):
        raise ValueError("the target cannot be reached with these pieces")
    return result


@dataclass(frozen=True, slots=True)
class Simulated:
    """Turns to the target over seeded games: the mean, its standard error, the games."""

    mean: float
    error: float
    runs: int


#: The turns a simulated game may take before it counts as stuck.
MAX_TURNS = 200


def simulate_turns(kinds: Sequence[Kind], board: Board, target: Target, *, offer: int = 4, runs: int = 2000,
                   seed: int = 0, singles: bool = True) -> Simulated:
    """The turns to ``target`` over ``runs`` seeded games in which each turn offers
    ``offer`` pieces drawn as in ``expected_turns`` and the player takes, greedily, the
    placement that adds the most cubes to the columns the target asks for (the lowest
    first, equal ones at random; a single of an offered colour when no piece fits): for
    targets with too many height maps to solve exactly.

    Raises:
        ValueError: some game did not reach the target within ``MAX_TURNS`` turns.
    """
    k = _compile(kinds, board, target, singles)
    turns = _simulate(runs, seed % (1 << 31), k.limits, k.goal, k.contain, k.cols, k.bases, k.adds, k.kind, k.size,
                      k.starts, k.ends, k.probs, k.colour_of, k.kinds, singles, offer, MAX_TURNS,
                      np.zeros((1, 1, 1), dtype=np.int8), False, np.zeros(board.columns, dtype=np.bool_), -1, 0.0)
    if (turns >= MAX_TURNS).any():
        raise ValueError(f"a simulated game did not reach the target within {MAX_TURNS} turns")
    mean = float(turns.mean())
    error = float(turns.std(ddof=1) / np.sqrt(runs)) if runs > 1 else 0.0
    return Simulated(mean, error, runs)


@njit(cache=True, nogil=True)
def _stands(h: np.ndarray, cols: np.ndarray, bases: np.ndarray, row: int) -> bool:  # pragma: no cover - compiled
    """Whether placement ``row`` is legal on heights ``h``: every column it touches after its
    anchor (which the caller's bucket already matched) stands at its base."""
    for j in range(1, cols.shape[1]):
        cc = cols[row, j]
        if cc < 0:
            return True
        if h[cc] != bases[row, j]:
            return False
    return True


@njit(cache=True, nogil=True)
def _simulate(runs: int, seed: int, limits: np.ndarray, goal: np.ndarray, contain: bool, cols: np.ndarray,
              bases: np.ndarray, adds: np.ndarray, kind: np.ndarray, size: np.ndarray, starts: np.ndarray,
              ends: np.ndarray, probs: np.ndarray, colour_of: np.ndarray, kinds: int, singles: bool, offer: int,
              max_turns: int, painted: np.ndarray, record: bool, wall: np.ndarray, steer: int,
              weight: float) -> np.ndarray:  # pragma: no cover - compiled
    np.random.seed(seed)
    ncol = limits.shape[0]
    cumulative = np.cumsum(probs)
    out = np.zeros(runs, dtype=np.int64)
    h = np.zeros(ncol, dtype=np.int64)
    offered = np.zeros(kinds, dtype=np.bool_)
    colour_ok = np.zeros(kinds + 8, dtype=np.bool_)
    for run in range(runs):
        for c in range(ncol):
            h[c] = 0
        turns = 0
        while turns < max_turns:
            done = True
            for c in range(ncol):
                if goal[c] >= 0 and ((contain and h[c] < goal[c]) or (not contain and h[c] != goal[c])):
                    done = False
                    break
            if done:
                break
            turns += 1
            for j in range(kinds):
                offered[j] = False
            for j in range(colour_ok.shape[0]):
                colour_ok[j] = False
            for _ in range(offer):
                u = np.random.random()
                j = 0
                while j < kinds - 1 and cumulative[j] <= u:
                    j += 1
                offered[j] = True
                colour_ok[colour_of[j]] = True
            best = -1
            best_value = 0.0
            best_base = 1 << 30
            ties = 0
            for c in range(ncol):
                b = h[c]
                for row in range(starts[c, b], ends[c, b]):
                    k = kind[row]
                    if k < kinds:
                        if not offered[k]:
                            continue
                    elif not (singles and colour_ok[k - kinds]):
                        continue
                    if size[row] == 0 or not _stands(h, cols, bases, row):
                        continue
                    value = float(size[row])
                    if steer >= 0:  # a prophecy: cubes of its colour on its wall count more, others less
                        on_wall = 0
                        for j in range(cols.shape[1]):
                            cc = cols[row, j]
                            if cc < 0:
                                break
                            if wall[cc]:
                                on_wall += adds[row, j]
                        colour = colour_of[k] if k < kinds else k - kinds
                        value += weight * on_wall * (1.0 if colour == steer else -1.0)
                        if value <= 0.0:  # the last resort: the monolith must be finished
                            value = 0.001 * size[row]
                    if value > best_value + 1e-9 or (abs(value - best_value) <= 1e-9 and b < best_base):
                        best, best_value, best_base, ties = row, value, b, 1
                    elif abs(value - best_value) <= 1e-9 and b == best_base and best_value > 0:
                        ties += 1  # an equal choice: each of the tied ones equally likely
                        if np.random.random() * ties < 1.0:
                            best = row
            if best >= 0:
                k = kind[best]
                paint = colour_of[k] if k < kinds else k - kinds
                for j in range(cols.shape[1]):
                    cc = cols[best, j]
                    if cc < 0:
                        break
                    if record:
                        for z in range(h[cc], h[cc] + adds[best, j]):
                            painted[run, cc, z] = paint
                    h[cc] += adds[best, j]
        out[run] = turns
    return out


@njit(cache=True, nogil=True)
def _dp(states: int, limits: np.ndarray, strides: np.ndarray, goal: np.ndarray, contain: bool,
        cols: np.ndarray, bases: np.ndarray, delta: np.ndarray, kind: np.ndarray, starts: np.ndarray,
        ends: np.ndarray, probs: np.ndarray, colour_of: np.ndarray, kinds: int, colours: int,
        singles: bool, offer: int) -> np.ndarray:  # pragma: no cover - compiled
    value = np.empty(states, dtype=np.float64)
    ncol = limits.shape[0]
    h = np.zeros(ncol, dtype=np.int64)
    best = np.empty(kinds + colours, dtype=np.float64)
    worth = np.empty(kinds, dtype=np.float64)
    order = np.empty(kinds, dtype=np.int64)
    for c in range(ncol):
        h[c] = limits[c]  # the last state: every column at its limit
    for idx in range(states - 1, -1, -1):
        if idx < states - 1:  # the heights one state down: an odometer counting backwards
            c = 0
            while h[c] == 0:
                h[c] = limits[c]
                c += 1
            h[c] -= 1
        done = True
        for c in range(ncol):
            if goal[c] >= 0 and ((contain and h[c] < goal[c]) or (not contain and h[c] != goal[c])):
                done = False
                break
        if done:
            value[idx] = 0.0
            continue
        for k in range(kinds + colours):
            best[k] = np.inf
        for c in range(ncol):
            b = h[c]
            for row in range(starts[c, b], ends[c, b]):
                if _stands(h, cols, bases, row):
                    v = value[idx + delta[row]]
                    if v < best[kind[row]]:
                        best[kind[row]] = v
        for k in range(kinds):
            worth[k] = best[k]
            if singles and best[kinds + colour_of[k]] < worth[k]:
                worth[k] = best[kinds + colour_of[k]]
        # the best of ``offer`` draws: sort kinds by worth (ties by kind: an insertion sort,
        # the kinds are few), P(min = k-th) from tail sums
        for j in range(kinds):
            k = j
            while k > 0 and worth[order[k - 1]] > worth[j]:
                order[k] = order[k - 1]
                k -= 1
            order[k] = j
        tail = 1.0
        total = 0.0
        stuck = 0.0
        for j in range(kinds):
            k = order[j]
            after = tail - probs[k]
            if after < 0.0:
                after = 0.0
            share = tail ** offer - after ** offer
            if np.isfinite(worth[k]):
                total += share * worth[k]
            else:
                stuck += share
            tail = after
        if stuck >= 1.0 - 1e-12:
            value[idx] = np.inf
        else:
            value[idx] = (1.0 + total) / (1.0 - stuck)
    return value


#: How much a cube of the prophecy's colour on its wall outweighs a cube elsewhere (and a cube
#: of another colour there counts against), for the player who made the prophecy.
STEER = 2.0


@dataclass(frozen=True, slots=True)
class Wall:
    """A prophecy's wall over seeded games: ``counts[game]`` squares of its colour on it."""

    counts: np.ndarray
    squares: int

    def chance(self, at_least: int) -> tuple[float, float]:
        """The share of games whose wall shows at least ``at_least`` squares of the colour,
        and its standard error."""
        hits = (self.counts >= at_least).astype(np.float64)
        runs = hits.shape[0]
        error = float(np.sqrt(hits.mean() * (1 - hits.mean()) / (runs - 1))) if runs > 1 else 0.0
        return float(hits.mean()), error


def simulate_wall(kinds: Sequence[Kind], board: Board, colour: str, *, offer: int = 4, runs: int = 2000,
                  seed: int = 0, singles: bool = True, steer: float = STEER) -> Wall:
    """Play ``runs`` seeded games to the complete monolith (every column at the height
    limit) as ``simulate_turns`` plays them, the pieces keeping their colours, by a player who
    has prophesied ``colour`` on the north wall: a placement's cubes of that colour on that
    wall count ``steer`` more each, and cubes of other colours there ``steer`` less (still
    placed when nothing else fits, so the monolith is finished); count the wall's squares
    of the colour.

    Raises:
        ValueError: some game did not finish within ``MAX_TURNS`` turns.
    """
    target = Target((board.height,) * board.columns, (), CONTAIN)
    k = _compile(kinds, board, target, singles)
    colours = sorted({kd.colour for kd in kinds})
    painted = np.full((runs, board.columns, board.height), -1, dtype=np.int8)
    wall = np.zeros(board.columns, dtype=np.bool_)
    north = [board.column(x, 0) for x in range(board.width)]
    wall[north] = True
    turns = _simulate(runs, seed % (1 << 31), k.limits, k.goal, k.contain, k.cols, k.bases, k.adds, k.kind, k.size,
                      k.starts, k.ends, k.probs, k.colour_of, k.kinds, singles, offer, MAX_TURNS, painted, True,
                      wall, colours.index(colour), steer)
    if (turns >= MAX_TURNS).any():
        raise ValueError(f"a simulated game did not finish the monolith within {MAX_TURNS} turns")
    counts = (painted[:, north, :].reshape(runs, -1) == colours.index(colour)).sum(axis=1)
    return Wall(counts, len(north) * board.height)
