"""Parsers for the small values requests are made of: ``3`` or ``3-4``, ``7x5``, ``X,Y``.

Each takes what a command line gives (a string) or what TOML gives (a number, a list) and
returns a plain tuple, or raises ``RequestError`` naming the field and quoting the value.
"""

from __future__ import annotations

import math
import re
from typing import Any

from generators.common.errors import RequestError


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_range(value: Any, name: str, *, low: int = 1, high: int | None = None) -> tuple[int, int]:
    """``3``, ``"3"``, ``"3-4"`` or ``[3, 4]`` as (least, most), with ``low <= least <=
    most <= high``."""
    if isinstance(value, tuple):
        value = list(value)
    if _is_int(value):
        lo = hi = value
    elif isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value):
        lo, hi = value
    elif isinstance(value, str) and re.fullmatch(r"\s*\d{1,9}\s*(-\s*\d{1,9}\s*)?", value):
        parts = [int(p) for p in value.split("-")]
        lo, hi = parts[0], parts[-1]
    else:
        raise RequestError(f"{name}: expected N or MIN-MAX (like 3-4), got {value!r}")
    if lo < low or hi < lo:
        raise RequestError(f"{name}: expected {low} <= MIN <= MAX, got {lo}-{hi}")
    if high is not None and hi > high:
        raise RequestError(f"{name}: expected at most {high}, got {lo}-{hi}" if lo != hi
                           else f"{name}: expected at most {high}, got {hi}")
    return lo, hi


def parse_size(value: Any, name: str, *, high: int | None = None, unit: str = "cells") -> tuple[int, int]:
    """``"7x5"`` or ``[7, 5]`` as (width, height), each at least 1 (and at most ``high``)."""
    if isinstance(value, tuple):
        value = list(value)
    if isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value):
        width, height = value
    elif isinstance(value, str) and re.fullmatch(r"\s*\d{1,9}\s*[xX]\s*\d{1,9}\s*", value):
        width, height = (int(p) for p in re.split("[xX]", value))
    else:
        raise RequestError(f"{name}: expected WIDTHxHEIGHT in {unit} (like 7x5), got {value!r}")
    if width < 1 or height < 1:
        raise RequestError(f"{name}: expected a width and height of at least 1, got {width}x{height}")
    if high is not None and max(width, height) > high:
        raise RequestError(f"{name}: expected at most {high}x{high} {unit}, got {width}x{height}")
    return width, height


def parse_int(value: Any, name: str, *, low: int | None = None, high: int | None = None) -> int:
    """A whole number (not a boolean, not ``1.0``) in ``[low, high]``."""
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d{1,18}\s*", value):
        value = int(value)
    if not _is_int(value):
        raise RequestError(f"{name}: expected a whole number, got {value!r}")
    if low is not None and value < low:
        raise RequestError(f"{name}: expected at least {low}, got {value}")
    if high is not None and value > high:
        raise RequestError(f"{name}: expected at most {high}, got {value}")
    return int(value)


def parse_float(value: Any, name: str, *, low: float | None = None, high: float | None = None,
                low_open: bool = False) -> float:
    """A finite number in ``[low, high]`` (``(low, high]`` with ``low_open``)."""
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            raise RequestError(f"{name}: expected a number, got {value!r}") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise RequestError(f"{name}: expected a number, got {value!r}")
    value = float(value)
    if low is not None and (value < low or (low_open and value == low)):
        raise RequestError(f"{name}: expected {'more than' if low_open else 'at least'} {low:g}, got {value:g}")
    if high is not None and value > high:
        raise RequestError(f"{name}: expected at most {high:g}, got {value:g}")
    return float(value)


def parse_bool(value: Any, name: str) -> bool:
    """``true``/``false`` (TOML) or a flag's value."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no", "on", "off", "1", "0"):
        return value.strip().lower() in ("true", "yes", "on", "1")
    raise RequestError(f"{name}: expected true or false, got {value!r}")


def parse_offset(value: Any, name: str) -> tuple[float, float]:
    """``"X,Y"`` or ``[X, Y]`` in millimetres."""
    if isinstance(value, str):
        parts = value.split(",")
    elif isinstance(value, (list, tuple)):
        parts = list(value)
    else:
        parts = []
    if len(parts) != 2:
        raise RequestError(f"{name}: expected X,Y in millimetres (like 0.5,-1), got {value!r}")
    x, y = (parse_float(p, name) for p in parts)
    return x, y
