"""Named pieces, presets and polyomino enumeration against published counts."""

from __future__ import annotations

import pytest

from solver.errors import ShapeError, UnknownPieceError
from solver.pieces import PRESETS, Piece, piece, piece_names, polyominoes, preset
from solver.shapes import Shape

# OEIS A000105 (free polyominoes), A000988 (one-sided), A038119 (free polycubes),
# A000162 (polycubes up to rotation).
FREE_2D = [1, 1, 2, 5, 12, 35]
ONE_SIDED_2D = [1, 1, 2, 7, 18, 60]
FREE_3D = [1, 1, 2, 7, 23]
ROTATION_3D = [1, 1, 2, 8, 29]


def test_polyomino_counts_match_oeis() -> None:
    assert [len(polyominoes(n)) for n in range(1, 7)] == FREE_2D
    assert [len(polyominoes(n, flips=False)) for n in range(1, 7)] == ONE_SIDED_2D


def test_polycube_counts_match_oeis() -> None:
    assert [len(polyominoes(n, dim=3)) for n in range(1, 6)] == FREE_3D
    assert [len(polyominoes(n, dim=3, flips=False)) for n in range(1, 6)] == ROTATION_3D


def test_named_pentominoes_are_the_twelve() -> None:
    mine = {p.shape.canonical() for p in preset("pentominoes")}
    assert mine == set(polyominoes(5))
    assert [p.name for p in preset("pentominoes")] == list("FILNPTUVWXYZ")


def test_named_tetrominoes_free_and_one_sided() -> None:
    free = preset("tetrominoes")
    assert {p.shape.canonical() for p in free} == set(polyominoes(4))
    one_sided = preset("tetrominoes", flips=False)
    assert [p.name for p in one_sided] == ["I4", "O4", "T4", "S4", "L4", "J4", "Z4"]
    assert {p.shape.canonical(flips=False) for p in one_sided} == set(polyominoes(4, flips=False))


def test_hexominoes_are_all_35_distinct() -> None:
    hexes = preset("hexominoes")
    assert len(hexes) == 35 and all(p.size == 6 for p in hexes)
    assert len({p.shape.canonical() for p in hexes}) == 35


def test_soma_pieces() -> None:
    soma = preset("soma")
    assert sum(p.size for p in soma) == 27
    assert all(p.shape.dim == 3 for p in soma)
    # the six Soma tetracubes are the one-sided tetracubes other than the straight and the square
    straight_or_square = {Shape.parse(t).lifted().canonical(flips=False) for t in ("####", "##\n##")}
    tetracubes = set(polyominoes(4, dim=3, flips=False)) - straight_or_square
    assert {p.shape.canonical(flips=False) for p in soma if p.size == 4} == tetracubes
    a, b = piece("soma_A").shape, piece("soma_B").shape
    assert not a.is_congruent(b, flips=False)
    assert a.is_congruent(b, flips=True)


def test_ubongo12_is_ubongos_own_tile_set() -> None:
    pieces = preset("ubongo12")
    assert len(pieces) == 12
    assert sum(p.size for p in pieces) == 48
    assert len({p.name for p in pieces}) == 12
    # the game's pentominoes are Y, L, P and Z (not N): Z is the S-shaped one
    z = Shape.parse("##.\n.#.\n.##")
    assert any(p.shape.is_congruent(z) for p in pieces)
    assert not any(p.shape.is_congruent(piece("N").shape) for p in pieces)
    # and the game's own names find them
    for alias, name in {"domino": "I2", "V3": "L3", "Y5": "Y", "L5": "L", "P5": "P", "Z5": "Z"}.items():
        assert piece(alias) == piece(name)
        assert any(p.name == name for p in pieces)


def test_every_preset_member_is_named() -> None:
    names = set(piece_names())
    for members in PRESETS.values():
        assert set(members) <= names


def test_lookup_errors_list_what_is_known() -> None:
    with pytest.raises(UnknownPieceError, match="unknown piece 'Q9'.*F, I, L"):
        piece("Q9")
    with pytest.raises(UnknownPieceError, match="unknown preset 'nope'"):
        preset("nope")
    assert piece("domino") == piece("I2")


def test_piece_must_be_connected() -> None:
    with pytest.raises(ShapeError, match="not connected"):
        Piece("broken", Shape.parse("#.#"))
    with pytest.raises(ShapeError, match="name"):
        Piece("", Shape.parse("#"))
