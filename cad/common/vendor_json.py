"""Bambu Studio's and OrcaSlicer's own presets for a printer, read from an installed copy,
with inheritance resolved.

Both slicers keep their system presets as JSON, a folder per vendor (``BBL``, ``Creality``,
``Prusa`` ...) with a file per preset under ``machine/``, ``process/`` and ``filament/``.
A preset names itself (``name``), says what it is (``type``: ``machine``, ``process`` or
``filament``; ``instantiation: "true"`` for one a user may choose) and builds on at most one
parent (``inherits``, by name), whose settings it takes before its own. Newer Bambu Studio
profiles also ``include`` templates (presets with ``instantiation: "false"`` and no
``type``, such as ``Bambu Lab P1S 0.4 nozzle template machine_start_gcode``) whose keys come
after the parent's and before the preset's own. Every other key is a setting, its value a
string or a list of strings (one per extruder or filament), as the slicers' project files
store them. ``flatten`` resolves a preset the way the slicers' vendor loaders do.

Nothing here is copied from a slicer: the presets are the ones installed on this machine
(``profile_roots``: the system folder each slicer keeps up to date in its configuration
folder, for a plain install and for a Flatpak), or in the folders named by
``TEMPLEFORGE_BAMBU_PROFILES``. A machine without them writes Bambu-layout projects that
name Bambu Lab's presets and carry only the plate's own settings, as before
(``cad.common.threemf.bambu_project_settings``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

#: The variable that names folders of vendor folders (``BBL/machine/...``), before any
#: installed copy (several are joined as in ``PATH``).
PROFILES_VARIABLE = "TEMPLEFORGE_BAMBU_PROFILES"

#: The kinds of preset, as their folders and ``type`` name them.
KINDS = ("machine", "process", "filament")

#: Keys that say what a preset is, not settings a project carries.
META = frozenset({"name", "type", "from", "instantiation", "inherits", "include", "setting_id", "filament_id",
                  "base_id", "user_id", "version", "is_custom_defined", "url", "description", "updated_time",
                  "created_time", "renamed_from"})


class ProfileError(ValueError):
    """A preset that cannot be resolved: missing, a parent or template missing, a loop, or a
    file that is not a preset (the message names the file)."""


def profile_roots() -> list[Path]:
    """The folders of vendor folders to read presets from, first found first: those named
    by ``TEMPLEFORGE_BAMBU_PROFILES``, then Bambu Studio's and OrcaSlicer's system presets
    in their configuration folders (plain install and Flatpak)."""
    named = [Path(p) for p in os.environ.get(PROFILES_VARIABLE, "").split(os.pathsep) if p]
    home = Path.home()
    config = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config")
    installed = [config / "BambuStudio" / "system",
                 home / ".var/app/com.bambulab.BambuStudio/config/BambuStudio/system",
                 config / "OrcaSlicer" / "system",
                 home / ".var/app/io.github.softfever.OrcaSlicer/config/OrcaSlicer/system"]
    return [p for p in named + installed if p.is_dir()]


@dataclass(slots=True)
class Library:
    """The presets under one root folder of vendor folders, every preset file found by its
    ``name`` (a file is named for its preset, ``<name>.json``), read once, resolved once. A
    name in several vendors' folders (each vendor has its own ``fdm_machine_common``) is
    looked up in the asking preset's vendor only, but for a filament's parent, which may
    also be another vendor's (OrcaSlicer's filament library serves every vendor)."""

    root: Path
    files: dict[tuple[str, str], list[Path]] = field(default_factory=dict)
    names: dict[Path, str] = field(default_factory=dict)
    raw_kept: dict[Path, dict[str, Any]] = field(default_factory=dict)
    flat_kept: dict[Path, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for vendor in sorted(p for p in self.root.iterdir() if p.is_dir()):
            for kind, name, path in _listed(vendor):
                self.files.setdefault((kind, name), []).append(path)
                self.names[path] = name

    def has(self, kind: str, name: str) -> bool:
        return (kind, name) in self.files

    def path(self, kind: str, name: str, near: Path | None = None) -> Path:
        """The file of preset ``name``: in ``near``'s vendor folder if there is one there.

        Raises:
            ProfileError: no such preset.
        """
        paths = self.files.get((kind, name))
        if near is not None:
            vendor = self._vendor(near)
            mine = [p for p in paths or () if self._vendor(p) == vendor]
            # a vendor's presets build on its own; only filaments on another's (OrcaSlicer's library)
            paths = mine if mine or kind != "filament" else paths
        if not paths:
            raise ProfileError(f"{near or self.root}: no {kind} preset {name!r}")
        return paths[0]

    def _vendor(self, path: Path) -> str:
        return path.relative_to(self.root).parts[0]

    def raw(self, kind: str, name: str, near: Path | None = None) -> dict[str, Any]:
        """The preset's own file, as read.

        Raises:
            ProfileError: no such preset, or a file that is not a JSON object with that name.
        """
        return self._read(self.path(kind, name, near), kind)

    def _read(self, path: Path, kind: str) -> dict[str, Any]:
        name = self.names[path]
        if path not in self.raw_kept:
            try:
                data = json.loads(path.read_text("utf-8"))
            except (OSError, UnicodeDecodeError, ValueError) as error:
                raise ProfileError(f"{path}: not a preset: {error}") from None
            if not isinstance(data, dict) or data.get("name", name) != name:
                raise ProfileError(f"{path}: not the {kind} preset {name!r}")
            self.raw_kept[path] = data
        return self.raw_kept[path]

    def flatten(self, kind: str, name: str) -> dict[str, Any]:
        """Preset ``name`` with its parent's settings (resolved the same way), then its
        templates' (``include``, in order), then its own; the preset's own name, type and
        ``instantiation`` kept, ``inherits`` and ``include`` dropped (a copy).

        Raises:
            ProfileError: the preset, a parent or a template is missing, or they loop.
        """
        return dict(self._flat(self.path(kind, name), kind, ()))

    def _flat(self, path: Path, kind: str, seen: tuple[str, ...]) -> dict[str, Any]:
        kept = self.flat_kept.get(path)
        if kept is not None:
            return kept
        name = self.names[path]
        if name in seen:
            raise ProfileError(f"{path}: {kind} presets inherit in a loop: {' -> '.join(seen + (name,))}")
        own = self._read(path, kind)
        out: dict[str, Any] = {}
        parent = own.get("inherits")
        if parent:
            out.update(self._flat(self.path(kind, str(parent), path), kind, seen + (name,)))
        for template in _names(own.get("include")):
            # as the slicer's loader does, a template it cannot find is passed over
            if any(self._vendor(p) == self._vendor(path) for p in self.files.get((kind, template), ())):
                found = self._flat(self.path(kind, template, path), kind, seen + (name,))
                out.update({k: v for k, v in found.items() if k not in META})
        out.update({k: v for k, v in own.items() if k not in ("inherits", "include")})
        self.flat_kept[path] = out
        return out


def _listed(vendor: Path) -> Iterator[tuple[str, str, Path]]:
    """A vendor folder's presets: those its index (``<vendor>.json`` beside the folder, as
    the slicers read it: ``machine_list``, ``process_list``, ``filament_list`` of ``name``
    and ``sub_path``) lists, else every ``<kind>/**/*.json`` file, named for its preset."""
    index = vendor.with_name(f"{vendor.name}.json")
    try:
        listed = json.loads(index.read_text("utf-8")) if index.is_file() else None
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ProfileError(f"{index}: not a vendor index: {error}") from None
    if not isinstance(listed, dict):
        for kind in KINDS:
            folder = vendor / kind
            if folder.is_dir():
                for path in sorted(folder.rglob("*.json")):
                    yield kind, path.stem, path
        return
    for kind in KINDS:
        for entry in listed.get(f"{kind}_list") or ():
            if isinstance(entry, dict) and entry.get("name") and entry.get("sub_path"):
                yield kind, str(entry["name"]), vendor / str(entry["sub_path"])


def _names(value: object) -> list[str]:
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, list):
        return [str(v) for v in value if v]
    return []


def settings(preset: Mapping[str, Any]) -> dict[str, Any]:
    """A resolved preset's settings: every key but those that say what it is."""
    return {k: v for k, v in preset.items() if k not in META}


