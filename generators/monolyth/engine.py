"""Monolyth as it is played (``Engine``): the race of ``seeds/002_*.txt``.

Set-up: one structure card of the deck drawn at random; the structure, level and prophecy
tokens for the player count on the main board; twelve pieces drawn from the bag into the
ring round the main board, the crystal beside it; the singles (1x1x1 blocks) of each colour
to one side; each player a 4x4 board (its four edges in four different colours), empty.

A turn, one of:

- move the crystal 1-4 spaces clockwise round the ring and take the piece there: place it
  on your board (inside the 4x4 grid and under the monolith's height, every cube on the
  floor or on a cube: the support rule, ``solver.heightmap``), or put it out of the game and
  place a single of its colour instead; either way a piece is drawn from the bag onto the
  space the crystal started from;
- take a prophecy token from the main board and put it on a side of your board.

Completing a level of your board takes the largest level token left; a build that matches
the structure card (its rule, ``contain`` or ``equal``, and turned or mirrored where the
deck allows) claims the highest structure token left, once a player. When someone completes
the monolith (4x4x3 for 3-4 players, 4x4x4 for 1-2), the round is finished (everyone has
had as many turns). A prophecy N on a side scores N if that side's outer wall shows at
least N squares of the side's colour. Score: structure token + level tokens + prophecies.

Moves: ``("piece", steps, placement)`` (a placement index of ``Table.placements`` for the
piece's shape), ``("single", steps, column)``, ``("discard", steps)`` (a piece that can be
neither placed nor swapped for a single: out of the game, nothing placed), ``("prophecy",
value, side)`` (side 0-3: north, east, south, west), and ``("pass",)`` when there is nothing
else.

Where the rules are silent (each is tested):

- the crystal starts beside the ring, before space 1: the first move lands on space 1-4 and
  draws nothing (it started on no space); from then on the crystal stands on the space it
  took from, which the next move refills; once the bag is empty, spaces left empty are
  skipped and not counted (a move lands only on a piece);
- the tokens for the player count: the ``players`` highest structure tokens; the
  ``players x height`` largest level tokens (the box's 14 when fewer); prophecy tokens, two
  a player, drawn from the box's at set-up, face up;
- at most one prophecy token a side; a taken piece that fits nowhere and has no single of
  its colour left goes out of the game with nothing placed;
- the monolith is 4x4x3 at 3-4 players and 4x4x4 at 1-2 whatever the deck's height; a card
  taller than the monolith cannot be played at that count (refused at set-up);
- the player boards are dealt at random from the box's, one a seat;
- the game also ends, the round finished, when the ring and the bag are empty (nobody can
  build any more); the findings say how often;
- players level on points share the win.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from generators.common.errors import RequestError
from generators.common.memo import last_seen
from generators.common.play import no_printed_points, no_scale, not_compiled, replacer
from generators.monolyth.pool import SIDE
from generators.monolyth.structure import _points as symmetry_maps
from solver.heightmap import CONTAIN, Board, Kind, Placement, placements

PLAYERS = (1, 2, 3, 4)
#: Spaces in the ring round the main board.
RING = 12
#: The most spaces the crystal moves.
STEPS = 4
#: Prophecy tokens on the main board a player.
PROPHECIES_EACH = 2
#: A card's value in play (``card_events``: the turns its players spent for each structure
#: token claimed).
EFFORT = "turns spent for each structure token claimed"
EMPTY = -1

Move = tuple[Any, ...]


def height_for(players: int) -> int:
    """The monolith's height: 4 for 1-2 players, 3 for 3-4."""
    return 4 if players <= 2 else 3


@dataclass(frozen=True, slots=True)
class Form:
    """A structure card turned (or mirrored) one way: the heights it asks for and the colours
    of its cubes (as column, level: colour index)."""

    heights: tuple[int | None, ...]
    colours: tuple[tuple[int, int, int], ...]  # (column, z, colour)


