"""Whole games played by agents, for any game with a rules engine (``contract.Engine``).

Agents choose a move from what their seat sees (``Engine.seen``) and the legal moves:

- ``random``: any legal move, uniformly;
- ``greedy``: one-step look-ahead, the move after which ``Engine.value`` (its points and
  what its position promises, as the seat sees it) is highest; ties drawn at random;
- ``search``: a search of its own turn two moves deep, over the best few moves of each step;
- ``rollout``: Monte Carlo rollouts: each of its best few moves tried on many deals of what
  it cannot see, each followed by a few random moves of every seat, and judged by where it
  then stands against the best of the others.

The look-ahead agents look ahead on ``Engine.determinise``: the cards they cannot see dealt
afresh at random, so that no agent peeks at a hidden hand or the next card of a pile.

Every draw comes from a seed: the same engine, deck, players, seed and agents give the same
game, move for move, and a game's move list replayed from its start gives the same end. The
agents draw from ``rng.Rng`` streams of the game's seed, which compiled code can follow draw
for draw (an engine's ``fast`` games are the same games).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any, Protocol, TypeVar

from generators.common.errors import RequestError
from generators.common.rng import Rng, derive

S = TypeVar("S")


def replacer(cls: type[S]) -> Callable[..., S]:
    """``dataclasses.replace`` for an engine's frozen state class without its checks: a
    state's changes are the engine's own (a playtest makes tens of millions of states), and a
    name that is not a field is ignored. ``replacer(State)(state, field=value, ...)``."""
    names = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    if not all(name.isidentifier() for name in names):
        raise TypeError(f"{cls.__name__}: a field name that is not an identifier")
    # one line per field, written out: no loop and no look-up by name, each field set
    # through its slot's own descriptor (object.__setattr__ for a class without slots)
    scope: dict[str, Any] = {"new_": object.__new__, "cls": cls}
    for name in names:
        slot: Any = cls.__dict__.get(name)
        scope[f"set_{name}"] = slot.__set__ if type(slot).__name__ == "member_descriptor" else \
            (lambda obj, value, name=name: object.__setattr__(obj, name, value))
    lines = ["def with_(state, **changes):", "    new = new_(cls)", "    get = changes.get"]
    lines += [f"    set_{name}(new, get({name!r}, state.{name}))" for name in names]
    lines += ["    return new"]
    exec("\n".join(lines), scope)  # noqa: S102 - the text is made here, from the class's own field names
    with_: Callable[..., S] = scope["with_"]
    return with_


#: Turns after which a game that has not ended is stopped (and reported as such).
MAX_TURNS = 1000
#: Seat ``s``'s agent draws from stream ``AGENT_STREAM + s`` of the game's seed (``rng.derive``).
AGENT_STREAM = 1000


def agent_rng(seed: int, seat: int) -> Rng:
    """What seat ``seat``'s agent draws from in game ``seed``."""
    return Rng(derive(seed, AGENT_STREAM + seat))


class Agent(Protocol):
    name: str

    def choose(self, engine: Any, state: Any, seat: int, rng: Any) -> Any:
        """A legal move for ``seat`` (the seat to act)."""


class RandomAgent:
    name = "random"

    def __init__(self, flat: bool = False) -> None:
        self.flat = flat  # (it reads no points either way)

    def choose(self, engine: Any, state: Any, seat: int, rng: Any) -> Any:
        legal = engine.moves(state)
        return legal[rng.randrange(len(legal))]


class GreedyAgent:
    name = "greedy"

    def __init__(self, flat: bool = False) -> None:
        self.flat = flat  # every card worth the same to it: the agents that price cards from play

    def choose(self, engine: Any, state: Any, seat: int, rng: Any) -> Any:
        sampled = engine.determinise(state, seat, rng)  # what it cannot see, guessed: it peeks at nothing
        ranked = _ranked(engine, sampled, seat, engine.moves(state), self.flat)
        best = [m for v, m in ranked if v > ranked[0][0] - 1e-9]
        return best[rng.randrange(len(best))]


