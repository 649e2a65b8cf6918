"""Mystery of the Temples as it is played (``../shared/GAMES.md``, "Rules of play", and the
Chinese seed): the game's engine for the playtest layer (``generators.contract.Engine``).

Set-up: the five temples (each on its side for the player count) in a circle in an order
drawn from the seed, a wilderness card after each in number order from a drawn start (2-3
players leave out 4 and 7); four rune cards face down beside each temple, the top one turned
up; 2 (2-3 players) or 3 (4 players) temple objectives drawn, and the rune objective; each
seat a grid board in seat order (grid 1 starts: the rules' first way; 2-3 players leave
the highest out), its side drawn; two colourless crystals on it, five markers; at 2 players
a spare marker on each layer the deck blocks at 2 players (``box.Layer.blocked``), which no
one breaks. In the first round a seat puts its meeple on any free card.

A turn is several moves of one seat, each a small tuple:

``("go", card, extra)``
    move to circle position ``card``: 1-3 steps clockwise counting only temples or only
    wilderness cards, occupied cards skipped and not counted, laps allowed; ``extra`` more
    steps bought with crystals at the published reference card's prices, 1, 3, 6, ...
    for 1, 2, 3, ... steps (``step_price``; any crystal pays a colourless one). Grid 3B may
    go to any free card. Each card reachable is offered once, at its least price.
``("swap", a, b)``, ``("buy", colour)``
    the adjustments, before the action: discard one crystal to swap two crystals of
    different colours on the grid; pay four crystals (three on grid 1A) for one of any colour.
``("collect",)``, ``("convert", c1, c2)``, ``("enhance", colours)``
    collect where the meeple stands: a temple's colour, a direct wilderness card's crystals,
    a conversion (three crystals discarded for two of different colours), an enhancement
    (one or two of the card's empty colour squares covered with a crystal each, those colours
    taken; the card is cleared, its crystals back to the supply, when two or fewer squares
    are left empty). Rune resonance: each rune held (and grid 3A's) whose symbol is the
    card's gives its bonus.
``("break", layer, end, slots)``
    at a temple: pay the layer's run from the track's left (0) or right (1) end along the
    grid's lines, ``slots`` in payment order; a marker, the layer's points, the temple's
    top rune card (grid 4B: or a neighbouring temple's, ``("rune", temple)``), grid 4A's
    bonus for that marker, and grid 2B's raise (``("raise", layer)`` for 2 or 3 crystals,
    or ``("keep",)``).
``("pay", slot)``, ``("place", slot)``, ``("replace", slot)``, ``("drop",)``
    paying a price a crystal at a time, and putting each crystal gained on the grid (an
    empty slot; a full grid may replace a crystal, which goes back, or let the new one go).
``("end",)``
    grid 1B at a temple: done after one of its two actions.

The grid abilities, as the rules give them: 1A an extra colourless whenever one is gained
and the any-colour exchange for 3; 1B collect and break at one temple, either order; 2A three
colourless spare crystals beside the grid, each turned into any colour and put on the grid
during a turn (``("spare", colour)``); 2B the raise; 3A a face-up rune card taken at set-up,
used all game, not counted for the rune objective; 3B teleport; 4A the numbered bonuses
(``components.Bonus``); 4B runes from a neighbouring temple, and one more kind at the end.

An exhausted colour is taken from the player holding most of it on their grid (the next in
turn order on a tie; from no one when nobody else holds it). The game ends when a seat
places its fifth marker and the round is finished (the last seat has played). Scores: the
points scored, the temple objectives (most markers 4, second 2; a tie for most shares 6,
rounded down; a tie for second shares 2), and the rune objective (``components.RUNE_POINTS``
by kinds held). Ties: more coloured crystals, then more colourless, then the later seat.

Choices where the rules are silent (each tested): the adjustments are made before the
action (a swap after collecting helps only the next turn, when it can be made first); a
swap exchanges two crystals of different colours; 2B's "higher" layer is one nearer the
middle of the track (the arch's top) than the layer broken; the rune of 3A is the turned-up
one of a temple drawn from the seed; conversion gives two different colours, not colourless;
a move moves (a lap back to the card a meeple stands on is not offered, as grid 3B's
teleport may not stay).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit

from generators.common.errors import RequestError
from generators.common.memo import last_seen
from generators.common.play import no_printed_points, no_scale, not_compiled, replacer
from generators.mystery_of_the_temples import components as parts
from generators.mystery_of_the_temples.box import Box, Temple
from generators.mystery_of_the_temples.components import Components
from solver.grids import Grid
from solver.paths import paths, paying_paths

PLAYERS = (2, 3, 4)
EFFORT = "rounds played before each layer of the temple is broken"
SLOTS = 12
EMPTY = -1
#: A layer a spare marker covers at 2 players (``box.Layer.blocked``): no one breaks it.
BLOCKED = -2
#: Grid 1A's any-colour exchange, and everyone else's.
BUY_PRICE = {True: 3, False: 4}


def step_price(extra: int) -> int:
    """Crystals for ``extra`` steps past the third: 1, 3, 6, ... (each step one more than
    the last), as the game's reference card prices them (the seed says only that colourless
    crystals buy them)."""
    return extra * (extra + 1) // 2


Move = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Table:
    """What does not change in a game: the temples on the circle, the cards, the grids."""

    box: Box
    parts: Components
    circle: tuple[tuple[int, int], ...]  # (0, temple colour) or (1, wilderness number), clockwise
    temples: tuple[Temple, ...]  # by colour 1-5 (index colour - 1)
    ids: tuple[Any, ...]  # the deck card of each temple, by colour
    objectives: tuple[int, ...]
    sides: tuple[int, ...]  # each seat's grid side (an index into box.grids)

    def ability(self, seat: int) -> str:
        return self.box.grids[self.sides[seat]].name


@dataclass(frozen=True, slots=True)
class State:
    table: Table
    seed: int
    grids: tuple[tuple[int, ...], ...]
    supply: tuple[int, ...]
    at: tuple[int, ...]  # each seat's circle position (-1: not placed yet)
    broken: tuple[tuple[int, ...], ...]  # per temple, per layer: the seat that broke it, EMPTY or BLOCKED
    piles: tuple[tuple[int, ...], ...]  # per temple, its rune cards (index 0 the turned-up one)
    runes: tuple[tuple[int, ...], ...]  # per seat, the rune cards taken (by id)
    kept: tuple[int, ...]  # grid 3A's rune per seat (0: none)
    spares: tuple[int, ...]  # grid 2A's colourless crystals beside each grid
    squares: tuple[tuple[int, ...], ...]  # per wilderness card: a crystal per colour square, or -1
    points: tuple[int, ...]
    markers: tuple[int, ...]
    seat: int = 0
    phase: str = "move"  # move, act, pay, place, raise, rune
    owed: int = 0  # crystals still to pay
    kept_slots: tuple[int, ...] = ()  # slots a payment may not take (a swap's two)
    then: tuple[Any, ...] = ()  # what follows the payment
    pending: tuple[int, ...] = ()  # crystals gained, to put on the grid
    acted: tuple[str, ...] = ()  # the actions done this turn (collect, break)
    broke: tuple[int, int, int] = (-1, -1, -1)  # the last break this turn: temple, layer, end
    turn: int = 0
    ending: bool = False
    held: tuple[int, ...] = ()  # per temple card: the rounds played before each of its breaks, summed
    log: tuple[tuple[int, int, int, int], ...] = ()  # each break: temple, layer, round, seat


_with = replacer(State)


# -- set-up ----------------------------------------------------------------------------------


def _table_of(deck: Any, players: int, rng: random.Random) -> Table:
    box = deck.box
    components = box.components
    unplayable = parts.problems_of(components, len(box.colours))
    if unplayable:
        raise RequestError(f"the deck's wilderness, rune and objective cards cannot be played: {unplayable[0]}")
    side = "4" if players == 4 else "2-3"
    temples, ids = [], []
    for colour in range(1, len(box.colours)):
        found = [c for c in deck.cards if c.temple.colour == colour and c.temple.side == side]
        if not found:
            raise RequestError(f"cards: no {box.names[colour]} temple for {players} players (side {side}) in the deck")
        if any(layer.points is None for layer in found[0].temple.layers):
            raise RequestError(f"cards: the {box.names[colour]} temple's layers have no points yet; verify the deck "
                               f"first")
        temples.append(found[0].temple)
        ids.append(found[0].id)
    order = list(range(1, len(box.colours)))
    rng.shuffle(order)
    numbers = [n for n in range(1, 11) if players == 4 or n not in parts.LEFT_OUT]
    first = rng.randrange(len(numbers))
    numbers = numbers[first:] + numbers[:first]
    circle: list[tuple[int, int]] = []
    per = len(numbers) / len(order)
    for k, colour in enumerate(order):
        circle.append((0, colour))
        circle += [(1, n) for n in numbers[round(k * per):round((k + 1) * per)]]
    objectives = list(components.objectives)
    rng.shuffle(objectives)
    boards = sorted({s.board for s in box.grids})
    boards = [boards[s % len(boards)] for s in range(players)]  # in seat order: grid 1 starts
    sides = []
    for board in boards:  # each player's own choice of side, drawn
        choices = [i for i, s in enumerate(box.grids) if s.board == board]
        sides.append(choices[rng.randrange(len(choices))])
    return Table(box, components, tuple(circle), tuple(temples), tuple(ids),
                 tuple(sorted(objectives[:parts.OBJECTIVES_DEALT[players]])), tuple(sides))


def start(deck: Any, players: int, seed: int, sides: Sequence[int] | None = None) -> State:
    """The game after set-up (``sides``: each seat's grid side, an index into the box's grids,
    in place of the drawn ones)."""
    if players not in PLAYERS:
        raise RequestError(f"players: Mystery of the Temples is for 2 to 4 players, not {players}")
    rng = random.Random(f"mystery-of-the-temples {seed} {players}")
    table = _table_of(deck, players, rng)
    if sides is not None:
        table = replace(table, sides=tuple(sides))
    runes = [r.id for r in table.parts.runes]
    rng.shuffle(runes)
    piles = tuple(tuple(runes[k * parts.RUNES_PER_TEMPLE:(k + 1) * parts.RUNES_PER_TEMPLE])
                  for k in range(len(table.temples)))
    supply = list(table.box.supply)
    grids, spares, kept = [], [], []
    piles_now = [list(p) for p in piles]
    for seat in range(players):
        supply[0] -= parts.START_CRYSTALS
        grids.append(tuple([0] * parts.START_CRYSTALS + [EMPTY] * (SLOTS - parts.START_CRYSTALS)))
        ability = table.ability(seat)
        spares.append(3 if ability == "2A" else 0)
        supply[0] -= spares[-1]
        if ability == "3A":
            have = [k for k, p in enumerate(piles_now) if p]
            k = have[rng.randrange(len(have))]
            kept.append(piles_now[k].pop(0))
        else:
            kept.append(0)
    if any(n < 0 for n in supply):
        raise RequestError("colours: the supply holds too few colourless crystals for the set-up")
    squares = tuple(tuple(EMPTY for _ in w.squares) for w in table.parts.wilderness)
    broken = tuple(tuple(BLOCKED if players == 2 and layer.blocked else EMPTY for layer in t.layers)
                   for t in table.temples)
    return State(table, seed, tuple(grids), tuple(supply), (-1,) * players, broken, tuple(tuple(p) for p in piles_now),
                 ((),) * players, tuple(kept), tuple(spares), squares, (0,) * players, (0,) * players,
                 held=(0,) * len(table.temples))


# -- what the table holds ------------------------------------------------------------------


@lru_cache(maxsize=256)
def _paths(grid: Grid, k: int) -> np.ndarray:
    return paths(grid, k)


def _grid(state: State, seat: int) -> Grid:
    return state.table.box.grids[state.table.sides[seat]].grid


def _runs(temple: Temple, layer: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    position = temple.layers[layer].position
    return tuple(temple.track[:position]), tuple(reversed(temple.track[position - 1:]))


def _card(state: State, at: int) -> tuple[int, int]:
    return state.table.circle[at]


def _symbol(state: State, at: int) -> int:
    kind, n = _card(state, at)
    return state.table.parts.temple_symbols[n - 1] if kind == 0 else state.table.parts.card(n).symbol


def _crystals(grid: tuple[int, ...]) -> int:
    return sum(1 for c in grid if c != EMPTY)


def _rune(state: State, rune_id: int) -> parts.Rune:
    return state.table.parts.runes[rune_id - 1]


# -- moves -----------------------------------------------------------------------------------


def to_act(state: State) -> int:
    return state.seat


def moves(state: State) -> list[Move]:
    seat, phase = state.seat, state.phase
    grid = state.grids[seat]
    if phase == "pay":
        return [("pay", s) for s in range(SLOTS) if grid[s] != EMPTY and s not in state.kept_slots]
    if phase == "place":
        empty = [("place", s) for s in range(SLOTS) if grid[s] == EMPTY]
        return empty or [("replace", s) for s in range(SLOTS) if grid[s] != state.pending[0]] + [("drop",)]
    if phase == "raise":
        return [("keep",)] + [("raise", layer) for layer in _raisable(state)]
    if phase == "rune":
        return [("rune", t) for t in _rune_sources(state)]
    if phase == "move":
        return _goes(state)
    return _acts(state)


def _goes(state: State) -> list[Move]:
    seat = state.seat
    taken = {a for s, a in enumerate(state.at) if s != seat and a >= 0}
    here = state.at[seat]
    size = len(state.table.circle)
    if here < 0 or state.table.ability(seat) == "3B":
        return [("go", i, 0) for i in range(size) if i not in taken and i != here]
    budget = _crystals(state.grids[seat])
    out: list[Move] = []
    for kind in (0, 1):
        ring = [i for k in range(1, size + 1) for i in [(here + k) % size]
                if state.table.circle[i][0] == kind and i not in taken and i != here]
        if not ring:
            continue
        best: dict[int, int] = {}
        for steps in range(1, 3 + len(ring) + 1):
            dest = ring[(steps - 1) % len(ring)]
            extra = max(0, steps - 3)
            if step_price(extra) > budget:
                break
            if dest not in best or extra < best[dest]:
                best[dest] = extra
        out += [("go", d, e) for d, e in best.items()]
    return sorted(set(out), key=lambda m: (m[1], m[2]))


def _acts(state: State) -> list[Move]:
    seat = state.seat
    grid = state.grids[seat]
    kind, n = _card(state, state.at[seat])
    ability = state.table.ability(seat)
    held = _crystals(grid)
    out: list[Move] = []
    if state.acted:  # grid 1B's second action, or done
        out.append(("end",))
    else:
        if held >= 3:
            out += [("swap", a, b) for a, b in combinations(range(SLOTS), 2)
                    if grid[a] != EMPTY and grid[b] != EMPTY and grid[a] != grid[b]]
        if held >= BUY_PRICE[ability == "1A"]:
            out += [("buy", c) for c in range(1, len(state.supply))]
        if state.spares[seat] and EMPTY in grid:
            out += [("spare", c) for c in range(len(state.supply))]
    if kind == 0:
        if "collect" not in state.acted:
            out.append(("collect",))
        if "break" not in state.acted:
            out += _breaks(state, n - 1)
        if state.acted and ability != "1B":
            return [("end",)]
    elif not state.acted:
        w = state.table.parts.card(n)
        if w.kind == "direct":
            out.append(("collect",))
        elif w.kind == "conversion":
            if held >= 3:
                out += [("convert", a, b) for a, b in combinations(range(1, len(state.supply)), 2)]
            out.append(("collect",))  # nothing to convert: the visit gives nothing (resonance still rings)
        else:
            empty = sorted({c for c, x in zip(w.squares, state.squares[n - 1]) if x == EMPTY})
            picks = [(c,) for c in empty] + [pair for pair in combinations(empty, 2)]
            if held >= 2:
                picks += [(c, c) for c in empty if sum(1 for d, x in zip(w.squares, state.squares[n - 1])
                                                       if d == c and x == EMPTY) >= 2]
            out += [("enhance", p) for p in sorted(set(picks)) if len(p) <= held]
            out.append(("collect",))
    return out


def _breaks(state: State, temple: int) -> list[Move]:
    seat = state.seat
    grid = state.grids[seat]
    g = _grid(state, seat)
    t = state.table.temples[temple]
    out: list[Move] = []
    for layer, owner in enumerate(state.broken[temple]):
        if owner != EMPTY:
            continue
        seen: set[frozenset[int]] = set()
        for end, run in enumerate(_runs(t, layer)):
            if len(run) > _crystals(grid):
                continue
            ps = _paths(g, len(run))
            for i in paying_paths(grid, ps, run):
                slots = tuple(int(x) for x in ps[i])
                if frozenset(slots) not in seen:
                    seen.add(frozenset(slots))
                    out.append(("break", layer, end, slots))
    return out


def _raisable(state: State) -> list[int]:
    temple, layer, end = state.broke
    t = state.table.temples[temple]
    middle = (len(t.track) + 1) / 2
    price = {1: 2, 2: 3}
    out = []
    for up in (1, 2):
        target = layer + up if t.layers[layer].position < middle or (end == 0 and t.layers[layer].position == middle) \
            else layer - up
        if 0 <= target < len(t.layers) and state.broken[temple][target] == EMPTY \
                and abs(t.layers[target].position - middle) < abs(t.layers[layer].position - middle) + 1e-9 \
                and _crystals(state.grids[state.seat]) >= price[up]:
            out.append(target)
    return out


def _rune_sources(state: State) -> list[int]:
    temple = state.broke[0]
    if state.table.ability(state.seat) != "4B":
        return [temple] if state.piles[temple] else []
    temples = [n - 1 for k, n in state.table.circle if k == 0]
    k = temples.index(temple)
    near = {temple, temples[k - 1], temples[(k + 1) % len(temples)]}
    return sorted(t for t in near if state.piles[t])


# -- applying a move -------------------------------------------------------------------------


def _take(state: State, colour: int) -> State:
    """``colour`` from the supply into the seat's pending crystals (grid 1A: a colourless
    brings another); from the richest other grid when the supply has none."""
    seat = state.seat
    gained = [colour]
    if colour == 0 and state.table.ability(seat) == "1A":
        gained.append(0)
    for c in gained:
        if state.supply[c] > 0:
            state = _with(state, supply=_add(state.supply, c, -1), pending=state.pending + (c,))
            continue
        n = len(state.grids)
        holders = [(sum(1 for x in state.grids[s] if x == c), -((s - seat) % n), s) for s in range(n) if s != seat]
        count, _, richest = max(holders)
        if count:
            slot = state.grids[richest].index(c)
            state = _with(state, grids=_set(state.grids, richest, slot, EMPTY), pending=state.pending + (c,))
    return state


def _add(values: tuple[int, ...], i: int, d: int) -> tuple[int, ...]:
    return values[:i] + (values[i] + d,) + values[i + 1:]


def _set(grids: tuple[tuple[int, ...], ...], seat: int, slot: int, c: int) -> tuple[tuple[int, ...], ...]:
    g = grids[seat]
    return grids[:seat] + (g[:slot] + (c,) + g[slot + 1:],) + grids[seat + 1:]


def _resonance(state: State) -> State:
    symbol = _symbol(state, state.at[state.seat])
    held = list(state.runes[state.seat]) + ([state.kept[state.seat]] if state.kept[state.seat] else [])
    for rune_id in held:
        rune = _rune(state, rune_id)
        if rune.symbol == symbol:
            for c in rune.crystals:
                state = _take(state, c)
            if rune.points:
                state = _with(state, points=_add(state.points, state.seat, rune.points))
    return state


def apply(state: State, move: Move) -> State:
    what = move[0]
    seat = state.seat
    if what == "go":
        state = _with(state, at=state.at[:seat] + (move[1],) + state.at[seat + 1:], phase="act")
        if move[2]:
            state = _with(state, phase="pay", owed=step_price(move[2]), then=("act",))
        return state
    if what == "pay":
        c = state.grids[seat][move[1]]
        grids = _set(state.grids, seat, move[1], EMPTY)
        then = state.then
        if then[0] == "enhance":  # the crystal goes on the card's square
            number, square = then[1], then[2][0]
            row = state.squares[number - 1]
            state = _with(state, grids=grids, squares=state.squares[:number - 1] + (
                row[:square] + (c,) + row[square + 1:],) + state.squares[number:],
                then=(then[0], number, then[2][1:], then[3]))
        else:
            state = _with(state, grids=grids, supply=_add(state.supply, c, 1))
        state = _with(state, owed=state.owed - 1)
        return state if state.owed else _after_payment(state)
    if what in ("place", "replace", "drop"):
        c, rest = state.pending[0], state.pending[1:]
        if what == "place":
            state = _with(state, grids=_set(state.grids, seat, move[1], c))
        elif what == "replace":
            old = state.grids[seat][move[1]]
            state = _with(state, grids=_set(state.grids, seat, move[1], c), supply=_add(state.supply, old, 1))
        else:
            state = _with(state, supply=_add(state.supply, c, 1))
        state = _with(state, pending=rest)
        return state if rest else _next(state)
    if what == "swap":
        return _with(state, phase="pay", owed=1, kept_slots=(move[1], move[2]), then=("swap", move[1], move[2]))
    if what == "buy":
        price = BUY_PRICE[state.table.ability(seat) == "1A"]
        return _with(state, phase="pay", owed=price, then=("buy", move[1]))
    if what == "spare":
        state = _with(state, spares=_add(state.spares, seat, -1), supply=_add(state.supply, 0, 1))
        state = _gain_now(state, move[1])
        return state
    if what == "collect":
        kind, n = _card(state, state.at[seat])
        state = _with(state, acted=state.acted + ("collect",))
        if kind == 0:
            state = _take(state, n)
        else:
            w = state.table.parts.card(n)
            if w.kind == "direct":
                for c in w.crystals:
                    state = _take(state, c)
        return _next(_resonance(state))
    if what == "convert":
        return _with(state, phase="pay", owed=3, then=("convert", move[1], move[2]),
                       acted=state.acted + ("collect",))
    if what == "enhance":
        n = _card(state, state.at[seat])[1]
        w = state.table.parts.card(n)
        free = [i for i, (d, x) in enumerate(zip(w.squares, state.squares[n - 1])) if x == EMPTY]
        chosen: list[int] = []
        for c in move[1]:
            chosen.append(next(i for i in free if w.squares[i] == c and i not in chosen))
        return _with(state, phase="pay", owed=len(chosen), then=("enhance", n, tuple(chosen), move[1]),
                       acted=state.acted + ("collect",))
    if what == "break":
        return _break(state, move[1], move[2], move[3])
    if what == "raise":
        temple, layer, end = state.broke
        t = state.table.temples[temple]
        broken = state.broken[temple]
        broken = broken[:layer] + (EMPTY,) + broken[layer + 1:]
        broken = broken[:move[1]] + (seat,) + broken[move[1] + 1:]
        points = state.points[seat] - int(t.layers[layer].points or 0) + int(t.layers[move[1]].points or 0)
        state = _with(state, broken=state.broken[:temple] + (broken,) + state.broken[temple + 1:],
                        points=state.points[:seat] + (points,) + state.points[seat + 1:],
                        broke=(temple, move[1], end), log=state.log[:-1] + ((temple, move[1]) + state.log[-1][2:],))
        up = abs(move[1] - layer)
        return _with(state, phase="pay", owed={1: 2, 2: 3}[up], then=("raised",))
    if what == "keep":
        return _after_raise(state)
    if what == "rune":
        t = move[1]
        rune = state.piles[t][0]
        state = _with(state, piles=state.piles[:t] + (state.piles[t][1:],) + state.piles[t + 1:],
                        runes=state.runes[:seat] + (state.runes[seat] + (rune,),) + state.runes[seat + 1:])
        return _after_rune(state)
    if what == "end":
        return _end_turn(state)
    raise ValueError(f"no move {move!r}")


def _gain_now(state: State, colour: int) -> State:
    """A crystal gained before the action (bought, a spare): put on the grid, then back to
    the action."""
    state = _take(state, colour)
    if state.pending:
        return _with(state, phase="place", then=("act",))
    return _with(state, phase="act")


def _after_payment(state: State) -> State:
    then = state.then
    state = _with(state, kept_slots=(), then=())
    seat = state.seat
    if then[0] == "act":
        return _with(state, phase="act")
    if then[0] == "swap":
        a, b = then[1], then[2]
        g = state.grids[seat]
        grids = _set(_set(state.grids, seat, a, g[b]), seat, b, g[a])
        return _with(state, grids=grids, phase="act")
    if then[0] == "buy":
        return _gain_now(state, then[1])
    if then[0] == "convert":
        state = _take(_take(state, then[1]), then[2])
        return _next(_resonance(state))
    if then[0] == "enhance":
        n, colours = then[1], then[3]
        for c in colours:
            state = _take(state, c)
        row = state.squares[n - 1]
        if sum(1 for x in row if x == EMPTY) <= 2:  # cleared: the card's crystals back to the supply
            supply = state.supply
            for x in row:
                if x != EMPTY:
                    supply = _add(supply, x, 1)
            state = _with(state, supply=supply, squares=state.squares[:n - 1] + (
                (EMPTY,) * len(row),) + state.squares[n:])
        return _next(_resonance(state))
    if then[0] == "raised":
        return _after_raise(state)
    raise AssertionError(then)


def _break(state: State, layer: int, end: int, slots: tuple[int, ...]) -> State:
    seat = state.seat
    kind, n = _card(state, state.at[seat])
    temple = n - 1
    t = state.table.temples[temple]
    grids, supply = state.grids, state.supply
    for s in slots:
        supply = _add(supply, grids[seat][s], 1)
        grids = _set(grids, seat, s, EMPTY)
    broken = state.broken[temple][:layer] + (seat,) + state.broken[temple][layer + 1:]
    markers = _add(state.markers, seat, 1)
    held = _add(state.held, temple, state.turn // len(state.grids))
    state = _with(state, grids=grids, supply=supply, broken=state.broken[:temple] + (broken,) +
                    state.broken[temple + 1:], markers=markers,
                    points=_add(state.points, seat, int(t.layers[layer].points or 0)),
                    acted=state.acted + ("break",), broke=(temple, layer, end), held=held,
                    log=state.log + ((temple, layer, state.turn // len(state.grids), seat),),
                    ending=state.ending or markers[seat] >= parts.MARKERS)
    if state.table.ability(seat) == "2B" and _raisable(state):
        return _with(state, phase="raise")
    return _after_raise(state)


def _after_raise(state: State) -> State:
    if len(_rune_sources(state)) > 1:
        return _with(state, phase="rune")
    if _rune_sources(state):
        return apply(_with(state, phase="rune"), ("rune", _rune_sources(state)[0]))
    return _after_rune(state)


def _after_rune(state: State) -> State:
    seat = state.seat
    if state.table.ability(seat) == "4A":
        bonus = state.table.parts.bonuses[state.markers[seat] - 1]
        for c in bonus.crystals:
            state = _take(state, c)
        state = _with(state, points=_add(state.points, seat, bonus.points))
    return _next(state)


def _next(state: State) -> State:
    """After an action: the crystals gained go on the grid, then the turn ends (or grid 1B's
    seat at a temple may act again)."""
    if state.pending:
        return _with(state, phase="place")
    if state.then == ("act",):
        return _with(state, phase="act", then=())
    kind = _card(state, state.at[state.seat])[0]
    if kind == 0 and state.table.ability(state.seat) == "1B" and len(state.acted) == 1:
        return _with(state, phase="act")
    return _end_turn(state)


def _end_turn(state: State) -> State:
    players = len(state.grids)
    seat = (state.seat + 1) % players
    return _with(state, seat=seat, phase="move", acted=(), broke=(-1, -1, -1), turn=state.turn + 1, owed=0,
                   then=(), kept_slots=())


# -- the end and the scores ----------------------------------------------------------------------


def over(state: State) -> bool:
    return state.ending and state.seat == 0 and state.phase == "move"


def _objectives(state: State) -> list[int]:
    players = len(state.grids)
    out = [0] * players
    for colour in state.table.objectives:
        counts = [sum(1 for o in state.broken[colour - 1] if o == s) for s in range(players)]
        levels = sorted({c for c in counts if c > 0}, reverse=True)
        if not levels:
            continue
        top = [s for s in range(players) if counts[s] == levels[0]]
        first, second = parts.OBJECTIVE_POINTS
        if len(top) > 1:
            for s in top:
                out[s] += (first + second) // len(top)
            continue
        out[top[0]] += first
        if len(levels) > 1:
            runners = [s for s in range(players) if counts[s] == levels[1]]
            for s in runners:
                out[s] += second // len(runners)
    return out


def _rune_kinds(state: State, seat: int) -> int:
    kinds = len({_rune(state, r).symbol for r in state.runes[seat]})
    if kinds and state.table.ability(seat) == "4B":
        kinds += 1
    return min(kinds, len(parts.RUNE_POINTS) - 1)


def scores(state: State) -> list[int]:
    if not over(state):
        return list(state.points)
    objectives = _objectives(state)
    return [p + objectives[s] + parts.RUNE_POINTS[_rune_kinds(state, s)] for s, p in enumerate(state.points)]


def shares(state: State) -> list[float]:
    """The highest score wins; then more coloured crystals, then more colourless, then the
    later seat."""
    total = scores(state)
    key = [(total[s], sum(1 for c in g if c > 0), sum(1 for c in g if c == 0) + state.spares[s], s)
           for s, g in enumerate(state.grids)]
    best = max(range(len(key)), key=key.__getitem__)
    return [1.0 if s == best else 0.0 for s in range(len(key))]


def turns(state: State) -> int:
    return state.turn


# -- what a seat sees, and an estimate of where it stands ------------------------------------------


def seen(state: State, seat: int) -> tuple[Any, ...]:
    # the turned-up cards are seen; of those beneath, only how many each pile holds
    hidden = (tuple(sorted(r for p in state.piles for r in p[1:])), tuple(len(p) for p in state.piles))
    return (state.grids, state.supply, state.at, state.broken, tuple(p[:1] for p in state.piles), hidden,
            state.runes, state.kept, state.spares, state.squares, state.points, state.markers, state.seat,
            state.phase, state.owed, state.kept_slots, state.then, state.pending, state.acted, state.broke,
            state.turn, state.ending)


def determinise(state: State, seat: int, rng: Any) -> State:
    """The face-down rune cards dealt afresh, each pile keeping its size and turned-up card."""
    unseen = sorted(r for p in state.piles for r in p[1:])
    rng.shuffle(unseen)
    piles, at = [], 0
    for p in state.piles:
        piles.append(p[:1] + tuple(unseen[at:at + len(p) - 1]) if p else ())
        at += max(0, len(p) - 1)
    return _with(state, piles=tuple(piles))


#: What a crystal still owed costs the look-ahead, over the tenth of a point every crystal
#: held is worth: about what one crystal adds to the hope of a curse (a curse of 3-8 points
#: asks for 3-7 crystals, each missing one discounting it by 0.6).
OWED = 0.5


def value(state: State, seat: int, flat: bool = False) -> float:
    """Points scored, the two best unbroken layers' points discounted by what the grid still
    lacks for them (0.6 a crystal missing; crystals gained and not yet placed, about to be
    collected where the seat stands, or being paid for, counted as in place where their
    colour is wanted), or
    nine tenths of the best curse it can break where it stands, and a tenth of a point a
    crystal held; crystals it still owes (a price being paid) counted as gone, and ``OWED``
    each besides, since the payer has not yet chosen which (without it a step bought looks
    free, and a look-ahead buys steps it has no use for); and the objectives as they stand
    (the temple objectives' 4 and 2 for the markers placed so far, the rune objective for the
    rune kinds held: scored at the end, but a player plays for them all game); ``flat``:
    every layer worth five points, and a seat's points counted as five a marker."""
    owed = state.owed if state.seat == seat and state.phase == "pay" else 0
    held = _crystals(state.grids[seat]) + len(state.pending) + state.spares[seat] - owed
    base = (5 * state.markers[seat] if flat else state.points[seat]) - OWED * owed
    base += _objectives(state)[seat] + parts.RUNE_POINTS[_rune_kinds(state, seat)]
    gained, temple = standing(state, seat)
    pending = (state.pending if state.seat == seat else ()) + gained
    near = 0.0
    if temple >= 0:  # the best curse it could break where it stands, as nearly scored
        near = 0.9 * _breakable(state.table, state.table.sides[seat], state.grids[seat], state.broken, temple, flat)
    return base + max(near, _hopes(state.table, state.table.sides[seat], state.grids[seat], state.broken, flat,
                                   tuple(sorted(pending)))) + 0.1 * held


