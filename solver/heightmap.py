"""Builds on a board: polycubes stacked into a height map, in an order that keeps every cube
supported, and how many turns a target takes when the pieces come at random.

Nouns:
    Board      a footprint of ``width`` x ``depth`` columns and a height limit. Column
               ``y * width + x`` holds the cubes at (x, y, 0), (x, y, 1), ...; a build is
               always a height map: a height per column, each column filled from the floor.
    Kind       a piece the pool offers: a polycube (turned any way, mirror images only when
               a rotation makes them), a colour and how many there are.
    Placement  a kind in one orientation and position: its cubes, and per column it
               touches the height the column must have (``base``) and the cubes it adds.
               The support rule as data: a placement is legal on a height map exactly when
               every column it touches stands at its base, so each cube sits on the floor
               or on a cube below it (its own or one placed before) and the result is again
               a height map. A piece with a gap inside one of its columns can never be
               placed.
    Target     per column the height wanted (None: any), optionally a colour per cube, and
               the rule: ``equal`` (the build is exactly the target where it says) or
               ``contain`` (the build reaches at least the target's heights). Building
               towards a target, a column goes no higher than the target asks (``limits``):
               the searches never waste cubes.
    Witness    an ordered build: placements, each legal when it is made, that reach the
               target; ``replay`` checks one without the search that found it.

``build`` finds a witness by depth-first search over height maps with the pool's counts, a
failed (height map, pieces left) never tried twice; singles (1x1x1 cubes, the game's swap)
are allowed only as far as needed, the fewest first. ``expected_turns`` computes, by
dynamic programming over every height map the target allows, the expected number of turns
to reach the target when each turn offers ``offer`` pieces drawn from the pool (in
proportion to the counts, with replacement) and the player places the best of them, or a
single of an offered piece's colour, optimally (compiled with numba).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from solver.shapes import Shape

Cube = tuple[int, int, int]

#: Rules a target may ask for.
EQUAL = "equal"
CONTAIN = "contain"
RULES = (EQUAL, CONTAIN)


@dataclass(frozen=True, slots=True)
class Board:
    width: int = 4
    depth: int = 4
    height: int = 3

    @property
    def columns(self) -> int:
        return self.width * self.depth

    def column(self, x: int, y: int) -> int:
        return y * self.width + x


@dataclass(frozen=True, slots=True)
class Kind:
    """A piece of the pool: ``name``, ``shape`` (3D cells, or 2D lying flat), ``colour``,
    ``count`` (None: as many as wanted)."""

    name: str
    shape: Shape
    colour: str = ""
    count: int | None = None

    @property
    def solid(self) -> Shape:
        return self.shape.lifted()


@dataclass(frozen=True, slots=True)
class Placement:
    kind: int
    cubes: tuple[Cube, ...]
    base: tuple[tuple[int, int, int], ...]  # (column, height it must stand at, cubes added)


@dataclass(frozen=True, slots=True)
class Target:
    """See the module docstring: ``heights[column]`` (None: any) and optional colours by
    cube."""

    heights: tuple[int | None, ...]
    colours: tuple[tuple[Cube, str], ...] = ()
    rule: str = EQUAL

    def colour_at(self) -> dict[Cube, str]:
        return dict(self.colours)

    def limits(self, board: Board) -> tuple[int, ...]:
        """The highest each column may go while building towards the target: its height
        (under ``contain`` a cube above it, or in a column it leaves free, would be wasted
        on the way there), or the board's for a free column under ``equal``."""
        if self.rule == CONTAIN:
            return tuple(h or 0 for h in self.heights)
        return tuple(board.height if h is None else h for h in self.heights)

    def reached(self, heights: Sequence[int]) -> bool:
        if self.rule == CONTAIN:
            return all(t is None or h >= t for h, t in zip(heights, self.heights))
        return all(t is None or h == t for h, t in zip(heights, self.heights))

    @property
    def volume(self) -> int:
        return sum(h for h in self.heights if h is not None)


