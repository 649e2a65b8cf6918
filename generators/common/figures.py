"""The figures that describe a deck, as data: tables, histograms, facts and drawings.

Generators and verifiers return these; the terminal (``templeforge``), the PDF answer key and
the build report each draw them their own way, from the same numbers.

Nouns:
    Fact       one labelled line (``block usage``: ``I2 54, I3 54, ...; max/min 1.00``).
    Table      a header and rows of cells (text or numbers), with the columns' alignment.
    Histogram  counts of values in bins of equal width.
    Bars       a labelled value per bar (faces that use each block).
    Drawing    a titled ASCII picture (a lock, a solution).

A table's ``pictures`` columns hold small text pictures (``aab\n.cc``: a letter per cell,
``.`` for none) that a report may draw as coloured grids, each letter in its ``colours``
entry.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Fact:
    label: str
    text: str


@dataclass(frozen=True, slots=True)
class Table:
    """Rows of cells under ``columns``; ``align`` has one of ``<`` / ``>`` per column;
    ``orders`` gives a column (by index) whose words sort in their own order, not the
    alphabet's (tiers: ``easy`` < ``medium`` < ``hard``)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    align: str = ""
    pictures: tuple[int, ...] = ()
    colours: tuple[tuple[str, str], ...] = ()
    orders: tuple[tuple[int, tuple[str, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class Histogram:
    """``bins[i]`` values fell in ``[start + i * width, start + (i + 1) * width)``."""

    title: str
    start: float
    width: float
    bins: tuple[int, ...]

    @classmethod
    def of(cls, title: str, values: Sequence[float], width: float = 0.5) -> Histogram:
        finite = [v for v in values if math.isfinite(v)]
        if not finite:
            return cls(title, 0.0, width, ())
        low = math.floor(min(finite) / width)
        high = math.floor(max(finite) / width)
        counted = Counter(math.floor(v / width) for v in finite)
        return cls(title, low * width, width, tuple(counted.get(b, 0) for b in range(low, high + 1)))


@dataclass(frozen=True, slots=True)
class Bars:
    """One bar per label: ``values[i]`` for ``labels[i]``."""

    title: str
    labels: tuple[str, ...]
    values: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class Drawing:
    title: str
    picture: str


Figure = Fact | Table | Histogram | Bars | Drawing
