"""The random numbers of simulated games: a small generator that compiled code can follow
draw for draw.

``Rng`` is SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
generators", OOPSLA 2014): a 64-bit counter stepped by the golden ratio and scrambled. It
passes BigCrush, is a few lines, and is the same in Python and in numba
(``generators/<game>/fast.py``): an engine's compiled games draw exactly what its Python
games draw, so the two play the same games from the same seed and each checks the other.
``random.Random`` could not be followed so (its seeding from text and its Mersenne Twister
live in C).

- ``randbelow(n)``: uniform in ``[0, n)``, by rejection (no modulo bias); always at least one
  draw, also for ``n = 1``;
- ``shuffle(items)``: Fisher-Yates from the end, as ``random.shuffle`` does;
- ``derive(a, b)``: a seed for the ``b``-th stream of ``a`` (agents, reshuffles).
"""

from __future__ import annotations

import math
from collections.abc import MutableSequence
from typing import Any

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
M1 = 0xBF58476D1CE4E5B9
M2 = 0x94D049BB133111EB


def mix64(z: int) -> int:
    """SplitMix64's finaliser: a 64-bit value scrambled."""
    z = ((z ^ (z >> 30)) * M1) & MASK
    z = ((z ^ (z >> 27)) * M2) & MASK
    return z ^ (z >> 31)


def derive(a: int, b: int) -> int:
    """A 64-bit seed for stream ``b`` of seed ``a`` (both taken modulo 2**64)."""
    return mix64((mix64((a + GOLDEN) & MASK) + (b & MASK) * GOLDEN + 1) & MASK)


class Rng:
    """SplitMix64: ``next64`` steps the state by the golden ratio and scrambles it."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK

    def next64(self) -> int:
        self.state = (self.state + GOLDEN) & MASK
        return mix64(self.state)

    def randbelow(self, n: int) -> int:
        """Uniform in ``[0, n)`` (``n >= 1``)."""
        top = MASK - (MASK % n + 1) % n  # the last draw below the largest multiple of n (2**64 - 2**64 % n)
        while True:
            r = self.next64()
            if r <= top:
                return r % n

    def randrange(self, n: int) -> int:
        return self.randbelow(n)

    def shuffle(self, items: MutableSequence[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def random(self) -> float:
        """Uniform in ``[0, 1)``: the draw's top 53 bits."""
        return (self.next64() >> 11) * 2.0 ** -53

    def gauss(self, mu: float = 0.0, sigma: float = 1.0) -> float:
        """Normal, by Box and Muller's transform (two draws, the cosine branch)."""
        u = 1.0 - self.random()  # (0, 1]: a logarithm to take
        v = self.random()
        return mu + sigma * math.sqrt(-2.0 * math.log(u)) * math.cos(2.0 * math.pi * v)

    def getrandbits(self, k: int) -> int:
        """``k`` (1-64) random bits."""
        return self.next64() >> (64 - k)
