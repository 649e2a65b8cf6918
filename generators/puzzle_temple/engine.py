"""Puzzle Temple as it is played (``Engine``): the race of ``seeds/000_*.txt``.

Set-up: the 78 jewels (13 of each of 6 colours) shuffled into the six levels' holes, 13 a
level, each level a line taken from the end nearest the starting hexagon; every pawn on the
starting hexagon (level 0); the lock cards shuffled, 9 a player kept (36 for 4 players, 27
for 3, 18 for 2; a smaller deck plays as many whole rounds as it deals).

A round: every seat draws a card, the die is rolled, and everyone races to cover their lock
with the rolled face's blocks. Nobody decides how fast they solve, so the race is drawn
(``solve_time``); what players decide is where to go. Those who unlock their gate within the
minute move in the order they finished, up to 3/2/1/0 steps (4 players; 3/2/1 for 3, 3/1
for 2) either way along the levels, and take the two outermost jewels of the level they
stand on. If nobody unlocks within the minute the timer runs a second minute; if still
nobody, the cards are set aside and the round is over. The game ends after 9 rounds (every
card kept has been used). The most jewels of one colour wins; a tie goes to the
next-highest single colour, and so on; players level in every colour share the win.

Moves are ``("move", level)``: the level (0-6) the seat to act ends on, any within its steps
(staying put included).

The race, a model: a player's time on a face is lognormal around
``READ + PACE * 2**bits / skill`` seconds with spread ``SPREAD``, where ``bits`` is the face's
rated difficulty (``solver.rating``: log2 of the expected placements a model solver looks at
before its first tiling, so the time grows with that expected work) and ``skill`` the
player's speed (1 for an average player; each seat's skill drawn at set-up, spread
``SKILL_SPREAD`` in log terms). With these constants an average player takes about 13 s on a
4-bit face, 25 s on the default deck's median face (5.7 bits) and 70 s on a 7.5-bit one.

Where the rules are silent (each is tested):

- moving, collecting and grabbing take ``COLLECT`` seconds: a player who unlocks with less
  time left than that does not move (the seed: whoever has not moved when the time runs out
  does not move), though their place in the finishing order still counts;
- players on the same level take their jewels in the order they finished, two each (the
  first to collect "gets the next jewel in line": their two are consecutive); a level with
  fewer than two left gives what it has, the starting hexagon none;
- the fourth finisher (0 steps) and anyone who chooses not to move collect where they stand;
- the first minute's unlockers move in it; the second minute runs only when nobody unlocked
  in the first.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from generators.common.errors import RequestError
from generators.common.memo import last_seen
from generators.common.play import no_printed_points, no_scale, not_compiled, replacer
from generators.common.rng import Rng, derive

PLAYERS = (2, 3, 4)
ROUNDS = 9
LEVELS = 6
COLOURS = 6
PER_COLOUR = 13
#: Steps by finishing order.
STEPS = {2: (3, 1), 3: (3, 2, 1), 4: (3, 2, 1, 0)}
#: Jewels a player takes on their level.
TAKE = 2
#: Seconds in a minute of the timer, and what a round may run to (a second minute).
MINUTE = 60.0
#: The race model: seconds to read the face and pick up the blocks, seconds per placement
#: looked at (an average player), the spread of a player's time (log), and the spread of
#: skill among players (log).
READ = 8.0
PACE = 0.33
SPREAD = 0.35
SKILL_SPREAD = 0.25
#: Seconds to move a pawn and take the jewels.
COLLECT = 5.0
#: A card's value in play (``card_events``: seconds / unlocked).
EFFORT = "seconds spent for each time its holder unlocks it in time to move"

Move = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Table:
    """The deck as the engine uses it: each card's id and its faces' ratings (bits), by die."""

    ids: tuple[Any, ...]
    bits: tuple[tuple[float, ...], ...]


@dataclass(frozen=True, slots=True)
class Round:
    """One round as it went: the die, each seat's card, each seat's time (seconds; None when
    it did not unlock), and the seats in the order they unlocked."""

    die: int
    cards: tuple[int, ...]
    times: tuple[float | None, ...]
    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class State:
    table: Table = field(compare=False, repr=False)
    seed: int
    skills: tuple[float, ...]
    pile: tuple[int, ...]  #: the cards still to be drawn, in deck order (each round draws at random from them)
    chance: int  #: what the dice and the race of the rounds to come are drawn from
    rounds: int  #: the rounds this game runs to
    levels: tuple[tuple[int, ...], ...]  #: each level's jewels (colours), the next taken first
    at: tuple[int, ...]  #: each seat's level (0: the starting hexagon)
    jewels: tuple[tuple[int, ...], ...]  #: each seat's jewels, a count per colour
    played: tuple[Round, ...] = ()  #: the rounds so far, this one last
    queue: tuple[tuple[int, int], ...] = ()  #: this round's movers still to move: (seat, steps)
    finished: bool = False
    dealt: tuple[int, ...] = ()  #: per card, how often it was drawn
    unlocked: tuple[int, ...] = ()  #: per card, how often its holder unlocked it in time to move
    seconds: tuple[int, ...] = ()  #: per card, the seconds spent on it (to its unlocking, or the end)


_with = replacer(State)


def table_of(deck: Any) -> Table:
    bits = []
    for n, card in enumerate(deck.cards):
        faces = {f.die: f.difficulty for f in card.faces}
        missing = [d for d in range(1, 7) if faces.get(d) is None]
        if missing:
            raise RequestError(f"cards[{n + 1}].faces: a playtest needs every face's difficulty (card {card.id} has "
                               f"none for die {missing[0]}; `templeforge verify --seal` rates them)")
        bits.append(tuple(float(faces[d]) for d in range(1, 7)))
    return Table(tuple(c.id for c in deck.cards), tuple(bits))


_table = last_seen(table_of)  # a playtest plays one deck: its table, made once


def start(deck: Any, players: int, seed: int) -> State:
    if players not in PLAYERS:
        raise RequestError(f"players: Puzzle Temple is for {PLAYERS[0]} to {PLAYERS[-1]} players, not {players}")
    table = _table(deck)
    rounds = min(ROUNDS, len(table.ids) // players)
    if rounds < 1:
        raise RequestError(f"cards: {players} players need at least {players} cards, the deck has {len(table.ids)}")
    rng = random.Random(f"puzzle-temple {seed} {players}")
    holes = [c for c in range(COLOURS) for _ in range(PER_COLOUR)]
    rng.shuffle(holes)
    levels = tuple(tuple(holes[i * PER_COLOUR:(i + 1) * PER_COLOUR]) for i in range(LEVELS))
    order = list(range(len(table.ids)))
    rng.shuffle(order)
    pile = tuple(sorted(order[-rounds * players:]))  # the cards removed for fewer players: the rest
    skills = tuple(round(math.exp(rng.gauss(0.0, SKILL_SPREAD)), 6) for _ in range(players))
    n = len(table.ids)
    state = State(table, seed, skills, pile, rng.getrandbits(48), rounds, levels, (0,) * players,
                  ((0,) * COLOURS,) * players, dealt=(0,) * n, unlocked=(0,) * n, seconds=(0,) * n)
    return _next_round(state)


def solve_time(bits: float, skill: float, rng: Rng) -> float:
    """A player's seconds to cover a lock face rated ``bits``, drawn from the race model."""
    return float((READ + PACE * 2.0 ** bits / skill) * math.exp(rng.gauss(0.0, SPREAD)))


