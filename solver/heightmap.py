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
are allowed only as far as needed, the fewest first. How many turns a target takes is
``solver.turns`` (compiled; this module imports nothing heavy, so a game's options load
quickly).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from operator import add, ge, itemgetter
from typing import Any

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
    """A depth-first search over height maps. ``moves`` come with the count slots each
    uses (``slots``, by the move's index); ``left`` holds what every slot has left.

    Per node the work is table look-ups made once: the moves anchored at a column's height,
    each move's test (its columns' heights fetched at once and compared with its bases) and
    its step (added column by column), and a sort key per column that says the same as
    (height, whether the next cube asks a colour, column)."""

    board: Board
    target: Target
    moves: list[Placement]
    slots: list[tuple[int, ...]]
    anchored: dict[tuple[int, int], list[int]] = field(default_factory=dict)
    failed: set[tuple[tuple[int, ...], tuple[int, ...]]] = field(default_factory=set)
    nodes: int = 0
    limit: int = 0
    tests: list[tuple[Callable[[Sequence[int]], Any], Any]] = field(default_factory=list)
    steps: list[tuple[int, ...]] = field(default_factory=list)
    counts: list[Callable[[Sequence[int]], Any]] = field(default_factory=list)
    asked: list[frozenset[int]] = field(default_factory=list)
    done: Callable[[tuple[int, ...]], bool] = bool

    def __post_init__(self) -> None:
        n = self.board.columns
        w = self.board.width
        at: dict[int, set[int]] = {}
        for (x, y, z), _ in self.target.colours:
            at.setdefault(y * w + x, set()).add(z)
        self.asked = [frozenset(at.get(c, ())) for c in range(n)]
        for i, p in enumerate(self.moves):
            c, b, _ = p.base[0]
            self.anchored.setdefault((c, b), []).append(i)
            columns = [c for c, _, _ in p.base]
            if len(columns) == 1:  # itemgetter of one index gives the item, of two a tuple
                columns *= 2
            get = itemgetter(*columns)
            self.tests.append((get, get(_at([c for c, _, _ in p.base], [b for _, b, _ in p.base], n))))
            step = [0] * n
            for c, _, k in p.base:
                step[c] += k
            self.steps.append(tuple(step))
            used = list(self.slots[i])
            self.counts.append(itemgetter(*(used * 2 if len(used) == 1 else used)))
        self.done = _reached(self.target, n)

    def run(self, heights: tuple[int, ...], left: list[int], path: list[int]) -> bool:
        if self.done(heights):
            return True
        key = (heights, tuple(left))
        if key in self.failed:
            return False
        self.nodes += 1
        if self.nodes > self.limit:
            raise _Budget
        # the lowest unfinished column first: pieces that sit there come first; at one height
        # a column whose next cube asks a colour after the free ones (the free pieces settle
        # around it, then the coloured ones fill it)
        anchored, asked, n = self.anchored, self.asked, len(heights)
        order = sorted((h * 2 + (h in asked[c])) * n + c for c, h in enumerate(heights) if (c, h) in anchored)
        slots_of, tests, steps, counts = self.slots, self.tests, self.steps, self.counts
        for k in order:
            c = k % n
            for i in anchored[(c, heights[c])]:
                get, want = tests[i]
                if get(heights) != want or 0 in counts[i](left):
                    continue
                slots = slots_of[i]
                for s in slots:
                    left[s] -= 1
                path.append(i)
                if self.run(tuple(map(add, heights, steps[i])), left, path):
                    return True
                path.pop()
                for s in slots:
                    left[s] += 1
        self.failed.add(key)
        return False


def _at(columns: Sequence[int], values: Sequence[int], n: int) -> list[int]:
    """A height map (length ``n``) with ``values`` at ``columns``, 0 elsewhere."""
    out = [0] * n
    for c, v in zip(columns, values):
        out[c] = v
    return out


def _reached(target: Target, n: int) -> Callable[[tuple[int, ...]], bool]:
    """``target.reached`` as one fetch of the asked columns and one comparison."""
    columns = [c for c, t in enumerate(target.heights) if t is not None]
    if not columns:
        return lambda heights: True
    if len(columns) == 1:
        columns *= 2
    get = itemgetter(*columns)
    want = get([t or 0 for t in target.heights])
    if target.rule == CONTAIN:
        return lambda heights: all(map(ge, get(heights), want))
    return lambda heights: bool(get(heights) == want)


class _Budget(Exception):
    pass