def _columns(solid: Shape) -> dict[tuple[int, int], list[int]] | None:
    """The z values in each (x, y) column of a solid, or None when a column has a gap."""
    cols: dict[tuple[int, int], list[int]] = {}
    for x, y, z in solid.cells:
        cols.setdefault((x, y), []).append(z)
    for zs in cols.values():
        zs.sort()
        if zs[-1] - zs[0] + 1 != len(zs):
            return None
    return cols


def orientations(kind: Kind) -> tuple[Shape, ...]:
    """The kind's distinct orientations in space (rotations; a physical piece is not
    mirrored)."""
    return kind.solid.orientations(flips=False)


def placements(kinds: Sequence[Kind], board: Board, target: Target | None = None) -> list[Placement]:
    """Every placement of every kind on ``board`` (below its height limit), in a fixed order;
    with a ``target``, only those within its limits and colours."""
    limits = target.limits(board) if target is not None else (board.height,) * board.columns
    colour_at = target.colour_at() if target is not None else {}
    out: list[Placement] = []
    for k, kind in enumerate(kinds):
        for solid in orientations(kind):
            cols = _columns(solid)
            if cols is None:
                continue
            low = min(min(zs) for zs in cols.values())
            top = max(max(zs) for zs in cols.values())
            span_x = max(x for x, _ in cols) + 1
            span_y = max(y for _, y in cols) + 1
            for y0 in range(board.depth - span_y + 1):
                for x0 in range(board.width - span_x + 1):
                    for dz in range(-low, board.height - top):
                        base = []
                        cubes: list[Cube] = []
                        ok = True
                        for (x, y), zs in sorted(cols.items(), key=lambda item: (item[0][1], item[0][0])):
                            c = board.column(x + x0, y + y0)
                            start = zs[0] + dz
                            if start + len(zs) > limits[c]:
                                ok = False
                                break
                            base.append((c, start, len(zs)))
                            cubes.extend((x + x0, y + y0, z + dz) for z in zs)
                        if not ok:
                            continue
                        if colour_at and any(colour_at.get(cube, kind.colour) != kind.colour for cube in cubes):
                            continue
                        out.append(Placement(k, tuple(sorted(cubes, key=lambda q: (q[2], q[1], q[0]))), tuple(base)))
    return out


def legal(p: Placement, heights: Sequence[int]) -> bool:
    return all(heights[c] == b for c, b, _ in p.base)


def apply(p: Placement, heights: Sequence[int]) -> tuple[int, ...]:
    out = list(heights)
    for c, _, n in p.base:
        out[c] += n
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Step:
    """One placement of a witness: the kind's name and colour, and its cubes."""

    piece: str
    colour: str
    cubes: tuple[Cube, ...]


@dataclass(frozen=True, slots=True)
class Build:
    """What ``build`` found: the ordered steps (None: not buildable within the search),
    the singles used and the search nodes tried."""

    steps: tuple[Step, ...] | None
    singles: int
    nodes: int
    exhausted: bool = True

    @property
    def buildable(self) -> bool:
        return self.steps is not None


SINGLE = "single"


def single(colour: str) -> Kind:
    return Kind(SINGLE, Shape(frozenset({(0, 0, 0)})), colour, None)


@dataclass(slots=True)
class _Search:
    board: Board
    target: Target
    kinds: list[Kind]
    moves: list[Placement]
    anchored: dict[tuple[int, int], list[Placement]] = field(default_factory=dict)
    failed: set[tuple[tuple[int, ...], tuple[int, ...]]] = field(default_factory=set)
    own: int = 0  # kinds with counts of their own; placements of later kinds are singles
    nodes: int = 0
    limit: int = 0

    def __post_init__(self) -> None:
        for p in self.moves:
            c, b, _ = p.base[0]
            self.anchored.setdefault((c, b), []).append(p)

    def run(self, heights: tuple[int, ...], left: list[int], path: list[Placement]) -> bool:
        """Depth-first from ``heights`` with ``left`` pieces per slot (a kind's own; every
        single shares the last slot)."""
        if self.target.reached(heights):
            return True
        key = (heights, tuple(left))
        if key in self.failed:
            return False
        self.nodes += 1
        if self.nodes > self.limit:
            raise _Budget
        # the lowest unfinished column first: pieces that sit there come first
        order = sorted(range(len(heights)), key=lambda c: (heights[c], c))
        for c in order:
            for p in self.anchored.get((c, heights[c]), ()):
                slot = min(p.kind, self.own)
                if left[slot] == 0 or not legal(p, heights):
                    continue
                left[slot] -= 1
                path.append(p)
                if self.run(apply(p, heights), left, path):
                    return True
                path.pop()
                left[slot] += 1
        self.failed.add(key)
        return False


