"""Mystery of the Temples' figures: what generate, verify, show and the report draw of a
temple deck."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from generators.common.figures import Bars, Drawing, Fact, Figure, Histogram, Table
from generators.mystery_of_the_temples.box import Box, Side, Temple, crystals, runs
from generators.mystery_of_the_temples.deck import Card, Deck
from generators.mystery_of_the_temples.measure import GAMES
from generators.mystery_of_the_temples.verify import DeckCheck
from solver.grids import Grid


def reading_text(deck: Deck) -> str:
    if deck.reading == "rows":
        return "each layer is its own row of crystals, paid along a path from either end"
    return ("a layer is paid by a run of crystals from either end of the track up to the layer, pulled along the "
            "grid's lines; a coloured crystal stands in for a colourless one")


def summary(deck: Deck, check: DeckCheck, spec: Any = None) -> list[Figure]:
    layers = sum(len(k.priced) for k in check.cards)
    out: list[Figure] = [Fact("reading", reading_text(deck))]
    out.append(Fact("difficulty", f"each of the {layers} layers on each of the {len(deck.box.grids)} grid sides: the "
                                  f"expected actions (swaps, crystals collected) to pay its cheaper run from a full "
                                  f"grid mid-game, over {GAMES} seeded grids (simulated); and, exactly, the crystals "
                                  f"to collect from an empty grid"))
    values = [p.actions for k in check.cards for p in k.priced]
    if values:
        out.append(Histogram.of("layer difficulty (expected actions, mean over the grid sides)", values, width=1.0))
    by_play = deck.parameters.get("price") == "play"
    if check.rank is not None:
        measure = "turns in play" if by_play else "difficulty"
        out.append(Fact("points", f"rise with {'the cost in play' if by_play else 'difficulty'}: Spearman "
                                  f"{check.rank:.3f} between each layer's points and its {measure}"))
    if by_play:
        out.append(Fact("sides", side_totals(deck)))
    blocked = blocked_text(deck)
    if blocked:
        out.append(Fact("2 players", blocked))
    out.append(balance_table(deck.box, check))
    out.append(colour_table(deck))
    if check.notes:
        out.append(Fact("your points", "; ".join(check.notes[:3]) + (" ..." if len(check.notes) > 3 else "") +
                        " (suggested points in the card table)"))
    return out


def side_totals(deck: Deck) -> str:
    """Each player count's temple sides: their points' totals, least to most, and max/min."""
    said = []
    for count in sorted({c.temple.side for c in deck.cards}):
        totals = sorted(sum(layer.points or 0 for layer in c.temple.layers) for c in deck.cards
                        if c.temple.side == count)
        ratio = f"max/min {totals[-1] / totals[0]:.2f}" if totals[0] else "max/min -"
        said.append(f"for {count} players the sides total {', '.join(str(t) for t in totals)} points ({ratio})")
    return "; ".join(said)


def blocked_text(deck: Deck) -> str:
    """The layers spare markers cover at 2 players, by temple, with their points; empty
    where none is."""
    said = [f"{deck.box.names[c.temple.colour]} layer {layer.position} ({layer.points} points)"
            for c in deck.cards for layer in c.temple.layers if layer.blocked]
    if not said:
        return ""
    return f"a spare marker covers {', '.join(said)} at set-up (the \"2P\" badge)"


def balance_table(box: Box, check: DeckCheck) -> Table:
    """Per grid side: its lines, how many paths of 3, 5 and 7 slots it has, its mean
    difficulty and the layers it cannot pay."""
    from solver.paths import paths

    b = check.balance
    rows = []
    for i, side in enumerate(box.grids):
        counts = " / ".join(str(len(paths(side.grid, k))) for k in (3, 5, 7))
        mean = f"{b.means[i]:.2f}" if i < len(b.means) else "-"
        missing = str(len(b.unpayable[i])) if i < len(b.unpayable) else "-"
        rows.append((side.name, str(len(side.grid.lines)), counts, mean, missing))
    rows.append(("max/min", "", "", f"{b.ratio:.3f}" if b.means else "-", ""))
    return Table(("grid", "lines", "paths of 3 / 5 / 7", "mean actions", "unpayable layers"), tuple(rows), "<>>>>")


def colour_table(deck: Deck) -> Bars:
    """The tracks' positions by what they ask for: the temple's own colour, another colour,
    or any crystal (colourless)."""
    own = other = colourless = 0
    for c in deck.cards:
        for colour in crystals(c.temple, deck.reading):
            if colour == 0:
                colourless += 1
            elif colour == c.temple.colour:
                own += 1
            else:
                other += 1
    total = (own + other + colourless) or 1
    return Bars("track positions: the temple's own colour, another colour, any crystal (colourless)",
                ("own colour", "other colours", "colourless"),
                tuple(round(n / total, 3) for n in (own, other, colourless)))


def card_table(deck: Deck, check: DeckCheck) -> Table:
    """Each card: its track, its layers' points, the actions each layer takes (the isolated
    measure), the turns it costs in play where the deck was priced by play, and the points
    verify suggests."""
    played = any(p.in_play is not None for c in deck.cards for p in c.priced or ())
    rows = []
    for card, k, suggested in zip(deck.cards, check.cards, check.suggested):
        layers = "  ".join(f"{layer.position}:{layer.points if layer.points is not None else '?'}"
                           for layer in card.temple.layers)
        actions = " ".join(f"{p.actions:.1f}" for p in k.priced)
        row: tuple[str, ...] = (str(card.id), deck.box.names[card.temple.colour], card.temple.side,
               track_words(deck.box, card.temple, deck.reading), layers, actions)
        if played:
            row += (" ".join(f"{p.in_play.turns:.1f}" if p.in_play is not None else "-" for p in card.priced or ()),)
        rows.append(row + (" ".join(str(s) for s in suggested),))
    heads = ("card", "temple", "players", "track", "layer:points", "actions") + (("turns in play",) if played else ())
    return Table(heads + ("suggested points",), tuple(rows), "<" * (len(heads) + 1))


def report(deck: Deck, check: DeckCheck, show_all: bool = False) -> list[Figure]:
    out: list[Figure] = [card_table(deck, check)]
    if show_all:
        out += cards(deck, deck.cards)
    return out + summary(deck, check)


def track_words(box: Box, temple: Temple, reading: str = "ends") -> str:
    """The track's letters, or read as rows, each row's letters (``YYB / RCB``)."""
    if reading == "rows":
        return " / ".join(box.track_text(layer.row) for layer in temple.layers)
    return box.track_text(temple.track)


def temple_picture(box: Box, temple: Temple, reading: str = "ends") -> str:
    """The track as letters, each layer's points over its position; or read as rows, one line
    per layer: its points, then its row."""
    if reading == "rows":
        return "\n".join(f"{layer.points if layer.points is not None else '?':>2} points |"
                         + "".join(f" {ch}" for ch in box.track_text(layer.row)) for layer in temple.layers)
    letters = box.track_text(temple.track)
    points = {layer.position: layer.points for layer in temple.layers}
    top = " ".join(f"{points[p]:>2}" if points.get(p) is not None else ("  " if p not in points else " ?")
                   for p in range(1, len(letters) + 1))
    return top + "\n" + " ".join(f" {ch}" for ch in letters)


def grid_picture(grid: Grid, path: Sequence[int] = ()) -> str:
    """The grid: each slot ``o`` (on ``path``, its place in the payment, 1 first), its lines
    drawn between."""
    xs = [x for x, _ in grid.positions]
    ys = [y for _, y in grid.positions]
    sx, sy = 6.0, 3.0
    width = int((max(xs) - min(xs)) * sx) + 3
    height = int((max(ys) - min(ys)) * sy) + 1
    canvas = [[" "] * width for _ in range(height)]

    def at(i: int) -> tuple[int, int]:
        x, y = grid.positions[i]
        return int(round((x - min(xs)) * sx)) + 1, int(round((y - min(ys)) * sy))

    for a, b in grid.lines:
        (x0, y0), (x1, y1) = at(a), at(b)
        steps = max(abs(x1 - x0), abs(y1 - y0))
        mark = "-" if y0 == y1 else "|" if x0 == x1 else ("\\" if (x1 - x0) * (y1 - y0) > 0 else "/")
        for t in range(1, steps):
            x = x0 + round((x1 - x0) * t / steps)
            y = y0 + round((y1 - y0) * t / steps)
            if canvas[y][x] == " ":
                canvas[y][x] = mark
    for i in range(grid.slots):
        x, y = at(i)
        label = str(path.index(i) + 1) if i in path else "o"
        canvas[y][x] = label[-1]
        if len(label) > 1:
            canvas[y][x - 1] = label[0]
    return "\n".join("".join(row).rstrip() for row in canvas)


def cards(deck: Deck, chosen: Sequence[Card]) -> list[Figure]:
    """What ``show`` prints: each temple side, then each layer's cheaper run paid on the
    first grid side along a path (its slots numbered in payment order)."""
    from solver.paths import paths

    out: list[Figure] = []
    side: Side = deck.box.grids[0]
    shown = "each layer's points, then its row" if deck.reading == "rows" else "points over the layers"
    for card in chosen:
        temple = card.temple
        out.append(Drawing(f"card {card.id}: the {deck.box.names[temple.colour]} temple, {temple.side} players "
                           f"({shown})", temple_picture(deck.box, temple, deck.reading)))
        for n, layer in enumerate(temple.layers):
            asked = runs(temple, layer, deck.reading)
            run = min(asked, key=len)
            found = paths(side.grid, len(run))
            if not len(found):
                out.append(Fact(f"layer {layer.position}", f"grid {side.name} cannot pay it"))
                continue
            actions = ""
            if card.priced is not None:
                actions = f", {card.priced[n].actions:.2f} actions on average"
            out.append(Drawing(f"layer {layer.position} ({layer.points} points{actions}): pay "
                               f"{deck.box.track_text(run)} along grid {side.name}",
                               grid_picture(side.grid, tuple(int(v) for v in found[0]))))
    return out


def verdict(deck: Deck, check: DeckCheck) -> Fact:
    if check.ok:
        return Fact("verification", f"all {check.counted}: every layer paid again along its stored paths on every "
                                    f"grid side and measured again; points rise with difficulty; the grids are "
                                    f"balanced")
    return Fact("verification", f"FAILED: {'; '.join(check.problems[:3])}")


def build_report(deck: Deck, check: DeckCheck) -> list[Figure]:
    return [verdict(deck, check), *summary(deck, check), card_table(deck, check)]
