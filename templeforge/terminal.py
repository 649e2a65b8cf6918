"""Figures drawn as text for the terminal (``generators.common.figures``)."""

from __future__ import annotations

from collections.abc import Iterable

from generators.common import words
from generators.common.figures import Bars, Drawing, Fact, Figure, Histogram, Table


def table(t: Table) -> list[str]:
    widths = [max([len(c)] + [len(r[i]) for r in t.rows]) for i, c in enumerate(t.columns)]
    align = (t.align or "<" * len(t.columns)).ljust(len(t.columns), "<")

    def line(cells: Iterable[str]) -> str:
        parts = [f"{cell:{'>' if a == '>' else '<'}{w}}" for cell, w, a in zip(cells, widths, align)]
        return "  ".join(parts).rstrip()

    return [line(t.columns)] + [line(r) for r in t.rows]


def histogram(h: Histogram, bar: int = 40) -> list[str]:
    out = [f"{h.title}:"]
    most = max(h.bins, default=0)
    for i, n in enumerate(h.bins):
        lo = h.start + i * h.width
        filled = max(n * bar // most, 1 if n else 0) if most else 0
        out.append(f"  {lo:4.1f}-{lo + h.width:<4.1f} {'#' * filled:{bar}} {n}")
    return out


def bars(b: Bars, bar: int = 40) -> list[str]:
    out = [f"{b.title}:"]
    most = max(b.values, default=0)
    width = max((len(label) for label in b.labels), default=0)
    for label, value in zip(b.labels, b.values):
        filled = max(round(value * bar / most), 1 if value else 0) if most else 0
        out.append(f"  {label:<{width}} {'#' * filled:{bar}} {value:g}")
    return out


def render(figures: Iterable[Figure]) -> str:
    """The figures as text, a blank line before each drawing."""
    lines: list[str] = []
    for f in figures:
        if isinstance(f, Fact):
            lines.append(f"{f.label}: {f.text}")
        elif isinstance(f, Table):
            lines.extend(table(f))
        elif isinstance(f, Histogram):
            lines.extend(histogram(f))
        elif isinstance(f, Bars):
            lines.extend(bars(f))
        elif isinstance(f, Drawing):
            lines.append("")
            lines.append(f.title)
            if f.picture:
                lines.append(f.picture)
    return "\n".join(lines)


plural = words.plural  # one definition, in generators.common.words