class _Budget(Exception):
    pass


def build(kinds: Sequence[Kind], board: Board, target: Target, *, singles: Sequence[str] = (),
          max_singles: int = 0, budget: int = 200_000) -> Build:
    """An ordered build of ``target`` from ``kinds`` (their counts), with as few singles (of
    the ``singles`` colours) as possible, up to ``max_singles``; ``budget`` search nodes in
    all (a spent budget gives ``exhausted=False``: unknown, not unbuildable)."""
    extra = [single(colour) for colour in singles]
    everything = list(kinds) + extra
    moves = placements(everything, board, target)
    nodes = 0
    exhausted = True
    for allowed in range(max_singles + 1 if extra else 1):  # the fewest singles first
        left = [k.count if k.count is not None else 10**6 for k in kinds] + [allowed]
        search = _Search(board, target, everything, moves, own=len(kinds))
        search.limit = budget - nodes
        path: list[Placement] = []
        try:
            found = search.run((0,) * board.columns, left, path)
        except _Budget:
            nodes = budget
            exhausted = False
            break
        nodes += search.nodes
        if found:
            steps = tuple(Step(everything[p.kind].name, everything[p.kind].colour, p.cubes) for p in path)
            return Build(steps, sum(1 for p in path if p.kind >= len(kinds)), nodes)
    return Build(None, 0, nodes, exhausted)


def replay(steps: Iterable[Step], kinds: Sequence[Kind], board: Board, target: Target,
           singles: Sequence[str] = ()) -> list[str]:
    """Every problem with an ordered build, checked without the search: each step inside the
    footprint and below the height limit, congruent to a kind of that name and colour and
    within its count, every cube supported when placed (on the floor or on a cube below it)
    and no column left with a gap, the target's colours kept, and the target reached."""
    problems: list[str] = []
    filled: set[Cube] = set()
    used: dict[tuple[str, str], int] = {}
    by_name = {(k.name, k.colour): k for k in kinds}
    for colour in singles:
        by_name.setdefault((SINGLE, colour), single(colour))
    colour_at = target.colour_at()
    for n, step in enumerate(steps, start=1):
        where = f"step {n} ({step.piece} {step.colour})".replace(" )", ")")
        kind = by_name.get((step.piece, step.colour))
        if kind is None:
            problems.append(f"{where}: no such piece in the pool")
            continue
        cubes = set(step.cubes)
        if len(cubes) != len(step.cubes):
            problems.append(f"{where}: a cube is listed twice")
        if not cubes or not Shape(frozenset(cubes)).is_congruent(kind.solid, flips=False):
            problems.append(f"{where}: its cubes are not a {kind.name} turned in space")
        used[(kind.name, kind.colour)] = used.get((kind.name, kind.colour), 0) + 1
        if kind.count is not None and used[(kind.name, kind.colour)] > kind.count:
            problems.append(f"{where}: the pool has only {kind.count} of {kind.name} {kind.colour}".rstrip())
        for x, y, z in sorted(cubes, key=lambda q: q[2]):
            if not (0 <= x < board.width and 0 <= y < board.depth and 0 <= z < board.height):
                problems.append(f"{where}: cube {[x, y, z]} is outside the {board.width}x{board.depth}x"
                                f"{board.height} space")
            elif (x, y, z) in filled:
                problems.append(f"{where}: cube {[x, y, z]} is already filled")
            elif z > 0 and (x, y, z - 1) not in filled and (x, y, z - 1) not in cubes:
                problems.append(f"{where}: cube {[x, y, z]} hangs over an empty space")
            if colour_at.get((x, y, z), step.colour) != step.colour:
                problems.append(f"{where}: cube {[x, y, z]} is {step.colour}, the target wants "
                                f"{colour_at[(x, y, z)]}")
        filled |= cubes
    heights = [0] * board.columns
    for x, y, z in filled:
        if 0 <= x < board.width and 0 <= y < board.depth:
            heights[board.column(x, y)] = max(heights[board.column(x, y)], z + 1)
    for x, y, z in sorted(filled):
        if z > 0 and (x, y, z - 1) not in filled:
            problems.append(f"the build has a gap under cube {[x, y, z]}")
    if not target.reached(heights):
        problems.append(f"the build's heights {heights_text(heights, board)} do not match the target's "
                        f"{heights_text(target.heights, board)} ({target.rule})")
    return problems


