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


#: Names of the other colours printed things use (card stone, inks, the NO-AMS pair).
OTHER_NAMES = {"#CBBE9E": "sand", "#1A1A1A": "black", "#F5F5F5": "white", "#E8E0CC": "cream",
               "#3B352C": "dark brown", "#FFFFFF": "white", "#EFE6D2": "cream", "#C0392B": "ruby red",
               "#2E86C1": "sapphire blue", "#27AE60": "emerald green", "#F1C40F": "topaz yellow",
               "#F4F1EA": "pearl white", "#8E44AD": "amethyst purple", "#2E3A46": "dark slate",
               "#DCE3EA": "pale grey", "#8C7B5B": "khaki brown", "#2E2A24": "charcoal", "#DDE3E8": "clear grey"}


def colour_name(colour: str) -> str:
    """The palette's name for ``colour`` (or a known other's), else the colour itself."""
    upper = colour.upper()
    if upper in PALETTE:
        return NAMES[PALETTE.index(upper)]
    return OTHER_NAMES.get(upper, colour)


# -- ink on colour (paper and plastic alike) ---------------------------------------------------

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


def letters(names: Sequence[str]) -> dict[str, str]:
    """A letter per colour name, printed next to the colour so that it reads in greyscale:
    the name's first letter not yet taken, then its next (``blue`` B, ``black`` L), else the
    first free letter of the alphabet (``?`` past 26 names)."""
    out: dict[str, str] = {}
    for name in names:
        taken = set(out.values())
        choices = [ch for ch in name.upper() if ch.isalpha()] + [chr(c) for c in range(ord("A"), ord("Z") + 1)]
        out[name] = next((ch for ch in choices if ch not in taken), "?")
    return out

