"""The colours every printed thing uses for a game's pieces, paper and plastic alike.

The first eight are Okabe and Ito's palette for colour-blind readers; the rest extend it
for larger block sets. Colour is never the only cue: paper pieces carry letters and printed
ones their shapes.
"""

from __future__ import annotations

from collections.abc import Sequence

PALETTE = (
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#009E73",  # bluish green
    "#F0E442",  # yellow
    "#0072B2",  # blue
    "#D55E00",  # vermilion
    "#CC79A7",  # reddish purple
    "#999999",  # grey
    "#8C564B",  # brown
    "#B3DE69",  # light green
    "#6A3D9A",  # purple
    "#FB9A99",  # pink
)

NAMES = ("orange", "sky blue", "bluish green", "yellow", "blue", "vermilion", "reddish purple", "grey", "brown",
         "light green", "purple", "pink")


def assign(names: Sequence[str]) -> dict[str, str]:
    """A colour per name, in order (the palette repeats past its length)."""
    return {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(dict.fromkeys(names))}


def colour_name(colour: str) -> str:
    """The palette's name for ``colour``, else the colour itself."""
    return NAMES[PALETTE.index(colour)] if colour in PALETTE else colour