@dataclass(frozen=True, slots=True)
class Table:
    """The deck as the engine uses it, for one monolith height."""

    ids: tuple[Any, ...]
    forms: tuple[tuple[Form, ...], ...]  # per card: its forms (one when the deck does not allow turning)
    volumes: tuple[int, ...]  # per card: the cubes it asks for
    rule: str
    height: int
    colours: tuple[str, ...]
    kinds: tuple[Kind, ...]  # the bag's pieces (each with its colour and count)
    kind_colour: tuple[int, ...]
    shape_of: tuple[int, ...]  # per kind: its shape's index in ``placements``
    placements: tuple[tuple[Placement, ...], ...]  # per shape: every placement on the board
    singles: tuple[int, ...]  # per colour: the singles in the box
    boards: tuple[tuple[int, int, int, int], ...]  # edge colours (north, east, south, west) by colour index
    level_tokens: tuple[int, ...]
    structure_tokens: tuple[int, ...]
    prophecy_tokens: tuple[int, ...]
    walls: tuple[tuple[int, ...], ...]  # per side: the columns on that edge
    #: ``missing`` by (card, heights, cubes): a seat weighing its moves asks for the same
    #: build again and again (most moves leave it as it was)
    memo: dict[Any, int] = field(default_factory=dict, compare=False, repr=False)


#: The most builds ``Table.memo`` keeps before it starts again.
MEMO = 200_000


def _walls() -> tuple[tuple[int, ...], ...]:
    north = tuple(x for x in range(SIDE))
    east = tuple(y * SIDE + SIDE - 1 for y in range(SIDE))
    south = tuple((SIDE - 1) * SIDE + x for x in range(SIDE))
    west = tuple(y * SIDE for y in range(SIDE))
    return north, east, south, west


def _forms(target: Any, board: Board, turn: bool, colours: Sequence[str]) -> tuple[Form, ...]:
    maps = symmetry_maps(board) if turn else symmetry_maps(board)[:1]
    out: list[Form] = []
    for f in maps:
        heights: list[int | None] = [None] * board.columns
        for y in range(board.depth):
            for x in range(board.width):
                u, v = f(x, y)
                heights[board.column(u, v)] = target.heights[board.column(x, y)]
        painted = tuple(sorted((board.column(*f(x, y)), z, colours.index(c)) for (x, y, z), c in target.colours))
        form = Form(tuple(heights), painted)
        if form not in out:
            out.append(form)
    return tuple(out)


def table_of(deck: Any, height: int) -> Table:
    pool = deck.pool
    board = Board(SIDE, SIDE, height)
    colours = pool.colour_names
    for n, card in enumerate(deck.cards):
        tallest = max((h for h in card.target.heights if h is not None), default=0)
        if tallest > height:
            raise RequestError(f"cards[{n + 1}]: card {card.id} asks for a column of {tallest}, higher than the "
                               f"{SIDE}x{SIDE}x{height} monolith of this player count")
    shapes: list[Any] = []
    shape_of = []
    for kind in pool.pieces:
        if kind.shape not in shapes:
            shapes.append(kind.shape)
        shape_of.append(shapes.index(kind.shape))
    by_shape = tuple(tuple(placements([Kind("s", s, "", None)], board)) for s in shapes)
    singles = dict(pool.singles)
    return Table(
        tuple(c.id for c in deck.cards),
        tuple(_forms(c.target, board, deck.turn, colours) for c in deck.cards),
        tuple(c.target.volume for c in deck.cards),
        deck.rule, height, colours, tuple(pool.pieces), tuple(colours.index(k.colour) for k in pool.pieces),
        tuple(shape_of), by_shape, tuple(singles.get(c, 0) for c in colours),
        tuple(_edges(b, colours) for b in pool.boards),
        tuple(sorted(pool.level_tokens, reverse=True)), tuple(sorted(pool.structure_tokens, reverse=True)),
        tuple(_prophecy_tokens(deck)), _walls())


def _edges(board: Sequence[str], colours: Sequence[str]) -> tuple[int, int, int, int]:
    north, east, south, west = (colours.index(c) for c in board)
    return north, east, south, west


def _prophecy_tokens(deck: Any) -> list[int]:
    if deck.pool.prophecy_tokens:
        return sorted(deck.pool.prophecy_tokens)
    return sorted(p.value for p in deck.prophecies for _ in range(p.count))


