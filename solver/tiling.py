"""Exact tiling: first solution, counting, uniqueness, enumeration (counter or CP-SAT).

Nouns:
    Status        ``solved``, ``unsolvable`` (proved) or ``unknown`` (a limit was hit first;
                  never reported as unsolvable).
    Stats         what the search cost and the parameters it ran with.
    TilingResult  the frozen answer: status, solutions kept, count, statistics.

Operations: ``solve`` (first solution), ``count`` (all tilings, optionally up to a limit or
up to the region's symmetries), ``unique`` (count that stops at 2) and
``enumerate_solutions`` (count and keep every tiling). Nothing here prints.

Two engines answer (``Engine``): the compiled bitboard counter of ``solver.counter``, which
``auto`` picks for every region of up to 64 cells, and the CP-SAT model here, used beyond
that or on request. Tests hold each against the other and against a naive oracle.

The CP-SAT model has one Boolean per candidate placement, ``place[piece, i]``; every region
cell is covered by exactly one chosen placement, and each piece is used as many times as it
has copies (``all``) or at most that often (``subset``).
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum

import ortools
from ortools.sat.python import cp_model

from solver import counter
from solver.errors import TempleforgeError
from solver.puzzle import Mode, Puzzle, Solution, canonical_key, solution_from_indices, symmetry_action

#: The OR-Tools version results record (its package does not declare the attribute to type checkers).
ORTOOLS_VERSION: str = getattr(ortools, "__version__", "unknown")


class Engine(Enum):
    """Which search answers.

    ``auto`` uses the counter for regions it can hold (up to 64 cells) and CP-SAT beyond;
    ``counter`` is the compiled bitboard search of ``solver.counter``; ``cp-sat`` is the
    CP-SAT model below.
    """

    AUTO = "auto"
    COUNTER = "counter"
    CP_SAT = "cp-sat"


class Status(Enum):
    """What a search established."""

    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Stats:
    """Search statistics and the parameters used.

    ``engine`` is ``counter``, ``cp-sat`` or ``precheck`` (answered without search: an area
    mismatch or a cell no piece can reach). ``branches`` counts the counter's search nodes
    or CP-SAT's branches; ``conflicts`` is CP-SAT's only.
    """

    engine: str
    seconds: float
    branches: int = 0
    conflicts: int = 0
    placements: int = 0
    workers: int = 1
    seed: int = 0
    time_limit: float | None = None
    ortools: str = ORTOOLS_VERSION

    def as_json(self) -> dict[str, object]:
        return {
            "engine": self.engine,
            "seconds": round(self.seconds, 6),
            "branches": self.branches,
            "conflicts": self.conflicts,
            "placements": self.placements,
            "workers": self.workers,
            "seed": self.seed,
            "time_limit": self.time_limit,
            "ortools": self.ortools,
        }


@dataclass(frozen=True, slots=True)
class TilingResult:
    """The answer to one question about one puzzle.

    Attributes:
        status: solved / unsolvable (a proof) / unknown (a limit was hit before an answer).
        solutions: the tilings kept (the first one, or all of them for an enumeration; with
            ``distinct``, one per symmetry class).
        count: tilings found (symmetry classes when ``distinct``); None when not counting.
        exhaustive: True when ``count`` is the exact total, False when a limit stopped the
            search (then ``count`` is a lower bound).
        distinct: whether ``count`` is up to the region's symmetries.
        symmetries: the number of region symmetries used for ``distinct`` (1 otherwise).
        reason: why the puzzle is unsolvable or why the search stopped early, else None.
        stats: statistics and parameters.
    """

    status: Status
    solutions: tuple[Solution, ...]
    count: int | None
    exhaustive: bool
    distinct: bool
    symmetries: int
    reason: str | None
    stats: Stats

    @property
    def solution(self) -> Solution | None:
        return self.solutions[0] if self.solutions else None

    @property
    def unique(self) -> bool | None:
        """True or False once known (from a count that reached 2 or finished), else None."""
        if self.count is None:
            return None
        if self.count >= 2:
            return False
        return self.count == 1 if self.exhaustive else None


class SolverError(TempleforgeError):
    """A search parameter is invalid (a negative limit, zero workers, ...)."""


def solve(
    puzzle: Puzzle,
    *,
    time_limit: float | None = None,
    seed: int = 0,
    workers: int = 1,
    engine: Engine | str = Engine.AUTO,
) -> TilingResult:
    """Find one tiling, or prove there is none.

    Args:
        puzzle: what to tile.
        time_limit: seconds before giving up with status ``unknown``; None for no limit.
        seed: CP-SAT's random seed (the same seed and one worker give the same answer; the
            counter is deterministic and records the seed only).
        workers: CP-SAT search workers (the counter uses one).
        engine: ``auto``, ``counter`` or ``cp-sat`` (see ``Engine``).
    """
    return _run(puzzle, counting=False, limit=None, distinct=False, keep=1,
                time_limit=time_limit, seed=seed, workers=workers, engine=engine)


def count(
    puzzle: Puzzle,
    *,
    limit: int | None = None,
    distinct: bool = False,
    keep: int | None = 1,
    time_limit: float | None = None,
    seed: int = 0,
    engine: Engine | str = Engine.AUTO,
) -> TilingResult:
    """Count tilings.

    Args:
        puzzle: what to tile.
        limit: stop once this many tilings (or symmetry classes) are found.
        distinct: count tilings up to the region's symmetries (rotations and, with flips,
            reflections that map the region onto itself).
        keep: how many solutions to keep in the result (None keeps all).
        time_limit: seconds before stopping; the count found so far is returned with
            ``exhaustive=False`` (status ``unknown`` if nothing was found).
        seed: CP-SAT's random seed.
        engine: ``auto``, ``counter`` or ``cp-sat`` (see ``Engine``).
    """
    if limit is not None and (not isinstance(limit, int) or limit < 1):
        raise SolverError(f"limit must be a positive whole number, got {limit!r}")
    return _run(puzzle, counting=True, limit=limit, distinct=distinct, keep=keep,
                time_limit=time_limit, seed=seed, workers=1, engine=engine)


def unique(
    puzzle: Puzzle,
    *,
    time_limit: float | None = None,
    seed: int = 0,
    engine: Engine | str = Engine.AUTO,
) -> TilingResult:
    """Decide whether the puzzle has exactly one tiling (the count stops at 2).

    ``result.unique`` is True, False, or None when the time limit came first.
    """
    return count(puzzle, limit=2, keep=2, time_limit=time_limit, seed=seed, engine=engine)


def enumerate_solutions(
    puzzle: Puzzle,
    *,
    limit: int | None = None,
    distinct: bool = False,
    time_limit: float | None = None,
    seed: int = 0,
    engine: Engine | str = Engine.AUTO,
) -> TilingResult:
    """Every tiling (one per symmetry class with ``distinct``), in the order found."""
    return count(puzzle, limit=limit, distinct=distinct, keep=None, time_limit=time_limit,
                 seed=seed, engine=engine)


# -- the CP-SAT model ---------------------------------------------------------------------


@contextmanager
def keeping_sigint() -> Iterator[None]:
    """Around a CP-SAT solve: OR-Tools takes Ctrl-C for the solve and, when it is done, leaves
    the operating system's default action in place, so that the next Ctrl-C would kill the
    process outright, past every ``finally`` and clean-up. Python's own handler is put back."""
    handler = signal.getsignal(signal.SIGINT)
    try:
        yield
    finally:
        if handler is not None and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, handler)


