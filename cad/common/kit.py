"""A printable kit as data, for any game: pieces made of meshes, laid on plates, written as
STL and 3MF (AMS and NO-AMS), with a bill of materials.

Nouns:
    Solid   one mesh printed in one filament (``key``: ``body``, ``ink``, a block's name).
    Piece   an object to print (``card-7``, ``block-L4``), made of solids, in ``copies``.
    Sheet   one plate: which piece copies lie where.

AMS plates print every solid in its own filament (a parent object per piece, its solids as
parts). NO-AMS plates print in one filament and leave out the inlays (solids that fill a
deboss in their own filament), so the marks stay cut; plates with debossed marks store the
piece's colour changes, so that a single-extruder printer swaps filament at the deboss
floors and the marks show in the other colour.

``make`` turns a game's pieces into the files of a kit (STL per distinct solid, 3MF plates
for each profile, plate previews, the bill), the same way for every game.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from cad.common import plates, threemf
from cad.common.meshes import Mesh, merge
from generators.common.errors import RequestError
from generators.common.proof import stamp
from generators.common.words import plural
from solver.names import unique_slugs

#: ``map``, or a process pool's ``imap``: how a kit spreads its parts over workers (results in
#: order either way, so the files are the same).
Mapper = Callable[[Callable[[Any], Any], Iterable[Any]], Iterable[Any]]

NO_AMS_FILAMENTS = (threemf.Filament("first filament: the floor of every mark", "#1A1A1A"),
                    threemf.Filament("second filament: the tops", "#E8E0CC"))


@dataclass(frozen=True, eq=False)
class Solid:
    """One mesh in one filament; an ``inlay`` fills a deboss and is printed by AMS only."""

    label: str
    mesh: Mesh
    key: str
    inlay: bool = False


@dataclass(frozen=True, eq=False)
class Piece:
    """An object to print ``copies`` times; its solids share one frame, lying on z = 0.
    ``change_at``: the height of its deboss floor (a NO-AMS colour change to the second
    filament), if it has one; ``changes``: its colour changes, when it needs more than that
    one; ``group``: pieces of different groups go on different plates (jewels of one colour)."""

    key: str
    title: str
    solids: tuple[Solid, ...]
    copies: int = 1
    change_at: float | None = None
    group: str = ""
    changes: tuple[threemf.ColourChange, ...] = ()
    kind: str = ""  #: what it is, for a plate's name (``level token``); its title's first word by default

    @property
    def colour_changes(self) -> tuple[threemf.ColourChange, ...]:
        if self.changes:
            return self.changes
        return (threemf.ColourChange(self.change_at, 2),) if self.change_at is not None else ()

    def printed(self, ams: bool) -> tuple[Solid, ...]:
        """The solids a profile prints (NO-AMS leaves the inlays out)."""
        return self.solids if ams else tuple(s for s in self.solids if not s.inlay)

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
    """One plate: its number, each piece copy's key, copy number and place, and (AMS) the
    kit's filament numbers the plate uses, in slot order."""

    number: int
    placed: tuple[tuple[str, int, plates.Placed], ...]
    filaments: tuple[int, ...] = ()


def needs(piece: Piece, number: Mapping[str, int]) -> frozenset[int]:
    """The kit's filament numbers an AMS print of ``piece`` uses."""
    return frozenset(number[s.key] for s in piece.solids)


def one_colour(piece: Piece, filaments: Filaments) -> int | None:
    """The kit's filament number a NO-AMS print of ``piece`` is, when it is one colour all
    through (no colour change, every solid it prints in the same filament: a jewel, a
    piece, a crystal); None when it is printed in the plate's first filament with its
    colour changes."""
    if piece.colour_changes:
        return None
    used = {filaments.number.get(s.key) for s in piece.printed(False)}
    return used.pop() if len(used) == 1 and None not in used else None


def plate_filaments(sheet: Sheet, pieces: Mapping[str, Piece], filaments: Filaments) -> tuple[threemf.Filament, ...]:
    """The filaments a NO-AMS plate loads, in order: a plate of one-colour pieces loads that
    colour's filament alone (named and coloured as the AMS profile's); any other loads the
    kit's first filament, then each one its colour changes bring in."""
    colours = {one_colour(pieces[key], filaments) for key, _, _ in sheet.placed}
    if len(colours) == 1 and None not in colours:
        return (filaments.ams[colours.pop() - 1],)  # type: ignore[operator]
    count = max([c.filament for key, _, _ in sheet.placed for c in pieces[key].colour_changes], default=1)
    return tuple(filaments.single[:count])


