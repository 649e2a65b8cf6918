"""The print options, declared once (``generators.common.options.Option``): from them come
the options of ``templeforge pdf``, the keys of a profile's print section and the documentation's
table. Every game prints through the same sheet options; ``size``'s ``auto`` is settled by
the game (the smallest preset that holds its largest card)."""

from __future__ import annotations

from typing import Any

from generators.common import parse
from generators.common.errors import RequestError
from generators.common.options import Option, switch
from print.common.layout import DUPLEX, LAYOUTS, MARGINS, MAX_BLEED, MAX_OFFSET
from print.common.sizes import PAPERS, CardSize, parse_card_size, parse_paper

MIN_PITCH = 8.0    #: below this a printed cell's letter is too small to read, a paper block to pick up
MAX_PITCH = 30.0
MAX_PLAYERS = 12
OUT = "output/{game}/"


def _size(value: Any, name: str) -> CardSize | str:
    if isinstance(value, str) and value.strip().lower() == "auto":
        return "auto"
    return parse_card_size(value, name)


def _layout(value: Any, name: str) -> str:
    text = value.strip().lower() if isinstance(value, str) else value
    if text not in LAYOUTS:
        raise RequestError(f"{name}: expected one of {', '.join(LAYOUTS)}, got {value!r}")
    return str(text)


def _margin(value: Any, name: str) -> float | None:
    """``auto`` (None: the layout's own margin, ``print.common.layout.MARGINS``) or mm."""
    if isinstance(value, str) and value.strip().lower() == "auto":
        return None
    try:
        return parse.parse_float(value, name, low=0, high=30)
    except RequestError:
        raise RequestError(f"{name}: expected auto or a margin of 0-30 mm, got {value!r}") from None


def _duplex(value: Any, name: str) -> str:
    text = value.strip().lower() if isinstance(value, str) else value
    text = "gutter" if text == "fold" else text  # fronts and backs on one page, folded
    if text not in DUPLEX:
        raise RequestError(f"{name}: expected one of {', '.join(DUPLEX)}, got {value!r}")
    return text


def _offset(value: Any, name: str) -> tuple[float, float]:
    x, y = parse.parse_offset(value, name)
    if abs(x) > MAX_OFFSET or abs(y) > MAX_OFFSET:
        raise RequestError(f"{name}: expected each of X,Y within +-{MAX_OFFSET:g} mm, got {value!r}")
    return x, y


OPTIONS = (
    Option("size", _size, "auto", "card size: auto (the game's own choice: the smallest preset that holds every "
           "card, or the game's usual size), `poker` 63.5 x 88.9, "
           "`bridge` 57.15 x 88.9, `tarot` 69.85 x 120.65 (2.75 x 4.75 in), `mini-euro` 44 x 68, `square` 70 x 70, "
           "`a6` 105 x 148, `a5` 148 x 210 (mm), `NAME-landscape`, or `WxH` in mm", metavar="auto|NAME|WxH"),
    Option("paper", parse_paper, "a4", "paper: `a4`, `letter`, `a3` or `tabloid`; the page is turned whichever way "
           "holds more cards", metavar="NAME", choices=tuple(PAPERS)),
    Option("duplex", _duplex, "none", "card backs: none; `long` or `short` for duplex printing flipped on that edge "
           "(backs on the following page, each behind its front); or `gutter` (fronts and backs on one page, "
           "fold along the dashed line, which keeps 5 mm or more from any card's bleed so a fold a little off "
           "shows none of the other side's colour; `fold` says the same)", metavar="|".join(DUPLEX),
           choices=(*DUPLEX, "fold")),
    Option("layout", _layout, "auto",
           "`auto`: `sheets`, but for a gutter fold `tight` where it holds more cards a sheet (four poker cards "
           "on A4 or Letter, where sheets holds two); `sheets`: cards on sheets of paper a little apart, each with "
           "its own bleed and crop marks, to print at home; `tight`: cards butted edge to edge, sharing their "
           "cuts, bleed only on the outer edges and every cut marked at both edges of the sheet (9 poker cards on "
           "A4 or Letter; the margin band runs up "
           "the side where the page has no room below); `cards`: one card a page, the page its bleed box and the "
           "card its trim box, backs (with --duplex) each on the page after its front, for print-on-demand "
           "services", metavar="|".join(LAYOUTS), choices=LAYOUTS),
    Option("back_offset", _offset, "0,0", f"shift duplex backs X mm right and Y mm up on the back page (within "
           f"{MAX_OFFSET:g} mm) for a printer that misregisters: read it off calibration.pdf", metavar="X,Y"),
    Option("bleed", lambda v, n: parse.parse_float(v, n, low=0, high=MAX_BLEED), 3.0,
           f"card art runs this far past the cut line, in mm (0-{MAX_BLEED:g})", metavar="MM", default_text="3"),
    Option("safe", lambda v, n: parse.parse_float(v, n, low=0, high=10), 3.0,
           "the safe zone inside the cut line, in mm (0-10): every word and symbol of a card stays inside it",
           metavar="MM", default_text="3"),
    Option("margin", _margin, "auto",
           f"the paper's unprintable margin, in mm (0-30): nothing is drawn in it; `auto`: "
           f"{MARGINS['sheets']:g} mm, {MARGINS['tight']:g} mm for the tight layout (most inkjets and many lasers "
           f"print that close to the edge)", metavar="auto|MM"),
    Option("pitch", lambda v, n: parse.parse_float(v, n, low=MIN_PITCH, high=MAX_PITCH), 15.0,
           f"the cell of a printed grid and of paper pieces, for games that draw pieces at scale, in mm "
           f"({MIN_PITCH:g}-{MAX_PITCH:g})",
           metavar="MM", default_text="15"),
    Option("players", lambda v, n: parse.parse_int(v, n, low=0, high=MAX_PLAYERS), 4,
           f"players: a game prints a set of paper pieces or a reference card for each (0-{MAX_PLAYERS}; 0: "
           f"none)", metavar="N"),
    switch("designer_marks", False, "print the designer's figures on the player cards (a pattern's difficulty, a "
           "temple's expected actions by layer), for a playtest copy; without it they stay on the answer key and in "
           "the report"),
    Option("out", lambda v, n: str(v), OUT, "output folder", metavar="DIR", default_text="output/GAME/",
           path=True, recorded=False),
)
