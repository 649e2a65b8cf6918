"""What the benches share: timing a call, timing a command with its peak memory, and one
table of figures, each beside its peer and its target.

A figure is a time (or a size) with, where one exists, a peer measured in the same run: the
target is then a ratio to the peer, which holds on a shared, noisy machine; a figure without
a peer has an absolute target.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
TEMPLEFORGE = [sys.executable, "-m", "templeforge"]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Figure:
    """One measured figure.

    Attributes:
        bench: which bench measured it (``tiling``, ``build``).
        name: what was measured.
        value: the figure, in ``unit``.
        unit: ``s``, ``ms``, ``ns`` or ``GiB``.
        peer: what it is compared with, measured in the same run ("" for none).
        peer_value: the peer's figure, in the same unit.
        target: the most the figure may be: a ratio to the peer, or without a peer a value
            in ``unit``; None for a figure shown for information.
    """

    bench: str
    name: str
    value: float
    unit: str
    peer: str = ""
    peer_value: float | None = None
    target: float | None = None

    @property
    def ratio(self) -> float | None:
        if self.peer_value is None or self.peer_value <= 0:
            return None
        return self.value / self.peer_value

    @property
    def met(self) -> bool | None:
        if self.target is None:
            return None
        measured = self.ratio if self.peer else self.value
        return measured is not None and measured <= self.target


def best(fn: Callable[[], T], repeat: int = 1) -> tuple[float, T]:
    """The least time of ``repeat`` calls (seconds) and the last call's result."""
    times = []
    out: Any = None
    for _ in range(max(repeat, 1)):
        started = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - started)
    return min(times), out


@dataclass(frozen=True, slots=True)
class Ran:
    """A command's wall time (s), its peak resident memory (bytes: the largest of the
    command and the processes it waited for) and its exit status."""

    seconds: float
    peak: int
    status: int


def command(args: Sequence[str], cwd: Path = ROOT) -> Ran:
    """Run ``templeforge`` with ``args`` in a fresh process, as a user runs it."""
    started = time.perf_counter()
    child = subprocess.Popen([*TEMPLEFORGE, *args], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    return Ran(time.perf_counter() - started, usage.ru_maxrss * 1024, child.returncode)


def _number(value: float, unit: str) -> str:
    if unit == "ms":
        return f"{value:.3f} ms"
    if unit == "ns":
        return f"{value:.1f} ns"
    if unit == "GiB":
        return f"{value:.2f} GiB"
    return f"{value:.3f} s" if value < 10 else f"{value:.1f} s"


def table(figures: Sequence[Figure]) -> str:
    """The figures as a Markdown table: each with its peer, the ratio and the target."""
    lines = ["| bench | figure | value | peer | ratio | target | met |", "|---|---|---|---|---|---|---|"]
    for f in figures:
        peer = f"{f.peer} {_number(f.peer_value, f.unit)}" if f.peer and f.peer_value is not None else ""
        ratio = f"{f.ratio:.2f}" if f.ratio is not None else ""
        if f.target is None:
            target = ""
        elif f.peer:
            target = f"<= {f.target:g} of {f.peer}"
        else:
            target = f"<= {_number(f.target, f.unit)}"
        met = {None: "", True: "yes", False: "**no**"}[f.met]
        lines.append(f"| {f.bench} | {f.name} | {_number(f.value, f.unit)} | {peer} | {ratio} | {target} | {met} |")
    return "\n".join(lines)


def missed(figures: Sequence[Figure]) -> list[Figure]:
    """The figures whose target was not met."""
    return [f for f in figures if f.met is False]