def check_slots(pieces: Sequence[Piece], filaments: Filaments, slots: int) -> None:
    """Every piece prints with at most ``slots`` filaments.

    Raises:
        RequestError: the first piece that needs more, naming it and its filaments.
    """
    for p in pieces:
        used = sorted(needs(p, filaments.number))
        if len(used) > slots:
            names = ", ".join(filaments.ams[n - 1].name for n in used)
            raise RequestError(f"--ams-slots: {p.title} needs {len(used)} filaments ({names}), more than the "
                               f"{slots} slots of the printer's AMS (--ams-slots 8 for two units, or "
                               f"--profile no-ams)")


def arrange(pieces: Sequence[Piece], width: float, depth: float, gap: float, single: bool = True,
            slots: int | None = None, number: Mapping[str, int] | None = None,
            excluded: Sequence[plates.Zone] = ()) -> list[Sheet]:
    """Every copy of every piece on as few ``width`` x ``depth`` plates as the packing allows.

    For a single-filament printer (``single``), pieces with a colour change and pieces
    without go on separate plates (a NO-AMS colour change applies to the whole plate), and
    so do pieces of different groups (jewels of one colour). An AMS plate (``single``
    False) holds pieces whose filaments (``number``: each solid key's filament) come to at
    most ``slots``: pieces of the same filaments fill plates of their own (blocks of one
    colour print with no tool change), and the last, part-filled plate of each kind of
    several colours shares a plate with others' whose filaments are among its own (or its
    among theirs: no layer gains a colour) while they come to at most ``slots`` and the
    parts fit; parts of one colour never share a plate with another colour (each would swap
    filament on every layer they share).
    Every plate keeps clear of the bed's ``excluded`` zones and is centred (``plates.pack``)."""
    if single:
        return _arrange_single(pieces, width, depth, gap, excluded, number or {})
    number = number or {}
    limit = slots if slots is not None else 1 << 30
    groups: dict[frozenset[int], list[plates.Footprint]] = {}
    for p in pieces:
        _, _, w, d = p.footprint()
        groups.setdefault(needs(p, number) if number else frozenset(), []).extend(
            plates.Footprint(f"{p.key}#{i + 1}", w, d) for i in range(p.copies))
    full: list[tuple[frozenset[int], tuple[plates.Placed, ...]]] = []
    partial: list[tuple[frozenset[int], list[plates.Footprint]]] = []
    for group in sorted(groups, key=lambda g: sorted(g)):
        packed = plates.pack(groups[group], width, depth, gap, excluded=excluded)
        full += [(group, plate.parts) for plate in packed[:-1]]
        keys = {part.key for part in packed[-1].parts}
        partial.append((group, [f for f in groups[group] if f.key in keys]))
    # the last plate of each group of several colours shares a plate with others' of the same
    # filaments or fewer; parts of one colour (blocks, jewels, pieces) keep plates of their own
    # colour, which print with no swap at all
    merged: list[tuple[frozenset[int], list[plates.Footprint], tuple[plates.Placed, ...]]] = []
    for group, parts in sorted(partial, key=lambda g: (-sum(f.width * f.depth for f in g[1]), sorted(g[0]))):
        for i, (have, others, _) in enumerate(merged):
            if len(group) > 1 and len(have) > 1 and len(have | group) <= limit and (group <= have or have <= group):
                packed = plates.pack(others + parts, width, depth, gap, excluded=excluded)
                if len(packed) == 1:
                    merged[i] = (have | group, others + parts, packed[0].parts)
                    break
        else:
            merged.append((group, parts, plates.pack(parts, width, depth, gap, excluded=excluded)[0].parts))
    out = []
    for number_, (fils, placed) in enumerate(full + [(g, p) for g, _, p in merged], start=1):
        ordered = tuple(sorted(placed, key=lambda part: (part.y, part.x)))
        out.append(Sheet(number_, tuple((part.key.rsplit("#", 1)[0], int(part.key.rsplit("#", 1)[1]), part)
                                        for part in ordered), tuple(sorted(fils))))
    return out