def standing(state: State, seat: int) -> tuple[tuple[int, ...], int]:
    """What a seat in its turn is promised where it stands: the crystals it will gain
    (collecting there, a temple's colour or a direct wilderness card's; or, while paying, the
    colours a conversion, an enhancement or a purchase gives once paid), and the temple (0-4)
    it may still break a curse at there (-1: none)."""
    if state.seat != seat or state.at[seat] < 0:
        return (), -1
    then = state.then if state.phase == "pay" else ()
    if then[:1] == ("convert",):
        return (then[1], then[2]), -1
    if then[:1] == ("enhance",):
        return tuple(then[3]), -1
    bought = (then[1],) if then[:1] == ("buy",) else ()
    acting = state.phase == "act" or then == ("act",) or bool(bought)  # bought: the action is still to come
    if not acting or state.acted:
        return bought, -1
    kind, n = _card(state, state.at[seat])
    if kind == 0:
        return bought + (n,), n - 1
    card = state.table.parts.card(n)
    return bought + (tuple(card.crystals) if card.kind == "direct" else ()), -1


@dataclass(frozen=True, slots=True)
class _Runs:
    """Every layer's two runs on the table (from the left end, from the right), padded into
    one array for the compiled count: run ``2 * i + end`` is layer ``layers[i]``'s."""

    layers: tuple[tuple[int, int], ...]  # (temple, layer) in order
    runs: np.ndarray  # (2 * layers, longest run), padded with 0
    lengths: np.ndarray  # each run's length
    hoped: dict[Any, float]  # the look-ahead's values by grid (an agent asks for the same grid many times)


