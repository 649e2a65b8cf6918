"""Shifting Stones as it is played (``Engine``): the rules of ``seeds/003_*.txt``.

Set-up: the nine tiles shuffled into the 3x3 grid, each landing either side up; the pattern
cards shuffled, four to each player, the rest the face-down draw pile; seat 0 starts.

A turn is a run of moves by the seat to act:

- ``("swap", a, b, card)``: discard ``card`` to swap the tiles in places ``a`` and ``b``
  (0-8, reading order; orthogonal neighbours), each keeping its side;
- ``("flip", p, card)``: discard ``card`` to turn the tile in place ``p`` over;
- ``("score", card)``: lay a card in hand whose pattern the grid shows in front of you;
- ``("end",)``: end the turn, drawing up to four cards;
- ``("pass",)``: instead of all of the above, draw two cards and end the turn at once (a
  hand of six); never in two turns running.

Cards are named by their place in the deck (0-based). The game ends when a seat has scored
10/9/8/7 cards (2/3/4/5 players) and play comes back round to seat 0, so that every seat
has had as many turns. Each card scores its printed points; the seat(s) with the most
1-point cards score 3 more. Highest total wins; ties share.

Where the rules are silent (each is tested):

- the draw pile runs out: the discard pile is shuffled (from the game's seed) into a new
  draw pile; with both empty, a draw takes what there is;
- the bonus needs at least one 1-point card: with none scored by anyone, nobody gets it;
- a swap of two tiles showing the same face changes nothing and is not offered (it only
  burns a card); nor is a turn's action after a pass;
- a deck must print points on every card, and hold enough cards to deal every hand.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from generators.common.errors import RequestError
from generators.common.memo import last_seen
from generators.common.rng import Rng, derive
from generators.shifting_stones.space import PAIRS
from generators.shifting_stones.tiles import PLACES

PLAYERS = (2, 3, 4, 5)
#: Cards scored that end the game, by the number of players.
TARGET = {2: 10, 3: 9, 4: 8, 5: 7}
HAND = 4
PASS_DRAW = 2
BONUS = 3
#: A card's value in play (``card_events``: held / scored).
EFFORT = "turns held for each time it is scored"

Move = tuple[Any, ...]
END: Move = ("end",)
PASS: Move = ("pass",)


@dataclass(frozen=True, slots=True)
class Table:
    """The deck as the engine uses it: each card's id, points and where its pattern can
    show (for each place it fits, the places and faces it asks for)."""

    ids: tuple[Any, ...]
    points: tuple[int, ...]
    fits: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]
    types: tuple[int, ...]  # the tile types the grid holds, sorted

    def shows(self, grid: Sequence[int], card: int) -> bool:
        return any(all(grid[p] == f for p, f in fit) for fit in self.fits[card])


@dataclass(frozen=True, slots=True)
class State:
    table: Table = field(compare=False, repr=False)
    seed: int
    grid: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    draw: tuple[int, ...]  #: the draw pile, its top last
    discard: tuple[int, ...]  #: the discard pile, its top last
    scored: tuple[tuple[int, ...], ...]
    seat: int = 0
    acted: bool = False  #: the seat to act has moved this turn (so may not pass)
    passed: tuple[bool, ...] = ()  #: each seat passed its last turn
    turn: int = 0
    ending: bool = False  #: a seat has scored enough: the round is being finished
    finished: bool = False
    shuffles: int = 0  #: discard piles shuffled into a new draw pile so far
    dealt: tuple[int, ...] = ()  #: per card, how often it went to a hand
    held: tuple[int, ...] = ()  #: per card, the turns it spent in a hand (its holder's)


def table_of(deck: Any) -> Table:
    cards = deck.cards
    missing = [i for i, c in enumerate(cards) if c.points is None]
    if missing:
        raise RequestError(f"cards[{missing[0] + 1}].points: a playtest needs every card's points (this deck has "
                           f"{len(missing)} without; `generate shifting-stones` prices them)")
    fits = []
    for card in cards:
        pattern = card.pattern
        found = []
        for r0 in range(3 - pattern.height + 1):
            for c0 in range(3 - pattern.width + 1):
                found.append(tuple(((r0 + r) * 3 + c0 + c, f) for r, row in enumerate(pattern.rows)
                                   for c, f in enumerate(row) if f is not None))
        fits.append(tuple(found))
    types = tuple(sorted(t for t, n in enumerate(deck.tiles.counts) for _ in range(n)))
    return Table(tuple(c.id for c in cards), tuple(int(c.points) for c in cards), tuple(fits), types)


_table = last_seen(table_of)  # a playtest plays one deck: its table, made once


def start(deck: Any, players: int, seed: int) -> State:
    if players not in PLAYERS:
        raise RequestError(f"players: Shifting Stones is for {PLAYERS[0]} to {PLAYERS[-1]} players, not {players}")
    table = _table(deck)
    if len(table.ids) < HAND * players + PASS_DRAW:
        raise RequestError(f"cards: {players} players need at least {HAND * players + PASS_DRAW} cards, the deck "
                           f"has {len(table.ids)}")
    rng = random.Random(f"shifting-stones {seed} {players}")
    types = list(table.types)
    rng.shuffle(types)
    grid = tuple(t * 2 + rng.randrange(2) for t in types)
    order = list(range(len(table.ids)))
    rng.shuffle(order)
    hands = tuple(tuple(sorted(order[-HAND * (s + 1):len(order) - HAND * s])) for s in range(players))
    draw = tuple(order[:len(order) - HAND * players])
    dealt = [0] * len(table.ids)
    for hand in hands:
        for c in hand:
            dealt[c] += 1
    return State(table, seed, grid, hands, draw, (), tuple(() for _ in range(players)),
                 passed=(False,) * players, dealt=tuple(dealt), held=(0,) * len(dealt))


def to_act(state: State) -> int:
    return state.seat


def over(state: State) -> bool:
    return state.finished


def turns(state: State) -> int:
    return state.turn


def moves(state: State) -> list[Move]:
    if state.finished:
        return []
    hand = state.hands[state.seat]
    grid = state.grid
    out: list[Move] = [("score", c) for c in hand if state.table.shows(grid, c)]
    for c in hand:
        out.extend(("swap", a, b, c) for a, b in PAIRS if grid[a] != grid[b])
        out.extend(("flip", p, c) for p in range(PLACES))
    out.append(END)
    if not state.acted and not state.passed[state.seat]:
        out.append(PASS)
    return out


def _without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]


def _put(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return items[:i] + (value,) + items[i + 1:]


def _drawn(state: State, n: int) -> State:
    """The seat to act draws ``n`` cards (the discard pile shuffled in when the draw pile
    runs out)."""
    draw, discard, shuffles = state.draw, state.discard, state.shuffles
    got: list[int] = []
    for _ in range(n):
        if not draw and discard:
            pile = list(discard)
            Rng(derive(state.seed, shuffles)).shuffle(pile)
            draw, discard, shuffles = tuple(pile), (), shuffles + 1
        if not draw:
            break
        got.append(draw[-1])
        draw = draw[:-1]
    dealt = list(state.dealt)
    for c in got:
        dealt[c] += 1
    hand = tuple(sorted(state.hands[state.seat] + tuple(got)))
    return replace(state, hands=_put(state.hands, state.seat, hand), draw=draw, discard=discard, shuffles=shuffles,
                   dealt=tuple(dealt))


def _held(state: State, cards: tuple[int, ...]) -> State:
    """``cards`` held through this turn (the hand at its end, or a card scored or spent)."""
    held = list(state.held)
    for c in cards:
        held[c] += 1
    return replace(state, held=tuple(held))


def _next_turn(state: State, passed: bool) -> State:
    players = len(state.hands)
    ending = state.ending or any(len(s) >= TARGET[players] for s in state.scored)
    seat = (state.seat + 1) % players
    return replace(state, seat=seat, acted=False, passed=_put(state.passed, state.seat, passed), turn=state.turn + 1,
                   ending=ending, finished=ending and seat == 0)


def apply(state: State, move: Move) -> State:
    kind = move[0]
    seat = state.seat
    hand = state.hands[seat]
    if kind == "end":
        return _next_turn(_drawn(_held(state, hand), max(0, HAND - len(hand))), passed=False)
    if kind == "pass":
        if state.acted or state.passed[seat]:
            raise ValueError("a pass must be a whole turn, and never two turns running")
        return _next_turn(_drawn(_held(state, hand), PASS_DRAW), passed=True)
    if kind == "score":
        card = move[1]
        if not state.table.shows(state.grid, card):
            raise ValueError(f"card {state.table.ids[card]} is not shown")
        scored = _put(state.scored, seat, state.scored[seat] + (card,))
        return replace(_held(state, (card,)), hands=_put(state.hands, seat, _without(hand, card)), scored=scored,
                       acted=True)
    card = move[-1]
    state = _held(state, (card,))
    grid = list(state.grid)
    if kind == "swap":
        a, b = move[1], move[2]
        if (a, b) not in PAIRS:
            raise ValueError(f"places {a} and {b} are not neighbours")
        grid[a], grid[b] = grid[b], grid[a]
    elif kind == "flip":
        grid[move[1]] ^= 1
    else:
        raise ValueError(f"no move {move!r}")
    return replace(state, grid=tuple(grid), hands=_put(state.hands, seat, _without(hand, card)),
                   discard=state.discard + (card,), acted=True)


def points(state: State, seat: int) -> int:
    return sum(state.table.points[c] for c in state.scored[seat])


def scores(state: State) -> list[int]:
    out = [points(state, s) for s in range(len(state.hands))]
    if state.finished:
        ones = [sum(1 for c in scored if state.table.points[c] == 1) for scored in state.scored]
        most = max(ones)
        if most > 0:
            out = [v + BONUS * (n == most) for v, n in zip(out, ones)]
    return out


def shares(state: State) -> tuple[float, ...]:
    """Highest total wins; ties share."""
    from generators.common.play import shares_of

    return shares_of(scores(state))


def seen(state: State, seat: int) -> tuple[Any, ...]:
    return (state.grid, state.hands[seat], tuple(len(h) for h in state.hands), len(state.draw), state.discard,
            state.scored, state.seat, state.acted, state.passed, state.turn, state.ending, state.finished)


def determinise(state: State, seat: int, rng: random.Random) -> State:
    """The others' hands and the draw pile dealt afresh from the cards ``seat`` cannot see."""
    unseen = sorted([c for s, h in enumerate(state.hands) if s != seat for c in h] + list(state.draw))
    rng.shuffle(unseen)  # (from the sorted cards: the deal depends on what the seat sees alone)
    hands = list(state.hands)
    at = 0
    for s, hand in enumerate(state.hands):
        if s != seat:
            hands[s] = tuple(sorted(unseen[at:at + len(hand)]))
            at += len(hand)
    return replace(state, hands=tuple(hands), draw=tuple(unseen[at:]))