class _Collector(cp_model.CpSolverSolutionCallback):
    """Collects solutions as placement indices; stops at the limit. Never prints."""

    def __init__(
        self,
        chooser: _Chooser,
        limit: int | None,
        keep: int | None,
        action: Sequence[Sequence[int]] | None,
    ) -> None:
        super().__init__()
        self.chooser = chooser
        self.limit = limit
        self.keep = keep
        self.action = action
        self.found = 0
        self.kept: list[list[int]] = []
        self.classes: set[tuple[int, ...]] = set()
        self.stopped = False

    def on_solution_callback(self) -> None:
        chosen = self.chooser.read(self.boolean_value)
        if self.action is not None:
            key = canonical_key(chosen, self.action)
            if key in self.classes:
                return
            self.classes.add(key)
        self.found += 1
        if self.keep is None or len(self.kept) < self.keep:
            self.kept.append(chosen)
        if self.limit is not None and self.found >= self.limit:
            self.stopped = True
            self.stop_search()


class _Chooser:
    """Reads a tiling from an assignment by walking the cells: for each cell not yet covered,
    the one chosen placement that covers it. Far fewer variable reads than scanning all."""

    def __init__(self, cover: Sequence[Sequence[int]], cells_of: Sequence[Sequence[int]],
                 variables: Sequence[cp_model.IntVar]) -> None:
        self.cover = cover
        self.cells_of = cells_of
        self.variables = variables

    def read(self, value: object) -> list[int]:
        covered = [False] * len(self.cover)
        chosen = []
        for cell, options in enumerate(self.cover):
            if covered[cell]:
                continue
            for i in options:
                if value(self.variables[i]):  # type: ignore[operator]
                    chosen.append(i)
                    for c in self.cells_of[i]:
                        covered[c] = True
                    break
        return sorted(chosen)


