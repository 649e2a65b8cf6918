"""What a curse costs in play: the turns a player who goes for it needs, from the states real
games reach (``engine``), never from the points printed on it.

1. States. Games of greedy agents blind to the points (every layer worth the same) are
   played with the deck for the player count its side is for (3 players for the 2-3
   sides, 4 for the 4 sides); at the start of every seat's turn from the second round on,
   the state is kept (its grid, its place on the circle, the others' meeples in the way,
   the supply and the cards as the game left them).
2. The chase. From each kept state, for each layer of the temples on the table (one broken
   in that game already is chased as if it were not), the seat plays alone (the others' meeples off the circle) with one
   aim: that layer. Each move is the one that leaves the fewest of its crystals missing on
   the grid's best path (crystals gained and not yet placed counted where their colour is
   wanted), fewer crystals spent breaking ties, the layer broken at once when it can be;
   the turns until it is broken are counted, up to ``CAP`` (a chase that reaches it counts
   ``CAP``, and the share of such chases is reported).
3. The price: each layer's mean over the kept states (``STATES`` of them, drawn evenly from
   the games), with its standard error. The same deck, player counts and seed give the same
   figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from generators.common.grading import standard_error
from generators.common.play import GreedyAgent, agent_rng
from generators.mystery_of_the_temples import engine

#: Games played to reach the states a chase starts from, per player count.
GAMES = 6
#: States kept per player count (drawn evenly from every kept turn of the games).
STATES = 24
#: The most turns a chase is followed for.
CAP = 12
#: How much more a layer's cost in play must be (mean turns) before a lower price for it is
#: a fault: about one standard error of a layer's mean over ``STATES`` chases (0.3-0.7 turns
#: on the default deck), so two layers closer than that are not told apart.
CLEARLY_TURNS = 0.5


@dataclass(frozen=True, slots=True)
class Cost:
    """A layer's cost in play: the mean turns to break it, its standard error, the share of
    chases that reached ``CAP`` and the chases run."""

    turns: float
    error: float
    capped: float
    chases: int


def states(deck: Any, players: int, seed: int, games: int | None = None, keep: int | None = None) -> list[engine.State]:
    """``keep`` (``STATES``) states at the start of a seat's turn, from the second round on,
    drawn evenly from ``games`` (``GAMES``) games of points-blind greedy agents."""
    games = GAMES if games is None else games
    keep = STATES if keep is None else keep
    kept: list[engine.State] = []
    for game in range(games):
        game_seed = seed * 1000 + game
        state = engine.start(deck, players, game_seed)
        agents = [GreedyAgent(flat=True) for _ in range(players)]
        rngs = [agent_rng(game_seed, s) for s in range(players)]
        while not engine.over(state) and state.turn < 60 * players:
            if state.phase == "move" and state.turn >= players and not state.ending:
                kept.append(state)
            seat = engine.to_act(state)
            state = engine.apply(state, agents[seat].choose(engine, state, seat, rngs[seat]))
    if len(kept) <= keep:
        return kept
    step = len(kept) / keep
    return [kept[int(i * step)] for i in range(keep)]


def chase(state: engine.State, temple: int, layer: int, cap: int | None = None) -> int:
    """The turns the seat to act needs, playing alone for ``layer`` of ``temple``, to break
    it (``cap`` when it has not by then)."""
    cap = CAP if cap is None else cap
    seat = state.seat
    state = engine._with(state, ending=False, at=tuple(a if s == seat else -1 for s, a in enumerate(state.at)))
    for turn in range(1, cap + 1):
        while True:
            options = engine.moves(state)
            target = [m for m in options if m[0] == "break" and m[1] == layer and
                      engine._card(state, state.at[seat]) == (0, temple + 1)]
            if target:
                return turn
            move = max(options, key=lambda m: _aim(engine.apply(state, m), seat, temple, layer))
            state = engine.apply(state, move)
            if state.seat != seat:  # the turn is over: the others stand still
                state = engine._with(state, seat=seat, phase="move", turn=state.turn)
                break
            if state.broken[temple][layer] == seat:
                return turn
    return cap


def _aim(state: engine.State, seat: int, temple: int, layer: int) -> tuple[float, ...]:
    """How close a state is to breaking the layer: where the seat stands able to break it
    first, then the fewest crystals missing, then the most crystals held."""
    if state.broken[temple][layer] == seat:
        return (2.0, 0.0, 0.0)
    grid = state.grids[seat]
    gained, at_temple = engine.standing(state, seat)
    if at_temple == temple and engine.lack(state, seat, temple, layer) == 0:
        return (1.0, 0.0, 0.0)
    pending = (list(state.pending) if state.seat == seat else []) + list(gained)
    lack = engine.lack(state, seat, temple, layer, pending)
    owed = state.owed if state.seat == seat and state.phase == "pay" else 0
    held = sum(1 for c in grid if c != engine.EMPTY) + len(pending) - owed
    return (0.0, -float(lack), float(held))


def costs(deck: Any, players: int, seed: int, games: int | None = None, keep: int | None = None,
          cap: int | None = None) -> dict[tuple[Any, int], Cost]:
    """Each layer of the temples ``players`` play (by deck card id and layer index): its
    cost in play (see the module docstring)."""
    found: dict[tuple[Any, int], list[int]] = {}
    for state in states(deck, players, seed, games, keep):
        for temple, t in enumerate(state.table.temples):
            for layer in range(len(t.layers)):
                row = state.broken[temple]  # broken already in that game: chased as if it were not
                broken = row[:layer] + (engine.EMPTY,) + row[layer + 1:]
                fresh = engine._with(state, broken=state.broken[:temple] + (broken,) + state.broken[temple + 1:])
                found.setdefault((state.table.ids[temple], layer), []).append(chase(fresh, temple, layer, cap))
    out = {}
    for key, turns in found.items():
        mean = sum(turns) / len(turns)
        top = CAP if cap is None else cap
        out[key] = Cost(round(mean, 4), round(standard_error(turns), 4),
                        round(sum(1 for x in turns if x >= top) / len(turns), 4), len(turns))
    return out


def layer_costs(deck: Any, seed: int, player_counts: Sequence[int] = (3, 4),
                workers: int = 1) -> dict[tuple[Any, int], Cost]:
    """Every layer of the deck: its sides for 2-3 players chased in 3-player games, its
    sides for 4 in 4-player games (each count in its own process, up to ``workers``; the
    costs do not depend on it)."""
    from generators.common.pool import Pool

    out: dict[tuple[Any, int], Cost] = {}
    with Pool(workers) as pool:
        for found in pool.map(_costs_for, (deck, seed), player_counts):
            out.update(found)
    return out


def _costs_for(request: tuple[Any, int], players: int) -> dict[tuple[Any, int], Cost]:
    deck, seed = request
    return costs(deck, players, seed)
