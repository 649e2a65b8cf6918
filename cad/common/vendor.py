"""A slicer's own presets for a printer, read from its vendor bundle, with inheritance resolved.

PrusaSlicer keeps its printers' settings in a vendor bundle, an INI file per vendor
(``PrusaResearch.ini``): a ``[printer:NAME]``, ``[print:NAME]`` or ``[filament:NAME]``
section per preset, each ``key = value`` as the slicer's config files store it (escaped:
``\\n`` for a new line), ``inherits = A; B`` naming the presets it builds on (applied in
order, its own keys last; a name in stars, ``*common*``, is abstract: never chosen). A
print or filament preset says which printers take it with ``compatible_printers`` (a list
of names) or ``compatible_printers_condition`` (an expression over the printer's settings:
``printer_notes=~/.*PRINTER_MODEL_MINI.*/ and nozzle_diameter[0]==0.4``), and a filament
which prints with ``compatible_prints_condition`` (``layer_height == 0.05``). This module
reads a bundle, resolves a preset, evaluates those conditions (``condition``) and chooses,
for a printer model and nozzle, its printer preset, a print preset at the kit's layer
height and a PLA filament preset (``presets``), as PrusaSlicer's own preset lists would
offer them.

Nothing here is copied from a slicer: the bundle is the one installed with PrusaSlicer on
this machine (``bundle_paths``: the copy PrusaSlicer keeps up to date in its configuration
folder first, then the one it was installed with), or one named by
``TEMPLEFORGE_PRUSASLICER_BUNDLES``. A machine without one keeps Templeforge's own settings
(``cad.common.slicing.prusa_settings``), and the project says which it carries.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

#: The variable that names a folder of bundles to use (``PrusaResearch.ini`` ...), before any
#: installed one.
BUNDLE_VARIABLE = "TEMPLEFORGE_PRUSASLICER_BUNDLES"

#: Keys of a bundle's sections that are about the preset, not settings a project carries.
_PRESET_ONLY = frozenset({"inherits", "renamed_from", "alias"})


@dataclass(frozen=True, slots=True)
class Bundle:
    """A vendor bundle: its file, its ``config_version`` and its sections in file order,
    ``(kind, name) -> {key: value}`` with values as the file stores them."""

    path: Path
    version: str
    sections: tuple[tuple[tuple[str, str], dict[str, str]], ...]
    index: dict[tuple[str, str], dict[str, str]] = field(default_factory=dict, compare=False)
    done: dict[tuple[str, str], dict[str, str]] = field(default_factory=dict, compare=False)  # resolved, kept

    def __post_init__(self) -> None:
        self.index.update(self.sections)

    def names(self, kind: str) -> Iterator[str]:
        """The concrete presets of ``kind`` (``printer``, ``print``, ``filament``), in file order."""
        for (k, name), _ in self.sections:
            if k == kind and not (name.startswith("*") and name.endswith("*")):
                yield name

    def raw(self, kind: str, name: str) -> dict[str, str] | None:
        return self.index.get((kind, name))

    def resolved(self, kind: str, name: str) -> dict[str, str]:
        """Preset ``name`` of ``kind`` with everything it inherits, its own keys last.

        Raises:
            KeyError: no such preset, or one it inherits is missing.
        """
        return dict(_resolved(self, kind, name, ()))


def _resolved(bundle: Bundle, kind: str, name: str, seen: tuple[str, ...]) -> dict[str, str]:
    kept = bundle.done.get((kind, name))
    if kept is not None:
        return kept
    own = bundle.raw(kind, name)
    if own is None:
        raise KeyError(f"{bundle.path}: no [{kind}:{name}]")
    if name in seen:
        raise KeyError(f"{bundle.path}: [{kind}:{name}] inherits itself")
    out: dict[str, str] = {}
    for parent in _list(own.get("inherits", "")):
        out.update(_resolved(bundle, kind, parent, (*seen, name)))
    out.update({k: v for k, v in own.items() if k not in _PRESET_ONLY})
    bundle.done[(kind, name)] = out
    return out


def _list(value: str) -> list[str]:
    """``A; "B"; C`` as names."""
    return [part.strip().strip('"') for part in value.split(";") if part.strip().strip('"')]


def read_bundle(path: str | Path) -> Bundle:
    """A vendor bundle's sections (see the module docstring).

    Raises:
        OSError: the file cannot be read.
        ValueError: a line is neither a section, a ``key = value``, a comment nor blank.
    """
    path = Path(path)
    sections: list[tuple[tuple[str, str], dict[str, str]]] = []
    current: dict[str, str] | None = None
    vendor: dict[str, str] = {}
    for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or stripped.startswith(";"):
            continue
        if stripped.startswith("[") and stripped.endswith("]"):
            kind, _, name = stripped[1:-1].partition(":")
            current = {}
            if kind == "vendor":
                vendor = current
            else:
                sections.append(((kind, name), current))
            continue
        key, equals, value = line.partition("=")
        if not equals or current is None:
            raise ValueError(f"{path}:{number}: expected 'key = value' inside a section")
        current[key.strip()] = value.strip()
    return Bundle(path, vendor.get("config_version", ""), tuple(sections))


def bundle_paths(vendor: str) -> list[Path]:
    """Where PrusaSlicer's bundle of ``vendor`` (``PrusaResearch``, ``Creality``) may be, in
    the order tried: the variable's folder (``TEMPLEFORGE_PRUSASLICER_BUNDLES``, a folder of
    ``<vendor>.ini``); the bundles PrusaSlicer keeps updated in its configuration folder
    (Linux, the Flatpak, macOS, Windows); then the ones installed with it (Debian's package,
    the usual prefixes)."""
    home = Path.home()
    out = []
    named = os.environ.get(BUNDLE_VARIABLE)
    if named:
        out.append(Path(named) / f"{vendor}.ini")
    for config in (home / ".config" / "PrusaSlicer", home / ".var/app/com.prusa3d.PrusaSlicer/config/PrusaSlicer",
                   home / "Library/Application Support/PrusaSlicer",
                   Path(os.environ.get("APPDATA", home / "AppData/Roaming")) / "PrusaSlicer"):
        out.append(config / "vendor" / f"{vendor}.ini")
    for share in ("/usr/share/PrusaSlicer", "/usr/local/share/PrusaSlicer", "/usr/share/prusa-slicer"):
        out.append(Path(share) / "profiles" / f"{vendor}.ini")
    return out


# -- conditions ----------------------------------------------------------------------------------


_TOKEN = re.compile(r"""\s*(?:
    (?P<regex>/(?:[^/\\]|\\.)*/)
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<number>-?\d+(?:\.\d+)?)
  | (?P<op>==|!=|=~|!~|<=|>=|&&|\|\||[<>!()])
  | (?P<name>[A-Za-z_][A-Za-z_0-9]*(?:\[\d+\])?)
)""", re.X)

Value = str | float | bool


class ConditionError(ValueError):
    """A condition this reader cannot evaluate (an unknown setting or an unknown form)."""


def _tokens(text: str) -> list[tuple[str, str]]:
    out = []
    at = 0
    while at < len(text.rstrip()):
        m = _TOKEN.match(text, at)
        if not m or m.end() == at:
            raise ConditionError(f"cannot read {text[at:at + 20]!r}")
        kind = m.lastgroup or ""
        word = m.group(kind)
        if kind == "name" and word in ("and", "or", "not"):
            kind, word = "op", {"and": "&&", "or": "||", "not": "!"}[word]
        out.append((kind, word))
        at = m.end()
    return out


def condition(text: str, settings: Mapping[str, str]) -> bool:
    """Whether ``settings`` (a resolved printer, or print, config) meet a preset's condition.
    An empty condition is met.

    Raises:
        ConditionError: the condition names a setting ``settings`` lacks, or has a form this
            reader does not know.
    """
    tokens = _tokens(text)
    if not tokens:
        return True
    parser = _Parser(tokens, settings)
    value = parser.either()
    if parser.at != len(tokens):
        raise ConditionError(f"unexpected {tokens[parser.at][1]!r}")
    return bool(value)


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]], settings: Mapping[str, str]) -> None:
        self.tokens = tokens
        self.settings = settings
        self.at = 0

    def peek(self) -> str:
        return self.tokens[self.at][1] if self.at < len(self.tokens) else ""

    def take(self) -> tuple[str, str]:
        if self.at >= len(self.tokens):
            raise ConditionError("the condition ends too soon")
        self.at += 1
        return self.tokens[self.at - 1]

    def either(self) -> bool:
        """Terms joined by ``||``; each term read whatever the ones before gave."""
        return any(self.joined("||", self.both))

    def both(self) -> bool:
        """Terms joined by ``&&`` (binding tighter than ``||``)."""
        return all(self.joined("&&", self.negated))

    def joined(self, op: str, read: Callable[[], bool]) -> list[bool]:
        """What ``read`` gives, and again after each ``op``."""
        out = [read()]
        while self.peek() == op:
            self.take()
            out.append(read())
        return out

    def negated(self) -> bool:
        if self.peek() == "!":
            self.take()
            return not self.negated()
        return self.compared()

    def compared(self) -> bool:
        left = self.operand()
        op = self.peek()
        if op in ("=~", "!~"):
            self.take()
            kind, pattern = self.take()
            if kind != "regex":
                raise ConditionError(f"expected /regex/ after {op}")
            # the settings' own text (its escaped new lines made real), matched whole, with
            # '.' taking new lines too, as the slicer's regular expressions do
            text = str(left).replace("\\n", "\n")
            found = re.fullmatch(pattern[1:-1], text, re.S) is not None
            return found if op == "=~" else not found
        if op in ("==", "!=", "<", ">", "<=", ">="):
            self.take()
            right = self.operand()
            if isinstance(left, float) or isinstance(right, float):
                a, b = _number(left), _number(right)
            else:
                a, b = str(left), str(right)  # type: ignore[assignment]
            return {"==": a == b, "!=": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]
        return _truth(left)

    def operand(self) -> Value:
        kind, word = self.take()
        if word == "(":
            value = self.either()
            if self.take()[1] != ")":
                raise ConditionError("expected ')'")
            return value
        if kind == "number":
            return float(word)
        if kind == "string":
            return word[1:-1].replace('\\"', '"')
        if kind == "name":
            return self.setting(word)
        raise ConditionError(f"unexpected {word!r}")

    def setting(self, word: str) -> Value:
        name, _, index = word.partition("[")
        if name == "num_extruders":
            return float(len(_values(self.settings.get("nozzle_diameter", ""))))
        if name not in self.settings:
            raise ConditionError(f"no setting {name!r}")
        raw = self.settings[name]
        if index:
            items = _values(raw)
            k = int(index.rstrip("]"))
            if k >= len(items):
                raise ConditionError(f"{word}: the setting has {len(items)} values")
            raw = items[k]
        raw = raw.strip().strip('"')
        try:
            return float(raw)
        except ValueError:
            return raw


def _values(raw: str) -> list[str]:
    """A vector setting's values (``0.4,0.4`` or ``"a";"b"``)."""
    parts = raw.split(";") if raw.strip().startswith('"') else raw.split(",")
    return [p.strip().strip('"') for p in parts if p.strip()]


