"""Colours on paper: the pieces' palette (``generators.common.palette``, shared with the 3D
kit), ink and paper, and contrast. Colour is never the only cue: every block also carries its
letter, so a card reads in greyscale and for every player.
"""

from __future__ import annotations

from generators.common.palette import INK, PALETTE, PAPER, assign, contrast, luminance, rgb, text_on

__all__ = ["PALETTE", "assign", "INK", "PAPER", "rgb", "luminance", "contrast", "text_on", "shade"]


def shade(colour: str, amount: float) -> str:
    """``colour`` mixed towards white (amount > 0) or black (amount < 0)."""
    target = 1.0 if amount > 0 else 0.0
    mixed = (c + (target - c) * abs(amount) for c in rgb(colour))
    return "#" + "".join(f"{round(c * 255):02X}" for c in mixed)