def _arrange_single(pieces: Sequence[Piece], width: float, depth: float, gap: float,
                    excluded: Sequence[plates.Zone], number: Mapping[str, int]) -> list[Sheet]:
    """NO-AMS plates: pieces of the same colour changes, group and (for a piece of one colour
    all through) filament together, so that every plate prints in the filaments it names."""
    def colour(p: Piece) -> int:
        used = {number.get(s.key) for s in p.printed(False)}
        return used.pop() or 0 if len(used) == 1 and not p.colour_changes else 0

    out: list[Sheet] = []
    key = {p.key: (p.colour_changes, p.group, colour(p)) for p in pieces}
    groups = list(dict.fromkeys(key[p.key] for p in pieces))
    for group in groups:
        chosen = [p for p in pieces if key[p.key] == group]
        foot = []
        for p in chosen:
            _, _, w, d = p.footprint()
            foot += [plates.Footprint(f"{p.key}#{i + 1}", w, d) for i in range(p.copies)]
        for plate in plates.pack(foot, width, depth, gap, excluded=excluded):
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


def project(sheet: Sheet, pieces: Mapping[str, Piece], title: str, ams: bool, filaments: Filaments,
            slicer: str = "bambu", layer: float = 0.2, machine: threemf.Machine = threemf.GENERIC) -> threemf.Project:
    """The 3MF project of one plate, laid out for ``slicer`` (``bambu``: Bambu Studio and
    OrcaSlicer; ``prusa``: PrusaSlicer). An AMS plate declares the filaments it uses, in
    its sheet's slot order; a NO-AMS plate names the ``single`` filaments its colour changes
    use (one, if it has none) and changes colour before the first ``layer``-high layer
    above each change."""
    items = []
    changes: tuple[threemf.ColourChange, ...] = ()
    slot = {n: i + 1 for i, n in enumerate(sheet.filaments)}
    for key, copy, place in sheet.placed:
        piece = pieces[key]
        x, y, _, _ = piece.footprint()
        parts = tuple(threemf.Part(s.label, _placed_mesh(s.mesh, (x, y), place),
                                   slot[filaments.number[s.key]] if ams else 1)
                      for s in piece.printed(ams))
        if not ams:
            parts = (threemf.Part("whole", merge([p.mesh for p in parts]), 1),)
            changes = piece.colour_changes or changes
        name = piece.title if piece.copies == 1 else f"{piece.title} ({copy} of {piece.copies})"
        items.append(threemf.Item(f"{stamp()} {name}" if stamp() else name, parts))
    if stamp():
        title = f"{stamp()}: {title}"
    if ams:
        declared = tuple(filaments.ams[n - 1] for n in sheet.filaments)
        return threemf.Project(title, tuple(items), declared, slicer=slicer, layer=layer, machine=machine)
    return threemf.Project(title, tuple(items), plate_filaments(sheet, pieces, filaments), changes, slicer=slicer,
                           layer=layer, machine=machine)


@dataclass(frozen=True)
class Material:
    """A bill-of-materials row: a plate, the slot its filament goes in (1-based), the
    filament's name and colour (``#RRGGBB``), how many parts use it, how many grams; and the
    plate's filament swaps and the grams they purge (the same on each row of a plate)."""

    plate: int
    slot: int
    filament: str
    colour: str
    parts: int
    grams: float
    swaps: int = 0
    purge: float = 0.0


#: The filament an AMS swap flushes, in mm³: a middling colour-to-colour flush of Bambu
#: Studio's default flushing volumes (dark to light takes more, light to dark less).
PURGE_MM3 = 280.0


def layers_of(sheet: Sheet, pieces: Mapping[str, Piece], filaments: Filaments, layer: float) -> list[set[int]]:
    """Each layer's filaments on an AMS plate (from each solid's height range)."""
    bands: list[set[int]] = []
    for key, _, _ in sheet.placed:
        for s in pieces[key].solids:
            lo, hi = s.mesh.bounds
            first, last = int(round(float(lo[2]) / layer)), int(np.ceil(float(hi[2]) / layer - 1e-6))
            while len(bands) < last:
                bands.append(set())
            for n in range(first, last):
                bands[n].add(filaments.number[s.key])
    return bands