def _ranked(engine: Any, state: Any, seat: int, moves: Sequence[Any], flat: bool) -> list[tuple[float, Any]]:
    """The moves with their one-step values, best first (ties in the moves' own order)."""
    valued = [(engine.value(engine.apply(state, m), seat, flat), n, m) for n, m in enumerate(moves)]
    valued.sort(key=lambda t: (-t[0], t[1]))
    return [(v, m) for v, _, m in valued]


class SearchAgent:
    """Looks ``depth`` moves ahead within its own turn (two by default: an action and what
    it makes possible), on a deal of the cards it cannot see drawn at random, keeping the
    ``width`` best moves of each step by their one-step value; the best line's first move.
    In a game of one move a turn (an engine with ``again``), the line goes on into the
    seat's next turn as ``again`` says it would find it."""

    name = "search"

    def __init__(self, flat: bool = False, depth: int = 2, width: int = 8) -> None:
        self.flat = flat
        self.depth = depth
        self.width = width

    @property
    def plain(self) -> bool:
        """Searching as by default (what an engine's compiled games play)."""
        return (self.depth, self.width) == (2, 8)

    def choose(self, engine: Any, state: Any, seat: int, rng: Any) -> Any:
        sampled = engine.determinise(state, seat, rng)
        best: list[Any] = []
        top = float("-inf")
        for _, move in _ranked(engine, sampled, seat, engine.moves(state), self.flat)[:self.width]:
            v = self._line(engine, engine.apply(sampled, move), seat, self.depth - 1)
            if v > top + 1e-9:
                best, top = [move], v
            elif v > top - 1e-9:
                best.append(move)
        return best[rng.randrange(len(best))]

    def _line(self, engine: Any, state: Any, seat: int, depth: int) -> float:
        here: float = engine.value(state, seat, self.flat)
        if depth <= 0 or engine.over(state):
            return here
        if engine.to_act(state) != seat:  # its turn is over: a game of one move a turn looks on to its next
            again = getattr(engine, "again", None)
            state = again(state, seat) if again is not None else None
            if state is None:
                return here
        ranked = _ranked(engine, state, seat, engine.moves(state), self.flat)[:self.width]
        return max([here] + [self._line(engine, engine.apply(state, m), seat, depth - 1) for _, m in ranked])


class RolloutAgent:
    """Monte Carlo with determinisation: each of its ``width`` best moves by one-step value
    is played ``samples`` times, each time on a fresh deal of the cards it cannot see and
    followed by ``horizon`` random moves of whoever is to act; a rollout's worth is the
    seat's value where it ends (its share of the win, heavily, if the game ended) less the
    best of the other seats'. The move with the best mean; ties drawn at random."""

    name = "rollout"
    plain = False  # no engine compiles it

    def __init__(self, flat: bool = False, width: int = 6, samples: int = 8, horizon: int = 6) -> None:
        self.flat = flat
        self.width = width
        self.samples = samples
        self.horizon = horizon

    def choose(self, engine: Any, state: Any, seat: int, rng: Any) -> Any:
        legal = engine.moves(state)
        if len(legal) == 1:
            return legal[0]
        first = engine.determinise(state, seat, rng)
        tried = [m for _, m in _ranked(engine, first, seat, legal, self.flat)[:self.width]]
        best: list[Any] = []
        top = float("-inf")
        for move in tried:
            total = 0.0
            for k in range(self.samples):
                played = engine.apply(first if k == 0 else engine.determinise(state, seat, rng), move)
                for _ in range(self.horizon):
                    if engine.over(played):
                        break
                    options = engine.moves(played)
                    played = engine.apply(played, options[rng.randrange(len(options))])
                total += self._worth(engine, played, seat)
            mean = total / self.samples
            if mean > top + 1e-9:
                best, top = [move], mean
            elif mean > top - 1e-9:
                best.append(move)
        return best[rng.randrange(len(best))]

    def _worth(self, engine: Any, state: Any, seat: int) -> float:
        if engine.over(state):
            return 1000.0 * float(engine.shares(state)[seat])
        seats = range(len(engine.scores(state)))
        mine = float(engine.value(state, seat, self.flat))
        return mine - max((float(engine.value(state, o, self.flat)) for o in seats if o != seat), default=0.0)