def _next_round(state: State) -> State:
    """Rounds played out until one has a seat to move (or the game is over)."""
    players = len(state.at)
    while len(state.played) < state.rounds:
        number = len(state.played)
        rng = Rng(derive(state.chance, number))
        left = list(state.pile)
        cards = tuple(left.pop(rng.randbelow(len(left))) for _ in range(players))  # seat 0 draws first
        pile = tuple(left)
        die = 1 + rng.randbelow(6)
        times = [solve_time(state.table.bits[c][die - 1], state.skills[s], rng) for s, c in enumerate(cards)]
        deadline = MINUTE if min(times) <= MINUTE else 2 * MINUTE
        order = tuple(sorted((s for s in range(players) if times[s] <= deadline), key=lambda s: (times[s], s)))
        movers = tuple((s, STEPS[players][rank]) for rank, s in enumerate(order)
                       if times[s] + COLLECT <= deadline)
        dealt, unlocked, seconds = list(state.dealt), list(state.unlocked), list(state.seconds)
        for s, c in enumerate(cards):
            dealt[c] += 1
            seconds[c] += round(min(times[s], deadline))
        for s, _ in movers:
            unlocked[cards[s]] += 1
        said = Round(die, cards, tuple(round(times[s], 1) if s in order else None for s in range(players)), order)
        state = _with(state, pile=pile, played=state.played + (said,), queue=movers, dealt=tuple(dealt),
                        unlocked=tuple(unlocked), seconds=tuple(seconds))
        if movers:
            return state
    return _with(state, queue=(), finished=True)


