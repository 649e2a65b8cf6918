"""One CP-SAT model that designs a lock card: the lock's cells and six different block sets,
each tiling it, chosen together.

Nouns:
    LockModel  the model for one box (the largest lock the card holds) and block set; each
               ``design(rng)`` call solves it with fresh random preferences and returns a
               lock, or None when the deterministic work limit came first.

Model (data, variables, constraints, objective):
    lock[c]          cell c of the box belongs to the lock
    place[f, b, i]   on face f, block b lies in its placement i (placements within the box)
    uses[f, b]       face f uses block b
    root[c], flow    single-commodity flow: one root cell sends a unit to every lock cell
                     along lock cells, so the lock is connected
    air[c], flow     with holes forbidden, every empty box cell gets a unit from the box's
                     border along empty cells, so nothing is enclosed

    every cell of the box is covered on every face exactly when it is a lock cell; a face
    uses each block at most once and MIN..MAX blocks; the faces' block sets, read as binary
    numbers, strictly increase (so they differ, without symmetric copies of one design); the
    lock's area lies in the limits. The objective is a random preference per cell and per
    block use (drawn from the candidate's seed), so that designs vary, with a bonus on lock
    cells near the box's centre so that locks come out compact.

CP-SAT runs with one worker, a fixed seed and a *deterministic* work limit
(``max_deterministic_time``), so a design does not depend on the machine's speed or load.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ortools.sat.python import cp_model

from solver.pieces import Piece
from solver.puzzle import Mode, Puzzle
from solver.shapes import Cell, Shape, adjacent
from solver.tiling import keeping_sigint


class LockModel:
    """See the module docstring.

    Args:
        blocks: the block set.
        width, height: the box, in cells.
        per_face: the least and most blocks on a face.
        cells: the least and most lock cells.
        flips: whether blocks may be turned over.
        holes: whether the lock may enclose empty squares.
        work: CP-SAT's deterministic time limit per design (its own work units, roughly
            seconds on a fast machine).
    """

    def __init__(self, blocks: Sequence[Piece], width: int, height: int, per_face: tuple[int, int],
                 cells: tuple[int, int], flips: bool, holes: bool, work: float = 2.0) -> None:
        self.blocks = tuple(blocks)
        self.box = [(r, c) for r in range(height) for c in range(width)]
        self.per_face = per_face
        self.cells = cells
        self.flips = flips
        self.holes = holes
        self.work = work
        # every way each block lies in the box: the puzzle's own placements of the box
        in_box: dict[str, list[tuple[Cell, ...]]] = {b.name: [] for b in self.blocks}
        for p in Puzzle(Shape(frozenset(self.box)), self.blocks, flips=flips, mode=Mode.SUBSET).placements():
            in_box[p.piece].append(p.cells)
        self.placements: list[list[tuple[Cell, ...]]] = [sorted(in_box[b.name]) for b in self.blocks]
        self.height, self.width = height, width

    def design(self, rng: random.Random, seed: int = 0) -> tuple[Shape, list[tuple[str, ...]]] | None:
        """A lock and six different block sets that tile it, or None (work limit reached, or
        no design exists in the box)."""
        faces = 6
        n = len(self.box)
        blocks = self.blocks
        model = cp_model.CpModel()

        # variables
        lock = {c: model.new_bool_var(f"lock[{c}]") for c in self.box}
        place = {(f, b, i): model.new_bool_var(f"place[{f}, {blocks[b].name}, {i}]")
                 for f in range(faces) for b in range(len(blocks)) for i in range(len(self.placements[b]))}
        uses = {(f, b): model.new_bool_var(f"uses[{f}, {blocks[b].name}]")
                for f in range(faces) for b in range(len(blocks))}

        # constraints: covering, block use, face sizes, different (ordered) faces
        for f in range(faces):
            covering: dict[Cell, list[cp_model.IntVar]] = {c: [] for c in self.box}
            for b in range(len(blocks)):
                mine = [place[f, b, i] for i in range(len(self.placements[b]))]
                model.add(sum(mine) == uses[f, b])
                for i, cells in enumerate(self.placements[b]):
                    for c in cells:
                        covering[c].append(place[f, b, i])
            for c in self.box:
                model.add(sum(covering[c]) == lock[c])
            model.add_linear_constraint(sum(uses[f, b] for b in range(len(blocks))), *self.per_face)
        code = [sum((1 << b) * uses[f, b] for b in range(len(blocks))) for f in range(faces)]
        for f in range(faces - 1):
            model.add(code[f] < code[f + 1])
        area = sum(lock.values())
        model.add_linear_constraint(area, *self.cells)

        # connected: a unit of flow from the one root to every lock cell, along lock cells
        edges = [(a, d) for a in self.box for d in adjacent(a) if d in lock]
        root = {c: model.new_bool_var(f"root[{c}]") for c in self.box}
        model.add_exactly_one(root.values())
        flow = {e: model.new_int_var(0, n, f"flow[{e}]") for e in edges}
        supply = {c: model.new_int_var(0, n, f"supply[{c}]") for c in self.box}
        for c in self.box:
            model.add_implication(root[c], lock[c])
            model.add(supply[c] == 0).only_enforce_if(root[c].negated())
            model.add(supply[c] + sum(flow[(a, d)] for a, d in edges if d == c)
                      - sum(flow[(a, d)] for a, d in edges if a == c) == lock[c])
        for (a, d), var in flow.items():
            model.add(var == 0).only_enforce_if(lock[a].negated())
            model.add(var == 0).only_enforce_if(lock[d].negated())

        # hole-free: a unit from the border to every empty cell, along empty cells
        if not self.holes:
            air = {e: model.new_int_var(0, n, f"air[{e}]") for e in edges}
            border = {c for c in self.box if c[0] in (0, self.height - 1) or c[1] in (0, self.width - 1)}
            for c in self.box:
                inflow = model.new_int_var(0, n if c in border else 0, f"outside[{c}]")
                model.add(inflow == 0).only_enforce_if(lock[c])
                model.add(inflow + sum(air[(a, d)] for a, d in edges if d == c)
                          - sum(air[(a, d)] for a, d in edges if a == c) == 1 - lock[c])
            for (a, d), var in air.items():
                model.add(var == 0).only_enforce_if(lock[a])
                model.add(var == 0).only_enforce_if(lock[d])

        # objective: random preferences, and compactness around the centre
        centre = ((self.height - 1) / 2, (self.width - 1) / 2)
        terms = []
        for c in self.box:
            distance = abs(c[0] - centre[0]) + abs(c[1] - centre[1])
            terms.append((rng.randint(0, 20) - int(8 * distance)) * lock[c])
        for key in uses:
            terms.append(rng.randint(0, 10) * uses[key])
        model.maximize(sum(terms))

        # solve
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = seed
        solver.parameters.max_deterministic_time = self.work
        with keeping_sigint():
            status = solver.solve(model)

        # extract
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None
        chosen: frozenset[tuple[int, ...]] = frozenset(c for c in self.box if solver.boolean_value(lock[c]))
        sets = [tuple(blocks[b].name for b in range(len(blocks)) if solver.boolean_value(uses[f, b]))
                for f in range(faces)]
        return Shape(chosen).normalized(), sets