def _number(value: Value) -> float:
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, float):
        return value
    try:
        return float(value)
    except ValueError as err:
        raise ConditionError(f"{value!r} is not a number") from err


def _truth(value: Value) -> bool:
    if isinstance(value, str):
        return value not in ("", "0", "false")
    return bool(value)


# -- choosing a printer's presets ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Presets:
    """A printer's presets from a vendor bundle: their names, the bundle (file and version)
    and their settings, printer then print then filament, as the bundle stores them."""

    printer: str
    print: str
    filament: str
    bundle: Path
    version: str
    settings: tuple[tuple[str, str], ...]


def _compatible(preset: Mapping[str, str], printer_name: str, printer: Mapping[str, str],
                print_settings: Mapping[str, str] | None = None) -> bool:
    listed = _list(preset.get("compatible_printers", ""))
    try:
        if listed:
            ok = printer_name in listed
        else:
            ok = condition(preset.get("compatible_printers_condition", ""), printer)
        if ok and print_settings is not None:
            ok = condition(preset.get("compatible_prints_condition", ""), print_settings)
    except ConditionError:
        return False
    return ok


def _layer(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None


def choose(bundle: Bundle, model: str, nozzle: float, layer: float) -> Presets | None:
    """The presets PrusaSlicer offers for printer ``model`` (``MK4S``) with a ``nozzle`` mm
    nozzle at ``layer`` mm layers, or None where the bundle has no such printer or no print
    preset at that layer height:

    - the printer: the first in the bundle of that model and nozzle;
    - the print: the printer's default if its layer height is ``layer``, else one of the
      same kind (``QUALITY``, ``SPEED`` ...) at ``layer``, else the first at ``layer``,
      that takes the printer;
    - the filament: the printer's default if it is PLA and takes the printer and the print,
      else the first PLA that does (Prusament's before the others)."""
    printers = [(name, bundle.resolved("printer", name)) for name in bundle.names("printer")]
    found = [(name, cfg) for name, cfg in printers if cfg.get("printer_model") == model
             and _layer(cfg.get("printer_variant", "")) == nozzle and cfg.get("printer_technology", "FFF") == "FFF"]
    if not found:
        return None
    printer_name, printer = found[0]
    prints = [(name, bundle.resolved("print", name)) for name in bundle.names("print")]
    at_layer = [(name, cfg) for name, cfg in prints if _layer(cfg.get("layer_height", "")) == layer
                and _compatible(cfg, printer_name, printer)]
    if not at_layer:
        return None
    default = printer.get("default_print_profile", "").strip('"')
    kind = default.split(" ")[1] if " " in default else ""
    print_name, print_cfg = next(
        (p for p in at_layer if p[0] == default),
        next((p for p in at_layer if kind and p[0].split(" ")[1:2] == [kind]), at_layer[0]))
    filaments = [(name, bundle.resolved("filament", name)) for name in bundle.names("filament")]
    pla = [(name, cfg) for name, cfg in filaments if cfg.get("filament_type", "").strip('"') == "PLA"
           and _compatible(cfg, printer_name, printer, print_cfg)]
    if not pla:
        return None
    wanted = _list(printer.get("default_filament_profile", ""))
    filament_name, filament = next(
        (p for p in pla if p[0] in wanted),
        next((p for p in pla if p[0].startswith("Prusament PLA")), pla[0]))
    settings = {**printer, **print_cfg, **filament,  # and the names of the three, as a project names them
                "printer_settings_id": printer_name, "print_settings_id": print_name,
                "filament_settings_id": '"' + filament_name.replace('"', '\\"') + '"'}
    return Presets(printer_name, print_name, filament_name, bundle.path, bundle.version,
                   tuple(sorted(settings.items())))


@lru_cache(maxsize=16)
def _read(path: Path, stamp: float) -> Bundle:
    del stamp  # in the key: a bundle updated on disk is read again
    return read_bundle(path)


def presets(vendor: str, model: str, nozzle: float, layer: float) -> Presets | None:
    """The first installed ``vendor`` bundle's presets for ``model`` (``choose``; the bundles
    in the order of ``bundle_paths``), or None where no bundle is installed or none has the
    model."""
    for path in bundle_paths(vendor):
        try:
            bundle = _read(path, path.stat().st_mtime)
        except (OSError, ValueError):
            continue
        chosen = choose(bundle, model, nozzle, layer)
        if chosen is not None:
            return chosen
    return None
