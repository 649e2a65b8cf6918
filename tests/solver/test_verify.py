"""The independent verifier: accepts exact tilings and names every fault."""

from __future__ import annotations

from solver.pieces import piece, preset
from solver.shapes import Shape
from solver.verify import verify_tiling

REGION = Shape.parse("""
    ####
    ####
""")
PIECES = (piece("L4"), piece("O4"))


def problems(placements, pieces=PIECES, region=REGION, **kw) -> list[str]:
    return list(verify_tiling(region, pieces, placements, **kw).problems)


def test_an_exact_tiling_passes() -> None:
    region = Shape.parse("###\n#..")
    verdict = verify_tiling(region, (piece("L3"), piece("I2")), [("L3", [(0, 0), (0, 1), (1, 0)]),
                                                                ("I2", [(0, 2), (1, 2)])])
    assert not verdict.ok  # (1, 2) is outside: this region has no such cell
    verdict = verify_tiling(REGION, (piece("L4"), piece("L4")),
                            [("L4", [(0, 0), (1, 0), (1, 1), (1, 2)]), ("L4", [(0, 1), (0, 2), (0, 3), (1, 3)])])
    assert verdict.ok and verdict.problems == ()


def test_every_fault_is_listed() -> None:
    found = problems([("L4", [(0, 0), (1, 0), (1, 1), (0, 2)]), ("O4", [(0, 2), (0, 3), (1, 2), (1, 3)])])
    assert any("placement 1 (L4): cells" in p and "not the piece's shape" in p for p in found)
    assert "cell [0, 2] is covered by placements 1, 2" in found
    assert "1 region cell(s) not covered: [0, 1]" in found
    assert len(found) == 3


def test_outside_cells_unknown_pieces_and_overuse() -> None:
    found = problems([("O4", [(0, 0), (0, 1), (1, 0), (1, 1)]), ("O4", [(0, 3), (0, 4), (1, 3), (1, 4)]),
                      ("Q", [(0, 2)])])
    assert any("[0, 4], [1, 4] outside the region" in p for p in found)
    assert any("placement 3 (Q): no piece of that name" in p for p in found)
    assert any("piece O4 is used 2 times but only 1 available" in p for p in found)
    assert any("piece(s) not used: L4" in p for p in found)


def test_mirror_images_need_flips() -> None:
    mirrored = piece("L4").shape.mirrored()
    placement = [("L4", sorted(mirrored.cells))]
    assert problems(placement, (piece("L4"),), mirrored, flips=True) == []
    found = problems(placement, (piece("L4"),), mirrored, flips=False)
    assert len(found) == 1 and "mirror images not allowed" in found[0]


def test_subset_mode_allows_unused_pieces() -> None:
    pieces = (piece("L4"), piece("L4"), piece("O4"))
    tiling = [("L4", [(0, 0), (1, 0), (1, 1), (1, 2)]), ("L4", [(0, 1), (0, 2), (0, 3), (1, 3)])]
    assert problems(tiling, pieces, mode="subset") == []
    assert problems(tiling, pieces, mode="all") == ["piece(s) not used: O4"]


def test_malformed_placements_are_reported_not_raised() -> None:
    found = problems([("L4", [(0, "x")]), ("O4", []), ("O4", [(0, 0, 0)]), 42])
    assert any("cells must be lists of integers" in p for p in found)
    assert any("placement 2 (O4): no cells" in p for p in found)
    assert any("must have 2 coordinates" in p for p in found)
    assert any("placement 4: expected (piece, cells)" in p for p in found)


def test_a_flat_piece_may_stand_up_in_3d() -> None:
    region = Shape(frozenset((0, c, z) for c in range(3) for z in range(2)))
    tiling = [("I3", [(0, 0, 0), (0, 1, 0), (0, 2, 0)]), ("I3", [(0, 0, 1), (0, 1, 1), (0, 2, 1)])]
    assert problems(tiling, (piece("I3"), piece("I3")), region) == []
    standing = [("L3", [(0, 0, 0), (0, 0, 1), (0, 1, 1)]), ("L3", [(0, 1, 0), (0, 2, 0), (0, 2, 1)])]
    assert problems(standing, (piece("L3"), piece("L3")), region) == []


def test_soma_pieces_are_rigid_without_flips() -> None:
    a = piece("soma_A").shape
    mirrored = a.mirrored()
    region = mirrored
    placement = [("soma_A", sorted(mirrored.cells))]
    assert problems(placement, (piece("soma_A"),), region, flips=False)
    assert problems(placement, (piece("soma_A"),), region, flips=True) == []
    assert preset("soma")  # the set exists for the 3D tests


def test_cells_must_be_integers_as_shape_demands() -> None:
    good = [("O4", [(0, 0), (0, 1), (1, 0), (1, 1)]), ("L4", [(0, 2), (0, 3), (1, 2), (1, 3)])]
    assert problems(good) != []  # L4 is not a square: the only complaint is the shape
    for bad in ([0.9, 0.2], ["0", "1"], [False, True], "01"):
        found = problems([("O4", [bad, (0, 1), (1, 0), (1, 1)])])
        assert any("cells must be lists of integers" in p for p in found), (bad, found)


def test_a_far_away_cell_is_listed_not_drawn() -> None:
    far = [("O4", [(0, 0), (0, 1), (1, 0), (100_000_000, 100_000_000)])]
    found = problems(far)
    assert any("[100000000, 100000000]" in p and "are not the piece's shape" in p for p in found)
    assert all(len(p) < 400 for p in found)