def swaps(bands: Sequence[set[int]]) -> int:
    """The filament swaps a plate of these layers takes when each layer starts with the
    filament the last one ended with (if it prints it) and ends with one the next layer
    prints (if it can): what a slicer's ordering achieves at best."""
    count, current = 0, None
    for i, here in enumerate(bands):
        if not here:
            continue
        if current in here:  # it starts with the filament loaded, and ends with another if it prints more
            count += len(here) - 1
            if len(here) == 1:
                continue
            options = here - {current}
        else:
            count += len(here) if current is not None else len(here) - 1
            options = here
        later = next((b for b in bands[i + 1:] if b), set())
        current = min(options & later) if options & later else min(options)
    return count


def bill(sheets: Sequence[Sheet], pieces: Mapping[str, Piece], density: float, ams: bool,
         filaments: Filaments, layer: float = 0.2) -> list[Material]:
    """Per plate and filament, in slot order: the parts and the grams (volume x density),
    and the plate's swaps: an AMS plate's filament swaps (``swaps`` of its ``layer``-high
    layers) and the grams they purge (``PURGE_MM3`` each); a NO-AMS plate's colour changes
    (the printer pauses for each; the purge is the printer's own, not counted). A NO-AMS
    plate's filaments are the ones it loads, each with the grams printed between its change
    and the next."""
    rows = []
    for sheet in sheets:
        if ams:
            swapped = swaps(layers_of(sheet, pieces, filaments, layer))
            purge = round(swapped * PURGE_MM3 / 1000 * density, 2)
            for slot, n in enumerate(sheet.filaments, start=1):
                keys = {k for k, v in filaments.number.items() if v == n}
                volume = sum(s.mesh.volume() for key, _, _ in sheet.placed for s in pieces[key].solids if s.key in keys)
                count = sum(1 for key, _, _ in sheet.placed if any(s.key in keys for s in pieces[key].solids))
                fil = filaments.ams[n - 1]
                rows.append(Material(sheet.number, slot, fil.name, fil.colour, count,
                                     round(volume / 1000 * density, 2), swapped, purge))
            continue
        meshes = [s.mesh for key, _, _ in sheet.placed for s in pieces[key].printed(False)]
        changes = sorted({c for key, _, _ in sheet.placed for c in pieces[key].colour_changes}, key=lambda c: c.z)
        bounds = [0.0] + [c.z for c in changes] + [float("inf")]
        loaded = [1] + [c.filament for c in changes]
        grams: dict[int, float] = {}
        for low, high, n in zip(bounds, bounds[1:], loaded):
            grams[n] = grams.get(n, 0.0) + sum(m.volume_between(low, high) for m in meshes) / 1000 * density
        loads = plate_filaments(sheet, pieces, filaments)
        for n in sorted(grams):
            fil = loads[n - 1]
            rows.append(Material(sheet.number, n, fil.name, fil.colour, len(sheet.placed), round(grams[n], 2),
                                 len(changes)))
    return rows


# -- a whole kit -------------------------------------------------------------------------------------


_PICTURES: contextvars.ContextVar[bool] = contextvars.ContextVar("plate_pictures", default=True)


@contextlib.contextmanager
def without_pictures() -> Iterator[None]:
    """Kits made inside leave out their plates' pictures (and the project thumbnails), which
    take most of a kit's time: for callers that want the pieces alone."""
    token = _PICTURES.set(False)
    try:
        yield
    finally:
        _PICTURES.reset(token)


@dataclass(frozen=True, eq=False)
class Model:
    """A piece as it looks printed in many colours: its parts, each a mesh in its colour."""

    key: str
    title: str
    copies: int
    parts: tuple[tuple[Mesh, str], ...]


@dataclass(frozen=True)
class Kit:
    """Everything ``templeforge cad`` writes, in memory, and what it says about it;
    ``models``: each piece as it looks printed (for virtual tables)."""

    files: dict[str, bytes]
    ams_plates: int
    no_ams_plates: int
    pieces: int
    bom: dict[str, list[Material]]
    models: tuple[Model, ...] = ()


