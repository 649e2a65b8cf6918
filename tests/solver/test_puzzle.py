"""Puzzles: validation, candidate placements, impossibility proofs, symmetry action."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from solver.errors import ShapeError
from solver.pieces import Piece, piece, preset
from solver.puzzle import Mode, Placement, Puzzle, Solution, canonical_key, symmetry_action
from solver.shapes import Shape

BOX_2X3 = Shape.parse("###\n###")
CUBE = Shape(frozenset((r, c, z) for r in range(2) for c in range(2) for z in range(2)))


def test_validation() -> None:
    with pytest.raises(ShapeError, match="at least one piece"):
        Puzzle(BOX_2X3, ())
    with pytest.raises(ShapeError, match="is 3D but the region is 2D"):
        Puzzle(BOX_2X3, (piece("soma_V"),))
    with pytest.raises(ShapeError, match="two different shapes"):
        Puzzle(BOX_2X3, (piece("I2"), Piece("I2", Shape.parse("###"))))
    with pytest.raises(ShapeError, match="mode must be"):
        Puzzle(BOX_2X3, (piece("I2"),), mode="most")
    assert Puzzle(BOX_2X3, (piece("I2"),), mode="subset").mode is Mode.SUBSET


def test_copies_are_one_kind() -> None:
    puzzle = Puzzle(BOX_2X3, (piece("I2"), piece("L3"), piece("I2")))
    assert [(p.name, n) for p, n in puzzle.kinds] == [("I2", 2), ("L3", 1)]
    assert puzzle.piece_area == 7


def test_puzzles_are_values_that_survive_pickling() -> None:
    a = Puzzle(BOX_2X3, (piece("I2"), piece("L3")), mode="subset")
    b = Puzzle(Shape.parse("###\n###"), (piece("I2"), piece("L3")), mode=Mode.SUBSET)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Puzzle(BOX_2X3, (piece("I2"), piece("L3")))
    # a worker process rebuilds the puzzle, so the cached hash is its own, not the sender's
    rebuilt = pickle.loads(pickle.dumps(a))
    assert rebuilt == a and hash(rebuilt) == hash(a)
    assert Puzzle.__reduce__(a) == (Puzzle, (a.region, a.pieces, a.flips, a.mode))
    # a subprocess with another string-hash seed agrees that the pickled puzzle is the same
    code = ("import pickle, sys; from solver.puzzle import Puzzle; "
            "p = pickle.loads(sys.stdin.buffer.read()); "
            "print(hash(p) == hash(Puzzle(p.region, p.pieces, p.flips, p.mode)))")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(a), env=env,
                         capture_output=True, check=True, cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == b"True"


def test_placement_counts() -> None:
    assert len(Puzzle(BOX_2X3, (piece("I2"),)).placements()) == 7  # 4 across, 3 down
    plus = Shape.parse(".#.\n###\n.#.")
    assert len(Puzzle(plus, (piece("X"),)).placements()) == 1
    # a flat domino in a 2x2x2 cube lies along any of the cube's 12 edges
    assert len(Puzzle(CUBE, (piece("I2"),)).placements()) == 12
    # the L tromino: 4 orientations, each a 2x2 box that fits in 2 places
    assert len(Puzzle(BOX_2X3, (piece("L3"),), flips=False).placements()) == 8
    # the L tetromino lies only with its long arm along the 3: 2 ways, 4 with mirror images
    assert len(Puzzle(BOX_2X3, (piece("L4"),), flips=False).placements()) == 2
    assert len(Puzzle(BOX_2X3, (piece("L4"),), flips=True).placements()) == 4


def test_impossibility_proofs() -> None:
    assert "area mismatch" in Puzzle(BOX_2X3, (piece("I2"),)).impossibility()
    assert Puzzle(BOX_2X3, (piece("I3"), piece("L3"))).impossibility() is None  # needs search
    subset = Puzzle(BOX_2X3, (piece("O4"), piece("O4")), mode="subset")
    assert "no selection of the pieces covers exactly 6" in subset.impossibility()
    few = Puzzle(BOX_2X3, (piece("I2"),), mode="subset")
    assert "all the pieces together cover 2" in few.impossibility()
    nowhere = Puzzle(BOX_2X3, (piece("I4"), piece("I2")))
    assert "region cell(s) no piece can cover" in nowhere.impossibility() or \
        "fit nowhere" in nowhere.impossibility()


def test_symmetry_action_permutes_placements() -> None:
    puzzle = Puzzle(Shape.parse("####\n####\n####\n####"), (piece("L4"),) * 4)
    action = symmetry_action(puzzle)
    assert len(action) == 8
    n = len(puzzle.placements())
    assert action[0] == tuple(range(n))
    assert all(sorted(perm) == list(range(n)) for perm in action)
    one_sided = Puzzle(puzzle.region, (piece("L4"),) * 4, flips=False)
    assert len(symmetry_action(one_sided)) == 4


def test_canonical_key_identifies_mirror_images() -> None:
    puzzle = Puzzle(BOX_2X3, (piece("L3"), piece("L3")))
    index = {p: i for i, p in enumerate(puzzle.placements())}
    a = [index[Placement("L3", ((0, 0), (0, 1), (1, 0)))], index[Placement("L3", ((0, 2), (1, 1), (1, 2)))]]
    b = [index[Placement("L3", ((0, 0), (1, 0), (1, 1)))], index[Placement("L3", ((0, 1), (0, 2), (1, 2)))]]
    action = symmetry_action(puzzle)
    assert canonical_key(a, action) == canonical_key(b, action)
    assert canonical_key(a, action[:1]) != canonical_key(b, action[:1])


def test_solution_letters_and_legend() -> None:
    named = Solution((Placement("X", ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1))),))
    assert named.picture() == ".X.\nXXX\n.X." and named.legend() == ""
    pieces = preset("soma")
    sol = Solution(tuple(Placement(p.name, ((0, i, 0),)) for i, p in enumerate(pieces)))
    letters = [letter for letter, _ in sol.letters()]
    assert len(set(letters)) == 7 and "A = soma_A" in sol.legend()
    twins = Solution((Placement("I2", ((0, 0), (0, 1))), Placement("I2", ((1, 0), (1, 1)))))
    assert twins.picture() == "II\nii" and twins.legend() == "I = I2, i = I2"


def test_the_mutilated_chessboard_is_refused_by_colouring() -> None:
    # a 4x4 board without two opposite corners (both dark): 7 dominoes cannot cover it
    region = Shape.parse("""
        .###
        ####
        ####
        ###.
    """)
    reason = Puzzle(region, (piece("I2"),) * 7).impossibility()
    assert reason == ("checkerboard colouring: the region has 6 dark and 8 light squares, "
                      "a difference no placement of these pieces can cover")
    # one T tetromino (3 + 1) among dominoes makes up the difference: no refusal
    assert Puzzle(region, (piece("I2"),) * 5 + (piece("T4"),)).impossibility() is None