@dataclass(frozen=True, slots=True)
class Presets:
    """A printer's machine, process and filament presets, resolved, and the root they came from."""

    machine: str
    process: str
    filament: str
    root: Path
    printer: dict[str, Any]
    print: dict[str, Any]
    material: dict[str, Any]


@lru_cache(maxsize=8)
def _library(root: Path, stamp: float) -> Library:
    del stamp  # part of the cache key: a folder changed on disk is read again
    return Library(root)


def library(root: Path) -> Library:
    return _library(root, root.stat().st_mtime)


def _default(value: object) -> str:
    """A machine preset's default process or filament (a name, or a list whose first it is)."""
    names = _names(value)
    return names[0] if names else ""


def presets(machine: str, process: str = "", filament: str = "",
            roots: Iterable[Path] | None = None) -> Presets | None:
    """The three presets, resolved, from the first root that has the machine preset; the
    process and filament, when not named or not in that copy, are the machine preset's
    defaults (``default_print_profile``, the first of ``default_filament_profile``). None
    when no root has them.

    Raises:
        ProfileError: a root has them but cannot resolve one (a parent missing ...).
    """
    for root in profile_roots() if roots is None else roots:
        found = library(root)
        if not found.has("machine", machine):
            continue
        printer = found.flatten("machine", machine)
        # a named preset this copy does not have (a newer one renames them: the P1S's PLA is
        # "Bambu PLA Basic @BBL P1S 0.4 nozzle" in Bambu Studio 2.5) gives way to the machine's default
        chosen = (process if process and found.has("process", process)
                  else _default(printer.get("default_print_profile")),
                  filament if filament and found.has("filament", filament)
                  else _default(printer.get("default_filament_profile")))
        if all(name and found.has(kind, name) for kind, name in zip(KINDS[1:], chosen, strict=True)):
            return Presets(machine, chosen[0], chosen[1], root, printer, found.flatten("process", chosen[0]),
                           found.flatten("filament", chosen[1]))
    return None