def heights_text(heights: Sequence[int | None], board: Board) -> str:
    """Rows of column heights (``.`` for any), back row first: ``0000/1111/...``."""
    rows = []
    for y in range(board.depth):
        rows.append("".join("." if heights[board.column(x, y)] is None else str(heights[board.column(x, y)])
                            for x in range(board.width)))
    return "/".join(rows)


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
    first; a single of an offered colour when no piece fits): for targets with too many
    height maps to solve exactly.

    Raises:
        ValueError: some game did not reach the target within ``MAX_TURNS`` turns.
    """
    k = _compile(kinds, board, target, singles)
    turns = _simulate(runs, seed % (1 << 31), k.limits, k.goal, k.contain, k.cols, k.bases, k.adds, k.kind, k.size,
                      k.starts, k.ends, k.probs, k.colour_of, k.kinds, singles, offer, MAX_TURNS)
    if (turns >= MAX_TURNS).any():
        raise ValueError(f"a simulated game did not reach the target within {MAX_TURNS} turns")
    mean = float(turns.mean())
    error = float(turns.std(ddof=1) / np.sqrt(runs)) if runs > 1 else 0.0
    return Simulated(mean, error, runs)


@njit(cache=True, nogil=True)
def _simulate(runs: int, seed: int, limits: np.ndarray, goal: np.ndarray, contain: bool, cols: np.ndarray,
              bases: np.ndarray, adds: np.ndarray, kind: np.ndarray, size: np.ndarray, starts: np.ndarray,
              ends: np.ndarray, probs: np.ndarray, colour_of: np.ndarray, kinds: int, singles: bool, offer: int,
              max_turns: int) -> np.ndarray:  # pragma: no cover - compiled
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
            best_size = 0
            best_base = 1 << 30
            for c in range(ncol):
                b = h[c]
                for row in range(starts[c, b], ends[c, b]):
                    k = kind[row]
                    if k < kinds:
                        if not offered[k]:
                            continue
                    elif not (singles and colour_ok[k - kinds]):
                        continue
                    ok = True
                    for j in range(1, cols.shape[1]):
                        cc = cols[row, j]
                        if cc < 0:
                            break
                        if h[cc] != bases[row, j]:
                            ok = False
                            break
                    if ok and (size[row] > best_size or (size[row] == best_size and b < best_base)):
                        best, best_size, best_base = row, size[row], b
            if best >= 0:
                for j in range(cols.shape[1]):
                    cc = cols[best, j]
                    if cc < 0:
                        break
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
    for idx in range(states - 1, -1, -1):
        rest = idx
        for c in range(ncol):
            h[c] = rest % (limits[c] + 1)
            rest //= limits[c] + 1
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
                ok = True
                for j in range(1, cols.shape[1]):
                    cc = cols[row, j]
                    if cc < 0:
                        break
                    if h[cc] != bases[row, j]:
                        ok = False
                        break
                if ok:
                    v = value[idx + delta[row]]
                    if v < best[kind[row]]:
                        best[kind[row]] = v
        for k in range(kinds):
            worth[k] = best[k]
            if singles and best[kinds + colour_of[k]] < worth[k]:
                worth[k] = best[kinds + colour_of[k]]
        # the best of ``offer`` draws: sort kinds by worth, P(min = k-th) from tail sums
        order = np.argsort(worth)
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
