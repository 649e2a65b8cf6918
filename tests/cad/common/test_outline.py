"""Cell outlines: loops with the region on their left, grown and shrunk exactly."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cad.common.outline import area, loops, offset


def test_a_ring_has_an_outer_loop_and_a_hole() -> None:
    ring = [(r, c) for r in range(3) for c in range(3) if (r, c) != (1, 1)]
    outer, hole = offset(ring, 1.0, 0.0)
    assert area(outer) == 9 and area(hole) == -1


def test_cells_touching_at_a_corner_make_two_simple_loops() -> None:
    two = offset([(0, 0), (1, 1)], 10.0, 0.0)
    assert sorted(area(loop) for loop in two) == [100, 100]
    assert all(len(loop) == 4 for loop in two)


def test_a_t_block_shrunk_by_a_tenth_loses_its_perimeter_times_a_tenth() -> None:
    t = [(0, 0), (0, 1), (0, 2), (1, 1)]
    (loop,) = offset(t, 15.0, -0.1)
    assert len(loop) == 8
    perimeter = 10 * 15.0
    assert area(loop) == pytest.approx(4 * 225 - perimeter * 0.1 + (6 - 2) * 0.01)


@settings(max_examples=80, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=20), st.floats(-0.3, 0.3))
def test_the_loops_enclose_exactly_the_cells(cells: set[tuple[int, int]], d: float) -> None:
    assert sum(area(loop) for loop in offset(cells, 1.0, 0.0)) == pytest.approx(len(cells))
    edges = sum(len(loop) for loop in loops(cells))
    assert edges >= 4
