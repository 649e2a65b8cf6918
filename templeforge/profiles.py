"""Generator profiles: a deck request written as TOML, and the conversions shared with the
command-line options.

    # profiles/hard-four.toml
    blocks = "ubongo12"          # a preset, or a block-set file (TOML with `pieces`)
    cards = 36
    blocks_per_face = 4          # or "3-4", or [3, 4]
    lock_size = "7x5"            # or [7, 5]: widest x tallest, in cells
    difficulty = "hard"          # any, thirds, ramp, easy, medium, hard, or easy:2,hard:1
    seed = 7

Every key is also an option of ``templeforge generate puzzle-temple`` (``blocks_per_face``
is ``--blocks-per-face``); an option given on the command line wins over the profile. An
unknown key, a value of the wrong type, or a malformed range is an error naming the file
and the key.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from solver.errors import TempleforgeError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib


class ProfileError(TempleforgeError, ValueError):
    """A profile or option value is malformed; the message names the file and key (or the
    option)."""


def parse_range(value: Any, name: str, *, low: int = 1) -> tuple[int, int]:
    """``3``, ``"3"``, ``"3-4"`` or ``[3, 4]`` as (least, most)."""
    if isinstance(value, tuple):  # already read
        value = list(value)
    if isinstance(value, bool):
        raise ProfileError(f"{name}: expected N or MIN-MAX, got {value!r}")
    if isinstance(value, int):
        lo = hi = value
    elif isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                                             for v in value):
        lo, hi = value
    elif isinstance(value, str) and re.fullmatch(r"\s*\d+\s*(-\s*\d+\s*)?", value):
        parts = [int(p) for p in value.split("-")]
        lo, hi = parts[0], parts[-1]
    else:
        raise ProfileError(f"{name}: expected N or MIN-MAX (like 3-4), got {value!r}")
    if lo < low or hi < lo:
        raise ProfileError(f"{name}: expected {low} <= MIN <= MAX, got {lo}-{hi}")
    return lo, hi


def parse_size(value: Any, name: str) -> tuple[int, int]:
    """``"7x5"`` or ``[7, 5]`` as (width, height) in cells."""
    if isinstance(value, tuple):  # already read
        value = list(value)
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                                           for v in value):
        width, height = value
    elif isinstance(value, str) and re.fullmatch(r"\s*\d+\s*[xX]\s*\d+\s*", value):
        width, height = (int(p) for p in re.split("[xX]", value))
    else:
        raise ProfileError(f"{name}: expected WIDTHxHEIGHT in cells (like 7x5), got {value!r}")
    if width < 1 or height < 1:
        raise ProfileError(f"{name}: expected a width and height of at least 1, got {width}x{height}")
    return width, height


def _typed(kind: type | tuple[type, ...], what: str) -> Any:
    def check(value: Any, name: str) -> Any:
        if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
            raise ProfileError(f"{name}: expected {what}, got {value!r}")
        if not isinstance(value, kind):
            raise ProfileError(f"{name}: expected {what}, got {value!r}")
        return value
    return check


#: Profile key -> how its value is read (the same conversions the options use).
PUZZLE_TEMPLE_KEYS: dict[str, Any] = {
    "blocks": _typed(str, "a preset name or a block-set file"),
    "cards": _typed(int, "a whole number"),
    "blocks_per_face": parse_range,
    "flips": _typed(bool, "true or false"),
    "lock_cells": parse_range,
    "lock_size": parse_size,
    "holes": _typed(bool, "true or false"),
    "min_fill": _typed((int, float), "a number between 0 and 1"),
    "unique": _typed(bool, "true or false"),
    "difficulty": _typed(str, "a difficulty target such as thirds"),
    "seed": _typed(int, "a whole number"),
    "attempts": _typed(int, "a whole number"),
    "locks": _typed(str, "auto, union or cp-sat"),
    "designs": _typed(int, "a whole number"),
    "workers": _typed(int, "a whole number"),
    "out": _typed(str, "a file path"),
}


def load_profile(path: str | Path, keys: dict[str, Any] = PUZZLE_TEMPLE_KEYS) -> dict[str, Any]:
    """Read a profile, converting every value; block-set files are taken relative to the
    profile's folder.

    Raises:
        ProfileError: the file cannot be read, is not TOML, or has an unknown or bad key
            (every problem at once).
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as err:
        raise ProfileError(f"{path}: cannot read the file: {err}") from None
    except tomllib.TOMLDecodeError as err:
        raise ProfileError(f"{path}: not valid TOML: {err}") from None
    problems = []
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key not in keys:
            problems.append(f"unknown key {key!r} (expected {', '.join(keys)})")
            continue
        try:
            out[key] = keys[key](value, key)
        except ProfileError as err:
            problems.append(str(err))
    if problems:
        raise ProfileError(f"{path}: " + "; ".join(problems))
    blocks = out.get("blocks")
    if isinstance(blocks, str) and blocks.endswith(".toml") and not Path(blocks).is_absolute():
        out["blocks"] = str(path.parent / blocks)
    return out