@dataclass(frozen=True, slots=True)
class Carried:
    """What a project carries of a printer's system presets: the printer model and preset
    names, the machine and process presets' settings (the machine's win a key both set) and
    the filament preset's, each value as JSON text, and where they came from (or why there
    are none: then no settings, and names only where the caller gave them)."""

    model: str
    machine: str
    process: str
    filament: str
    settings: tuple[tuple[str, str], ...]
    material: tuple[tuple[str, str], ...]
    source: str


def carried(machine: str, process: str = "", filament: str = "", model: str = "",
            roots: Iterable[Path] | None = None) -> Carried:
    """A printer's settings as a project carries them, from its system presets on this
    machine (``presets``). A root whose presets cannot be resolved is named in ``source``."""
    named = ", ".join(n for n in (machine, process, filament) if n)
    try:
        found = presets(machine, process, filament, roots)
    except ProfileError as error:
        return Carried(model, machine, process, filament, (), (),
                       f"the names of the presets {named} (the presets here could not be read: {error})")
    if found is None:
        return Carried(model, machine, process, filament, (), (),
                       f"the names of the presets {named} (no Bambu Studio or OrcaSlicer presets here to copy; "
                       f"the slicer fills in their settings)")
    both = {**settings(found.print), **settings(found.printer)}
    return Carried(str(found.printer.get("printer_model") or model), machine, found.process, found.filament,
                   tuple((k, json.dumps(v, sort_keys=True)) for k, v in sorted(both.items())),
                   tuple((k, json.dumps(v, sort_keys=True)) for k, v in sorted(settings(found.material).items())),
                   f"the presets {machine}, {found.process}, {found.filament}, whole (from {found.root})")