def build(kinds: Sequence[Kind], board: Board, target: Target, *, singles: Sequence[str] = (),
          max_singles: int = 0, budget: int = 200_000, single_counts: Sequence[int] | None = None) -> Build:
    """An ordered build of ``target`` from ``kinds`` (their counts), with as few singles (of
    the ``singles`` colours, at most ``single_counts`` of each when given) as possible, up
    to ``max_singles``; ``budget`` search nodes in all (a spent budget gives
    ``exhausted=False``: unknown, not unbuildable).

    A target with colours is searched by shape: a placement that covers cubes of one asked
    colour uses a piece of that colour, one that covers none a piece of any colour (the
    colours dealt afterwards, each free piece the colour with the most of its kind left), so
    that the search does not try the same build once per colour."""
    caps = list(single_counts) if single_counts is not None else [10**6] * len(singles)
    if target.colours:
        return _coloured(kinds, board, target, singles, caps, max_singles, budget)
    extra = [single(colour) for colour in singles]
    everything = list(kinds) + extra
    moves = placements(everything, board, target)
    own = len(kinds)
    # a kind's own slot; every single the shared slot ``own`` and its colour's after it
    slots: list[tuple[int, ...]] = [(p.kind,) if p.kind < own else (own, p.kind + 1) for p in moves]
    counts = [k.count if k.count is not None else 10**6 for k in kinds]
    return _run(board, target, moves, slots, lambda allowed: counts + [allowed] + caps, bool(extra), max_singles,
                budget, lambda path: [(everything[moves[i].kind], moves[i]) for i in path], own)


def _run(board: Board, target: Target, moves: list[Placement], slots: list[tuple[int, ...]],
         left_for: Callable[[int], list[int]], any_singles: bool, max_singles: int, budget: int,
         named: Callable[[list[int]], list[tuple[Kind, Placement]]], own: int) -> Build:
    """The search with ``allowed`` singles, 0 first: the fewest singles."""
    nodes = 0
    for allowed in range(max_singles + 1 if any_singles else 1):
        search = _Search(board, target, moves, slots)
        search.limit = budget - nodes
        path: list[int] = []
        try:
            found = search.run((0,) * board.columns, left_for(allowed), path)
        except _Budget:
            return Build(None, 0, budget, False)
        nodes += search.nodes
        if found:
            steps = tuple(Step(kind.name, kind.colour, p.cubes) for kind, p in named(path))
            return Build(steps, sum(1 for i in path if moves[i].kind >= own), nodes)
    return Build(None, 0, nodes, True)


def _coloured(kinds: Sequence[Kind], board: Board, target: Target, singles: Sequence[str], caps: list[int],
              max_singles: int, budget: int) -> Build:
    """``build`` for a target with colours (see there)."""
    names: list[str] = []
    shapes: dict[str, Shape] = {}
    for k in kinds:
        if k.name not in shapes:
            names.append(k.name)
            shapes[k.name] = k.shape
    colours = list(dict.fromkeys([k.colour for k in kinds] + list(singles) + [c for _, c in target.colours]))
    count = {(k.name, k.colour): k.count if k.count is not None else 10**6 for k in kinds}
    totals = [sum(n for (name, _), n in count.items() if name == g) for g in names]
    # slots: a total per shape, the singles' total, then per (shape, colour), then per single colour
    pair = {(g, c): len(names) + 1 + i * len(colours) + j for i, g in enumerate(names) for j, c in enumerate(colours)}
    single_slot = {c: len(names) + 1 + len(names) * len(colours) + j for j, c in enumerate(singles)}
    shape_kinds = [Kind(g, shapes[g], "", totals[i]) for i, g in enumerate(names)] + ([single("")] if singles else [])
    colour_at = target.colour_at()
    size = {g: shapes[g].size for g in names}
    for colour in dict.fromkeys(c for _, c in target.colours):  # too few cubes of a colour: no search needed
        stock = sum(n * size[g] for (g, c), n in count.items() if c == colour)
        stock += min(max_singles, caps[singles.index(colour)]) if colour in singles else 0
        if stock < sum(1 for _, c in target.colours if c == colour):
            return Build(None, 0, 0, True)
    moves: list[Placement] = []
    slots: list[tuple[int, ...]] = []
    asked: list[str] = []
    for p in placements(shape_kinds, board, Target(target.heights, (), target.rule)):
        wanted = {colour_at[c] for c in p.cubes if c in colour_at}
        if len(wanted) > 1:
            continue
        colour = next(iter(wanted), "")
        if p.kind < len(names):
            slot: tuple[int, ...] = (p.kind, pair[(names[p.kind], colour)]) if colour else (p.kind,)
        elif colour and colour not in single_slot:
            continue
        else:
            slot = (len(names), single_slot[colour]) if colour else (len(names),)
        moves.append(p)
        slots.append(slot)
        asked.append(colour)
    base = [*totals, 0] + [count.get((g, c), 0) for g in names for c in colours] + caps

    def left_for(allowed: int) -> list[int]:
        out = list(base)
        out[len(names)] = allowed
        return out

    def named(path: list[int]) -> list[tuple[Kind, Placement]]:
        left = dict(count)
        left.update({(SINGLE, c): n for c, n in zip(singles, caps)})
        pieces = [names[moves[i].kind] if moves[i].kind < len(names) else SINGLE for i in path]
        for i, g in zip(path, pieces):
            if asked[i]:
                left[(g, asked[i])] -= 1
        out = []
        for i, g in zip(path, pieces):
            colour = asked[i] or max(colours, key=lambda c: (left.get((g, c), 0), -colours.index(c)))
            if not asked[i]:
                left[(g, colour)] -= 1
            out.append((Kind(g, shapes.get(g, Shape(frozenset({(0, 0, 0)}))), colour), moves[i]))
        return out

    return _run(board, target, moves, slots, left_for, bool(singles), max_singles, budget, named, len(names))


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