@dataclass(frozen=True)
class Filaments:
    """A kit's AMS filaments, each solid key's filament number and name, and the two
    filaments a NO-AMS plate names."""

    ams: tuple[threemf.Filament, ...]
    number: Mapping[str, int]
    names: Mapping[str, str]
    single: tuple[threemf.Filament, ...] = NO_AMS_FILAMENTS

    def colour(self, key: str) -> str:
        return self.ams[self.number[key] - 1].colour

    @classmethod
    def by_colour(cls, uses: Sequence[tuple[str, str, str]],
                  single: tuple[threemf.Filament, ...] = NO_AMS_FILAMENTS) -> Filaments:
        """Filaments from (solid key, what it is, colour) triples: one filament per colour,
        in order of first use, named for its colour and everything printed in it (``orange:
        block I2, pawn round``), so that a spool is loaded once however many parts share it."""
        from generators.common.palette import colour_name

        colours = list(dict.fromkeys(colour.upper() for _, _, colour in uses))
        what: dict[str, list[str]] = {c: [] for c in colours}
        for _, thing, colour in uses:
            what[colour.upper()].append(thing)
        fils = tuple(threemf.Filament(f"{colour_name(c)}: {', '.join(what[c])}", c) for c in colours)
        number = {key: colours.index(colour.upper()) + 1 for key, _, colour in uses}
        return cls(fils, number, {key: fils[n - 1].name for key, n in number.items()}, single)


def active(changes: Sequence[threemf.ColourChange], z: float) -> int:
    """The filament printing at height ``z`` (1 until the first change below it)."""
    filament = 1
    for c in sorted(changes, key=lambda c: c.z):
        if c.z < z - 1e-6:
            filament = c.filament
    return filament


def preview_parts(piece: Piece, solid: Solid, ams: bool, filaments: Filaments) -> list[tuple[Mesh, str]]:
    """How a solid looks printed, as (mesh, colour) parts. AMS: the solid in its own
    filament. NO-AMS: inlays are not printed; a piece of one colour all through (a jewel, a
    crystal) shows the filament its plate loads; on any other every face shows the filament
    printing at its height, so a deboss or a pocket floor below a colour change shows the
    colour beneath it, as the print will."""
    if ams:
        return [(solid.mesh, filaments.colour(solid.key))]
    if solid.inlay:
        return []
    whole = one_colour(piece, filaments)
    if whole is not None:  # its plate loads this filament alone
        return [(solid.mesh, filaments.ams[whole - 1].colour)]
    mesh = solid.mesh
    heights = mesh.vertices[mesh.triangles][:, :, 2].mean(axis=1)
    which = np.array([active(piece.colour_changes, float(z)) for z in heights], dtype=np.int64)
    return [(Mesh(mesh.vertices, mesh.triangles[which == f]), filaments.single[f - 1].colour)
            for f in sorted(set(which.tolist()))]


def top_view(scene: list[tuple[Mesh, str]]) -> bytes:
    """A plate seen from above, as PNG bytes."""
    from cad.common import previews
    from cad.common.solids import png

    return png(previews.render(scene, 900, top=True))