def _new(deck: Any) -> dict[int, Table]:
    return {}


_made = last_seen(_new)  # a playtest plays one deck: its tables, made once a height


def _tables(deck: Any, height: int) -> Table:
    made = _made(deck)
    if height not in made:
        made[height] = table_of(deck, height)
    return made[height]


@dataclass(frozen=True, slots=True)
class State:
    table: Table = field(compare=False, repr=False)
    card: int  #: the structure card of this game (index in the deck)
    ring: tuple[int, ...]  #: per space, the kind there (EMPTY: none)
    crystal: int  #: the crystal's space (EMPTY: beside the ring, before the first move)
    bag: tuple[int, ...]  #: the kinds still in the bag, in the order they will be drawn
    out: tuple[int, ...]  #: per kind, the pieces placed or put out of the game
    singles: tuple[int, ...]  #: per colour, the singles left
    boards: tuple[int, ...]  #: each seat's player board (index into ``Table.boards``)
    heights: tuple[tuple[int, ...], ...]  #: each seat's column heights
    cubes: tuple[tuple[int, ...], ...]  #: each seat's cube colours, column * height + z (EMPTY: none)
    levels: tuple[int, ...]  #: the level tokens left, largest first
    structures: tuple[int, ...]  #: the structure tokens left, highest first
    prophecies: tuple[int, ...]  #: the prophecy tokens left on the main board, lowest first
    placed: tuple[tuple[int, ...], ...]  #: each seat's prophecy per side (0: none)
    taken: tuple[tuple[int, ...], ...]  #: each seat's level tokens
    claimed: tuple[int, ...]  #: each seat's structure token (0: none)
    claimed_at: tuple[int, ...]  #: the seat's own turn it claimed in (0: not yet)
    seat: int = 0
    turn: int = 0  #: turns played
    ending: bool = False  #: someone completed the monolith: the round is being finished
    finished: bool = False
    single_cubes: tuple[int, ...] = ()  #: per colour, the singles placed


_with = replacer(State)