def to_act(state: State) -> int:
    return state.queue[0][0] if state.queue else 0


def over(state: State) -> bool:
    return state.finished


def turns(state: State) -> int:
    """Rounds played (a round is every seat's go)."""
    return len(state.played) - (0 if state.finished else 1)


def reach(here: int, steps: int) -> range:
    """The levels a pawn on ``here`` may end on with up to ``steps`` steps."""
    return range(max(0, here - steps), min(LEVELS, here + steps) + 1)


def moves(state: State) -> list[Move]:
    if state.finished:
        return []
    seat, steps = state.queue[0]
    return [("move", level) for level in reach(state.at[seat], steps)]


def _put(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return items[:i] + (value,) + items[i + 1:]


def apply(state: State, move: Move) -> State:
    if state.finished or move[0] != "move":
        raise ValueError(f"no move {move!r} here")
    seat, steps = state.queue[0]
    level = move[1]
    if level not in reach(state.at[seat], steps):
        raise ValueError(f"level {level} is more than {steps} steps from {state.at[seat]}")
    levels, jewels = state.levels, state.jewels
    if level > 0:
        line = levels[level - 1]
        taken, left = line[:TAKE], line[TAKE:]
        mine = list(jewels[seat])
        for colour in taken:
            mine[colour] += 1
        levels = _put(levels, level - 1, left)
        jewels = _put(jewels, seat, tuple(mine))
    state = _with(state, levels=levels, jewels=jewels, at=_put(state.at, seat, level), queue=state.queue[1:])
    return state if state.queue else _next_round(state)


def standing(counts: Sequence[int]) -> tuple[int, ...]:
    """What decides the winner: the colour counts, largest first."""
    return tuple(sorted(counts, reverse=True))


def scores(state: State) -> list[int]:
    """The most jewels of one colour (the tie-break, the next colours, is in ``shares``)."""
    return [max(j) for j in state.jewels]


def shares(state: State) -> tuple[float, ...]:
    """Each seat's share of the win: the best standing (most of one colour, then the next
    colour, ...), split among seats level in all of it."""
    from generators.common.play import shares_of

    return shares_of([standing(j) for j in state.jewels])


def seen(state: State, seat: int) -> tuple[Any, ...]:
    return (state.levels, state.at, state.jewels, state.played, state.queue, state.finished, len(state.pile),
            state.skills)


def determinise(state: State, seat: int, rng: Any) -> State:
    """The rounds to come drawn afresh: the cards each seat will draw from the pile, the dice
    and the race (the pile is kept in deck order and drawn from at random, so a fresh
    ``chance`` is a fresh shuffle)."""
    return _with(state, chance=rng.getrandbits(48))


def value(state: State, seat: int, flat: bool = False) -> float:
    """The most jewels of one colour, a quarter of the next colour's, a little for every
    jewel, and the next two jewels where the seat stands if they are of its best colours
    (``flat`` changes nothing: no card carries points)."""
    counts = state.jewels[seat]
    ranked = sorted(range(COLOURS), key=lambda c: (-counts[c], c))
    best = counts[ranked[0]] + 0.25 * counts[ranked[1]] + 0.02 * sum(c * c for c in counts)
    here = state.at[seat]
    if here > 0:
        best += 0.1 * sum(1 for c in state.levels[here - 1][:TAKE] if c in ranked[:2] and counts[c] > 0)
    return best


def check(state: State) -> list[str]:
    problems = []
    held = [sum(j[c] for j in state.jewels) + sum(level.count(c) for level in state.levels) for c in range(COLOURS)]
    if held != [PER_COLOUR] * COLOURS:
        problems.append(f"jewels not conserved: {held} of each colour on the board and in front of the players")
    if any(not 0 <= a <= LEVELS for a in state.at):
        problems.append(f"a pawn off the board: {state.at}")
    drawn = len(state.played) * len(state.at)
    if sum(state.dealt) != drawn or len(state.pile) + drawn != state.rounds * len(state.at):
        problems.append(f"cards not conserved: {sum(state.dealt)} drawn in {len(state.played)} rounds, "
                        f"{len(state.pile)} left")
    if sum(state.unlocked) > sum(len(r.order) for r in state.played):
        problems.append("more seats moved than unlocked their gates")
    if any(u > d for u, d in zip(state.unlocked, state.dealt)):
        problems.append("a card unlocked more often than it was drawn")
    return problems


def card_events(state: State) -> Mapping[Any, tuple[int, int, int]]:
    """Per card: how often drawn, how often its holder unlocked it in time to move, and the
    seconds spent on it (the effort: ``value`` is seconds for each unlocking)."""
    return {card_id: (state.dealt[i], state.unlocked[i], state.seconds[i]) for i, card_id in enumerate(state.table.ids)}


printed = no_printed_points  # lock cards print no points


scale = no_scale


compiled = not_compiled  # a game is a few dozen choices, quick enough in Python


def summary(state: State) -> tuple[Any, ...]:
    """What ``insights`` reads of a game: the fastest solver (the most skilled seat), each
    seat's share of the win, and each round's die, cards and finishing order."""
    fastest = max(range(len(state.skills)), key=lambda s: (state.skills[s], -s))
    return (fastest, shares(state), tuple((r.die, r.cards, r.order, tuple(state.table.bits[c][r.die - 1]
                                                                         for c in r.cards)) for r in state.played))


def insights(summaries: Sequence[tuple[Any, ...]], players: int, ids: Sequence[Any]) -> tuple[dict[str, Any],
                                                                                              list[str]]:
    """How often the fastest solver wins; for each die face and card, how often the round it
    sets is won by the table's fastest solver or by its holder; and findings where a face or
    card decides rounds more than the others."""
    from generators.common.grading import spearman
    from generators.common.playtest import family_z, wilson

    n = len(summaries)
    fair = 1 / players
    fastest_wins = sum(shares[f] for f, shares, _ in summaries)
    low, high = wilson(fastest_wins, n)
    found = []
    said: dict[str, Any] = {"fastest_solver": {"win_rate": round(fastest_wins / n, 4),
                                               "ci95": [round(low, 4), round(high, 4)], "fair": round(fair, 4)}}
    if low > fair:
        found.append(f"The fastest solver (the most skilled seat) wins {fastest_wins / n:.1%} of {n} games "
                     f"(95% interval {low:.1%}-{high:.1%}; a fair share is {fair:.1%}): speed decides, as it should "
                     f"in a race, and the jewels chosen decide the rest.")
    else:
        found.append(f"The fastest solver wins only {fastest_wins / n:.1%} of {n} games (95% interval "
                     f"{low:.1%}-{high:.1%}; a fair share is {fair:.1%}): the cards dealt decide more than speed.")
    faces: list[dict[str, Any]] = []
    wide_faces = []  # each face's interval with all six tested at once
    for die in range(1, 7):
        rounds = [(f, r) for f, _, played in summaries for r in played if r[0] == die]
        void = sum(1 for _, r in rounds if not r[2])
        won = [(f, r) for f, r in rounds if r[2]]
        by_fastest = sum(1 for f, r in won if r[2][0] == f)
        lo, hi = wilson(by_fastest, len(won))
        wide_faces.append(wilson(by_fastest, len(won), family_z(6)))
        faces.append({"die": die, "rounds": len(rounds), "nobody_unlocked": void,
                      "first_is_fastest": round(by_fastest / len(won), 4) if won else None,
                      "ci95": [round(lo, 4), round(hi, 4)]})
    overall = sum(1 for f, _, played in summaries for r in played if r[2] and r[2][0] == f)
    total = sum(1 for _, _, played in summaries for r in played if r[2])
    base = overall / total if total else 0.0
    for face, wide in zip(faces, wide_faces):
        lo, hi = face["ci95"]
        if face["first_is_fastest"] is not None and not wide[0] <= base <= wide[1]:
            found.append(f"Die face {face['die']}: the fastest solver finishes first in {face['first_is_fastest']:.1%} "
                         f"of its rounds (95% interval {lo:.1%}-{hi:.1%}), against {base:.1%} over all faces, even "
                         f"with all six faces tested at once: "
                         f"{'the cards dealt' if face['first_is_fastest'] < base else 'speed'} decide its rounds "
                         f"more than the others'.")
        if face["rounds"] and face["nobody_unlocked"] / face["rounds"] > 0.1:
            found.append(f"Die face {face['die']}: nobody unlocked in {face['nobody_unlocked']} of its "
                         f"{face['rounds']} rounds (two minutes): its faces are too hard for a round.")
    cards = []
    deciding = []
    winning: list[tuple[float, Any, float, float]] = []  # cards whose holders win games outside a fair share
    rated: list[tuple[float, float]] = []  # per card drawn: the mean rating of its rolled faces, its holder's firsts
    for i, card_id in enumerate(ids):
        held = [(seat, r) for _, _, played in summaries for r in played for seat, c in enumerate(r[1]) if c == i]
        first = sum(1 for seat, r in held if r[2] and r[2][0] == seat)
        lo, hi = wilson(first, len(held))
        # the games its holders went on to win (a card is held once a game at most)
        wins = sum(shares[seat] for _, shares, played in summaries for r in played for seat, c in enumerate(r[1])
                   if c == i)
        w_lo, w_hi = wilson(wins, len(held))
        cards.append({"id": card_id, "drawn": len(held), "holder_first": round(first / len(held), 4) if held else None,
                      "ci95": [round(lo, 4), round(hi, 4)],
                      "holder_wins": round(wins / len(held), 4) if held else None,
                      "wins_ci95": [round(w_lo, 4), round(w_hi, 4)]})
        if held:
            wide = wilson(wins, len(held), family_z(len(ids)))
            if not wide[0] <= fair <= wide[1]:
                winning.append((wins / len(held), card_id, w_lo, w_hi))
        if held:
            rated.append((sum(r[3][seat] for seat, r in held) / len(held), first / len(held)))
        wide = wilson(first, len(held), family_z(len(ids)))  # every card tested at once
        if held and not wide[0] <= fair <= wide[1]:
            deciding.append((first / len(held), card_id, lo, hi))
    said["faces"] = faces
    said["cards"] = cards
    if deciding:
        deciding.sort(key=lambda t: (-abs(t[0] - fair), str(t[1])))
        named = "; ".join(f"card {c} {rate:.0%} ({lo:.0%}-{hi:.0%})" for rate, c, lo, hi in deciding[:8])
        many = len(deciding) > 1
        found.append(f"{len(deciding)} card{'s' if many else ''} decide{'' if many else 's'} "
                     f"their rounds: the holder finishes first outside a fair share of {fair:.0%}, even with all "
                     f"{len(ids)} cards tested at once ({named}"
                     f"{f' and {len(deciding) - 8} more' if len(deciding) > 8 else ''}).")
    if winning:
        winning.sort(key=lambda t: (-abs(t[0] - fair), str(t[1])))
        named = "; ".join(f"card {c} {rate:.0%} ({lo:.0%}-{hi:.0%})" for rate, c, lo, hi in winning[:8])
        found.append(f"{len(winning)} card{'s' if len(winning) > 1 else ''} decide{'' if len(winning) > 1 else 's'} "
                     f"games: whoever draws {'them' if len(winning) > 1 else 'it'} wins outside a fair share of "
                     f"{fair:.0%}, even with all {len(ids)} cards tested at once ({named}"
                     f"{f' and {len(winning) - 8} more' if len(winning) > 8 else ''}).")
    else:
        found.append(f"No card decides games: whoever draws any one card wins within a fair share of {fair:.0%} "
                     f"(all {len(ids)} cards tested at once).")
    rho = spearman([b for b, _ in rated], [f for _, f in rated]) if len(rated) > 2 else None
    said["rating_vs_holder_first"] = None if rho is None else round(rho, 4)
    if deciding and rho is not None and rho < -0.5:
        found.append(f"The easier the card, the more often its holder finishes first (Spearman {rho:.2f} between a "
                     f"card's rated difficulty and its holder's firsts): the card dealt decides the round as much as "
                     f"the player. Deal cards of one tier a round, or narrow the deck's spread of difficulty.")
    return said, found


if TYPE_CHECKING:  # the type checker holds this module to the contract
    import generators.puzzle_temple.engine as _self
    from generators.contract import Engine

    _conforms: Engine = _self
