"""A printable kit as data, for any game: pieces made of meshes, laid on plates, written as
STL and 3MF (AMS and NO-AMS), with a bill of materials.

Nouns:
    Solid   one mesh printed in one filament (``key``: ``body``, ``ink``, a block's name).
    Piece   an object to print (``card-7``, ``block-L4``), made of solids, in ``copies``.
    Sheet   one plate: which piece copies lie where.

AMS plates print every solid in its own filament (a parent object per piece, its solids as
parts). NO-AMS plates print in one filament, and plates with debossed marks store a colour
change at the deboss floor so that a single-extruder printer swaps filament there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cad.common import plates, threemf
from cad.common.meshes import Mesh, merge

#: ``map``, or a process pool's ``imap``: how a kit spreads its parts over workers (results in
#: order either way, so the files are the same).
Mapper = Callable[[Callable[[Any], Any], Iterable[Any]], Iterable[Any]]

NO_AMS_FILAMENTS = (threemf.Filament("first filament: the floor of every mark", "#1A1A1A"),
                    threemf.Filament("second filament: the tops", "#E8E0CC"))


@dataclass(frozen=True, eq=False)
class Solid:
    label: str
    mesh: Mesh
    key: str


@dataclass(frozen=True, eq=False)
class Piece:
    """An object to print ``copies`` times; its solids share one frame, lying on z = 0.
    ``change_at``: the height of its deboss floor (a NO-AMS colour change), if it has one;
    ``group``: pieces of different groups go on different plates (jewels of one colour)."""

    key: str
    title: str
    solids: tuple[Solid, ...]
    copies: int = 1
    change_at: float | None = None
    group: str = ""

    def merged(self) -> Mesh:
        return merge([s.mesh for s in self.solids])

    def footprint(self) -> tuple[float, float, float, float]:
        """(x, y, width, depth) of the piece's bounding box on the bed."""
        lo, hi = self.merged().bounds
        return float(lo[0]), float(lo[1]), float(hi[0] - lo[0]), float(hi[1] - lo[1])

    def volume(self, key: str | None = None) -> float:
        return sum(s.mesh.volume() for s in self.solids if key is None or s.key == key)


@dataclass(frozen=True)
class Sheet:
    """One plate: its number, and each piece copy's key, copy number and place."""

    number: int
    placed: tuple[tuple[str, int, plates.Placed], ...]


def arrange(pieces: Sequence[Piece], width: float, depth: float, gap: float, single: bool = True) -> list[Sheet]:
    """Every copy of every piece on as few ``width`` x ``depth`` plates as the packing allows.
    For a single-filament printer (``single``), pieces with a colour change and pieces
    without go on separate plates (a NO-AMS colour change applies to the whole plate), and
    so do pieces of different groups (jewels of one colour); an AMS plate takes anything."""
    out: list[Sheet] = []

    def group_of(p: Piece) -> tuple[bool, str]:
        return (p.change_at is None, p.group) if single else (True, "")

    groups = list(dict.fromkeys(group_of(p) for p in pieces))
    for group in groups:
        chosen = [p for p in pieces if group_of(p) == group]
        foot = []
        for p in chosen:
            _, _, w, d = p.footprint()
            foot += [plates.Footprint(f"{p.key}#{i + 1}", w, d) for i in range(p.copies)]
        for plate in plates.pack(foot, width, depth, gap):
            placed = tuple((part.key.rsplit("#", 1)[0], int(part.key.rsplit("#", 1)[1]), part) for part in plate.parts)
            out.append(Sheet(len(out) + 1, placed))
    return out


def _placed_mesh(mesh: Mesh, origin: tuple[float, float], place: plates.Placed) -> Mesh:
    """A solid moved from its piece's frame to its place on the plate (turned a quarter when
    the packing turned it)."""
    moved = mesh.translated(-origin[0], -origin[1], 0)
    if place.turned:
        moved = moved.rotated_z(1).translated(place.width, 0, 0)
    return moved.translated(place.x, place.y, 0)


def project(sheet: Sheet, pieces: Mapping[str, Piece], title: str, ams: bool,
            filaments: Sequence[threemf.Filament], filament_of: Mapping[str, int],
            slicer: str = "bambu") -> threemf.Project:
    """The 3MF project of one plate, laid out for ``slicer`` (``bambu``: Bambu Studio and
    OrcaSlicer; ``prusa``: PrusaSlicer)."""
    items = []
    change = None
    for key, copy, place in sheet.placed:
        piece = pieces[key]
        x, y, _, _ = piece.footprint()
        parts = tuple(threemf.Part(s.label, _placed_mesh(s.mesh, (x, y), place), filament_of[s.key] if ams else 1)
                      for s in piece.solids)
        if not ams:
            parts = (threemf.Part("whole", merge([p.mesh for p in parts]), 1),)
            change = piece.change_at if piece.change_at is not None else change
        name = piece.title if piece.copies == 1 else f"{piece.title} ({copy} of {piece.copies})"
        items.append(threemf.Item(name, parts))
    if ams:
        return threemf.Project(title, tuple(items), tuple(filaments), slicer=slicer)
    changes = (threemf.ColourChange(change, 2),) if change is not None else ()
    return threemf.Project(title, tuple(items), NO_AMS_FILAMENTS, changes, slicer=slicer)


@dataclass(frozen=True)
class Material:
    """A bill-of-materials row: a plate, a filament, how many parts, how many grams."""

    plate: int
    filament: str
    parts: int
    grams: float


def bill(sheets: Sequence[Sheet], pieces: Mapping[str, Piece], density: float, ams: bool,
         names: Mapping[str, str]) -> list[Material]:
    """Per plate and filament: the parts and the grams (volume x density)."""
    rows = []
    for sheet in sheets:
        volume: dict[str, float] = {}
        count: dict[str, int] = {}
        for key, _, _ in sheet.placed:
            for s in pieces[key].solids:
                name = names[s.key] if ams else "one filament"
                volume[name] = volume.get(name, 0.0) + s.mesh.volume()
                count[name] = count.get(name, 0) + 1
        for name in sorted(volume):
            rows.append(Material(sheet.number, name, count[name], round(volume[name] / 1000 * density, 2)))
    return rows
