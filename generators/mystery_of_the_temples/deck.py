"""Mystery of the Temples decks: temple cards as values, and the deck file
(``templeforge.deck/1``).

Nouns:
    Paid    a layer on one grid side: the side's name (``1A``), the layer's difficulty
            there (expected actions from a full grid mid-game, its standard error, the share
            of such grids that already pay) and a witness per run: the slots in payment
            order (left run, right run; or the row), None for a run the grid cannot pay.
    Priced  a layer with its measures: the exact expected crystals from an empty grid, the
            mean of its difficulties over the grid sides, and its ``Paid`` per grid side.
    Card    a temple card's side: its id, the ``Temple`` (colour, players, track, layers
            with points) and, in a generated deck (or once verified), a ``Priced`` per
            layer.
    Deck    the colours (with the supply), the grid sides, the cards, how layers are read
            (``ends``: runs from either end of the track up to the layer; ``rows``: each
            layer its own row) and the record of how they were made.

The file's fields, in order: ``format``, ``game``, ``seed``, ``parameters``, ``versions``,
``reading``, ``colours``, ``grids`` (each side's board, side, ability, ``slots`` as drawing
positions and ``lines`` as pairs of slot indices, and its ``mean`` difficulty over every
layer), the other cards (``symbols``, ``temple_symbols``, ``wilderness``, ``runes``,
``objectives``, ``bonuses``: ``components``), ``cards``. A hand-written deck needs only
``format``, ``game`` and ``cards``, each with ``colour``, ``side``, ``track`` and ``layers``
(``position`` and ``points``); the colours, grids and other cards are ours unless the file
gives them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from generators.common import deckfile
from generators.common.deckfile import FORMAT, DeckError
from generators.common.errors import RequestError
from generators.common.files import write_atomic
from generators.mystery_of_the_temples.box import DEFAULT, SIDES, Box, Colour, Layer, Side, Temple, box_from, grid_json
from generators.mystery_of_the_temples.components import KEYS, components_json

GAME = "mystery-of-the-temples"

CardId = int | str

SIMULATED = "simulated"
READINGS = ("ends", "rows")


@dataclass(frozen=True, slots=True)
class Paid:
    grid: str
    actions: float
    error: float
    paid: float
    witness: tuple[tuple[int, ...] | None, ...]


@dataclass(frozen=True, slots=True)
class Priced:
    from_empty: float
    actions: float
    grids: tuple[Paid, ...]
    in_play: InPlay | None = None  # with --price play: the turns it costs in play


@dataclass(frozen=True, slots=True)
class InPlay:
    """A layer's cost in play (``inplay``): the mean turns a player who goes for it needs to
    break it, the standard error, the share of chases that reached the cap, and the chases."""

    turns: float
    error: float
    capped: float
    chases: int


@dataclass(frozen=True, slots=True)
class Card:
    id: CardId
    temple: Temple
    priced: tuple[Priced, ...] | None = None

    def as_json(self, box: Box, reading: str) -> dict[str, Any]:
        names = box.names
        out: dict[str, Any] = {"id": self.id, "colour": names[self.temple.colour], "side": self.temple.side,
                               "track": [names[c] for c in self.temple.track]}
        layers = []
        for n, layer in enumerate(self.temple.layers):
            entry: dict[str, Any] = {"position": layer.position, "points": layer.points}
            if layer.blocked:
                entry["blocked"] = True
            if reading == "rows":
                entry["row"] = [names[c] for c in layer.row]
            if self.priced is not None:
                p = self.priced[n]
                entry["difficulty"] = {"actions": p.actions, "method": SIMULATED, "from_empty": p.from_empty}
                if p.in_play is not None:
                    entry["difficulty"]["in_play"] = {"turns": p.in_play.turns, "error": p.in_play.error,
                                                      "capped": p.in_play.capped, "chases": p.in_play.chases}
                entry["grids"] = [{"grid": g.grid, "actions": g.actions, "error": g.error, "paid": g.paid,
                                   "witness": [list(w) if w is not None else None for w in g.witness]}
                                  for g in p.grids]
            layers.append(entry)
        out["layers"] = layers
        return out


@dataclass(frozen=True, slots=True)
class Deck:
    """See the module docstring; ``listed``: the file lists its colours and grids."""

    cards: tuple[Card, ...]
    box: Box = DEFAULT
    reading: str = "ends"
    seed: int | None = None
    parameters: Mapping[str, Any] = field(default_factory=dict)
    versions: Mapping[str, str] = field(default_factory=dict)
    listed: bool = True
    means: tuple[float, ...] | None = None  # each grid side's mean difficulty, as stored

    def card(self, card_id: CardId) -> Card:
        card: Card = deckfile.find_card(self.cards, card_id)
        return card

    def as_json(self) -> dict[str, Any]:
        out = deckfile.envelope(GAME, self.seed, dict(self.parameters), dict(self.versions))
        out["reading"] = self.reading
        if self.listed:
            out["colours"] = [{"name": c.name, "rgb": c.rgb, "supply": c.supply} for c in self.box.colours]
            grids = []
            for i, s in enumerate(self.box.grids):
                entry = grid_json(s)
                if self.means is not None:
                    entry["mean"] = self.means[i]
                grids.append(entry)
            out["grids"] = grids
            out.update(components_json(self.box.components, self.box.names))
        out["cards"] = [c.as_json(self.box, self.reading) for c in self.cards]
        return out

    def dumps(self) -> str:
        return deckfile.dumps(self.as_json())


def schema() -> dict[str, Any]:
    return deckfile.load_schema("generators.mystery_of_the_temples")


def deck_from_json(data: Any, source: str = "<deck>") -> Deck:
    """Build a Deck from parsed JSON, validated against the schema first.

    Raises:
        DeckError: every problem, each naming its field.
    """
    deckfile.require_schema(data, schema(), source, FORMAT)
    problems: list[str] = []  # what the schema cannot say
    reading = data.get("reading", "ends")
    title = data.get("parameters", {}).get("box")
    raw_box: dict[str, Any] = {"title": title if isinstance(title, str) and title.strip() else "deck"}
    if "colours" in data:
        raw_box["colours"] = data["colours"]
    if "grids" in data:
        raw_box["grids"] = [{k: v for k, v in g.items() if k != "mean"} for g in data["grids"]]
    raw_box.update({k: data[k] for k in KEYS if k in data})
    listed = "colours" in data or "grids" in data or any(k in data for k in KEYS)
    try:
        box = replace(box_from(raw_box, "deck", playable=False) if listed else DEFAULT, temples=())
    except RequestError as err:
        raise DeckError(f"{source}: " + deckfile.summarise([p.removeprefix("deck: ") for p in err.problems])) from None
    names = box.names
    cards = []
    problems.extend(deckfile.id_problems(data["cards"]))
    for i, raw in enumerate(data["cards"], start=1):
        where = f"cards[{i}]"
        card_id = raw.get("id", i)
        card = _card(raw, card_id, names, box, reading, where, problems)
        if card is not None:
            cards.append(card)
    if problems:
        raise DeckError(f"{source}: " + deckfile.summarise(problems, 14))
    means = tuple(float(g["mean"]) for g in data["grids"]) if "grids" in data and all(
        "mean" in g for g in data["grids"]) else None
    return Deck(tuple(cards), box, reading, data.get("seed"), data.get("parameters", {}), data.get("versions", {}),
                listed, means)


def _card(raw: Mapping[str, Any], card_id: CardId, names: Sequence[str], box: Box, reading: str, where: str,
          problems: list[str]) -> Card | None:
    colour, track = raw["colour"], raw["track"]
    if colour not in names[1:]:
        problems.append(f"{where}.colour: expected one of {', '.join(names[1:])}, got {colour!r}")
        return None
    bad = [c for c in track if c not in names]
    if bad:
        problems.append(f"{where}.track: {bad[0]!r} is not a colour of the supply ({', '.join(names)})")
        return None
    layers = []
    priced: list[Priced] = []
    grids = {s.name for s in box.grids}
    for j, entry in enumerate(raw["layers"], start=1):
        here = f"{where}.layers[{j}]"
        position = entry["position"]
        if position > len(track):
            problems.append(f"{here}.position: {position} is beyond the track (positions 1-{len(track)})")
            return None
        row = entry.get("row", [])
        if reading == "rows" and not row:
            problems.append(f"{here}.row: the deck reads layers as rows, and this layer has none")
            return None
        if any(c not in names for c in row):
            problems.append(f"{here}.row: a colour not of the supply ({', '.join(names)})")
            return None
        if entry.get("blocked") and raw["side"] != SIDES[0]:
            problems.append(f"{here}.blocked: only a side for {SIDES[0]} players has layers blocked at 2 players; this "
                            f"side is for {raw['side']}")
            return None
        layers.append(Layer(position, entry.get("points"), tuple(names.index(c) for c in row),
                            bool(entry.get("blocked", False))))
        if "difficulty" in entry and "grids" in entry:
            paid = []
            for g in entry["grids"]:
                if g["grid"] not in grids:
                    problems.append(f"{here}.grids: {g['grid']!r} is not a grid side of the deck "
                                    f"({', '.join(sorted(grids))})")
                    return None
                paid.append(Paid(g["grid"], g["actions"], g["error"], g["paid"],
                                 tuple(tuple(w) if w is not None else None for w in g["witness"])))
            said = entry["difficulty"].get("in_play")
            in_play = InPlay(said["turns"], said["error"], said["capped"], said["chases"]) if said else None
            priced.append(Priced(entry["difficulty"]["from_empty"], entry["difficulty"]["actions"], tuple(paid),
                                 in_play))
    if len({layer.position for layer in layers}) != len(layers):
        problems.append(f"{where}.layers: a position is listed twice")
        return None
    temple = Temple(names.index(colour), raw["side"], tuple(names.index(c) for c in track), tuple(layers))
    return Card(card_id, temple, tuple(priced) if len(priced) == len(layers) and priced else None)


def read_deck(path: str | Path) -> Deck:
    data = deckfile.read_json(path)
    deckfile.game_of(data, str(path), (GAME,))
    return deck_from_json(data, str(path))


def write_deck(deck: Deck, path: str | Path) -> Path:
    return write_atomic(path, deck.dumps())


__all__ = ["Box", "Card", "Colour", "Deck", "Paid", "Priced", "Side", "deck_from_json", "read_deck", "schema",
           "write_deck"]