def _run(
    puzzle: Puzzle,
    *,
    counting: bool,
    limit: int | None,
    distinct: bool,
    keep: int | None,
    time_limit: float | None,
    seed: int,
    workers: int,
    engine: Engine | str,
) -> TilingResult:
    if time_limit is not None and not time_limit > 0:
        raise SolverError(f"time limit must be a positive number of seconds, got {time_limit!r}")
    if not isinstance(workers, int) or workers < 1:
        raise SolverError(f"workers must be a positive whole number, got {workers!r}")
    try:
        engine = Engine(engine)
    except ValueError:
        names = ", ".join(e.value for e in Engine)
        raise SolverError(f"engine must be one of {names}, got {engine!r}") from None
    if engine is Engine.COUNTER and not counter.fits(puzzle):
        raise SolverError(f"the counter engine takes regions of at most {counter.MAX_CELLS} cells; "
                          f"this one has {puzzle.region.size} (use engine cp-sat)")
    started = time.perf_counter()
    n_sym = len(puzzle.symmetries()) if distinct else 1
    compiled = (engine is not Engine.CP_SAT and not distinct and puzzle.mode is Mode.ALL
                and counter.compilable(puzzle))
    board = None
    if compiled:  # the placements made in compiled code; the slow precheck only for its words
        board = counter.Board.compiled(puzzle) if puzzle.piece_area == puzzle.region.size else None
        reason = None if board is not None and board.possible() and puzzle.colouring_allows() \
            else puzzle.impossibility()
    else:
        reason = puzzle.impossibility()
    if reason is not None:
        placed = len(board.masks) if board is not None else len(puzzle.placements())
        stats = Stats("precheck", time.perf_counter() - started, placements=placed,
                      seed=seed, workers=workers, time_limit=time_limit)
        return TilingResult(Status.UNSOLVABLE, (), 0 if counting else None, True, distinct, n_sym,
                            reason, stats)
    if engine is Engine.CP_SAT or not counter.fits(puzzle):
        found = _cp_sat(puzzle, counting, limit, distinct, keep, time_limit, seed, workers)
        used = "cp-sat"
    else:
        found = _counter(puzzle, board, counting, limit, distinct, keep, time_limit)
        used, workers = "counter", 1
    stats = Stats(used, time.perf_counter() - started, found.branches, found.conflicts,
                  found.placements, workers, seed, time_limit)
    return _result(puzzle, found, counting=counting, limit=limit, distinct=distinct, n_sym=n_sym,
                   time_limit=time_limit, stats=stats)


#: Regions of at least this many cells are counted by orbits of an anchor piece under their
#: symmetries (``counter.Board.anchors``); below it working out the orbits costs more than it
#: saves.
ANCHOR_CELLS = 30


@dataclass(frozen=True, slots=True)
class _Search:
    """What an engine established, before it becomes a TilingResult."""

    found: int  # tilings (classes) found
    kept: tuple[Solution, ...]
    finished: bool  # the search space was exhausted (or infeasibility proved)
    at_limit: bool  # stopped because ``found`` reached the limit
    proof: str  # how "no tiling" was established, when finished with nothing found
    placements: int
    branches: int = 0
    conflicts: int = 0


def _result(puzzle: Puzzle, found: _Search, *, counting: bool, limit: int | None, distinct: bool,
            n_sym: int, time_limit: float | None, stats: Stats) -> TilingResult:
    solutions = found.kept
    stopped = f"time limit of {time_limit} s reached" if time_limit is not None else "stopped early"
    if not counting:
        if found.found:
            return TilingResult(Status.SOLVED, solutions[:1], None, False, False, 1, None, stats)
        if found.finished:
            return TilingResult(Status.UNSOLVABLE, (), None, True, False, 1, found.proof, stats)
        return TilingResult(Status.UNKNOWN, (), None, False, False, 1, stopped, stats)
    if found.at_limit:
        return TilingResult(Status.SOLVED, solutions, found.found, False, distinct, n_sym,
                            f"stopped at the limit of {limit}", stats)
    if found.finished:
        if found.found == 0:
            return TilingResult(Status.UNSOLVABLE, (), 0, True, distinct, n_sym, found.proof, stats)
        return TilingResult(Status.SOLVED, solutions, found.found, True, distinct, n_sym, None, stats)
    if found.found:
        return TilingResult(Status.SOLVED, solutions, found.found, False, distinct, n_sym, stopped,
                            stats)
    return TilingResult(Status.UNKNOWN, (), 0, False, distinct, n_sym, stopped, stats)