AGENTS: dict[str, type[Any]] = {"random": RandomAgent, "greedy": GreedyAgent, "search": SearchAgent,
                                "rollout": RolloutAgent}


def agents_from(names: Sequence[str], players: int, flat: bool = False) -> list[Any]:
    """One agent per seat from a list of names, repeated round the table when shorter
    (``flat``: blind to the printed points).

    Raises:
        RequestError: a name that is no agent.
    """
    unknown = [n for n in names if n not in AGENTS]
    if unknown or not names:
        raise RequestError(f"agents: {', '.join(unknown) or 'none given'} (the agents: {', '.join(AGENTS)})")
    return [AGENTS[names[s % len(names)]](flat) for s in range(players)]


@dataclass(frozen=True)
class Played:
    """A game: its seed, the agents by seat, every move in order, the final scores, the
    turns played, and whether it ended by the rules (not by ``MAX_TURNS``)."""

    seed: int
    agents: tuple[str, ...]
    moves: tuple[Any, ...]
    scores: tuple[int, ...]
    shares: tuple[float, ...]  #: each seat's share of the win (``Engine.shares``)
    turns: int
    ended: bool
    final: Any


def shares_of(scores: Sequence[Any]) -> tuple[float, ...]:
    """Shares of the win when the highest score (any ordered value) wins and ties share."""
    top = max(scores)
    winners = sum(1 for s in scores if s == top)
    return tuple((1.0 / winners) if s == top else 0.0 for s in scores)


def play(engine: Any, deck: Any, players: int, seed: int, agents: Sequence[Any], *, max_turns: int = MAX_TURNS,
         checked: bool = False, compiled: bool = True) -> Played:
    """One game from ``seed``, each seat played by its agent. ``checked``: the engine's
    invariants are checked after every move (``AssertionError`` naming the first broken).
    ``compiled``: played by the engine's compiled games (``Engine.compiled``) where it has
    them for these agents, and not ``checked`` (the same game, move for move)."""
    state = engine.start(deck, players, seed)
    flats = {a.flat for a in agents}
    if compiled and not checked and len(flats) == 1 and all(getattr(a, "plain", True) for a in agents):
        fast = engine.compiled(state, tuple(a.name for a in agents), flats.pop(), max_turns)
        if fast is not None:
            final, played = fast
            return Played(seed, tuple(a.name for a in agents), tuple(played), tuple(engine.scores(final)),
                          tuple(engine.shares(final)), engine.turns(final), engine.over(final), final)
    rngs = [agent_rng(seed, s) for s in range(players)]
    moves: list[Any] = []
    while not engine.over(state) and engine.turns(state) < max_turns:
        seat = engine.to_act(state)
        move = agents[seat].choose(engine, state, seat, rngs[seat])
        state = engine.apply(state, move)
        moves.append(move)
        if checked:
            broken = engine.check(state)
            if broken:
                raise AssertionError(f"seed {seed}, move {len(moves)} {move!r}: {'; '.join(broken)}")
    return Played(seed, tuple(a.name for a in agents), tuple(moves), tuple(engine.scores(state)),
                  tuple(engine.shares(state)), engine.turns(state), engine.over(state), state)


def replay(engine: Any, deck: Any, players: int, seed: int, moves: Sequence[Any]) -> Any:
    """The state a game's moves lead to from its start (each checked to be legal).

    Raises:
        ValueError: a move that is not legal where it is played.
    """
    state = engine.start(deck, players, seed)
    for n, move in enumerate(moves):
        if move not in engine.moves(state):
            raise ValueError(f"move {n + 1} {move!r} is not legal there")
        state = engine.apply(state, move)
    return state


# -- what an engine answers when its game has none of it (``generators.contract.Engine``) ----------


def no_printed_points(deck: Any) -> list[int | None]:
    """``Engine.printed`` for a game whose cards print no one value (each card: None)."""
    return [None for _ in deck.cards]


def no_scale(cards: int) -> list[tuple[int, int]]:
    """``Engine.scale`` for a game whose cards print no points: none to map prices onto."""
    return []


def not_compiled(state: Any, agents: tuple[str, ...], flat: bool, max_turns: int) -> None:
    """``Engine.compiled`` for a game played in Python only."""
    return None
