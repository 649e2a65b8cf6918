"""Make temple cards whose every layer is proved payable on every grid side and priced by its
difficulty there (or, with ``--grids-only``, grid sides for given temples).

Temples:

1. Colours, shaped like the game's tracks. A temple side is mostly its own colour
   (``OWN_SHARE``: 5 of 9), since a player walks to a temple and takes its colour; the
   rest are the other colours, drawn in proportion to the supply; colourless positions
   are rare (``COLOURLESS_FROM``: one, at the top of the arch, on sides of seven or more:
   under 15%), since colourless crystals are the currency any crystal pays. The yellow
   temple's side for 2-3 players opens with the one published curse, yellow-yellow-blue.
2. Attempts. Attempt ``i`` deals the ten sides from its own seeded generator (no layer is
   free: every run holds a coloured crystal).
3. Proof and price. Every layer on every grid side: a paying path for each run the grid
   can pay (``measure.witnesses``) and the expected actions from a full grid mid-game
   (``measure.difficulty``). An attempt with a layer some grid cannot pay is dropped.
4. Choice. The attempt whose grid sides are closest in mean difficulty (the least
   max/min), then the widest spread of layer difficulties; more than ``--balance`` is a
   shortfall (the grids, not the temples, are out of balance: ``--grids-only`` designs
   balanced ones).
5. Points. Layers ranked by difficulty (the mean over the grid sides) share the range
   ``--points`` by quantiles: no layer is worth more than a harder one.
6. Two players. Each side for 2-3 players marks one layer a spare marker blocks at 2
   players, its layer of median points (``box.two_player_block``).

Grids only: candidate grids on the 4x3 lattice, each a random spanning tree of the lattice's
lines (rows, columns, and one diagonal per square, so lines never cross) plus random extra
lines; each priced by its mean over every layer of the box's temples; the grid sides chosen
are the run of candidates (sorted by mean) with the least max/min, keeping the box's boards,
sides and abilities.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from generators.common import deckfile
from generators.common.errors import Shortfall
from generators.common.grading import spearman
from generators.common.pool import Pool as Workers
from generators.mystery_of_the_temples.box import SIDES, Box, Layer, Side, Temple, _grid, runs, two_player_block
from generators.mystery_of_the_temples.deck import Card, Deck, Paid, Priced
from generators.mystery_of_the_temples.measure import PLACES, balance, difficulty, from_empty, witnesses
from generators.mystery_of_the_temples.spec import Spec

#: A temple side's crystals in its own colour, as a share of them (rounded): in the game a
#: player walks to a temple and takes its colour, so a temple asks mostly for its own.
OWN_SHARE = 0.55
#: At most one colourless position a side, at the top of the arch (the track's middle, the
#: end of the longest runs), and only on sides of seven crystals or more: colourless crystals
#: are the game's currency (any crystal pays one), so a colourless position eases the
#: longest curse alone. 1 of 9 is 11% of the positions, inside the 15% the game's tracks show.
COLOURLESS_FROM = 7
#: The most colourless positions a generated deck's tracks hold, as a share of them all.
COLOURLESS_SHARE = 0.15
#: How the tracks were dealt, recorded in a generated deck (verify checks what it names;
#: decks without it were dealt in proportion to the supply).
TRACKS = "game"
#: How the layers blocked at 2 players were chosen, recorded in a generated deck (decks
#: without it block none).
TWO_PLAYERS = "median"
#: The one curse the rules publish: yellow, yellow, blue, worth 3 (the first layer of the
#: yellow temple's side for 2-3 players, read from the left).
PUBLISHED = (2, 2, 3)


def colour_budget(supply: Sequence[int], positions: int) -> list[int]:
    """Positions per colour in proportion to the supply (largest remainders, ties to the
    earlier colour)."""
    total = sum(supply)
    exact = [positions * n / total for n in supply]
    out = [int(x) for x in exact]
    order = sorted(range(len(supply)), key=lambda c: (-(exact[c] - out[c]), c))
    for c in order[:positions - sum(out)]:
        out[c] += 1
    return out


def _lengths(spec: Spec) -> list[int]:
    """The crystals a side holds: its track, or (read as rows) a row per layer as long as the
    cheaper run to that layer would be."""
    if spec.reading == "rows":
        return [min(p, spec.track - p + 1) for p in spec.positions]
    return [spec.track]


def own_count(crystals: int) -> int:
    """How many of a side's ``crystals`` are its temple's colour (``OWN_SHARE``, at least one)."""
    return max(1, round(crystals * OWN_SHARE))


def shaped(crystals: int) -> tuple[int, int]:
    """A side of ``crystals``: how many in its own colour and how many colourless."""
    return own_count(crystals), 1 if crystals >= COLOURLESS_FROM else 0


def deal(spec: Spec, attempt: int) -> tuple[Temple, ...]:
    """Attempt ``attempt``'s temples (see the module docstring)."""
    rng = random.Random(f"temples:{spec.seed}:{attempt}")
    box = spec.box
    lengths = _lengths(spec)
    per_side = sum(lengths)
    own, colourless = shaped(per_side)
    coloured = range(1, len(box.names))
    out = []
    for colour in coloured:
        for side in SIDES:
            others = [c for c in coloured if c != colour]
            weights = [box.supply[c] for c in others]
            rest = [rng.choices(others, weights)[0] for _ in range(per_side - own - colourless)]
            crystals = [colour] * own + rest
            rng.shuffle(crystals)
            fixed: dict[int, int] = {}
            if colourless:  # the top of the arch: the track's middle, or the end of the middle row
                fixed[(per_side - 1) // 2 if spec.reading != "rows" else sum(lengths[:len(lengths) // 2 + 1]) - 1] = 0
            if box.names[colour] == "yellow" and side == SIDES[0] and "blue" in box.names and per_side >= 3 + \
                    colourless and own >= 2:
                published = (colour, colour, box.names.index("blue"))
                for at, c in enumerate(published):
                    fixed[at] = c
                for c in published:  # the published curse's crystals come out of the side's own
                    crystals.remove(c if c in crystals else next(x for x in crystals if x != colour))
            track = []
            it = iter(crystals)
            for at in range(per_side):
                track.append(fixed[at] if at in fixed else next(it))
            out.append(_temple(spec, colour, side, track, lengths))
    return tuple(out)


def _temple(spec: Spec, colour: int, side: str, held: Sequence[int], lengths: Sequence[int]) -> Temple:
    """A temple side of the crystals ``held``: its track, or read as rows, its rows cut in
    order (and the track the rows laid end to end)."""
    if spec.reading != "rows":
        return Temple(colour, side, tuple(held), tuple(Layer(p) for p in spec.positions))
    rows, at = [], 0
    for n in lengths:
        rows.append(tuple(held[at:at + n]))
        at += n
    return Temple(colour, side, tuple(held), tuple(Layer(p, None, r) for p, r in zip(spec.positions, rows)))


#: Shuffles of a side's crystals to find one without a free layer.
SHUFFLES = 200


@dataclass(frozen=True, slots=True)
class Attempt:
    """An attempt, proved and priced: per temple, per layer, its ``Paid`` per grid side
    (None where the grid cannot pay), and the exact figure from an empty grid."""

    attempt: int
    temples: tuple[Temple, ...]
    paid: tuple[tuple[tuple[Paid | None, ...], ...], ...]
    empty: tuple[tuple[float, ...], ...]

    @property
    def payable(self) -> bool:
        return all(p is not None for t in self.paid for layer in t for p in layer)

    def values(self) -> list[list[list[float | None]]]:
        return [[[p.actions if p is not None else None for p in layer] for layer in t] for t in self.paid]


def price(box: Box, temples: Sequence[Temple], reading: str, attempt: int = 0) -> Attempt:
    paid = []
    empty = []
    for temple in temples:
        rows = []
        exact = []
        for layer in temple.layers:
            row: list[Paid | None] = []
            for side in box.grids:
                m = difficulty(box, side, temple, layer, reading)
                if m is None:
                    row.append(None)
                    continue
                row.append(Paid(side.name, round(m.mean, PLACES), round(m.error, PLACES), round(m.paid, PLACES),
                                tuple(witnesses(side, temple, layer, reading))))
            rows.append(tuple(row))
            exact.append(from_empty(box, temple, layer, reading))
        paid.append(tuple(rows))
        empty.append(tuple(exact))
    return Attempt(attempt, tuple(temples), tuple(paid), tuple(empty))


def _attempt(spec: Spec, attempt: int) -> Attempt:
    return price(spec.box, deal(spec, attempt), spec.reading, attempt)


def points_for(values: Sequence[float], low: int, high: int) -> list[int]:
    """Points in ``low..high`` by each value's rank: the quantiles of the values share the
    range evenly; equal values get equal points, so no value gets more than a larger one."""
    ranked = sorted(values)
    n = len(values)
    steps = high - low + 1
    out = []
    for v in values:
        below = sum(1 for x in ranked if x < v)
        out.append(low + min(steps - 1, below * steps // n) if n else low)
    return out


#: The most one temple side's points may total over another's for the same player count,
#: when the points come from play.
SIDE_RATIO = 1.25
#: The points of the one published curse (yellow, yellow, blue): the scale's anchor.
PUBLISHED_POINTS = 3


def published_layers(cards: Sequence[Card], box: Box, reading: str) -> list[int]:
    """The layers (indices over every card's layers in order) of a yellow temple whose run
    from either end is the published curse, yellow-yellow-blue (none without those colours)."""
    if "yellow" not in box.names or "blue" not in box.names:
        return []
    yellow, blue = box.names.index("yellow"), box.names.index("blue")
    found, k = [], 0
    for c in cards:
        for layer in c.temple.layers:
            if c.temple.colour == yellow and (yellow, yellow, blue) in runs(c.temple, layer, reading):
                found.append(k)
            k += 1
    return found


def points_in_play(values: Sequence[float], sides: Sequence[int], counts: Sequence[str], anchors: Sequence[int],
                   low: int, high: int, clearly: float, seed: int) -> list[int]:
    """Points in ``low..high`` for layers priced by play (``values``: turns), as near as they
    can be (least total distance) to the quantile points (``points_for``) while keeping
    three rules: a layer clearly dearer than another (by more than ``clearly``) is worth at
    least as much; the sides for one player count (``counts[i]``, the side of layer ``i``'s
    card ``sides[i]``) total within ``SIDE_RATIO`` of each other; and the published curse
    (``anchors``) is worth ``PUBLISHED_POINTS`` when the range holds it. Always possible
    (every layer worth the same keeps all three); CP-SAT on one worker, so the same request
    gives the same points."""
    from ortools.sat.python import cp_model

    target = points_for(values, low, high)
    n = len(values)
    model = cp_model.CpModel()
    p = [model.new_int_var(low, high, f"p{i}") for i in range(n)]
    for i in range(n):
        for j in range(n):
            if values[i] + clearly < values[j]:
                model.add(p[i] <= p[j])
    if low <= PUBLISHED_POINTS <= high:
        for i in anchors:
            model.add(p[i] == PUBLISHED_POINTS)
    totals: dict[str, dict[int, Any]] = {}
    for i in range(n):
        totals.setdefault(counts[i], {}).setdefault(sides[i], []).append(p[i])
    ratio = round(SIDE_RATIO * 100)
    for group in totals.values():
        sums = [sum(layers) for layers in group.values()]
        for a in sums:
            for b in sums:
                model.add(100 * a <= ratio * b)
    off = [model.new_int_var(0, high - low, f"d{i}") for i in range(n)]
    for i in range(n):
        model.add(p[i] - target[i] <= off[i])
        model.add(target[i] - p[i] <= off[i])
    model.minimize(sum(off))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = seed % (1 << 31)
    solver.parameters.max_deterministic_time = 5.0
    if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):  # pragma: no cover - always feasible
        return [low] * n
    return [int(solver.value(v)) for v in p]


def layer_means(priced: Attempt) -> list[float]:
    return [round(sum(p.actions for p in layer if p is not None) / max(1, sum(1 for p in layer if p is not None)),
                  PLACES) for t in priced.paid for layer in t]


def make_deck(spec: Spec, priced: Attempt, box: Box, grids_only: bool = False) -> Deck:
    means = layer_means(priced)
    points = points_for(means, *spec.points) if not grids_only else [
        layer.points if layer.points is not None else 0 for t in priced.temples for layer in t.layers]
    cards = []
    k = 0
    for n, (temple, paid, empty) in enumerate(zip(priced.temples, priced.paid, priced.empty), start=1):
        layers = []
        priced_layers = []
        for layer, row, exact in zip(temple.layers, paid, empty):
            layers.append(replace(layer, points=points[k]))
            priced_layers.append(Priced(exact, means[k], tuple(p for p in row if p is not None)))
            k += 1
        cards.append(Card(n, replace(temple, layers=tuple(layers)), tuple(priced_layers)))
    grid_balance = balance(priced.values())
    parameters = spec.parameters()
    parameters["spearman"] = _rounded(spearman(means, [float(p) for p in points]))
    parameters["balance_ratio"] = round(grid_balance.ratio, PLACES)
    if not grids_only:
        parameters["tracks"] = TRACKS
    return Deck(tuple(cards), replace(box, temples=()), spec.reading, spec.seed, parameters, deckfile.versions(),
                True, grid_balance.means)


def _rounded(value: float | None) -> float | None:
    return round(value, PLACES) if value is not None else None


def generate(spec: Spec, progress: Callable[[int, int], None] | None = None) -> Deck:
    """Make the deck ``spec`` asks for (see the module docstring).

    Raises:
        RequestError: the request is impossible (before any work).
        Shortfall: no attempt within the budget met every promise.
    """
    spec.checked()
    if spec.grids_only:
        return design_grids(spec, progress)
    tried: list[Attempt] = []
    with Workers(spec.workers) as workers:
        for start in range(0, spec.budget, max(1, spec.workers)):
            batch = list(range(start, min(spec.budget, start + max(1, spec.workers))))
            tried.extend(workers.map(_attempt, spec, batch))
            if progress is not None:
                progress(len(tried), sum(1 for t in tried if t.payable))
    usable = [t for t in tried if t.payable]
    if not usable:
        raise Shortfall(f"made 0 of {2 * (len(spec.box.names) - 1)} temple sides: in {spec.budget} attempts some "
                        f"layer could not be paid on some grid side; raise attempts or use grids with longer paths",
                        0, 2 * (len(spec.box.names) - 1))

    def score(t: Attempt) -> tuple[float, float, int]:
        values = layer_means(t)
        return (round(balance(t.values()).ratio, PLACES), -(max(values) - min(values)), t.attempt)

    best = min(usable, key=score)
    ratio = balance(best.values()).ratio
    if ratio > spec.balance + 1e-9:
        means = balance(best.values()).means
        worst = max(range(len(means)), key=lambda g: means[g])
        easiest = min(range(len(means)), key=lambda g: means[g])
        raise Shortfall(f"the grid sides are out of balance: {spec.box.grids[worst].name} averages {means[worst]:.2f} "
                        f"actions a layer, {spec.box.grids[easiest].name} {means[easiest]:.2f} (max/min "
                        f"{ratio:.3f}, more than --balance {spec.balance}); --grids-only designs balanced grids",
                        0, 2 * (len(spec.box.names) - 1))
    deck = make_deck(spec, best, spec.box)
    return blocked_at_two(priced_in_play(deck, spec) if spec.price == "play" else deck)


def blocked_at_two(deck: Deck) -> Deck:
    """``deck`` with the layers blocked at 2 players marked, one on each side for 2-3 players
    (``box.two_player_block``), once the points are given; recorded as
    ``parameters.two_players``."""
    parameters = dict(deck.parameters)
    parameters["two_players"] = TWO_PLAYERS
    return replace(deck, cards=tuple(replace(c, temple=two_player_block(c.temple)) for c in deck.cards),
                   parameters=parameters)


def priced_in_play(deck: Deck, spec: Spec) -> Deck:
    """``deck`` with every layer's cost in play (``inplay.layer_costs``, from ``spec.seed``)
    and its points given out by that cost instead (the same quantiles over ``--points``)."""
    from generators.mystery_of_the_temples.deck import InPlay
    from generators.mystery_of_the_temples.inplay import layer_costs

    found = layer_costs(deck, spec.seed, workers=spec.workers)
    turns = [found[(c.id, j)].turns for c in deck.cards for j in range(len(c.temple.layers))]
    points = play_points(deck, turns, *spec.points)
    cards, k = [], 0
    for c in deck.cards:
        layers, priced = [], []
        for j, (layer, p) in enumerate(zip(c.temple.layers, c.priced or ())):
            cost = found[(c.id, j)]
            layers.append(replace(layer, points=points[k]))
            priced.append(replace(p, in_play=InPlay(cost.turns, cost.error, cost.capped, cost.chases)))
            k += 1
        cards.append(replace(c, temple=replace(c.temple, layers=tuple(layers)), priced=tuple(priced)))
    parameters = dict(deck.parameters)
    parameters["spearman"] = _rounded(spearman(turns, [float(p) for p in points]))
    return replace(deck, cards=tuple(cards), parameters=parameters)


def play_points(deck: Deck, turns: Sequence[float], low: int, high: int) -> list[int]:
    """``points_in_play`` for every layer of ``deck`` (in card order) from its turns in play."""
    from generators.mystery_of_the_temples.inplay import CLEARLY_TURNS

    sides = [n for n, c in enumerate(deck.cards) for _ in c.temple.layers]
    counts = [c.temple.side for c in deck.cards for _ in c.temple.layers]
    return points_in_play(turns, sides, counts, published_layers(deck.cards, deck.box, deck.reading), low, high,
                          CLEARLY_TURNS, deck.seed or 0)


# -- grids only ---------------------------------------------------------------------------------


def lattice_lines() -> tuple[list[tuple[float, float]], list[tuple[int, int]], list[list[tuple[int, int]]]]:
    """The 4x3 lattice: positions, its rows and columns, and per square its two diagonals
    (a grid takes at most one of them, so no lines cross)."""
    positions = [(float(x), float(y)) for y in range(3) for x in range(4)]

    def at(x: int, y: int) -> int:
        return y * 4 + x

    straight = [(at(x, y), at(x + 1, y)) for y in range(3) for x in range(3)]
    straight += [(at(x, y), at(x, y + 1)) for y in range(2) for x in range(4)]
    squares = [[(at(x, y), at(x + 1, y + 1)), (at(x + 1, y), at(x, y + 1))] for y in range(2) for x in range(3)]
    return positions, straight, squares


def draw_grid(spec: Spec, index: int) -> Side:
    """Candidate grid ``index``: a random spanning tree of the lattice's lines (one diagonal
    per square at most) and 3-11 random extra lines."""
    rng = random.Random(f"temple-grids:{spec.seed}:{index}")
    positions, straight, squares = lattice_lines()
    lines = list(straight) + [rng.choice(pair) for pair in squares]
    rng.shuffle(lines)
    parent = list(range(len(positions)))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    tree, extra = [], []
    for a, b in lines:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
            tree.append((a, b))
        else:
            extra.append((a, b))
    chosen = tree + extra[:rng.randint(3, min(11, len(extra)))]
    template = spec.box.grids[index % len(spec.box.grids)]
    return Side(template.board, template.side, template.ability, _grid(positions, chosen))


def _grid_mean(spec: Spec, index: int) -> tuple[int, Side, float | None]:
    side = draw_grid(spec, index)
    values = []
    for temple in spec.box.temples:
        for layer in temple.layers:
            m = difficulty(spec.box, side, temple, layer, spec.reading)
            if m is None:
                return index, side, None
            values.append(m.mean)
    return index, side, sum(values) / len(values)


def design_grids(spec: Spec, progress: Callable[[int, int], None] | None = None) -> Deck:
    wanted = len(spec.box.grids)
    found: list[tuple[int, Side, float]] = []
    seen: set[tuple[tuple[int, int], ...]] = set()
    with Workers(spec.workers) as workers:
        indices = list(range(spec.budget))
        for start in range(0, len(indices), 8):
            for index, side, mean in workers.map(_grid_mean, spec, indices[start:start + 8]):
                if mean is not None and side.grid.lines not in seen:
                    seen.add(side.grid.lines)
                    found.append((index, side, mean))
            if progress is not None:
                progress(min(start + 8, len(indices)), len(found))
    if len(found) < wanted:
        raise Shortfall(f"made {len(found)} of {wanted} grid sides: {spec.budget} candidate grids gave only "
                        f"{len(found)} distinct ones that pay every layer; raise attempts", len(found), wanted)
    ranked = sorted(found, key=lambda f: (f[2], f[0]))
    start = min(range(len(ranked) - wanted + 1), key=lambda i: (ranked[i + wanted - 1][2] / ranked[i][2], i))
    chosen = sorted(ranked[start:start + wanted], key=lambda f: f[0])
    sides = tuple(Side(t.board, t.side, t.ability, s.grid) for t, (_, s, _) in zip(spec.box.grids, chosen))
    box = replace(spec.box, grids=sides)
    priced = price(box, spec.box.temples, spec.reading)
    if balance(priced.values()).ratio > spec.balance + 1e-9:
        raise Shortfall(f"the best {wanted} of {spec.budget} candidate grids differ by max/min "
                        f"{balance(priced.values()).ratio:.3f}, more than --balance {spec.balance}; raise attempts",
                        0, wanted)
    return make_deck(spec, priced, box, grids_only=True)
