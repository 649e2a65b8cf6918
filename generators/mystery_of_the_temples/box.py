"""Mystery of the Temples' components: the crystal supply, the crystal grids and the temples.

The supply is the published one: 24 colourless crystals, 8 each of red, yellow and blue, 6
each of green and purple. The grids' lines and the temples' tracks are not public:
``DEFAULT`` is ours, eight grid sides (four double-sided boards) of 12 slots, each drawn
without crossing lines, from a chain (11 lines: 1B, whose ability plays strongest) to a hive
(24); and five
temples (``OURS_TEMPLES``, used by ``--grids-only``), one per colour, each with a side for
2-3 players and one for 4. A designer's own comes from TOML (``read_box``; see the documentation):
any of ``supply``, ``colours``, ``[[grids]]`` and ``[[temples]]``; what is not given is ours.

Nouns:
    Colour   a crystal kind: its name, RGB and how many the supply holds; index 0 is
             colourless (on a track it takes any crystal).
    Side     a grid side: its board (1-4), its side letter (A or B), its ability (the
             designer's words, printed; the engine plays the published ability of the
             side's name, 1A-4B) and its ``solver.paths.Grid``.
    Layer    a position on a temple's track (1 at the left end) and its points (None: not
             priced yet); in a deck that reads each layer as its own row (``rows``), the
             layer's row of colours; ``blocked``: at 2 players a spare marker covers it at
             set-up (a side for 2-3 players only; see ``two_player_block``).
    Temple   a temple card's side: its colour, player count (``2-3`` or ``4``), track
             (colour indices, left to right) and layers.
    Box      the title, the colours, the grid sides, the temples and the other cards
             (``components``: ours unless the TOML or deck file gives them).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from generators.common.errors import RequestError
from generators.mystery_of_the_temples.components import KEYS, OURS, Components, components_from
from solver.grids import Grid
from solver.names import is_name, name_problems, problem

#: The published supply, with our RGB (Okabe and Ito's; colourless a pale grey).
COLOURS: tuple[tuple[str, str, int], ...] = (
    ("colourless", "#DDE3E8", 24), ("red", "#D55E00", 8), ("yellow", "#F0E442", 8), ("blue", "#0072B2", 8),
    ("green", "#009E73", 6), ("purple", "#CC79A7", 6))

#: A temple's two sides, by player count.
SIDES = ("2-3", "4")
#: Slots on a grid side.
SLOTS = 12

#: The least distance between two slots' drawing positions (a unit is a board's slot pitch).
MIN_APART = 0.8

RGB = re.compile(r"^#[0-9A-Fa-f]{6}$")
NAME = re.compile(r"^[a-z][a-z0-9 _-]{0,23}$")


@dataclass(frozen=True, slots=True)
class Colour:
    name: str
    rgb: str
    supply: int


@dataclass(frozen=True, slots=True)
class Side:
    board: int
    side: str
    ability: str
    grid: Grid

    @property
    def name(self) -> str:
        return f"{self.board}{self.side}"


@dataclass(frozen=True, slots=True)
class Layer:
    position: int
    points: int | None = None
    row: tuple[int, ...] = ()  # the layer's own row, when the deck reads layers as rows
    blocked: bool = False  # at 2 players a spare marker covers it at set-up


@dataclass(frozen=True, slots=True)
class Temple:
    colour: int
    side: str
    track: tuple[int, ...]
    layers: tuple[Layer, ...]


@dataclass(frozen=True, slots=True)
class Box:
    title: str
    colours: tuple[Colour, ...]
    grids: tuple[Side, ...]
    temples: tuple[Temple, ...] = ()
    components: Components = OURS  # the wilderness, rune and objective cards, and 4A's bonuses

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.colours)

    @property
    def supply(self) -> tuple[int, ...]:
        return tuple(c.supply for c in self.colours)

    @property
    def letters(self) -> dict[str, str]:
        """A letter per colour (``generators.common.palette.letters``)."""
        from generators.common.palette import letters

        return letters(self.names)

    def track_text(self, track: Sequence[int]) -> str:
        letters = self.letters
        return "".join(letters[self.names[c]] for c in track)

    def as_json(self) -> dict[str, Any]:
        return {"title": self.title,
                "colours": [{"name": c.name, "rgb": c.rgb, "supply": c.supply} for c in self.colours],
                "grids": [grid_json(s) for s in self.grids]}


def grid_json(s: Side) -> dict[str, Any]:
    return {"board": s.board, "side": s.side, "ability": s.ability,
            "slots": [[round(x, 3), round(y, 3)] for x, y in s.grid.positions],
            "lines": [[a, b] for a, b in s.grid.lines]}


def _grid(positions: Sequence[tuple[float, float]], lines: Sequence[tuple[int, int]]) -> Grid:
    return Grid(tuple((round(float(x), 3), round(float(y), 3)) for x, y in positions),
                tuple(sorted(tuple(sorted(line)) for line in lines)))  # type: ignore[misc]


def _ours() -> tuple[Side, ...]:
    lattice = [(float(x), float(y)) for y in range(3) for x in range(4)]

    def at(x: int, y: int) -> int:
        return y * 4 + x

    rows = [(at(x, y), at(x + 1, y)) for y in range(3) for x in range(3)]
    columns = [(at(x, y), at(x, y + 1)) for y in range(2) for x in range(4)]
    stairs = [(at(x, y), at(x + 1, y + 1)) for y in range(2) for x in range(3)]
    chain = [(at(x, 0), at(x + 1, 0)) for x in range(3)] + [(at(3, 0), at(3, 1))] + \
        [(at(x, 1), at(x + 1, 1)) for x in range(3)] + [(at(0, 1), at(0, 2))] + \
        [(at(x, 2), at(x + 1, 2)) for x in range(3)]  # one path through all twelve, turning at the ends
    # two rings: a hexagon of six slots round a smaller one turned half a step, every slot
    # joined to its ring neighbours and the two nearest of the other ring, and three lines
    # across the inner ring, drawn differently on each side (27 lines, the most twelve slots
    # so placed take without a crossing)
    rings = [(2.0 + 2.0 * math.cos(math.pi * k / 3), 2.0 + 2.0 * math.sin(math.pi * k / 3)) for k in range(6)]
    rings += [(2.0 + math.cos(math.pi * k / 3 + math.pi / 6), 2.0 + math.sin(math.pi * k / 3 + math.pi / 6))
              for k in range(6)]
    ring_lines = [(k, (k + 1) % 6) for k in range(6)] + [(6 + k, 6 + (k + 1) % 6) for k in range(6)]
    ring_lines += [(k, 6 + k) for k in range(6)] + [((k + 1) % 6, 6 + k) for k in range(6)]

    def across(*inner: tuple[int, int]) -> list[tuple[int, int]]:  # each side its own: the inner ring's three
        return ring_lines + [(6 + a, 6 + b) for a, b in inner]

    column_chain = [(at(x, y), at(x, y + 1)) for x in range(4) for y in range(2)]
    column_chain += [(at(x, 0 if x % 2 else 2), at(x + 1, 0 if x % 2 else 2)) for x in range(3)]
    twin = [(1.0 + math.cos(math.pi * k / 3), 1.0 + math.sin(math.pi * k / 3)) for k in range(6)]
    twin += [(3.9 + math.cos(math.pi * k / 3 + math.pi), 1.0 + math.sin(math.pi * k / 3 + math.pi)) for k in range(6)]
    twin_lines = [(k, (k + 1) % 6) for k in range(6)] + [(6 + k, 6 + (k + 1) % 6) for k in range(6)]
    twin_lines += [(0, 6), (1, 11), (5, 7)]
    from generators.mystery_of_the_temples.components import OURS, bonus_text

    # The lines are ours to design, and they balance the seats in play (see the documentation's
    # playtests): the strongest abilities (1B's two actions at a temple, 2A's three
    # colourless that become any colour) get a chain, one path through all twelve slots (by
    # rows, by columns); the other sides of boards 1-3 two rings, the most lines.
    grids = [  # the published abilities, in our words (letters, digits, stops and hyphens: the 3D label font's)
        (1, "A", "rings", rings, across((0, 2), (2, 4), (4, 0)),
         "Gain one more colourless whenever you gain colourless. Any colour costs 3 crystals."),
        (1, "B", "chain", lattice, chain,
         "At a temple you may collect and break a curse in either order."),
        (2, "A", "chain", lattice, column_chain,
         "Start with 3 colourless beside the grid. In your turn put one on it as any colour."),
        (2, "B", "rings", rings, across((1, 3), (3, 5), (5, 1)),
         "After a break pay 2 to score the next layer up instead or 3 for two layers up."),
        (3, "A", "rings", rings, across((0, 2), (0, 3), (0, 4)),
         "Start with a turned-up rune used all game. It does not count for the rune objective."),
        (3, "B", "rings", rings, across((1, 3), (1, 4), (1, 5)), "When you move you may go to any free card instead."),
        (4, "A", "twin rings", twin, twin_lines,
         "Each marker gives a bonus. " + bonus_text(OURS.bonuses, sep=". ") + "."),
        (4, "B", "open lattice", lattice, rows + columns[:6] + stairs[:3],
         "Take runes from a neighbouring temple too. One rune kind more at the end and 6 kinds score 16."),
    ]
    return tuple(Side(board, side, ability, _grid(pos, lines)) for board, side, _, pos, lines, ability in grids)


def _temples() -> tuple[Temple, ...]:
    """Ours, for ``--grids-only``: one per colour, each side a track of nine with layers at
    positions 3-7 (an arch: the cheaper run from either end is 3, 4, 5, 4, 3 crystals)."""
    tracks = {
        1: ("CRCYRBCRC", "RCCRYCBRC"), 2: ("YYBCYCRYC", "CYCBYYCRY"), 3: ("BCBRCBYCB", "CBYCBCRBC"),
        4: ("GCYGCBGCR", "CGRCGYCGB"), 5: ("PCBPCRPCY", "CPYCPBCPR")}
    letters = {"C": 0, "R": 1, "Y": 2, "B": 3, "G": 4, "P": 5}
    points = (3, 5, 8, 5, 3)
    out = []
    for colour, pair in tracks.items():
        for side, text in zip(SIDES, pair):
            out.append(Temple(colour, side, tuple(letters[ch] for ch in text),
                              tuple(Layer(p, pts) for p, pts in zip(range(3, 8), points))))
    return tuple(out)


def two_player_block(temple: Temple) -> Temple:
    """The side with the layer our generator blocks at 2 players (``Layer.blocked``): one a
    side for 2-3 players, the layer of median points (on a tie the nearer the track's left
    end), so that a game of two races for fewer curses and keeps each temple's cheapest and
    dearest. The game's rulebook has spare markers block some layers at 2 players without the
    seed saying which; this is our choice. A side for 4 players, or one not priced, is returned
    as it is."""
    if temple.side != SIDES[0] or any(layer.points is None for layer in temple.layers) or len(temple.layers) < 3:
        return temple
    ranked = sorted(range(len(temple.layers)), key=lambda j: (temple.layers[j].points, temple.layers[j].position))
    chosen = ranked[(len(ranked) - 1) // 2]
    return replace(temple, layers=tuple(replace(layer, blocked=j == chosen) for j, layer in enumerate(temple.layers)))


OURS_TEMPLES = tuple(two_player_block(t) for t in _temples())
DEFAULT = Box("ours", tuple(Colour(*c) for c in COLOURS), _ours(), OURS_TEMPLES)


# -- a designer's own --------------------------------------------------------------------------


def box_from(data: Mapping[str, Any], source: str, playable: bool = True) -> Box:
    """A box from a TOML table (or a deck file's fields); see the documentation. What is not given
    is ours. ``playable``: the other cards must be playable too (a deck file read leaves
    that to verify).

    Raises:
        RequestError: every problem, each naming its field.
    """
    problems: list[str] = []
    known = {"title", "colours", "grids", "temples", *KEYS}
    problems += [f"{source}: {k}: not a field (expected {', '.join(sorted(known))})" for k in sorted(set(data) - known)]
    title = data.get("title", Path(source).stem if is_name(Path(source).stem) else "box")
    if not isinstance(title, str) or not title.strip():
        problems.append(f"{source}: title: expected a name, got {title!r}")
        title = "box"
    elif not is_name(title):
        problems.append(f"{source}: title: {problem(title)}")
        title = "box"
    colours = _colours(data.get("colours"), source, problems) if "colours" in data else DEFAULT.colours
    names = [c.name for c in colours]
    grids = _grids(data["grids"], source, problems) if "grids" in data else DEFAULT.grids
    temples = _temple_list(data["temples"], source, names, problems) if "temples" in data else (
        DEFAULT.temples if "colours" not in data else ())
    parts = components_from(data, names, source, problems, playable) if any(k in data for k in KEYS) else OURS
    if problems:
        raise RequestError(problems)
    return Box(title.strip(), colours, grids, temples, parts)


def _colours(raw: Any, source: str, problems: list[str]) -> tuple[Colour, ...]:
    if not isinstance(raw, list) or len(raw) < 2:
        problems.append(f"{source}: colours: expected a list of at least two colours, each with name, rgb and "
                        f"supply (colourless first)")
        return DEFAULT.colours
    out = []
    for i, entry in enumerate(raw, start=1):
        where = f"{source}: colours[{i}]"
        if not isinstance(entry, Mapping):
            problems.append(f"{where}: expected a table with name, rgb and supply")
            continue
        name, rgb, supply = entry.get("name"), entry.get("rgb"), entry.get("supply")
        if not (isinstance(name, str) and NAME.match(name)):
            problems.append(f"{where}.name: expected a lower-case name, got {name!r}")
        elif not (isinstance(rgb, str) and RGB.match(rgb)):
            problems.append(f"{where}.rgb: expected \"#RRGGBB\", got {rgb!r}")
        elif not (isinstance(supply, int) and not isinstance(supply, bool) and 0 < supply < 1000):
            problems.append(f"{where}.supply: expected a whole number 1-999, got {supply!r}")
        else:
            out.append(Colour(name, rgb.upper(), supply))
    if len({c.name for c in out}) != len(out):
        problems.append(f"{source}: colours: a name is listed twice")
    else:
        problems += name_problems((f"{source}: colours", c.name) for c in out)  # crystal files are named so
    return tuple(out)


def _tables(raw: Any, source: str, key: str, what: str, fields: Sequence[str],
            problems: list[str]) -> Iterator[tuple[int, str, Mapping[str, Any]]]:
    """Each table of the list ``key`` with its number and its place in ``source`` for the
    problems; the list and each entry that is not a table of those fields are named."""
    listed = ", ".join(fields[:-1]) + f" and {fields[-1]}"
    if not isinstance(raw, list) or not raw:
        problems.append(f"{source}: {key}: expected a list of {what}s ([[{key}]] tables with {listed})")
        return
    for i, entry in enumerate(raw, start=1):
        where = f"{source}: {key}[{i}]"
        if not isinstance(entry, Mapping):
            problems.append(f"{where}: expected a table with {listed}")
            continue
        problems += [f"{where}.{k}: not a {what.split()[0]} field (expected {', '.join(fields)})"
                     for k in sorted(set(entry) - set(fields))]
        yield i, where, entry


def _grids(raw: Any, source: str, problems: list[str]) -> tuple[Side, ...]:
    out = []
    for i, where, entry in _tables(raw, source, "grids", "grid side", ("board", "side", "ability", "slots", "lines"),
                                   problems):
        board, side, ability = entry.get("board", i), entry.get("side", "A"), entry.get("ability", "")
        slots, lines = entry.get("slots"), entry.get("lines")
        if not (isinstance(board, int) and not isinstance(board, bool) and 0 < board < 100):
            problems.append(f"{where}.board: expected a board number 1-99, got {board!r}")
            continue
        if not (isinstance(side, str) and side in ("A", "B")):
            problems.append(f"{where}.side: expected \"A\" or \"B\", got {side!r}")
            continue
        if not isinstance(ability, str):
            problems.append(f"{where}.ability: expected the side's ability in words, got {ability!r}")
            continue
        if not (isinstance(slots, list) and slots and all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                                            for v in p) for p in slots)):
            problems.append(f"{where}.slots: expected a list of slot positions [x, y], got {slots!r}")
            continue
        n = len(slots)
        if not (isinstance(lines, list) and all(
                isinstance(li, list) and len(li) == 2 and all(type(v) is int and 0 <= v < n for v in li) and
                li[0] != li[1] for li in lines)):
            problems.append(f"{where}.lines: expected pairs of slot indices 0-{n - 1} [a, b], a != b")
            continue
        grid = _grid([(p[0], p[1]) for p in slots], [(li[0], li[1]) for li in lines])
        if len(set(grid.lines)) != len(grid.lines):
            problems.append(f"{where}.lines: a line is listed twice")
            continue
        close = [(a, b) for a in range(n) for b in range(a + 1, n)
                 if math.dist(grid.positions[a], grid.positions[b]) < MIN_APART - 1e-9]
        if close:
            a, b = close[0]
            apart = math.dist(grid.positions[a], grid.positions[b])
            problems.append(f"{where}.slots: slots {a} and {b} are {apart:.2f} apart; keep slots at least {MIN_APART} "
                            f"apart (one unit is a slot pitch on a printed board)")
            continue
        if not grid.connected():
            problems.append(f"{where}: the grid is not connected (every slot must be reachable along lines)")
            continue
        out.append(Side(board, side, ability.strip(), grid))
    named = [s.name for s in out]
    for name in sorted({n for n in named if named.count(n) > 1}):
        problems.append(f"{source}: grids: board {name[:-1]} side {name[-1]} is listed twice")
    return tuple(out)


def _temple_list(raw: Any, source: str, names: Sequence[str], problems: list[str]) -> tuple[Temple, ...]:
    out = []
    for _, where, entry in _tables(raw, source, "temples", "temple side", ("colour", "side", "track", "layers"),
                                   problems):
        colour, side, track, layers = entry.get("colour"), entry.get("side"), entry.get("track"), entry.get("layers")
        if colour not in names[1:]:
            problems.append(f"{where}.colour: expected one of {', '.join(names[1:])}, got {colour!r}")
            continue
        if side not in SIDES:
            problems.append(f"{where}.side: expected \"2-3\" or \"4\" (players), got {side!r}")
            continue
        if not (isinstance(track, list) and len(track) >= 2 and all(isinstance(c, str) for c in track)):
            problems.append(f"{where}.track: expected a list of at least two colour names, got {track!r}")
            continue
        bad = [c for c in track if c not in names]
        if bad:
            problems.append(f"{where}.track: {bad[0]!r} is not a colour of the supply ({', '.join(names)})")
            continue
        parsed = _layers(layers, where, len(track), names, problems)
        if parsed is not None:
            if side != SIDES[0] and any(layer.blocked for layer in parsed):
                problems.append(f"{where}.layers: a layer is blocked at 2 players on a side for {side} players; only "
                                f"a side for {SIDES[0]} players has such layers")
                continue
            out.append(Temple(names.index(colour), side, tuple(names.index(c) for c in track), parsed))
    return tuple(out)


def _layers(raw: Any, where: str, length: int, names: Sequence[str],
            problems: list[str]) -> tuple[Layer, ...] | None:
    if not isinstance(raw, list) or not raw:
        problems.append(f"{where}.layers: expected a list of layers, each {{position = N, points = N}}")
        return None
    out = []
    for j, entry in enumerate(raw, start=1):
        here = f"{where}.layers[{j}]"
        if not isinstance(entry, Mapping) or set(entry) - {"position", "points", "row", "blocked"}:
            problems.append(f"{here}: expected a table with position and points (and row, read as rows, and "
                            f"blocked, at 2 players)")
            return None
        position, points, row = entry.get("position"), entry.get("points"), entry.get("row", [])
        blocked = entry.get("blocked", False)
        if type(blocked) is not bool:
            problems.append(f"{here}.blocked: expected true or false, got {blocked!r}")
            return None
        if not (isinstance(row, list) and all(c in names for c in row)):
            problems.append(f"{here}.row: expected a list of colours of the supply ({', '.join(names)}), got {row!r}")
            return None
        if not (type(position) is int and 1 <= position <= length):
            problems.append(f"{here}.position: {position!r} is beyond the track (positions 1-{length})")
            return None
        if points is not None and not (type(points) is int and 0 <= points <= 99):
            problems.append(f"{here}.points: expected a whole number 0-99, got {points!r}")
            return None
        out.append(Layer(position, points, tuple(names.index(c) for c in row), blocked))
    if len({layer.position for layer in out}) != len(out):
        problems.append(f"{where}.layers: a position is listed twice")
        return None
    return tuple(sorted(out, key=lambda layer: layer.position))


def read_box(path: str | Path) -> Box:
    """A designer's box from a TOML file (see ``box_from``).

    Raises:
        RequestError: the file cannot be read or is not a box (naming the field).
    """
    from solver.textfiles import parse_toml, read_text

    text = read_text(path, RequestError)
    return box_from(parse_toml(text, str(path), RequestError), str(path))


def parse_box(value: Any, name: str) -> Box:
    """The ``box`` option: ``ours`` or a TOML file."""
    if isinstance(value, Box):
        return value
    if isinstance(value, str) and value.strip().lower() in ("ours", "default"):
        return DEFAULT
    if isinstance(value, str) and value.strip():
        return read_box(value)
    raise RequestError(f"{name}: expected `ours` or a box TOML file, got {value!r}")


def crystals(temple: Temple, reading: str = "ends") -> tuple[int, ...]:
    """The crystals a temple side shows: its track, or (read as rows) its rows, first layer
    first."""
    if reading == "rows":
        return tuple(c for layer in temple.layers for c in layer.row)
    return temple.track


def free(temple: Temple, layer: Layer, reading: str = "ends") -> bool:
    """Whether a layer costs nothing: one of its runs asks only for colourless crystals, which
    any crystals pay."""
    return any(all(c == 0 for c in run) for run in runs(temple, layer, reading))


def runs(temple: Temple, layer: Layer, reading: str = "ends") -> list[tuple[int, ...]]:
    """The runs a layer asks for: from the left end of the track up to the layer, and from
    the right end up to it (read from that end); or, when the deck reads each layer as its
    own row (``rows``), the layer's row (paid from either end: a path runs both ways)."""
    if reading == "rows":
        return [layer.row]
    track = temple.track
    return [tuple(track[:layer.position]), tuple(reversed(track[layer.position - 1:]))]