def make(made: Sequence[Piece], filaments: Filaments, bed: tuple[float, float], *, gap: float, density: float,
         ams: bool, no_ams: bool, title: str, slicer: str, layer: float = 0.2, slots: int = 4,
         machine: threemf.Machine | None = None,
         progress: Callable[[str], None] = lambda _: None, mapper: Mapper = map) -> Kit:
    """The files of a kit: an STL of every solid of every piece, the 3MF plates of each
    profile asked for (laid out for ``slicer``), a top-view preview of every plate and the
    bill of materials. Each AMS plate uses at most ``slots`` filaments. ``mapper`` renders
    the previews (the files are the same either way).

    Raises:
        RequestError: a piece needs more than ``slots`` filaments (AMS).
    """
    from cad.common.meshes import box

    if ams:
        check_slots(made, filaments, slots)

    unique_slugs([p.key for p in made], "piece")  # no piece's files overwrite another's, nor lead out
    by_key = {p.key: p for p in made}
    files: dict[str, bytes] = {}
    for p in made:
        for s in p.solids:
            suffix = "" if len(p.solids) == 1 or s.key == "body" else f"-{s.key}"
            files[f"stl/{p.key}{suffix}.stl"] = s.mesh.stl()
    bom = {}
    counts = {}
    bed_mesh = box(bed[0], bed[1], 0.01).translated(0, 0, -0.02)
    zones = []  # the bed's excluded zones, in red on the previews
    for zone in machine.excluded if machine else ():
        x0, y0 = min(x for x, _ in zone), min(y for _, y in zone)
        w, d = max(x for x, _ in zone) - x0, max(y for _, y in zone) - y0
        zones.append((box(w, d, 0.01).translated(x0, y0, -0.01), "#C0392B"))
    for profile, wanted in (("ams", ams), ("no-ams", no_ams)):
        if not wanted:
            continue
        multi = profile == "ams"
        sheets = arrange(made, bed[0], bed[1], gap, single=not multi, slots=slots, number=filaments.number,
                         excluded=machine.excluded if machine else ())
        counts[profile] = len(sheets)
        projects = [project(sheet, by_key, plate_title(title, sheet, by_key, multi, filaments), multi, filaments,
                            slicer, layer, machine or threemf.Machine(bed[0], bed[1], max(bed)))
                    for sheet in sheets]
        bom[profile] = bill(sheets, by_key, density, multi, filaments, layer)
        scenes = []
        for sheet in sheets:
            shown = [(bed_mesh, "#E4E4E4")] + zones
            for key, _, place in sheet.placed:
                piece = by_key[key]
                x, y, _, _ = piece.footprint()
                shown += [(_placed_mesh(mesh, (x, y), place), colour)
                          for s in piece.solids for mesh, colour in preview_parts(piece, s, multi, filaments)]
            scenes.append(shown)
        images = mapper(top_view, scenes) if _PICTURES.get() else [b"" for _ in scenes]
        for sheet, image in zip(sheets, images):
            progress(f"preview of {profile} plate {sheet.number}")
            files[f"previews/{profile}/plate-{sheet.number:02d}.png"] = image
        for i, sheet in enumerate(sheets):  # each plate's file with its picture (none without previews)
            image = files[f"previews/{profile}/plate-{sheet.number:02d}.png"]
            projects[i] = replace(projects[i], thumbnail=thumbnail(image) if image else b"")
            files[f"{profile}/plate-{sheet.number:02d}.3mf"] = threemf.write(projects[i])
        if slicer == "bambu":
            previews = [files[f"previews/{profile}/plate-{sheet.number:02d}.png"] for sheet in sheets]
            pictures = [thumbnail(png) for png in previews] if all(previews) else []  # none without previews
            name = f"{stamp()}: {title}" if stamp() else title
            groups = within_filaments(projects)
            for k, group in enumerate(groups, start=1):
                span = f"plates {sheets[group[0]].number}-{sheets[group[-1]].number}" if len(groups) > 1 else \
                    f"every {profile.upper()} plate"
                files[all_plates(profile, k if len(groups) > 1 else 0)] = threemf.write_plates(
                    f"{name}: {span}", [projects[i] for i in group], [pictures[i] for i in group] if pictures else [])
    models = tuple(Model(p.key, p.title, p.copies, tuple(part for s in p.solids
                                                         for part in preview_parts(p, s, True, filaments)))
                   for p in made)
    return Kit(files, counts.get("ams", 0), counts.get("no-ams", 0), sum(p.copies for p in made), bom, models)


def contents(sheet: Sheet, pieces: Mapping[str, Piece]) -> str:
    """What is on a plate, by the kind of part (its title's first word) and count, in the
    plate's order: ``2 cards``, ``4 blocks, 1 pawn``, ``13 jewels``."""
    counts: dict[str, int] = {}
    for key, _, _ in sheet.placed:
        piece = pieces[key]
        kind = piece.kind or (piece.title.split()[0] if piece.title else key)
        counts[kind] = counts.get(kind, 0) + 1
    return ", ".join(plural(n, kind) for kind, n in counts.items())


def plate_title(title: str, sheet: Sheet, pieces: Mapping[str, Piece], ams: bool, filaments: Filaments) -> str:
    """A plate's name: the kit's title, the plate's number and what is on it, and for a plate
    of one filament (of its own colour), its colour (``<title>: plate 12, 13 jewels, ruby
    red``)."""
    from generators.common.palette import colour_name

    name = f"{title}: plate {sheet.number}, {contents(sheet, pieces)}"
    if ams:
        loads = tuple(filaments.ams[n - 1] for n in sheet.filaments)
    else:
        loads = plate_filaments(sheet, pieces, filaments)
    if len(loads) == 1 and loads[0] not in filaments.single:
        name += f", {colour_name(loads[0].colour)}"
    return name


