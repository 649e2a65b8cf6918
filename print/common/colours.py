"""Colours on paper: the pieces' palette (``generators.common.palette``, shared with the 3D
kit), ink and paper, and contrast. Colour is never the only cue: every block also carries its
letter, so a card reads in greyscale and for every player.
"""

from __future__ import annotations

from generators.common.palette import INK, PALETTE, PAPER, assign, contrast, luminance, rgb, shade, text_on

__all__ = ["PALETTE", "assign", "INK", "PAPER", "rgb", "luminance", "contrast", "text_on", "shade"]
