"""A game's generator options, declared once.

Each ``Option`` names a request field (``blocks_per_face``), its kind, default and help, and
the parser that turns what a user wrote into a value. From that one declaration come the
command-line options of ``templeforge generate <game>`` (``--blocks-per-face``), the keys of
a TOML profile, the parameters recorded in the deck file, and the option table in the
the documentation (``markdown_table``; a test holds the documentation to it).

``resolve`` merges a profile with the command line (the command line wins when the user
gave the option) and parses every value, collecting every problem before it fails.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar

from generators.common import parse
from generators.common.errors import RequestError
from solver.textfiles import parse_toml, read_text

Parser = Callable[[Any, str], Any]


@dataclass(frozen=True, slots=True)
class Option:
    """One request field.

    Attributes:
        name: the profile key and parameter name (``blocks_per_face``); the command-line
            option is ``--blocks-per-face``.
        parse: turns a raw value (a command-line string or a TOML value) into the field's
            value, raising ``RequestError`` that names the field it is given.
        default: the raw default (None: the field is unset unless given).
        help: one sentence for ``--help`` and the documentation.
        metavar: how the value is written (``N|MIN-MAX``); ``FLAG`` for an on/off switch.
        default_text: how the default reads in the documentation when it is not a plain value.
        choices: the allowed words, for ``--help``.
        path: the value is a file path, taken relative to a profile's folder.
        recorded: whether the deck file records the field among its parameters.
    """

    name: str
    parse: Parser
    default: Any
    help: str
    metavar: str = "VALUE"
    default_text: str | None = None
    choices: tuple[str, ...] = ()
    path: bool = False
    recorded: bool = True

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def is_switch(self) -> bool:
        return self.metavar == "FLAG"

    def shown_default(self) -> str:
        if self.default_text is not None:
            return self.default_text
        if self.is_switch:
            return "on" if self.default else "off"
        return "none" if self.default is None else str(self.default)


def switch(name: str, default: bool, help: str) -> Option:
    return Option(name, parse.parse_bool, default, help, metavar="FLAG")


def whole(name: str, default: int | None, help: str, *, low: int | None = None, high: int | None = None,
          metavar: str = "N", default_text: str | None = None, recorded: bool = True) -> Option:
    return Option(name, lambda v, n: parse.parse_int(v, n, low=low, high=high), default, help,
                  metavar=metavar, default_text=default_text, recorded=recorded)


def choice(name: str, choices: Sequence[str], default: str, help: str) -> Option:
    def read(value: Any, label: str) -> str:
        if value not in choices:
            raise RequestError(f"{label}: expected one of {', '.join(choices)}, got {value!r}")
        return str(value)
    return Option(name, read, default, help, metavar="|".join(choices), choices=tuple(choices))


E = TypeVar("E", bound=Enum)


def enum_choice(name: str, kind: type[E], default: E, help: str) -> Option:
    """An option whose values are the members of ``kind`` (an Enum of strings): the word is
    written, the member is parsed."""
    words = tuple(str(m.value) for m in kind)

    def read(value: Any, label: str) -> E:
        if isinstance(value, kind):
            return value
        for member in kind:
            if value == member.value:
                return member
        raise RequestError(f"{label}: expected one of {', '.join(words)}, got {value!r}")
    return Option(name, read, str(default.value), help, metavar="|".join(words), choices=words)


#: The options every generator has, declared here once.
#: Seeds are 0 to 2**31 - 1: CP-SAT's random seed is a 31-bit number, and one range for every
#: game keeps a seed meaning the same thing everywhere.
SEED_RANGE = (0, 2**31 - 1)


def _seed(value: Any, name: str) -> int:
    seed = parse.parse_int(value, name)
    if not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
        raise RequestError(f"{name}: expected a seed from 0 to {SEED_RANGE[1]} (CP-SAT's seeds are 31-bit), "
                           f"got {seed}")
    return seed


SEED = Option("seed", _seed, 0, "the random seed, 0 to 2147483647 (CP-SAT's seeds are 31-bit): the same request and "
              "seed give the same deck, byte for byte", metavar="N")
WORKERS = whole("workers", None, "processes for the candidate search, at most the machine's cores (the "
                "deck does not depend on it)", low=1, high=64, default_text="up to 2", recorded=False)


def output(default: str, file_name: str) -> Option:
    """The ``out`` option: where a command writes (not recorded in the deck)."""
    def read(value: Any, label: str) -> str:
        if not isinstance(value, str) or not value.strip() or "\0" in value:
            raise RequestError(f"{label}: expected a file or folder path, got {value!r}")
        return value
    return Option("out", read, default, f"where to write: a file, or a folder to write {file_name} in",
                  metavar="PATH", recorded=False)


def load_profile(path: str | Path, options: Sequence[Option]) -> dict[str, Any]:
    """Read a TOML profile's raw values (parsed later by ``resolve``); relative file paths
    are taken from the profile's folder.

    Raises:
        RequestError: the file cannot be read, is not TOML, or has unknown keys (all named).
    """
    path = Path(path)
    data = parse_toml(read_text(path, RequestError), str(path), RequestError)
    return profile_table(data, options, str(path), path.parent)


def quoted_number(value: Any) -> bool:
    """Whether a TOML value is a number written as text (``"2"``): a profile writes numbers
    as numbers, as the command line cannot."""
    return isinstance(value, str) and re.fullmatch(r"\s*[-+]?\d+(\.\d*)?\s*", value) is not None


def _numeric(default: Any) -> bool:
    return isinstance(default, (int, float)) and not isinstance(default, bool)


def profile_table(data: Mapping[str, Any], options: Sequence[Option], where: str, folder: Path) -> dict[str, Any]:
    """A profile table's raw values (a whole profile file, or one section of a build
    profile, ``where`` naming it); file paths relative to ``folder`` are made relative to
    the working folder.

    Raises:
        RequestError: unknown keys, each named.
    """
    known = {o.name: o for o in options}
    unknown = [k for k in data if k not in known]
    if unknown:
        raise RequestError([f"{where}: unknown key {k!r} (expected {', '.join(known)})" for k in unknown])
    quoted = [f"{where}: {k}: expected a number, got the text {v!r} (write {k} = {v.strip()}, without quotes)"
              for k, v in data.items() if quoted_number(v) and _numeric(known[k].default)]
    if quoted:
        raise RequestError(quoted)
    out = dict(data)
    for name, value in data.items():
        if (known[name].path and isinstance(value, str) and value.endswith((".toml", ".json"))
                and not Path(value).is_absolute()):
            out[name] = str(folder / value)
    return out


@dataclass(frozen=True, slots=True)
class Resolved:
    """A request's parsed values, where each came from (``--cards`` or ``p.toml: cards``), and
    which the user gave (on the command line or in the profile) rather than left to default."""

    values: dict[str, Any]
    labels: dict[str, str] = field(default_factory=dict)
    given: frozenset[str] = frozenset()


def resolve(options: Sequence[Option], given: Mapping[str, Any], profile: str | Path | None = None, *,
            table: Mapping[str, Any] | None = None, source: str = "") -> Resolved:
    """Merge a profile (if any) under the options ``given`` on the command line, then parse
    every value.

    Args:
        options: the declarations.
        given: command-line values, only those the user typed (not click's defaults).
        profile: a TOML profile's path.
        table: instead of ``profile``, a profile table already read (``profile_table``),
            its values named as ``source: key``.

    Raises:
        RequestError: every bad value, each naming its option or profile key.
    """
    if table is None and profile is not None:
        table, source = load_profile(profile, options), str(profile)
    raw = raw_values(options, given, table=table)
    flags = {o.name: o.flag for o in options}
    labels = {o.name: "" for o in options}
    for name in table or {}:
        labels[name] = f"{source}: {name}"
    for name in given:
        labels[name] = flags[name]
    values: dict[str, Any] = {}
    problems: list[str] = []
    for o in options:
        if raw[o.name] is None:
            values[o.name] = None
            continue
        try:
            values[o.name] = o.parse(raw[o.name], labels[o.name] or o.flag)
        except RequestError as err:
            problems.extend(err.problems)
    if problems:
        raise RequestError(problems)
    return Resolved(values, {n: labels[n] or flags[n] for n in labels}, frozenset(n for n in labels if labels[n]))


def raw_values(options: Sequence[Option], given: Mapping[str, Any], profile: str | Path | None = None, *,
               table: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every option's value as written (the default, under the profile, under the command
    line), before parsing: what a build's cache key is made of."""
    raw: dict[str, Any] = {o.name: o.default for o in options}
    if table is not None:
        raw.update(table)
    elif profile is not None:
        raw.update(load_profile(profile, options))
    raw.update(given)
    return raw


def recorded(options: Sequence[Option], values: Mapping[str, Any]) -> dict[str, Any]:
    """The values a deck records, as JSON-ready values (tuples become lists)."""
    out = {}
    for o in options:
        if o.recorded:
            v = values.get(o.name)
            out[o.name] = list(v) if isinstance(v, tuple) else v
    return out


def markdown_table(options: Sequence[Option]) -> str:
    """The documentation's option table."""
    rows = ["| option | default | meaning |", "|---|---|---|"]
    for o in options:
        name = f"`{o.flag}/--no-{o.flag[2:]}`" if o.is_switch else f"`{o.flag} {o.metavar}`"
        cells = (name, o.shown_default(), o.help)
        rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(rows)