def _counter(puzzle: Puzzle, board: counter.Board | None, counting: bool, limit: int | None, distinct: bool,
             keep: int | None, time_limit: float | None) -> _Search:
    """The counter's search, on ``board`` when the caller compiled one."""
    if board is None:
        board = counter.Board.of(puzzle, distinct=distinct)
    if not counting:
        limit, keep = 1, 1
    anchors = None
    if counting and limit is None and keep is not None and board.names and puzzle.region.size >= ANCHOR_CELLS:
        anchors = board.anchors(puzzle)
    if anchors is None:
        out = counter.search(board, limit=limit, keep=keep, distinct=distinct, time_limit=time_limit)
    else:  # the tilings kept come from the plain search, so they are the ones it would keep
        started = time.perf_counter()
        out = counter.search(board, limit=keep or None, keep=keep, time_limit=time_limit)
        if out.at_limit or keep == 0:
            rest = None if time_limit is None else max(time_limit - (time.perf_counter() - started), 1e-9)
            every = counter.count_by_orbits(board, anchors, rest)
            # cut short, the orbits' count so far and the plain search's are both lower bounds
            found = every.found if every.finished else max(every.found, out.found)
            out = counter.Outcome(found, out.kept, every.finished, False, out.nodes + every.nodes)
    if board.names:
        kept = tuple(board.solution(chosen) for chosen in out.kept)
    else:
        kept = tuple(solution_from_indices(puzzle, chosen) for chosen in out.kept)
    return _Search(out.found, kept, out.finished, out.at_limit,
                   "no tiling exists (the exhaustive search found none)", len(board.masks), out.nodes)


def _cp_sat(puzzle: Puzzle, counting: bool, limit: int | None, distinct: bool, keep: int | None,
            time_limit: float | None, seed: int, workers: int) -> _Search:
    # data
    placements = puzzle.placements()
    cell_index = {c: i for i, c in enumerate(puzzle.region.sorted_cells())}
    cells_of = [[cell_index[c] for c in p.cells] for p in placements]
    cover: list[list[int]] = [[] for _ in cell_index]
    for i, cells in enumerate(cells_of):
        for c in cells:
            cover[c].append(i)

    # variables
    model = cp_model.CpModel()
    place = [model.new_bool_var(f"place[{p.piece}, {i}]") for i, p in enumerate(placements)]

    # constraints
    for options in cover:
        model.add_exactly_one(place[i] for i in options)
    for piece, copies in puzzle.kinds:
        mine = [place[i] for i, p in enumerate(placements) if p.piece == piece.name]
        if not mine:  # fits nowhere; the precheck has already refused this in mode all
            continue
        uses = sum(mine)
        if puzzle.mode is Mode.ALL:
            model.add(uses == copies)
        else:
            model.add(uses <= copies)

    # solve
    solver = cp_model.CpSolver()
    solver.parameters.random_seed = seed
    solver.parameters.num_workers = workers
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = float(time_limit)
    chooser = _Chooser(cover, cells_of, place)
    action = symmetry_action(puzzle) if distinct else None
    collector = _Collector(chooser, limit, keep, action)
    with keeping_sigint():
        if counting:
            solver.parameters.enumerate_all_solutions = True
            status = solver.solve(model, collector)
        else:
            status = solver.solve(model)

    # extract
    if status == cp_model.MODEL_INVALID:  # a bug in this module, not the user's input
        raise RuntimeError(f"CP-SAT rejected the tiling model: {model.validate()}")
    branches, conflicts = solver.num_branches, solver.num_conflicts
    if not counting:
        feasible = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
        kept = (solution_from_indices(puzzle, chooser.read(solver.boolean_value)),) if feasible else ()
        return _Search(len(kept), kept, status != cp_model.UNKNOWN, False,
                       "no tiling exists (CP-SAT proved the model infeasible)", len(placements), branches, conflicts)
    finished = status == cp_model.OPTIMAL or (status == cp_model.INFEASIBLE and collector.found == 0)
    return _Search(collector.found, tuple(solution_from_indices(puzzle, k) for k in collector.kept),
                   finished and not collector.stopped, collector.stopped,
                   "no tiling exists (the search was exhaustive)", len(placements), branches, conflicts)