def value(state: State, seat: int, flat: bool = False) -> float:
    """Points scored, nine tenths of the points of the cards in hand the grid shows now
    (scored next), and a twentieth of a point a card in hand (a card spent is a loss);
    ``flat``: every card worth one point."""
    hand = state.hands[seat]
    worth = (lambda c: 1) if flat else state.table.points.__getitem__
    shown = sum(worth(c) for c in hand if state.table.shows(state.grid, c))
    return sum(worth(c) for c in state.scored[seat]) + 0.9 * shown + 0.05 * len(hand)


def check(state: State) -> list[str]:
    problems = []
    n = len(state.table.ids)
    everywhere = [c for h in state.hands for c in h] + list(state.draw) + list(state.discard) + \
        [c for s in state.scored for c in s]
    if sorted(everywhere) != list(range(n)):
        problems.append(f"cards not conserved: {len(everywhere)} placed of {n}, {len(set(everywhere))} distinct")
    if tuple(sorted(f // 2 for f in state.grid)) != state.table.types:
        problems.append(f"tiles not conserved: the grid holds {sorted(f // 2 for f in state.grid)}")
    for s, scored in enumerate(state.scored):
        if any(not state.table.fits[c] for c in scored):
            problems.append(f"seat {s + 1} scored a card that fits nowhere")
    total = sum(scores(state))
    printed = sum(points(state, s) for s in range(len(state.hands)))
    ones = [sum(1 for c in scored if state.table.points[c] == 1) for scored in state.scored]
    bonus = BONUS * ones.count(max(ones)) if state.finished and max(ones) > 0 else 0
    if total != printed + bonus:
        problems.append(f"scores {total} are not the points scored {printed} and the bonus {bonus}")
    if any(d < 0 for d in state.dealt) or sum(state.dealt) < sum(len(h) for h in state.hands):
        problems.append("dealt counts fewer cards than the hands hold")
    return problems


def card_events(state: State) -> Mapping[Any, tuple[int, int, int]]:
    scored = {c for s in state.scored for c in s}
    return {card_id: (state.dealt[i], int(i in scored), state.held[i]) for i, card_id in enumerate(state.table.ids)}


def printed(deck: Any) -> list[int | None]:
    return [c.points for c in deck.cards]


def scale(cards: int) -> list[tuple[int, int]]:
    """The published mix (28/26/13/5 of 72 cards at 1/2/3/5 points), scaled to ``cards``."""
    from generators.shifting_stones.scale import PUBLISHED_MIX, scaled

    return list(scaled(PUBLISHED_MIX, cards))


def compiled(state: State, agents: tuple[str, ...], flat: bool, max_turns: int) -> tuple[State, list[Move]] | None:
    """The game played by ``fast`` (random, greedy and search agents; None for any other)."""
    from generators.shifting_stones import fast

    if any(a not in fast.KINDS for a in agents):
        return None
    return fast.play(state, agents, flat, max_turns, (TARGET[len(state.hands)], HAND, PASS_DRAW), (END, PASS))


def summary(state: State) -> tuple[()]:
    return ()


def insights(summaries: Sequence[Any], players: int, ids: Sequence[Any]) -> tuple[dict[str, Any], list[str]]:
    """None beyond the shared report's."""
    return {}, []


if TYPE_CHECKING:  # the type checker holds this module to the contract
    import generators.shifting_stones.engine as _self
    from generators.contract import Engine

    _conforms: Engine = _self
