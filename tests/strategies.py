"""Hypothesis strategies for shapes, shared by the test modules."""

from __future__ import annotations

from hypothesis import strategies as st

from solver.shapes import Shape, adjacent


@st.composite
def polyominoes(draw: st.DrawFn, dim: int = 2, max_size: int = 9, min_size: int = 1) -> Shape:
    """A random connected shape grown cell by cell from the origin."""
    size = draw(st.integers(min_size, max_size))
    cells = {(0,) * dim}
    while len(cells) < size:
        frontier = sorted({n for c in cells for n in adjacent(c)} - cells)
        cells.add(frontier[draw(st.integers(0, len(frontier) - 1))])
    shift = draw(st.tuples(*[st.integers(-5, 5)] * dim))
    return Shape(frozenset(cells)).translated(shift)


@st.composite
def cell_sets(draw: st.DrawFn, dim: int = 2, span: int = 5) -> Shape:
    """A random non-empty set of cells in a small box, holes and gaps allowed."""
    cell = st.tuples(*[st.integers(0, span - 1)] * dim)
    return Shape(frozenset(draw(st.sets(cell, min_size=1, max_size=span**dim // 2 + 1))))
