"""Colours on paper: the pieces' palette (``generators.common.palette``, shared with the 3D
kit), ink and paper, and contrast. Colour is never the only cue: every block also carries its
letter, so a card reads in greyscale and for every player.
"""

from __future__ import annotations

from generators.common.palette import PALETTE, assign

__all__ = ["PALETTE", "assign", "INK", "PAPER", "rgb", "luminance", "contrast", "text_on", "shade"]

INK = "#1A1A1A"
PAPER = "#FFFFFF"


def rgb(colour: str) -> tuple[float, float, float]:
    """``#RRGGBB`` as three channels in 0-1."""
    value = colour.lstrip("#")
    return tuple(int(value[i:i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def luminance(colour: str) -> float:
    """Relative luminance (WCAG 2), 0 black to 1 white."""
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_on(colour: str) -> str:
    """Ink or paper, whichever reads better on ``colour``."""
    return INK if contrast(colour, INK) >= contrast(colour, PAPER) else PAPER


def shade(colour: str, amount: float) -> str:
    """``colour`` mixed towards white (amount > 0) or black (amount < 0)."""
    target = 1.0 if amount > 0 else 0.0
    mixed = (c + (target - c) * abs(amount) for c in rgb(colour))
    return "#" + "".join(f"{round(c * 255):02X}" for c in mixed)