def _put(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return items[:i] + (value,) + items[i + 1:]


def start(deck: Any, players: int, seed: int) -> State:
    if players not in PLAYERS:
        raise RequestError(f"players: Monolyth is for {PLAYERS[0]} to {PLAYERS[-1]} players, not {players}")
    if not deck.cards:
        raise RequestError("cards: the deck has no structure card to play")
    height = height_for(players)
    table = _tables(deck, height)
    if len(table.boards) < players:
        raise RequestError(f"pool: boards: {players} players need {players} player boards, the pool has "
                           f"{len(table.boards)}")
    rng = random.Random(f"monolyth {seed} {players}")
    card = rng.randrange(len(table.ids))
    pieces = [k for k, kind in enumerate(table.kinds) for _ in range(kind.count or 0)]
    rng.shuffle(pieces)
    if len(pieces) < RING:
        raise RequestError(f"pool: pieces: the ring needs {RING} pieces, the pool has {len(pieces)}")
    ring, bag = tuple(pieces[:RING]), tuple(pieces[RING:])
    boards = list(range(len(table.boards)))
    rng.shuffle(boards)
    tokens = list(table.prophecy_tokens)
    rng.shuffle(tokens)
    prophecies = tuple(sorted(tokens[:PROPHECIES_EACH * players]))
    return State(table, card, ring, EMPTY, bag, (0,) * len(table.kinds), table.singles, tuple(boards[:players]),
                 ((0,) * SIDE * SIDE,) * players, ((EMPTY,) * SIDE * SIDE * height,) * players,
                 table.level_tokens[:players * height], table.structure_tokens[:players], prophecies,
                 ((0,) * 4,) * players, ((),) * players, (0,) * players, (0,) * players,
                 single_cubes=(0,) * len(table.colours))


def to_act(state: State) -> int:
    return state.seat


def over(state: State) -> bool:
    return state.finished


def turns(state: State) -> int:
    return state.turn


def _spaces(state: State) -> list[tuple[int, int]]:
    """(steps, space) for each space the crystal may land on: the next 1-4 spaces clockwise
    that hold a piece (empty spaces, once the bag is empty, are skipped and not counted)."""
    out: list[tuple[int, int]] = []
    here = RING - 1 if state.crystal == EMPTY else state.crystal  # beside the ring: before space 1
    for k in range(1, RING + 1):
        space = (here + k) % RING
        if state.ring[space] != EMPTY and space != state.crystal:
            out.append((len(out) + 1, space))
            if len(out) == STEPS:
                break
    return out


def fits(p: Placement, heights: Sequence[int]) -> bool:
    for c, b, _ in p.base:
        if heights[c] != b:
            return False
    return True


def moves(state: State) -> list[Move]:
    if state.finished:
        return []
    t = state.table
    seat = state.seat
    heights = state.heights[seat]
    out: list[Move] = []
    free = [c for c in range(SIDE * SIDE) if heights[c] < t.height]
    for steps, space in _spaces(state):
        kind = state.ring[space]
        found = [("piece", steps, i) for i, p in enumerate(t.placements[t.shape_of[kind]]) if fits(p, heights)]
        if state.singles[t.kind_colour[kind]] > 0:
            found += [("single", steps, c) for c in free]
        out += found or [("discard", steps)]
    sides = [s for s in range(4) if state.placed[seat][s] == 0]
    for value in sorted(set(state.prophecies)):
        out += [("prophecy", value, s) for s in sides]
    return out or [("pass",)]


def apply(state: State, move: Move) -> State:
    if state.finished:
        raise ValueError(f"no move {move!r}: the game is over")
    t = state.table
    seat = state.seat
    what = move[0]
    if what == "pass":
        return _end_turn(state)
    if what == "prophecy":
        value, side = move[1], move[2]
        if value not in state.prophecies or state.placed[seat][side]:
            raise ValueError(f"no move {move!r} here")
        left = list(state.prophecies)
        left.remove(value)
        state = _with(state, prophecies=tuple(left), placed=_put(state.placed, seat, _put(state.placed[seat], side,
                                                                                           value)))
        return _end_turn(state)
    steps = move[1]
    spaces = dict(_spaces(state))
    if steps not in spaces:
        raise ValueError(f"no move {move!r}: no piece {steps} spaces on")
    space = spaces[steps]
    kind = state.ring[space]
    ring = _put(state.ring, space, EMPTY)
    bag = state.bag
    if state.crystal != EMPTY and bag:  # the space the crystal started from is refilled
        ring = _put(ring, state.crystal, bag[0])
        bag = bag[1:]
    out = _put(state.out, kind, state.out[kind] + 1)
    state = _with(state, ring=ring, bag=bag, out=out, crystal=space)
    heights, cubes = list(state.heights[seat]), list(state.cubes[seat])
    if what == "piece":
        p = t.placements[t.shape_of[kind]][move[2]]
        if not fits(p, heights):
            raise ValueError(f"no move {move!r}: the piece does not stand there")
        colour = t.kind_colour[kind]
        for x, y, z in p.cubes:
            cubes[(y * SIDE + x) * t.height + z] = colour
        for c, _, n in p.base:
            heights[c] += n
    elif what == "single":
        colour, c = t.kind_colour[kind], move[2]
        if state.singles[colour] <= 0 or heights[c] >= t.height:
            raise ValueError(f"no move {move!r} here")
        cubes[c * t.height + heights[c]] = colour
        heights[c] += 1
        state = _with(state, singles=_put(state.singles, colour, state.singles[colour] - 1),
                      single_cubes=_put(state.single_cubes, colour, state.single_cubes[colour] + 1))
    elif what != "discard":
        raise ValueError(f"no move {move!r}")
    before = min(state.heights[seat])
    state = _with(state, heights=_put(state.heights, seat, tuple(heights)), cubes=_put(state.cubes, seat, tuple(cubes)))
    after = min(heights)
    levels, taken = state.levels, state.taken[seat]
    for _ in range(before, after):  # each level completed takes the largest level token left
        if levels:
            taken, levels = taken + (levels[0],), levels[1:]
    state = _with(state, levels=levels, taken=_put(state.taken, seat, taken))
    if not state.claimed[seat] and state.structures and matches(state, seat):
        state = _with(state, claimed=_put(state.claimed, seat, state.structures[0]), structures=state.structures[1:],
                      claimed_at=_put(state.claimed_at, seat, own_turns(state, seat) + 1))
    if after >= t.height:
        state = _with(state, ending=True)
    return _end_turn(state)


def _end_turn(state: State) -> State:
    seat = (state.seat + 1) % len(state.heights)
    ending = state.ending or (not state.bag and all(k == EMPTY for k in state.ring))  # nothing left to build with
    return _with(state, seat=seat, turn=state.turn + 1, ending=ending, finished=ending and seat == 0)


def again(state: State, seat: int) -> State | None:
    """The state ``seat`` would find at its next turn: each seat before it takes the piece
    two spaces on (the middle of the crystal's 1-4), building nothing the search looks at;
    what the search agent looks on to, its next placement on the board it is shaping (None
    when the game ends first)."""
    if state.finished:
        return None
    players = len(state.heights)
    ahead = (seat - state.seat) % players
    if state.ending and state.seat + ahead >= players:  # the round ends before its turn comes back
        return None
    for _ in range(ahead):  # each other seat takes the piece two spaces on (the middle of 1-4)
        spaces = _spaces(state)
        if not spaces:
            break
        _, space = spaces[min(1, len(spaces) - 1)]
        kind = state.ring[space]
        ring, bag = _put(state.ring, space, EMPTY), state.bag
        if state.crystal != EMPTY and bag:
            ring, bag = _put(ring, state.crystal, bag[0]), bag[1:]
        state = _with(state, ring=ring, bag=bag, crystal=space, out=_put(state.out, kind, state.out[kind] + 1))
    return _with(state, seat=seat, turn=state.turn + ahead)


def completed(state: State) -> bool:
    """Whether someone completed the monolith (else the game ended with the pieces gone)."""
    return any(min(h) >= state.table.height for h in state.heights)


def own_turns(state: State, seat: int) -> int:
    """The turns ``seat`` has played so far."""
    players = len(state.heights)
    return (state.turn + players - 1 - seat) // players


def matches(state: State, seat: int) -> bool:
    """Whether ``seat``'s build matches the game's structure card (any of its forms)."""
    t = state.table
    heights, cubes = state.heights[seat], state.cubes[seat]
    contain = t.rule == CONTAIN
    for form in t.forms[state.card]:
        ok = True
        for h, want in zip(heights, form.heights):
            if want is not None and (h < want if contain else h != want):
                ok = False
                break
        if ok and all(cubes[c * t.height + z] == colour for c, z, colour in form.colours):
            return True
    return False


def wall(state: State, seat: int, side: int) -> int:
    """The squares of the side's colour on ``seat``'s outer wall on ``side``."""
    t = state.table
    colour = t.boards[state.boards[seat]][side]
    cubes = state.cubes[seat]
    return sum(1 for c in t.walls[side] for z in range(t.height) if cubes[c * t.height + z] == colour)


def fulfilled(state: State, seat: int) -> int:
    """The points of ``seat``'s prophecies that its walls fulfil now."""
    return sum(v for side, v in enumerate(state.placed[seat]) if v and wall(state, seat, side) >= v)


def scores(state: State) -> list[int]:
    return [state.claimed[s] + sum(state.taken[s]) + fulfilled(state, s) for s in range(len(state.heights))]


def shares(state: State) -> tuple[float, ...]:
    from generators.common.play import shares_of

    return shares_of([(s,) for s in scores(state)])


def seen(state: State, seat: int) -> tuple[Any, ...]:
    return (state.card, state.ring, state.crystal, tuple(sorted(state.bag)), state.out, state.singles, state.boards,
            state.heights, state.cubes, state.levels, state.structures, state.prophecies, state.placed, state.taken,
            state.claimed, state.seat, state.turn, state.ending, state.finished)


def determinise(state: State, seat: int, rng: Any) -> State:
    """The bag shuffled afresh (the order of its pieces is what nobody sees)."""
    bag = list(state.bag)
    for i in range(len(bag) - 1, 0, -1):
        j = rng.randbelow(i + 1)
        bag[i], bag[j] = bag[j], bag[i]
    return _with(state, bag=tuple(bag))


def missing(state: State, seat: int) -> int:
    """The fewest cubes ``seat``'s build lacks to match the structure card (any form; a form
    its build has already passed under ``equal`` does not count; the card's volume plus one
    when none can still be met)."""
    t = state.table
    heights, cubes = state.heights[seat], state.cubes[seat]
    key = (state.card, heights, cubes)
    found = t.memo.get(key)
    if found is not None:
        return found
    if len(t.memo) >= MEMO:
        t.memo.clear()
    t.memo[key] = found = _missing(t, state.card, heights, cubes)
    return found


def _missing(t: Table, card: int, heights: tuple[int, ...], cubes: tuple[int, ...]) -> int:
    contain = t.rule == CONTAIN
    best = t.volumes[card] + 1
    for form in t.forms[card]:
        lack = 0
        for h, want in zip(heights, form.heights):
            if want is None:
                continue
            if h > want and not contain:
                lack = best
                break
            lack += max(0, want - h)
        for c, z, colour in form.colours:
            have = cubes[c * t.height + z]
            if have != EMPTY and have != colour:
                lack = best
                break
        best = min(best, lack)
    return best


def value(state: State, seat: int, flat: bool = False) -> float:
    """Points so far, and what the build promises: the next structure token discounted by the
    cubes the card still lacks, the next level token by the squares the lowest level lacks,
    each prophecy by the squares of its colour its wall lacks and can still take, and a
    little for every cube (the monolith's end is the race's) (``flat`` changes nothing: the
    cards print no points)."""
    t = state.table
    heights = state.heights[seat]
    points = float(state.claimed[seat] + sum(state.taken[seat]))
    cubes = sum(heights)
    hope = 0.0
    if not state.claimed[seat] and state.structures:
        lack = missing(state, seat)
        volume = max(1, t.volumes[state.card])
        if lack <= volume:
            hope += state.structures[0] * (1 - lack / volume) ** 2
    low = min(heights)
    if low < t.height and state.levels:
        lack = sum(1 for h in heights if h == low)
        hope += state.levels[0] * (1 - lack / (SIDE * SIDE)) ** 2
    for side, v in enumerate(state.placed[seat]):
        if not v:
            continue
        have = wall(state, seat, side)
        room = sum(t.height - heights[c] for c in t.walls[side])
        if have >= v:
            points += v
        elif have + room >= v:
            hope += v * (have / v) ** 2
        else:
            points -= 0.5  # a prophecy that can no longer come true: the turn it took, lost
    return points + hope + 0.05 * cubes


def check(state: State) -> list[str]:
    t = state.table
    problems = []
    for k, kind in enumerate(t.kinds):
        here = state.bag.count(k) + state.ring.count(k) + state.out[k]
        if here != (kind.count or 0):
            problems.append(f"pieces not conserved: {here} of kind {k} ({kind.name} {kind.colour}) in the bag, the "
                            f"ring and out, of {kind.count}")
    for c in range(len(t.colours)):
        if state.singles[c] + state.single_cubes[c] != t.singles[c]:
            problems.append(f"singles not conserved: colour {t.colours[c]}")
    for s, (heights, cubes) in enumerate(zip(state.heights, state.cubes)):
        for c, h in enumerate(heights):
            column = cubes[c * t.height:(c + 1) * t.height]
            if any(x == EMPTY for x in column[:h]) or any(x != EMPTY for x in column[h:]):
                problems.append(f"seat {s}: column {c} is not a stack from the floor ({column}, height {h})")
        if len(state.taken[s]) > min(heights):
            problems.append(f"seat {s}: {len(state.taken[s])} level tokens for {min(heights)} levels")
    taken = sorted([v for row in state.taken for v in row] + list(state.levels), reverse=True)
    if taken != sorted(t.level_tokens[:len(state.heights) * t.height], reverse=True):
        problems.append("level tokens not conserved")
    claimed = sorted([v for v in state.claimed if v] + list(state.structures), reverse=True)
    if claimed != list(t.structure_tokens[:len(state.heights)]):
        problems.append("structure tokens not conserved")
    placed = sum(1 for row in state.placed for v in row if v)
    if placed + len(state.prophecies) != min(len(t.prophecy_tokens), PROPHECIES_EACH * len(state.heights)):
        problems.append("prophecy tokens not conserved")
    if state.crystal != EMPTY and state.ring[state.crystal] != EMPTY:
        problems.append("a piece under the crystal")
    return problems


def card_events(state: State) -> Mapping[Any, tuple[int, int, int]]:
    """The game's structure card: played once a seat, scored once a structure token claimed,
    held the turns each seat played until it claimed (all its turns when it did not)."""
    players = len(state.heights)
    held = sum(state.claimed_at[s] or own_turns(state, s) for s in range(players))
    claims = sum(1 for v in state.claimed if v)
    return {card_id: ((players, claims, held) if i == state.card else (0, 0, 0))
            for i, card_id in enumerate(state.table.ids)}


printed = no_printed_points  # structure cards print no points


scale = no_scale


compiled = not_compiled


def summary(state: State) -> tuple[Any, ...]:
    """The structure card, each seat's structure token and the turn it claimed it in, each
    seat's points from level tokens and from prophecies, the structure tokens, whether the
    monolith was completed, the cubes placed, and every prophecy placed with whether its wall
    fulfilled it."""
    placed = tuple((v, wall(state, s, side) >= v) for s in range(len(state.heights))
                   for side, v in enumerate(state.placed[s]) if v)
    return (state.card, state.claimed, state.claimed_at, tuple(sum(t) for t in state.taken),
            tuple(fulfilled(state, s) for s in range(len(state.heights))), state.table.structure_tokens,
            completed(state), sum(map(sum, state.heights)), placed)


def insights(summaries: Sequence[tuple[Any, ...]], players: int, ids: Sequence[Any]) -> tuple[dict[str, Any],
                                                                                              list[str]]:
    """Per structure card: the games it was drawn for, how often each structure token was
    claimed (with a 95% interval) and the mean round of the first claim (with its standard
    error); where the points came from; and findings where cards are not comparable (in
    claim rates or in the round of the first claim, max/min over 1.5)."""
    from generators.common.grading import standard_error
    from generators.common.playtest import wilson

    cards: list[dict[str, Any]] = []
    rates = []
    rounds: list[tuple[float, Any]] = []
    for i, card_id in enumerate(ids):
        games = [s for s in summaries if s[0] == i]
        row: dict[str, Any] = {"id": card_id, "games": len(games)}
        if games:
            tokens = games[0][5][:players]
            claimed: dict[str, float] = {}
            spans: dict[str, list[float]] = {}
            for token in tokens:
                n = sum(1 for g in games if token in g[1])
                lo, hi = wilson(n, len(games))
                claimed[str(token)], spans[str(token)] = round(n / len(games), 4), [round(lo, 4), round(hi, 4)]
            firsts = [min(r for r in g[2] if r) for g in games if any(g[2])]
            row["claimed"] = claimed  # by structure token, highest first
            row["claimed_ci95"] = spans
            row["first_claim_round"] = round(sum(firsts) / len(firsts), 2) if firsts else None
            row["first_claim_error"] = round(standard_error(firsts), 2) if len(firsts) > 1 else None
            rates.append((claimed[str(tokens[0])], card_id, len(games)))
            if firsts:
                rounds.append((sum(firsts) / len(firsts), card_id))
        cards.append(row)
    n = max(1, len(summaries))
    said: dict[str, Any] = {"cards": cards, "points": {
        "levels": round(sum(sum(s[3]) for s in summaries) / n / players, 3),
        "structure": round(sum(sum(s[1]) for s in summaries) / n / players, 3),
        "prophecies": round(sum(sum(s[4]) for s in summaries) / n / players, 3)}}
    found = []
    played = [(r, c, g) for r, c, g in rates if g]
    if played:
        low = min(played)
        high = max(played)
        said["top_token_ratio"] = round(high[0] / low[0], 3) if low[0] else None
        if low[0] == 0:
            found.append(f"Card {low[1]}: nobody claimed a structure token in its {low[2]} games.")
        elif high[0] / low[0] > 1.5:
            found.append(f"The cards are not comparable: the top structure token is claimed in {high[0]:.0%} of card "
                         f"{high[1]}'s games and {low[0]:.0%} of card {low[1]}'s (max/min {high[0] / low[0]:.2f}, "
                         f"more than 1.5); only one card is played a game, so each should be about as reachable.")
    if len(rounds) > 1:
        soon, late = min(rounds), max(rounds)
        said["first_claim_ratio"] = round(late[0] / soon[0], 3)
        if late[0] / soon[0] > 1.5:
            found.append(f"The cards are not comparable in pace: the top structure token is first claimed in round "
                         f"{soon[0]:.1f} on average with card {soon[1]} and round {late[0]:.1f} with card {late[1]} "
                         f"(max/min {late[0] / soon[0]:.2f}, more than 1.5).")
    said["prophecy_tokens"], spread = prophecies_in_play(summaries)
    said["prophecy_ratio"] = spread
    if spread is not None and spread > 1.2:
        rows = [r for r in said["prophecy_tokens"] if r["taken"] >= LEVEL_SAMPLE]
        low = min(rows, key=lambda r: (r["points"], r["value"]))
        high = max(rows, key=lambda r: (r["points"], -r["value"]))
        found.append(f"Prophecy tokens are not level in play: a {high['value']} scores {high['points']:.2f} points "
                     f"a token taken (fulfilled {high['fulfilled']:.0%}) and a {low['value']} {low['points']:.2f} "
                     f"({low['fulfilled']:.0%}), max/min {spread:.2f} (more than 1.2, over the values taken at "
                     f"least {LEVEL_SAMPLE} times); each costs the same turn.")
    emptied = sum(1 for s in summaries if not s[6])
    said["ended_by_empty_bag"] = round(emptied / n, 4)
    said["cubes_placed"] = round(sum(s[7] for s in summaries) / n, 2)
    if emptied:
        found.append(f"{emptied} of {len(summaries)} games ended with the ring and the bag empty before anyone "
                     f"completed the monolith ({said['cubes_placed']:.0f} cubes placed a game on average): the pool "
                     f"is short for {players} players.")
    pts = said["points"]
    found.append(f"A player's points come from level tokens {pts['levels']:.1f}, the structure token "
                 f"{pts['structure']:.1f} and prophecies {pts['prophecies']:.1f} a game on average.")
    return said, found


def prophecies_in_play(summaries: Sequence[tuple[Any, ...]]) -> tuple[list[dict[str, Any]], float | None]:
    """Per prophecy value taken in these games: how often it was taken, the share fulfilled
    (with a 95% interval) and the points it scored a token taken (each took a turn); and
    max/min of those points over the values taken at least ``LEVEL_SAMPLE`` times (None
    when fewer than two were)."""
    from generators.common.playtest import wilson

    taken: dict[int, list[bool]] = {}
    for s in summaries:
        for value, met in s[8]:
            taken.setdefault(value, []).append(met)
    rows: list[dict[str, Any]] = []
    sampled: list[float] = []
    for value in sorted(taken):
        n, met = len(taken[value]), sum(taken[value])
        lo, hi = wilson(met, n)
        points = round(value * met / n, 3)
        rows.append({"value": value, "taken": n, "fulfilled": round(met / n, 4),
                     "fulfilled_ci95": [round(lo, 4), round(hi, 4)], "points": points})
        if n >= LEVEL_SAMPLE:
            sampled.append(points)
    if len(sampled) < 2 or min(sampled) <= 0:
        return rows, None
    return rows, round(max(sampled) / min(sampled), 3)


#: The fewest times a prophecy value must be taken before its points count towards the
#: finding that values are not level.
LEVEL_SAMPLE = 20


if TYPE_CHECKING:  # the type checker holds this module to the contract
    import generators.monolyth.engine as _self
    from generators.contract import Engine

    _conforms: Engine = _self
