"""Names from a user's files, and the file names made of them.

A *name* is anything a designer writes that the tools may turn into a file name or a label:
a piece or block, a colour, a tile face, a pool, a grid side, a deck's card id or title.
Every reader checks its names with ``check_name`` when it reads them, by one rule:

- letters (any script), digits, space, ``-``, ``_`` and ``.``;
- not starting with a dot or a space, not ending with a space;
- at most ``MAX_NAME`` characters.

So no name holds a path separator, a NUL, ``..`` as a whole or a leading dot, and none can
lead a file outside the folder it is written in. ``check_distinct`` refuses names of one
kind that would make the same file on a file system that ignores case (``L4`` and ``l4``).

``slug`` makes the file-name part from names (spaces become ``-``); ``unique_slugs`` refuses
two names that slug alike. The shared write path (``generators.common.files``) also refuses
any target outside its output folder, whatever it is given.
"""

from __future__ import annotations

from collections.abc import Iterable

from solver.errors import TempleforgeError

#: The longest name, in characters.
MAX_NAME = 64

#: The characters a name may hold besides letters and digits.
PUNCTUATION = frozenset(" -_.")


class BadName(TempleforgeError, ValueError):
    """A name that breaks the rule, or two that would make the same file."""


def problem(value: object) -> str | None:
    """What is wrong with ``value`` as a name, or None if it is a good one."""
    if not isinstance(value, str):
        return f"expected a name (text), got {type(value).__name__}"
    if not value:
        return "expected a name, got an empty one"
    if len(value) > MAX_NAME:
        return f"a name has at most {MAX_NAME} characters, got {len(value)}"
    if "\x00" in value:
        return f"a name may not hold a NUL character, got {value!r}"
    if "/" in value or "\\" in value:
        return f"a name may not hold a path separator (/ or \\), got {value!r}"
    if value.startswith("."):
        return f"a name may not start with a dot, got {value!r}"
    if value != value.strip():
        return f"a name may not start or end with a space, got {value!r}"
    bad = sorted({c for c in value if not (c.isalnum() or c in PUNCTUATION)})
    if bad:
        return (f"a name holds only letters, digits, space, '-', '_' and '.', got {value!r} "
                f"(with {' '.join(repr(c) for c in bad)})")
    return None


def is_name(value: object) -> bool:
    """Whether ``value`` keeps the name rule."""
    return problem(value) is None


def check_name(value: object, where: str, error: type[Exception] = BadName) -> str:
    """``value`` if it keeps the name rule, else ``error`` naming ``where`` (a file and a
    field, like ``blocks.toml: pieces[2].name``)."""
    why = problem(value)
    if why is not None:
        raise error(f"{where}: {why}")
    assert isinstance(value, str)
    return value


def name_problems(values: Iterable[tuple[str, object]]) -> list[str]:
    """``where: why`` for every (where, value) pair whose value is not a good name, and for
    names of the group that differ only by case (or by space against ``-``)."""
    out = []
    seen: dict[str, tuple[str, str]] = {}
    for where, value in values:
        why = problem(value)
        if why is not None:
            out.append(f"{where}: {why}")
            continue
        assert isinstance(value, str)
        key = slug(value).casefold()
        if key in seen and seen[key][1] != value:
            out.append(f"{where}: {value!r} and {seen[key][1]!r} ({seen[key][0]}) would make the same "
                       f"file name; names must differ by more than case, space or '-'")
        seen.setdefault(key, (where, value))
    return out


def check_distinct(values: Iterable[tuple[str, object]], error: type[Exception] = BadName) -> None:
    """Raise ``error`` with every problem of ``name_problems`` (one line each), if any."""
    problems = name_problems(values)
    if problems:
        raise error("; ".join(problems))


def slug(*parts: str, lower: bool = False) -> str:
    """The file-name part made of ``parts`` (names or fixed words): each part's spaces as
    ``-``, parts joined by ``-``; lowercased with ``lower``.

    Raises:
        BadName: a part that is not a good name (it could lead outside a folder).
    """
    out = []
    for part in parts:
        check_name(part, "file name part")
        out.append("-".join(part.split()))
    text = "-".join(out)
    return text.lower() if lower else text


def unique_slugs(names: Iterable[str], what: str, *, lower: bool = False) -> dict[str, str]:
    """Each of ``names`` (of one kind, ``what``) mapped to its slug; two names whose slugs
    are equal ignoring case are refused (they would overwrite each other's file).

    Raises:
        BadName: a bad name, or two that slug alike, naming both.
    """
    out: dict[str, str] = {}
    seen: dict[str, str] = {}
    for name in names:
        made = slug(name, lower=lower)
        key = made.casefold()
        if key in seen and seen[key] != name:
            raise BadName(f"{what} {seen[key]!r} and {name!r} would both be written as {made!r}")
        seen[key] = name
        out[name] = made
    return out
