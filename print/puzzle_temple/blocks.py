"""Puzzle Temple's paper blocks: every player's set packed on pages of cells at the cards' pitch.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from generators.common.errors import RequestError
from print.common import colours
from print.common.layout import FOOTER, Box
from print.common.pdf import Document
from print.common.sheets import margin_note
from print.common.sizes import Paper
from print.puzzle_temple.cards import Cell, _extent
from solver.shapes import Shape, plane

# -- paper blocks ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Placed:
    """A paper block on a page: ``cells`` as (row, column) in the page's cell grid."""

    name: str
    player: int
    cells: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class Packing:
    """Paper blocks on pages of ``rows`` x ``columns`` cells."""

    rows: int
    columns: int
    pages: tuple[tuple[Placed, ...], ...]

    @property
    def lower_bound(self) -> int:
        """No packing can use fewer pages than the cells need."""
        cells = sum(len(p.cells) for page in self.pages for p in page)
        return max(1, math.ceil(cells / (self.rows * self.columns)))


def pack(blocks: Sequence[tuple[str, Shape]], players: int, rows: int, columns: int, flips: bool) -> Packing:
    """``players`` sets of ``blocks`` on pages of ``rows`` x ``columns`` cells, largest
    first, each at the first free place (top row first, then left to right) in the first
    page it fits, turned as the rules allow (turned over too when ``flips``: a paper block
    printed on one side must not be a mirror image the rules forbid).

    Raises:
        RequestError: a block larger than a page.
    """
    items = sorted(((name, shape, p) for p in range(1, players + 1) for name, shape in blocks),
                   key=lambda t: (-len(t[1]), t[0], t[2]))
    pages: list[list[Placed]] = []
    filled: list[set[Cell]] = []
    for name, shape, player in items:
        shapes = [plane(o.cells) for o in shape.orientations(flips=flips)]
        spot: tuple[int, tuple[Cell, ...]] | None = None
        for k, taken in enumerate(filled):
            found = _first_fit(shapes, taken, rows, columns)
            if found is not None:
                spot = (k, found)
                break
        if spot is None:
            fresh: set[Cell] = set()
            place = _first_fit(shapes, fresh, rows, columns)
            if place is None:
                r, c = _extent(shapes[0])
                raise RequestError(f"pitch: block {name} ({r} x {c} cells) does not fit on a page of "
                                   f"{rows} x {columns} cells; use a smaller --pitch")
            pages.append([])
            filled.append(fresh)
            spot = (len(pages) - 1, place)
        k, cells = spot
        filled[k].update(cells)
        pages[k].append(Placed(name, player, cells))
    return Packing(rows, columns, tuple(tuple(p) for p in pages))


def _first_fit(shapes: Sequence[tuple[Cell, ...]], taken: set[Cell], rows: int,
               columns: int) -> tuple[Cell, ...] | None:
    for r in range(rows):
        for c in range(columns):
            if (r, c) in taken:
                continue
            for shape in shapes:
                # anchor the shape's first cell (in row order) on the first free cell
                ar, ac = shape[0]
                cells = tuple((r + sr - ar, c + sc - ac) for sr, sc in shape)
                if all(0 <= cr < rows and 0 <= cc < columns and (cr, cc) not in taken for cr, cc in cells):
                    return cells
    return None


def blocks_grid(paper: Paper, margin: float, pitch: float) -> tuple[Box, int, int]:
    """The cell grid of a blocks page: its box, rows and columns."""
    area = Box(margin, margin + FOOTER, paper.width - 2 * margin, paper.height - 2 * margin - FOOTER - 5)
    rows, columns = int(area.h // pitch), int(area.w // pitch)
    grid = Box(area.cx - columns * pitch / 2, area.y1 - rows * pitch, columns * pitch, rows * pitch)
    return grid, rows, columns


def draw_blocks(doc: Document, packing: Packing, grid: Box, paper: Paper, margin: float, pitch: float,
                key: Mapping[str, str], palette: Mapping[str, str], title: str, players: int) -> None:
    total = len(packing.pages)
    for n, page in enumerate(packing.pages):
        with doc.page(paper.width, paper.height) as pen:
            pen.text(grid.x, grid.y1 + 2, f"{title}: paper blocks, {players} player set"
                     f"{'s' if players != 1 else ''} at {pitch:g} mm; cut along the black lines", 9, bold=True)
            for placed in page:
                colour = palette[placed.name]
                pen.cells(placed.cells, grid.x, grid.y1, pitch, colour, edge_width=0.5,
                          grid=colours.shade(colour, -0.2), grid_width=0.15, letter=key[placed.name],
                          letter_size=min(14.0, pitch * 1.1))
            margin_note(pen, Box(margin, margin, paper.width - 2 * margin, FOOTER),
                        f"{title}  |  paper blocks, page {n + 1} of {total}",
                        f"{len(page)} blocks; each cell is {pitch:g} mm, as on the cards")
