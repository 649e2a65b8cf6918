"""Mystery of the Temples' cards beside the temples and grids: the wilderness cards, the rune
cards, the objectives and grid 4A's numbered bonuses, as data.

The published game prints them, but their exact crystals, squares, symbols and bonuses are
not public (``../shared/GAMES.md``); ``OURS`` is our own set, shaped by the rules:

- ten wilderness cards, numbered 1-10 around the circle: 1, 3, 5, 7 and 9 give the crystals
  they show (two each: the colourless currency with a colour, or two colourless); 6 and 10
  convert (discard three crystals, take two of different colours); 2, 4 and 8 enhance (put
  one or two crystals on the card's colour squares, take those colours; the card is cleared
  when two or fewer squares are left empty). Every colour is on the circle at least twice
  beside its temple, purple and green (six in the supply) on fewer squares than the rest.
- five rune symbols, one on each of the fifteen cards of the circle (three cards each: two
  wilderness cards five numbers apart and one temple), and twenty rune cards, four
  of each symbol: each gives, when its holder collects on a card of its symbol (resonance),
  one colourless crystal, or a crystal of a colour, or a point.
- the five temple objectives, one naming each temple, and the rune objective.
- grid 4A's bonus for each marker placed (first to fifth).

Nouns:
    Wilderness  a wilderness card: its number, kind (``direct``, ``conversion``,
                ``enhancement``), the crystals it gives (direct) or its colour squares
                (enhancement), and its rune symbol.
    Rune        a rune card: its id, symbol, and bonus (crystals, as colour indices, and points).
    Bonus       what grid 4A gives for a marker: crystals (colour indices) and points.
    Components  the symbols' names, the wilderness cards (by number), each temple's symbol
                (by colour, 1-5), the rune cards, the temple objectives (temple colours), the
                rune objective's points by number of kinds, and 4A's bonuses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: A wilderness card's kinds, by what collecting there does.
KINDS = ("direct", "conversion", "enhancement")

#: The wilderness cards a 2-3 player game leaves out.
LEFT_OUT = (4, 7)

#: The rune objective: points for 1, 2, 3, 4, 5 (and, with grid 4B's extra kind, 6) kinds.
RUNE_POINTS = (0, 1, 2, 4, 7, 11, 16)

#: A temple objective: points for most markers on its temple, and for the second most.
OBJECTIVE_POINTS = (4, 2)

#: Temple objectives laid out: 2 for 2-3 players, 3 for 4.
OBJECTIVES_DEALT = {2: 2, 3: 2, 4: 3}

#: Rune cards face down beside each temple at set-up (the top one turned up).
RUNES_PER_TEMPLE = 4

#: Crystals each player starts with on the grid (colourless).
START_CRYSTALS = 2

#: Markers a player holds; placing the last ends the game (the round is finished).
MARKERS = 5

#: The published box's broken curse markers: 6 in each of 4 player colours (a player's 5 and
#: a score marker). At 2 players the other two colours' are spare: they cover the layers
#: blocked at 2 players (``box.Layer.blocked``).
MARKER_COLOURS = 4
MARKERS_A_COLOUR = 6
SPARE_AT_TWO = (MARKER_COLOURS - 2) * MARKERS_A_COLOUR


@dataclass(frozen=True, slots=True)
class Wilderness:
    number: int
    kind: str
    crystals: tuple[int, ...] = ()  # direct: what it gives
    squares: tuple[int, ...] = ()  # enhancement: its colour squares
    symbol: int = 0


@dataclass(frozen=True, slots=True)
class Rune:
    id: int
    symbol: int
    crystals: tuple[int, ...] = ()
    points: int = 0


@dataclass(frozen=True, slots=True)
class Bonus:
    crystals: tuple[int, ...] = ()
    points: int = 0


@dataclass(frozen=True, slots=True)
class Components:
    symbols: tuple[str, ...]
    wilderness: tuple[Wilderness, ...]
    temple_symbols: tuple[int, ...]  # by temple colour 1-5 (index 0 for colour 1)
    runes: tuple[Rune, ...]
    objectives: tuple[int, ...]  # the temple colour each objective names
    bonuses: tuple[Bonus, ...]  # grid 4A: for the 1st .. 5th marker

    def card(self, number: int) -> Wilderness:
        return self.wilderness[number - 1]


def _ours() -> Components:
    c, r, y, b, g, p = range(6)
    symbols = ("sun", "moon", "star", "wave", "leaf")
    # the circle's symbols in number order: temples take the ones the wilderness leaves, so
    # that each symbol is on three cards
    wild = (
        Wilderness(1, "direct", crystals=(c, c), symbol=0),
        Wilderness(2, "enhancement", squares=(r, y, b, g, p), symbol=1),
        Wilderness(3, "direct", crystals=(c, r), symbol=2),
        Wilderness(4, "enhancement", squares=(r, y, b, r, y, b), symbol=3),
        Wilderness(5, "direct", crystals=(c, y), symbol=4),
        Wilderness(6, "conversion", symbol=0),
        Wilderness(7, "direct", crystals=(c, b), symbol=1),
        Wilderness(8, "enhancement", squares=(g, p, g, p, r, b), symbol=2),
        Wilderness(9, "direct", crystals=(c, g), symbol=3),
        Wilderness(10, "conversion", symbol=4),
    )
    temple_symbols = (0, 1, 2, 3, 4)  # red sun, yellow moon, blue star, green wave, purple leaf
    runes: list[Rune] = []
    for s in range(len(symbols)):
        colour = 1 + (s + 2) % 5  # a colour not its own temple's
        for bonus in ((c,), (c,), (colour,), ()):
            runes.append(Rune(len(runes) + 1, s, bonus, 0 if bonus else 1))
    objectives = (1, 2, 3, 4, 5)
    bonuses = (Bonus((c,)), Bonus((c, c)), Bonus(points=2), Bonus((c, c)), Bonus(points=3))
    return Components(symbols, wild, temple_symbols, tuple(runes), objectives, bonuses)


OURS = _ours()

ORDINALS = ("1st", "2nd", "3rd", "4th", "5th")


def bonus_text(bonuses: tuple[Bonus, ...], names: tuple[str, ...] = ("colourless", "red", "yellow", "blue", "green",
                                                                      "purple"), sep: str = ", ") -> str:
    """Grid 4A's bonuses in words: ``1st a colourless, 2nd 2 colourless, 3rd 2 points, ...``
    (``sep`` between them)."""
    said = []
    for ordinal, bonus in zip(ORDINALS, bonuses):
        parts = []
        for c in sorted(set(bonus.crystals)):
            n = bonus.crystals.count(c)
            parts.append(f"{'a' if n == 1 else n} {names[c]}")
        if bonus.points:
            parts.append(f"{bonus.points} point{'s' if bonus.points != 1 else ''}")
        said.append(f"{ordinal} {' and '.join(parts) or 'nothing'}")
    return sep.join(said)


def problems_of(parts: Components, colours: int) -> list[str]:
    """What makes ``parts`` unplayable with ``colours`` crystal kinds (index 0 colourless),
    each naming its field: empty when every card can be used."""
    out: list[str] = []
    kinds = len(parts.symbols)
    if [w.number for w in parts.wilderness] != list(range(1, 11)):
        out.append("wilderness: expected the cards numbered 1-10, in order")
    for w in parts.wilderness:
        where = f"wilderness {w.number}"
        if w.kind not in KINDS:
            out.append(f"{where}: kind {w.kind!r} is not one of {', '.join(KINDS)}")
        if not 0 <= w.symbol < kinds:
            out.append(f"{where}: symbol {w.symbol} names no symbol (0-{kinds - 1})")
        if any(not 0 <= x < colours for x in w.crystals + w.squares):
            out.append(f"{where}: a crystal or square names no colour (0-{colours - 1})")
        if w.kind == "direct" and not w.crystals:
            out.append(f"{where}: a direct card gives at least one crystal")
        if w.kind == "enhancement" and (len(w.squares) < 3 or 0 in w.squares):
            out.append(f"{where}: an enhancement card has at least three coloured squares")
    if len(parts.temple_symbols) != colours - 1 or any(not 0 <= s < kinds for s in parts.temple_symbols):
        out.append(f"temples: a symbol for each of the {colours - 1} temples, each one of the {kinds} symbols")
    for rune in parts.runes:
        if not 0 <= rune.symbol < kinds:
            out.append(f"rune {rune.id}: symbol {rune.symbol} names no symbol (0-{kinds - 1})")
        if any(not 0 <= x < colours for x in rune.crystals) or rune.points < 0:
            out.append(f"rune {rune.id}: its bonus names no colour, or takes points away")
    if len(parts.runes) < RUNES_PER_TEMPLE * (colours - 1):
        out.append(f"runes: {len(parts.runes)} cards, the set-up deals {RUNES_PER_TEMPLE * (colours - 1)}")
    if any(not 1 <= t < colours for t in parts.objectives) or len(set(parts.objectives)) != len(parts.objectives):
        out.append("objectives: each names a different temple (a colour 1-5)")
    if len(parts.objectives) < max(OBJECTIVES_DEALT.values()):
        out.append(f"objectives: {len(parts.objectives)}, a 4-player game deals {max(OBJECTIVES_DEALT.values())}")
    if len(parts.bonuses) != MARKERS:
        out.append(f"bonuses: one for each of the {MARKERS} markers")
    return out


# -- a designer's own, and the deck file ---------------------------------------------------------

#: The fields a box TOML or a deck file may give (each one not given is ours).
KEYS = ("symbols", "temple_symbols", "wilderness", "runes", "objectives", "bonuses")


def components_from(data: Mapping[str, Any], names: Sequence[str], where: str, problems: list[str],
                    playable: bool = True) -> Components:
    """The components ``data`` gives (``KEYS``; colours by name, symbols by name), ours for
    the rest; each problem, naming its field, appended to ``problems``; with ``playable``,
    also what keeps them from being played (``problems_of``: a designer's box), which a
    deck file read leaves to verify."""
    ours = OURS
    symbols = ours.symbols
    if "symbols" in data:
        raw = data["symbols"]
        if isinstance(raw, list) and raw and all(isinstance(x, str) and x.strip() for x in raw) and \
                len(set(raw)) == len(raw):
            symbols = tuple(x.strip() for x in raw)
        else:
            problems.append(f"{where}: symbols: expected a list of different names, got {raw!r}")

    def colour(value: Any, field: str) -> int:
        if isinstance(value, str) and value in names:
            return names.index(value)
        problems.append(f"{where}: {field}: {value!r} is not a colour of the supply ({', '.join(names)})")
        return 0

    def mark(value: Any, field: str) -> int:
        if isinstance(value, str) and value in symbols:
            return symbols.index(value)
        problems.append(f"{where}: {field}: {value!r} is not a symbol ({', '.join(symbols)})")
        return 0

    def colours_of(value: Any, field: str) -> tuple[int, ...]:
        if not isinstance(value, list):
            problems.append(f"{where}: {field}: expected a list of colours")
            return ()
        return tuple(colour(v, f"{field}[{i}]") for i, v in enumerate(value, start=1))

    def whole(value: Any, field: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            problems.append(f"{where}: {field}: expected a whole number 0 or more, got {value!r}")
            return 0
        return value

    def table(value: Any, field: str, allowed: set[str]) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            problems.append(f"{where}: {field}: expected a table")
            return {}
        for k in sorted(set(value) - allowed):
            problems.append(f"{where}: {field}.{k}: not a field (expected {', '.join(sorted(allowed))})")
        return value

    temple_symbols = ours.temple_symbols if symbols == ours.symbols else ()
    if "temple_symbols" in data:
        raw = table(data["temple_symbols"], "temple_symbols", set(names[1:]))
        # a temple without one is left to the playability check (verify, the engine), not a misread
        temple_symbols = tuple(mark(raw[n], f"temple_symbols.{n}") if n in raw else -1 for n in names[1:])
    def rows(key: str, what: str, fields: set[str]) -> list[tuple[int, str, Mapping[str, Any]]] | None:
        """The tables of the list ``data[key]``: (number from 1, field name, table), or None
        when it is not given (or, said in ``problems``, not a list)."""
        if key not in data:
            return None
        if not isinstance(data[key], list):
            problems.append(f"{where}: {key}: expected a list of {what}")
            return None
        return [(i, f"{key}[{i}]", table(entry, f"{key}[{i}]", fields)) for i, entry in enumerate(data[key], start=1)]

    def wild(i: int, field: str, w: Mapping[str, Any]) -> Wilderness:
        kind = w.get("kind")
        if kind not in KINDS:
            problems.append(f"{where}: {field}.kind: expected one of {', '.join(KINDS)}, got {kind!r}")
        number = w.get("number", i)
        if not isinstance(number, int) or isinstance(number, bool):
            problems.append(f"{where}: {field}.number: expected a whole number, got {number!r}")
            number = i
        return Wilderness(number, str(kind), colours_of(w.get("crystals", []), f"{field}.crystals"),
                          colours_of(w.get("squares", []), f"{field}.squares"),
                          mark(w.get("symbol"), f"{field}.symbol"))

    given = rows("wilderness", "the cards numbered 1-10", {"number", "kind", "crystals", "squares", "symbol"})
    wilderness = tuple(wild(*row) for row in given) if given is not None else ours.wilderness
    given = rows("runes", "rune cards", {"symbol", "crystals", "points"})
    runes = tuple(Rune(i, mark(r.get("symbol"), f"{field}.symbol"),
                       colours_of(r.get("crystals", []), f"{field}.crystals"),
                       whole(r.get("points", 0), f"{field}.points")) for i, field, r in given) if given is not None \
        else ours.runes
    objectives = colours_of(data["objectives"], "objectives") if "objectives" in data else ours.objectives
    given = rows("bonuses", f"{MARKERS} bonuses, the first marker's first", {"crystals", "points"})
    bonuses = tuple(Bonus(colours_of(b.get("crystals", []), f"{field}.crystals"), whole(b.get("points", 0),
                                                                                         f"{field}.points"))
                    for _, field, b in given) if given is not None else ours.bonuses
    parts = Components(symbols, wilderness, temple_symbols, runes, objectives, bonuses)
    if playable and not problems:
        problems.extend(f"{where}: {p}" for p in problems_of(parts, len(names)))
    return parts


def components_json(parts: Components, names: Sequence[str]) -> dict[str, Any]:
    """The deck file's fields for ``parts`` (``KEYS``)."""
    return {
        "symbols": list(parts.symbols),
        "temple_symbols": {names[c]: parts.symbols[s] for c, s in enumerate(parts.temple_symbols, start=1)},
        "wilderness": [{"number": w.number, "kind": w.kind, "crystals": [names[c] for c in w.crystals],
                        "squares": [names[c] for c in w.squares], "symbol": parts.symbols[w.symbol]}
                       for w in parts.wilderness],
        "runes": [{"symbol": parts.symbols[r.symbol], "crystals": [names[c] for c in r.crystals], "points": r.points}
                  for r in parts.runes],
        "objectives": [names[c] for c in parts.objectives],
        "bonuses": [{"crystals": [names[c] for c in b.crystals], "points": b.points} for b in parts.bonuses],
    }