#: The most filaments a project may list: Bambu Studio 1.x's filament list holds 16 (2.x more).
PROJECT_FILAMENTS = 16


def within_filaments(projects: Sequence[threemf.Project], limit: int = PROJECT_FILAMENTS) -> list[list[int]]:
    """The plates (indices, in order) of each multi-plate project, so that no project lists
    more than ``limit`` filaments: as many plates as fit in each, in plate order."""
    groups: list[list[int]] = []
    held: set[str] = set()
    for i, proj in enumerate(projects):
        mine = {f.colour.upper() + f.name for f in proj.filaments}
        if groups and len(held | mine) <= limit:
            groups[-1].append(i)
            held |= mine
        else:
            groups.append([i])
            held = set(mine)
    return groups


def all_plates(profile: str, part: int = 0) -> str:
    """The name of a kit's one project with every plate of ``profile`` (Bambu layout), or of
    its ``part``-th (from 1) when the plates' filaments need more than one project."""
    return f"{profile}-all-plates-{part}.3mf" if part else f"{profile}-all-plates.3mf"


def all_plates_files(made: Kit, profile: str) -> list[str]:
    """The multi-plate projects of ``profile`` in a kit, in order."""
    import re

    pattern = re.compile(rf"{re.escape(profile)}-all-plates(-\d+)?\.3mf")
    return sorted((n for n in made.files if pattern.fullmatch(n)), key=lambda n: (len(n), n))


#: The side of a plate's picture in a multi-plate project, in pixels (Bambu Studio's own
#: plate thumbnails are 512 x 512).
THUMBNAIL = 512


def thumbnail(png: bytes) -> bytes:
    """A plate preview shrunk to a ``THUMBNAIL``-pixel square for a project's plate picture."""
    import io

    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        square = Image.new("RGB", (max(image.size),) * 2, "#FFFFFF")
        square.paste(image.convert("RGB"), ((square.width - image.width) // 2, (square.height - image.height) // 2))
    out = io.BytesIO()
    square.resize((THUMBNAIL, THUMBNAIL), Image.Resampling.LANCZOS).save(out, "PNG", optimize=True)
    return out.getvalue()


def bom_csv(made: Kit) -> str:
    """The bill of materials as CSV: per profile, plate and filament in slot order, the
    filament's name, colour name and hex, the parts that use it and its grams printed solid;
    and the plate's filament swaps (AMS) or colour changes (NO-AMS) and the grams an AMS
    plate's swaps purge."""
    from generators.common.palette import colour_name

    lines = ["profile,plate,slot,filament,colour,hex,parts,grams_solid,plate_swaps,plate_purge_grams"]
    for profile, rows in made.bom.items():
        for r in rows:
            name = r.filament.replace('"', "'")
            lines.append(f'{profile},{r.plate},{r.slot},"{name}",{colour_name(r.colour)},{r.colour.upper()},'
                         f'{r.parts},{r.grams:.2f},{r.swaps},{r.purge:.2f}')
    return "\n".join(lines) + "\n"


def summary(made: Kit, bed: object, slots: int = 4) -> list[str]:
    """What the command tells the designer."""
    title = getattr(bed, "title", "the bed")
    counts = [plural(n, f"{name} plate") for name, n in (("AMS", made.ams_plates), ("NO-AMS", made.no_ams_plates)) if n]
    out = [f"{made.pieces} parts on {' and '.join(counts)} for the {title}"]
    for profile, rows in made.bom.items():
        grams = sum(r.grams for r in rows)
        out.append(f"{profile}: at most {grams:.0f} g of filament, printed solid (the slicer's infill takes "
                   f"less; bom.csv has it per plate and filament)")
        if profile == "ams" and rows:
            most = max(r.slot for r in rows)
            out.append(f"ams: each plate loads at most {plural(most, 'filament')} into the {slots} AMS slots "
                       f"(bom.csv names them per plate)")
        together = all_plates_files(made, profile)
        if len(together) == 1:
            out.append(f"{profile}: {together[0]} holds every {profile.upper()} plate in one Bambu Studio / "
                       f"OrcaSlicer project")
        elif together:
            out.append(f"{profile}: {', '.join(together)} hold every {profile.upper()} plate in "
                       f"{len(together)} Bambu Studio / OrcaSlicer projects, each listing at most "
                       f"{PROJECT_FILAMENTS} filaments")
    return out
