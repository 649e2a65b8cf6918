"""Shapes: canonical forms, symmetries and the text form."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.errors import ParseError, ShapeError
from solver.shapes import Shape, format_cells, transforms
from tests.strategies import cell_sets, polyominoes


def test_transform_group_sizes() -> None:
    assert [len(transforms(2, f)) for f in (False, True)] == [4, 8]
    assert [len(transforms(3, f)) for f in (False, True)] == [24, 48]
    for dim in (2, 3):
        assert transforms(dim)[0].apply(tuple(range(1, dim + 1))) == tuple(range(1, dim + 1))
        assert all(t.is_rotation for t in transforms(dim, flips=False))


@given(polyominoes(), st.sampled_from(transforms(2)))
def test_canonical_form_is_invariant_in_2d(shape: Shape, t) -> None:
    moved = shape.transformed(t).translated((3, -7))
    assert moved.canonical() == shape.canonical()
    if t.is_rotation:
        assert moved.canonical(flips=False) == shape.canonical(flips=False)


@given(polyominoes(dim=3, max_size=7), st.sampled_from(transforms(3)))
def test_canonical_form_is_invariant_in_3d(shape: Shape, t) -> None:
    moved = shape.transformed(t).translated((1, 2, -3))
    assert moved.canonical() == shape.canonical()
    if t.is_rotation:
        assert moved.canonical(flips=False) == shape.canonical(flips=False)


@given(polyominoes())
def test_orientation_count_times_symmetry_count_is_group_order(shape: Shape) -> None:
    for flips, order in ((True, 8), (False, 4)):
        assert len(shape.orientations(flips)) * len(shape.symmetries(flips)) == order


@given(polyominoes(dim=3, max_size=6))
def test_orbit_stabiliser_in_3d(shape: Shape) -> None:
    for flips, order in ((True, 48), (False, 24)):
        assert len(shape.orientations(flips)) * len(shape.symmetries(flips)) == order


@given(st.one_of(polyominoes(), cell_sets()))
def test_text_form_round_trips_in_2d(shape: Shape) -> None:
    assert Shape.parse(shape.format()) == shape.normalized()
    assert Shape.parse(shape.format(), dim=2) == shape.normalized()
    assert eval(repr(shape), {"Shape": Shape}) == shape


@given(st.one_of(polyominoes(dim=3, max_size=8), cell_sets(dim=3, span=3)))
def test_text_form_round_trips_in_3d(shape: Shape) -> None:
    assert Shape.parse(shape.format(), dim=3) == shape.normalized()
    assert eval(repr(shape), {"Shape": Shape}) == shape


def test_known_orientation_counts() -> None:
    f = Shape.parse(".##\n##.\n.#.")
    assert len(f.orientations()) == 8 and len(f.orientations(flips=False)) == 4
    assert len(Shape.parse(".#.\n###\n.#.").orientations()) == 1
    assert len(Shape.parse("#####").orientations()) == 2
    assert len(Shape.parse("##\n##").orientations()) == 1
    # a 2D piece lifted into 3D lies in every direction: the L tetromino has 24 rotations
    # and, being flat, its mirror image is one of them
    lifted = Shape.parse("###\n#..").lifted()
    assert len(lifted.orientations(flips=False)) == 24
    assert len(lifted.orientations(flips=True)) == 24


def test_region_symmetries() -> None:
    assert len(Shape.parse("\n".join(["#" * 10] * 6)).symmetries()) == 4
    assert len(Shape.parse("###\n###\n###").symmetries()) == 8
    assert len(Shape.parse("###\n###\n###\n\n###\n###\n###\n\n###\n###\n###", dim=3).symmetries()) == 48
    assert len(Shape.parse(".##\n##.\n.#.").symmetries()) == 1


def test_parse_reads_the_picture_as_drawn() -> None:
    text = """
        ..#
        ###
    """
    shape = Shape.parse(text)
    assert shape.cells == {(0, 2), (1, 0), (1, 1), (1, 2)}
    assert shape.dim == 2
    # leading empty rows keep their place: row 0 is the top line of the picture
    assert Shape.parse("...\n.#.").cells == {(1, 1)}
    # short rows are padded
    assert Shape.parse("#\n##").cells == {(0, 0), (1, 0), (1, 1)}


def test_parse_reads_layers_bottom_first() -> None:
    shape = Shape.parse("##\n#.\n\n#.\n..")
    assert shape.dim == 3
    assert shape.cells == {(0, 0, 0), (0, 1, 0), (1, 0, 0), (0, 0, 1)}
    assert shape.format() == "##\n#.\n\n#.\n.."


@pytest.mark.parametrize(
    ("text", "dim", "where"),
    [
        ("##\n#x", None, "line 2, column 2"),
        ("   ##\n   # #", None, "line 2, column 5"),
        ("", None, "empty"),
        ("...\n...", None, "no cells"),
        ("##\n\n##", 2, "line 2"),
    ],
)
def test_parse_errors_name_the_place(text: str, dim: int | None, where: str) -> None:
    with pytest.raises(ParseError, match=where):
        Shape.parse(text, dim=dim)


def test_bad_cells_are_rejected() -> None:
    with pytest.raises(ShapeError):
        Shape(frozenset())
    with pytest.raises(ShapeError):
        Shape(frozenset({(0, 0), (0, 0, 0)}))
    with pytest.raises(ShapeError):
        Shape(frozenset({(0.5, 1)}))  # type: ignore[arg-type]
    with pytest.raises(ShapeError):
        Shape(frozenset({(True, 1)}))


def test_connectivity_and_mirror() -> None:
    assert Shape.parse("##\n.#").is_connected()
    assert not Shape.parse("#.\n.#").is_connected()
    assert Shape.parse("##.\n.##").mirrored() == Shape.parse(".##\n##.")


def test_holes_are_the_enclosed_empty_squares() -> None:
    ring = Shape.parse("""
        ###
        #.#
        ###
    """)
    assert ring.holes() == {(1, 1)}
    assert Shape.parse("###\n#.#\n#.#").holes() == frozenset()  # open at the bottom
    assert Shape.parse("###\n#.#\n.##").holes() == {(1, 1)}  # corners do not let it out
    assert Shape.parse("####\n#..#\n####").holes() == {(1, 1), (1, 2)}
    assert not Shape.parse("#").holes()
    # 3D: a 3x3x3 cube without its centre encloses one cube; with a tunnel it does not
    cube = {(r, c, z) for r in range(3) for c in range(3) for z in range(3)}
    assert Shape(frozenset(cube - {(1, 1, 1)})).holes() == {(1, 1, 1)}
    assert not Shape(frozenset(cube - {(1, 1, 1), (1, 1, 2)})).holes()


@given(polyominoes(), st.sampled_from(transforms(2)))
def test_holes_move_with_the_shape(shape: Shape, t) -> None:
    moved = shape.transformed(t).translated((2, -5))
    assert len(moved.holes()) == len(shape.holes())
    assert not moved.holes() & moved.cells


def test_format_cells_draws_labels() -> None:
    labels = {(0, 0): "A", (0, 1): "A", (1, 1): "B"}
    assert format_cells(labels) == "AA\n.B"