def _runs_of(table: Table) -> _Runs:
    layers = [(k, m) for k, t in enumerate(table.temples) for m in range(len(t.layers))]
    runs = [run for k, m in layers for run in _runs(table.temples[k], m)]
    longest = max((len(r) for r in runs), default=1)
    padded = np.zeros((len(runs), longest), dtype=np.int64)
    for i, run in enumerate(runs):
        padded[i, :len(run)] = run
    return _Runs(tuple(layers), padded, np.asarray([len(r) for r in runs], dtype=np.int64), {})


_table_runs = last_seen(_runs_of)


@lru_cache(maxsize=64)
def _all_paths(grid: Grid, longest: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every directed simple path of 1 to ``longest`` slots in one padded array, where each
    length starts (paths of ``k`` slots are rows ``starts[k]`` to ``starts[k + 1]``), and for
    each path and depth ``j`` the next row of its length whose first ``j + 1`` slots differ
    (paths come depth-first, so those sharing a beginning are together: a beginning that
    already misses too much is passed over whole)."""
    blocks = [_paths(grid, k) for k in range(1, longest + 1)]
    starts = np.zeros(longest + 2, dtype=np.int64)
    for k, block in enumerate(blocks, start=1):
        starts[k + 1] = starts[k] + len(block)
    padded = np.zeros((int(starts[-1]), longest), dtype=np.int64)
    for k, block in enumerate(blocks, start=1):
        if len(block):
            padded[starts[k]:starts[k + 1], :k] = block
    return padded, starts, _skips(padded, starts)


@njit(cache=True)
def _skips(ps: np.ndarray, starts: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    skip = np.zeros(ps.shape, dtype=np.int64)
    for k in range(1, starts.shape[0] - 1):
        end = starts[k + 1]
        for i in range(end - 1, starts[k] - 1, -1):
            same = i + 1 < end
            for j in range(k):
                same = same and ps[i + 1, j] == ps[i, j]
                skip[i, j] = skip[i + 1, j] if same else i + 1
    return skip


def _hopes(table: Table, side: int, grid: tuple[int, ...], broken: tuple[tuple[int, ...], ...], flat: bool,
           pending: tuple[int, ...] = ()) -> float:
    """Half the two best unbroken layers' discounted points, crystals about to be placed
    counted as in place where their colour is wanted (kept for the table last seen)."""
    runs = _table_runs(table)
    key = (side, grid, broken, flat, pending)
    found = runs.hoped.get(key)
    if found is None:
        wanted = [broken[k][m] == EMPTY for k, m in runs.layers]
        lacks = _lacks(table, runs, side, grid, wanted, pending)
        hopes = sorted(((5 if flat else int(table.temples[k].layers[m].points or 0)) * 0.6 ** lacks[i]
                        for i, (k, m) in enumerate(runs.layers) if wanted[i]), reverse=True)
        found = runs.hoped[key] = 0.5 * float(sum(hopes[:2]))
    return found


def _breakable(table: Table, side: int, grid: tuple[int, ...], broken: tuple[tuple[int, ...], ...], temple: int,
               flat: bool) -> float:
    """The most points a curse of ``temple`` that the grid can pay now is worth (0: none)."""
    runs = _table_runs(table)
    key = (side, grid, broken[temple], temple, flat)
    found = runs.hoped.get(key)
    if found is None:
        wanted = [k == temple and broken[k][m] == EMPTY for k, m in runs.layers]
        lacks = _lacks(table, runs, side, grid, wanted, ())
        found = runs.hoped[key] = float(max([5 if flat else int(table.temples[k].layers[m].points or 0)
                                             for i, (k, m) in enumerate(runs.layers) if wanted[i] and lacks[i] == 0],
                                            default=0))
    return found


def _lacks(table: Table, runs: _Runs, side: int, grid: tuple[int, ...], wanted: Sequence[bool],
           pending: tuple[int, ...]) -> list[int]:
    """For each layer wanted (in ``runs.layers``' order), the fewest of its crystals missing
    from the grid, from either end (``_lack``); 99 for a layer not wanted."""
    if len(runs.hoped) > 200_000:
        runs.hoped.clear()
    ps, starts, skips = _all_paths(table.box.grids[side].grid, runs.runs.shape[1])
    counts = np.zeros(len(table.box.colours), dtype=np.int64)
    for c in pending:
        counts[c] += 1
    mask = np.repeat(np.asarray(wanted, dtype=np.bool_), 2)
    both = _least_missing_all(np.asarray(grid, dtype=np.int64), ps, starts, skips, runs.runs, runs.lengths, counts,
                              mask)
    return [int(min(both[2 * i], both[2 * i + 1])) for i in range(len(runs.layers))]


@njit(cache=True, nogil=True)
def _least_missing_all(grid: np.ndarray, ps: np.ndarray, starts: np.ndarray, skips: np.ndarray, runs: np.ndarray,
                       lengths: np.ndarray, pending: np.ndarray,
                       wanted: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """``_least_missing`` for every wanted run at once (99 where no path is long enough)."""
    out = np.full(runs.shape[0], 99, dtype=np.int64)
    spare = np.empty_like(pending)
    held = 0
    for c in range(pending.shape[0]):
        held += pending[c]
    for r in range(runs.shape[0]):
        k = lengths[r]
        if not wanted[r] or starts[k + 1] == starts[k]:
            continue
        best = k
        i = starts[k]
        while i < starts[k + 1]:
            spare[:] = pending
            left = held  # pending crystals not yet used for a coloured position
            missing_any = 0
            missing = 0
            cut = -1
            for j in range(k):
                c = grid[ps[i, j]]
                need = runs[r, j]
                if c >= 0 and (need == 0 or c == need):
                    continue
                if need == 0:
                    missing_any += 1
                elif spare[need] > 0:
                    spare[need] -= 1
                    left -= 1
                else:
                    missing += 1
                # what the prefix misses already (colourless positions beyond the pending
                # crystals left): every path beginning as this one does misses as much
                if missing + max(0, missing_any - left) >= best:
                    cut = j
                    break
            if cut >= 0:
                i = skips[i, cut]
                continue
            missing += max(0, missing_any - left)
            if missing < best:
                best = missing
                if best == 0:
                    break
            i += 1
        out[r] = best
    return out


def lack(state: State, seat: int, temple: int, layer: int, pending: Sequence[int] = ()) -> int:
    """The fewest of a layer's crystals missing from a seat's grid on any path of its run's
    length, from either end (a crystal in place counts; an empty slot or a wrong colour does
    not), each missing one that a crystal in ``pending`` (about to be put on the grid) can
    fill counted as filled."""
    runs = _table_runs(state.table)
    side, grid = state.table.sides[seat], state.grids[seat]
    key = ("lack", side, grid, temple, layer, tuple(sorted(pending)))  # only their counts matter
    found = runs.hoped.get(key)
    if found is None:
        i = runs.layers.index((temple, layer))
        wanted = [n == i for n in range(len(runs.layers))]
        found = runs.hoped[key] = _lacks(state.table, runs, side, grid, wanted, tuple(pending))[i]
    return int(found)


def check(state: State) -> list[str]:
    problems = []
    counts = list(state.supply)
    for g in state.grids:
        for c in g:
            if c != EMPTY:
                counts[c] += 1
    for c in state.pending:
        counts[c] += 1
    for row in state.squares:
        for c in row:
            if c != EMPTY:
                counts[c] += 1
    counts[0] += sum(state.spares)
    if tuple(counts) != state.table.box.supply:
        problems.append(f"crystals not conserved: {counts} against the supply {list(state.table.box.supply)}")
    if any(n < 0 for n in state.supply):
        problems.append(f"the supply went below zero: {list(state.supply)}")
    runes = sorted([r for p in state.piles for r in p] + [r for h in state.runes for r in h] +
                   [r for r in state.kept if r])
    if runes != sorted(r.id for r in state.table.parts.runes)[:len(runes)] or \
            len(runes) != parts.RUNES_PER_TEMPLE * len(state.table.temples):
        problems.append("rune cards not conserved")
    placed = [sum(1 for row in state.broken for o in row if o == s) for s in range(len(state.grids))]
    if placed != list(state.markers) or max(state.markers) > parts.MARKERS:
        problems.append(f"markers on the temples {placed} are not the markers placed {list(state.markers)}")
    return problems


def card_events(state: State) -> Mapping[Any, tuple[int, int, int]]:
    """Each temple card on the table: dealt once, scored once for each layer broken, and the
    rounds its breakers had played before each break."""
    return {card_id: (1, sum(1 for o in state.broken[k] if o >= 0), state.held[k])
            for k, card_id in enumerate(state.table.ids)}


printed = no_printed_points  # temple cards print points on each layer, not one value a card


scale = no_scale


compiled = not_compiled  # played in Python


def summary(state: State) -> tuple[Any, ...]:
    """What ``insights`` reads of a game: each seat's grid side, each seat's share of the
    win, every break (temple, layer, round, seat), and the temples on the table (their deck
    ids and their layers' points; None for a layer a spare marker covers at 2 players)."""
    sides = tuple(state.table.ability(s) for s in range(len(state.grids)))
    temples = tuple((card_id, tuple(None if owner == BLOCKED else int(layer.points or 0)
                                    for layer, owner in zip(t.layers, state.broken[k])))
                    for k, (card_id, t) in enumerate(zip(state.table.ids, state.table.temples)))
    return sides, tuple(shares(state)), state.log, temples


def insights(summaries: Sequence[tuple[Any, ...]], players: int, ids: Sequence[Any]) -> tuple[dict[str, Any],
                                                                                              list[str]]:
    """How often each grid side wins (its ability and lines together), and each curse: how
    often it is broken, in which round, and how often its breaker wins (a layer covered at
    2 players left out); findings where a side wins outside a fair share, curses nobody
    breaks, and whether points follow what a curse costs in play (the round it is broken
    in)."""
    from generators.common.grading import spearman
    from generators.common.playtest import family_z, wilson

    n = len(summaries)
    fair = 1 / players
    found: list[str] = []
    names = sorted({side for sides, *_ in summaries for side in sides})
    z = family_z(max(1, len(names)))
    sides_out = []
    for name in names:
        played = [shares[s] for sides, shares, *_ in summaries for s, side in enumerate(sides) if side == name]
        wins = sum(played)
        lo, hi = wilson(wins, len(played))
        sides_out.append({"side": name, "seats": len(played), "win_rate": round(wins / len(played), 4),
                          "ci95": [round(lo, 4), round(hi, 4)], "fair": round(fair, 4)})
        wide = wilson(wins, len(played), z)
        if not wide[0] <= fair <= wide[1]:
            found.append(f"Grid side {name} wins {wins / len(played):.1%} of the {len(played)} games it was played in "
                         f"(95% interval {lo:.1%}-{hi:.1%}; {wide[0]:.1%}-{wide[1]:.1%} with all {len(names)} sides "
                         f"tested at once): {'more' if wins / len(played) > fair else 'less'} than a fair share of "
                         f"{fair:.1%}; its ability or its lines need another look.")
    breaks: dict[tuple[Any, int], list[tuple[int, float]]] = {}
    temples: dict[Any, tuple[int, ...]] = {}
    for _, shares, log, table in summaries:
        temples.update(table)
        for temple, layer, rnd, seat in log:
            breaks.setdefault((table[temple][0], layer), []).append((rnd, shares[seat]))
    curses: list[dict[str, Any]] = []
    never, priced = [], []
    for card_id, points in temples.items():
        for layer, worth in enumerate(points):
            if worth is None:  # covered at 2 players: not in play
                continue
            got = breaks.get((card_id, layer), [])
            rounds = sum(r for r, _ in got) / len(got) if got else None
            curses.append({"card": card_id, "layer": layer + 1, "points": worth, "broken": round(len(got) / n, 4),
                           "mean_round": round(rounds, 2) if rounds is not None else None,
                           "breaker_wins": round(sum(w for _, w in got) / len(got), 4) if got else None})
            if rounds is None:
                never.append(f"{card_id} layer {layer + 1}")
            else:
                priced.append((float(worth), rounds))
    said: dict[str, Any] = {"grid_sides": sides_out, "curses": curses}
    if never:
        found.append(f"{len(never)} curse{'s' if len(never) != 1 else ''} never broken in {n} games: "
                     f"{', '.join(never[:8])}{f' and {len(never) - 8} more' if len(never) > 8 else ''}.")
    rho = spearman([p for p, _ in priced], [r for _, r in priced]) if len(priced) > 2 else None
    if rho is not None:
        said["points_against_round"] = round(rho, 4)
        found.append(f"Points against the round a curse is broken in: Spearman {rho:+.2f} over {len(priced)} curses. "
                     f"The agents see the points, so this is how a table plays them (negative: the dearest are "
                     f"broken first), not what a curse costs; its cost in play is its chase (`generate "
                     f"--price play`, the turns in play verify lists).")
    return said, found


if TYPE_CHECKING:  # the type checker holds this module to the contract
    import generators.mystery_of_the_temples.engine as _self
    from generators.contract import Engine

    _conforms: Engine = _self
