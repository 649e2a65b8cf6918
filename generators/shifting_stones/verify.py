"""Re-check a Shifting Stones deck, trusting nothing the generator did.

Nouns:
    Grids       the whole state space built again, its own way: every grid as its nine faces,
                numbered by sorting, and for each of the 21 actions a table of where it leads.
    CardCheck   one card: feasible or not, the recomputed difficulty, share shown and most
                actions, the points it would earn on the scale, and every problem found.
    DeckCheck   every card's check, the deck rules that failed, face use and the scale.

Nothing here imports the generator or ``space``: the grids are enumerated from the tile
counts by another route (distinct permutations), a window is matched by comparing the
faces at its cells in every grid directly, and distances come from a level-by-level search
over explicit neighbour tables, every window of the deck at once (64 to a machine word).
The rules: every window is feasible; no two cards show on exactly the same grids; stored
difficulty, share and maximum match the recomputed ones; points never fall as difficulty
rises (no card is harder than a card worth more); and the recorded parameters hold (the
number of cards, the mix, the stones per window, the tiles).

A hand-written pattern list (no points, no difficulty) gets every measure and the points
each pattern would earn on the absolute scale (``scale.PUBLISHED_SCALE``: about 0.9 points
per expected action, anchored to the published deck's means per points value), the same
whatever deck the generator makes by default.
"""

from __future__ import annotations

import hashlib
import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numba import njit

from generators.common.words import plural
from generators.shifting_stones.deck import Card, CardId, Deck
from generators.shifting_stones.scale import PUBLISHED_SCALE, PUBLISHED_STONES, PUBLISHED_WINDOWS, rate
from generators.shifting_stones.tiles import TileSet

SIDE = 3

#: The absolute scale's difficulty bounds between point values (``scale.PUBLISHED_SCALE``): a
#: pattern up to the first bound earns 1 point, up to the next 2, and so on.
DEFAULT_POINT_BOUNDS, DEFAULT_TOP = PUBLISHED_SCALE


#: Difficulty is stored to three decimals.
TOLERANCE = 0.0005 + 1e-9


class Grids:
    """Every grid of a tile set (see the module docstring).

    A grid's number is the rank of its layout (the tile types in reading order, among every
    distinct permutation of the set's tiles, sorted) times 512, plus its nine sides as bits
    (bit ``p`` set when place ``p`` shows its tile's second face). A flip is then a change of
    one bit; a swap's target is found by ranking the swapped layout.
    """

    def __init__(self, tiles: TileSet) -> None:
        types = [t for t, tile in enumerate(tiles.tiles) for _ in range(tile.count)]
        self.layouts = np.array(sorted(set(itertools.permutations(types))), dtype=np.int8)
        self.base = len(tiles.tiles)
        self.ranks = self._layout_code(self.layouts)
        sides = ((np.arange(512)[:, None] >> np.arange(9)[None, :]) & 1).astype(np.int8)
        faces = (2 * self.layouts[:, None, :] + sides[None, :, :]).reshape(-1, 9)
        self.columns = np.ascontiguousarray(faces.T)  # place -> the face it shows in every grid
        self.size = len(faces)
        swaps = [(a, b) for kind, a, b in actions() if kind == "swap"]
        ranks = np.empty((len(self.layouts), len(swaps)), np.int64)  # each layout's rank after each swap
        turned = np.empty((len(swaps), 512), np.int64)  # each side pattern after each swap
        side = np.arange(512, dtype=np.int64)
        for k, (a, b) in enumerate(swaps):
            moved = self.layouts.copy()
            moved[:, [a, b]] = moved[:, [b, a]]
            ranks[:, k] = np.searchsorted(self.ranks, self._layout_code(moved))
            bit_a, bit_b = (side >> a) & 1, (side >> b) & 1
            turned[k] = (side & ~((1 << a) | (1 << b))) | (bit_a << b) | (bit_b << a)
        self.neighbours = _neighbours(ranks, turned)

    def _layout_code(self, layouts: np.ndarray) -> np.ndarray:
        code = np.zeros(len(layouts), np.int64)
        for p in range(9):
            code = code * self.base + layouts[:, p]
        return code

    def faces_of(self, grid: int) -> tuple[int, ...]:
        """The nine faces grid number ``grid`` shows, in reading order."""
        return tuple(int(f) for f in self.columns[:, grid])

    def showing(self, window: Sequence[Sequence[int | None]]) -> np.ndarray:
        """Whether each grid shows the window somewhere, unturned."""
        h, w = len(window), len(window[0])
        out = np.zeros(self.size, bool)
        for r0, c0 in itertools.product(range(SIDE - h + 1), range(SIDE - w + 1)):
            here = np.ones(self.size, bool)
            for r, c in itertools.product(range(h), range(w)):
                if window[r][c] is not None:
                    here &= self.columns[(r0 + r) * SIDE + c0 + c] == window[r][c]
            out |= here
        return out

    def distances(self, start: np.ndarray) -> np.ndarray:
        """Least actions from every grid to one in ``start`` (-1: never), level by level."""
        return _levels(start, self.neighbours)

    def levels(self, shown: Sequence[np.ndarray]) -> np.ndarray:
        """For many windows at once (each given as the grids that show it): how many grids
        lie at each least number of actions from one that shows it, as ``counts[level,
        window]``. One search for all of them, 64 windows a machine word (see ``_sweep``);
        the same figures as ``distances`` window by window."""
        words = max(1, (len(shown) + 63) // 64)
        start = np.zeros((self.size, words), np.uint64)
        for j, grids_showing in enumerate(shown):
            _set_bit(start, grids_showing, j)
        for j in range(len(shown), words * 64):  # the spare bits: reached everywhere from the start
            start[:, j // 64] |= np.uint64(1) << np.uint64(j % 64)
        return _sweep(start, self.neighbours)[:, :len(shown)]


@njit(cache=True)
def _neighbours(ranks: np.ndarray, turned: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """The swap table: grid ``layout * 512 + sides`` and swap ``k`` lead to grid
    ``ranks[layout, k] * 512 + turned[k, sides]``."""
    layouts, swaps = ranks.shape
    out = np.empty((layouts * 512, swaps), np.int32)
    for layout in range(layouts):
        for sides in range(512):
            for k in range(swaps):
                out[layout * 512 + sides, k] = ranks[layout, k] * 512 + turned[k, sides]
    return out


@njit(cache=True)
def _set_bit(start: np.ndarray, shown: np.ndarray, j: int) -> None:  # pragma: no cover - compiled
    bit = np.uint64(1) << np.uint64(j % 64)
    for s in range(len(shown)):
        if shown[s]:
            start[s, j // 64] |= bit


@njit(cache=True)
def _add(counter: np.ndarray, w: int, x: np.uint64) -> None:  # pragma: no cover - compiled
    """Add one to the count of every window whose bit is set in ``x``: ``counter[w, i]``
    holds bit ``i`` of the counts of word ``w``'s 64 windows (a bit-sliced counter)."""
    i = 0
    while x:
        carry = counter[w, i] & x
        counter[w, i] ^= x
        x = carry
        i += 1


@njit(cache=True)
def _read(counter: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover - compiled
    one = np.uint64(1)
    for w in range(counter.shape[0]):
        for j in range(64):
            c = 0
            for i in range(counter.shape[1]):
                c |= int((counter[w, i] >> np.uint64(j)) & one) << i
            out[w * 64 + j] = c


@njit(cache=True)
def _sweep(start: np.ndarray, neighbours: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """A breadth-first search for 64 windows a word at once: bit ``j`` of ``seen[s, w]``
    says grid ``s`` is already known to be within the current level of window ``64 w + j``.
    Each level is one pass over the grids, each taking from its 21 neighbours the windows
    their frontier reached and keeping the new ones (a grid every window has reached is
    passed over); the grids each window reaches at each level are counted as it goes."""
    n, words = start.shape
    swaps = neighbours.shape[1]
    zero = np.uint64(0)
    seen = start.copy()
    front = start.copy()
    nxt = np.zeros_like(start)
    counter = np.zeros((words, 32), np.uint64)
    counts = np.zeros((64, words * 64), np.int64)
    for s in range(n):
        for w in range(words):
            _add(counter, w, start[s, w])
    _read(counter, counts[0])
    acc = np.empty(words, np.uint64)
    level = 0
    while True:
        counter[:, :] = zero
        grew = False
        for s in range(n):
            done = True
            for w in range(words):
                if seen[s, w] != ~zero:
                    done = False
            if done:
                for w in range(words):
                    nxt[s, w] = zero
                continue
            if words == 2:  # the usual deck (65 to 128 windows): the two words in registers
                a0 = zero
                a1 = zero
                for k in range(swaps):
                    t = neighbours[s, k]
                    a0 |= front[t, 0]
                    a1 |= front[t, 1]
                for b in range(9):
                    t = s ^ (1 << b)
                    a0 |= front[t, 0]
                    a1 |= front[t, 1]
                acc[0] = a0
                acc[1] = a1
            else:
                acc[:] = zero
                for k in range(swaps + 9):
                    t = neighbours[s, k] if k < swaps else s ^ (1 << (k - swaps))
                    for w in range(words):
                        acc[w] |= front[t, w]
            for w in range(words):
                new = acc[w] & ~seen[s, w]
                nxt[s, w] = new
                if new:
                    grew = True
                    seen[s, w] |= new
                    _add(counter, w, new)
        if not grew:
            break
        level += 1
        _read(counter, counts[level])
        front, nxt = nxt, front
    return counts[:level + 1]


@njit(cache=True)
def _levels(start: np.ndarray, neighbours: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    # level by level, each level a pass over every grid in order (so the neighbour table is
    # read front to back), expanding the grids found at the level before
    n = start.shape[0]
    swaps = neighbours.shape[1]
    dist = np.full(n, -1, np.int16)
    found = 0
    for s in range(n):
        if start[s]:
            dist[s] = 0
            found += 1
    level = 0
    while found:
        found = 0
        for s in range(n):
            if dist[s] != level:
                continue
            for k in range(swaps + 9):
                t = neighbours[s, k] if k < swaps else s ^ (1 << (k - swaps))
                if dist[t] < 0:
                    dist[t] = level + 1
                    found += 1
        level += 1
    return dist


def actions() -> list[tuple[str, int, int]]:
    """The 12 swaps of orthogonal neighbours and the 9 flips."""
    out = []
    for p in range(9):
        r, c = divmod(p, SIDE)
        if c + 1 < SIDE:
            out.append(("swap", p, p + 1))
        if r + 1 < SIDE:
            out.append(("swap", p, p + SIDE))
    return out + [("flip", p, -1) for p in range(9)]


@lru_cache(maxsize=1)
def grids(tiles: TileSet) -> Grids:
    return Grids(tiles)


@dataclass(frozen=True, slots=True)
class CardCheck:
    """One card, measured again (None where the window is not feasible)."""

    card: CardId
    feasible: bool
    difficulty: float | None
    shown: float | None
    max: int | None
    rated: int | None  # the points it earns on the scale
    key: str
    problems: tuple[str, ...]

    @property
    def where(self) -> str:
        return f"card {self.card}"


@dataclass(frozen=True, slots=True)
class Agreement:
    """A designer's own points beside the absolute scale's (``scale.bounds`` over their
    values), card by card.

    Attributes:
        cards: the cards with points and a difficulty.
        equal: the share worth what the scale gives them.
        near: the share within one step of it (neighbouring values of the designer's).
        rho: the Spearman correlation of their points and difficulty.
        inverted: pairs where a card worth less is harder than a card worth more, the widest
            difficulty gap first: (cheaper card, its points, its difficulty, dearer card, its
            points, its difficulty).
        pairs: how many such pairs there are in all (``inverted`` lists the first ``SHOWN``).
    """

    cards: int
    equal: float
    near: float
    rho: float | None
    inverted: tuple[tuple[CardId, int, float, CardId, int, float], ...]
    pairs: int


#: Inverted pairs an agreement lists (the widest gaps; the count covers all).
SHOWN = 10


def agreement(deck: Deck, checks: Sequence[CardCheck]) -> Agreement | None:
    """How the deck's own points agree with the absolute scale (None: no card has both
    points and a difficulty)."""
    from generators.common.grading import spearman
    from generators.shifting_stones.scale import bounds

    rows = [(c.id, c.points, k.difficulty) for c, k in zip(deck.cards, checks)
            if c.points is not None and k.difficulty is not None]
    if not rows:
        return None
    values = sorted({p for _, p, _ in rows})
    steps = bounds(values)
    place = {p: i for i, p in enumerate(values)}
    theirs = [place[p] for _, p, _ in rows]
    ours = [place[rate(d, steps)] for _, _, d in rows]
    equal = sum(a == b for a, b in zip(theirs, ours)) / len(rows)
    near = sum(abs(a - b) <= 1 for a, b in zip(theirs, ours)) / len(rows)
    rho = spearman([float(p) for _, p, _ in rows], [d for _, _, d in rows]) if len(rows) > 1 else None
    inverted = [(a[0], a[1], a[2], b[0], b[1], b[2]) for a in rows for b in rows
                if a[1] < b[1] and a[2] > b[2] + TOLERANCE]
    inverted.sort(key=lambda t: (-(t[2] - t[5]), str(t[0]), str(t[3])))
    return Agreement(len(rows), equal, near, rho, tuple(inverted[:SHOWN]), len(inverted))


@dataclass(frozen=True, slots=True)
class DeckCheck:
    """The verdict on a deck: ``ok`` when no card and no rule has a problem.

    Attributes:
        cards: every card's check, in deck order.
        rule_problems: the deck rules broken.
        usage: windows that show each face.
        bounds: the points scale hand-written cards are placed on ((points, most difficulty),
            ...), and the points above the last bound.
        scale: where the scale came from.
        agreement: how a hand-written list's own points agree with the absolute scale
            (None for a generated deck, whose points must never run against difficulty).
    """

    cards: tuple[CardCheck, ...]
    rule_problems: tuple[str, ...]
    usage: dict[str, int]
    bounds: tuple[tuple[int, float], ...]
    top: int
    scale: str
    agreement: Agreement | None = None

    @property
    def problems(self) -> tuple[str, ...]:
        return self.rule_problems + tuple(f"{c.where}: {p}" for c in self.cards for p in c.problems)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def unknown(self) -> tuple[CardCheck, ...]:
        return ()  # every search runs to the end

    @property
    def counted(self) -> str:
        return plural(len(self.cards), "pattern")

    def check(self, card: CardId) -> CardCheck:
        return next(c for c in self.cards if str(c.card) == str(card))


def scale_of(deck: Deck) -> tuple[tuple[tuple[int, float], ...], int] | None:
    """A deck's own points scale: between each points value and the next, the midpoint of the
    hardest card worth the one and the easiest worth the next (None without points and
    difficulties on every card)."""
    if not deck.cards or any(c.points is None or c.difficulty is None for c in deck.cards):
        return None
    by_points: dict[int, list[float]] = {}
    for c in deck.cards:
        by_points.setdefault(c.points, []).append(c.difficulty)  # type: ignore[arg-type]
    values = sorted(by_points)
    bounds = tuple((p, round((max(by_points[p]) + min(by_points[q])) / 2, 3)) for p, q in zip(values, values[1:]))
    return bounds, values[-1]


def check_card(g: Grids, deck: Deck, card: Card, bounds: Sequence[tuple[int, float]], top: int,
               shown: np.ndarray, counts: np.ndarray | None) -> CardCheck:
    """One card, given the grids that show its window and how many grids lie at each least
    number of actions from one of them (``Grids.levels``)."""
    key = hashlib.sha256(np.packbits(shown).tobytes()).hexdigest()
    problems: list[str] = []
    if counts is None or not shown.any():
        why = card.pattern.shortage(deck.tiles) or "no place fits it"
        return CardCheck(card.id, False, None, None, None, None, key, (f"no grid shows this window: {why}",))
    levels = np.arange(len(counts), dtype=np.int64)
    difficulty = float((counts * levels).sum()) / g.size
    share = float(shown.sum()) / g.size
    most = int(np.flatnonzero(counts)[-1])
    if card.difficulty is not None and abs(card.difficulty - difficulty) > TOLERANCE:
        problems.append(f"difficulty: stored {card.difficulty}, recomputed {difficulty:.3f}")
    if card.shown is not None and abs(card.shown - share) > 5e-7 + 1e-12:
        problems.append(f"shown: stored {card.shown}, recomputed {share:.6f}")
    if card.max is not None and card.max != most:
        problems.append(f"max: stored {card.max}, recomputed {most}")
    rated = rate(difficulty, (tuple(bounds), top))
    return CardCheck(card.id, True, round(difficulty, 3), round(share, 6), most, rated, key, tuple(problems))


def point_problems(deck: Deck, checks: Sequence[CardCheck], inversions: bool = True) -> list[str]:
    """Cards worth fewer points that are harder than a card worth more (with
    ``inversions``), and a mix not kept."""
    out = []
    with_points = [(c.points, k) for c, k in zip(deck.cards, checks) if c.points is not None]
    if with_points and len(with_points) != len(deck.cards):
        missing = [str(c.id) for c in deck.cards if c.points is None]
        out.append(f"points: some cards have points and {len(missing)} do not (card {', '.join(missing[:5])})")
    measured = [(p, k) for p, k in with_points if k.difficulty is not None]
    for low, high in itertools.combinations(sorted({p for p, _ in measured}), 2) if inversions else ():
        hardest = max((k for p, k in measured if p == low), key=lambda k: k.difficulty)  # type: ignore[arg-type,return-value]
        easiest = min((k for p, k in measured if p == high), key=lambda k: k.difficulty)  # type: ignore[arg-type,return-value]
        if hardest.difficulty > easiest.difficulty:  # type: ignore[operator]
            out.append(f"points: card {hardest.card} is worth {low} but harder ({hardest.difficulty:.3f}) than "
                       f"card {easiest.card}, worth {high} ({easiest.difficulty:.3f})")
    mix = deck.mix
    if mix is not None and with_points:
        have = Counter(p for p, _ in with_points)
        if dict(have) != dict(mix):
            shown = ",".join(f"{p}:{n}" for p, n in sorted(have.items()))
            out.append(f"points: the cards' mix is {shown}, parameters.mix asks for "
                       f"{','.join(f'{p}:{n}' for p, n in mix)}")
    return out


def play_problems(deck: Deck) -> list[str]:
    """A deck priced by play (``parameters.price`` ``play:GAMES``): its pricing games played
    again, and every card whose points are not the ones they give."""
    from generators.common.errors import RequestError
    from generators.shifting_stones.generate import priced_by_play

    games = int(str(deck.parameters["price"]).split(":")[1])
    if any(c.points is None for c in deck.cards):
        return ["points: parameters.price is play, but some cards have no points"]
    try:
        again = priced_by_play(deck, games)
    except RequestError as err:
        return [f"parameters.price: its games cannot be played again: {err}"]
    wrong = [(c, a) for c, a in zip(deck.cards, again.cards) if c.points != a.points]
    out = [f"points: card {c.id} is worth {c.points}, its effort in {games} pricing games gives it {a.points}"
           for c, a in wrong[:5]]
    if len(wrong) > 5:
        out.append(f"points: {len(wrong) - 5} more cards are not priced as their play gives")
    return out


def parameter_problems(deck: Deck) -> list[str]:
    out = []
    params = deck.parameters
    if "cards" in params and params["cards"] != len(deck.cards):
        out.append(f"parameters.cards: {params['cards']}, but the deck has {len(deck.cards)} cards")
    stones = params.get("stones")
    if stones == "published":  # shaped like the published deck: its windows, 1-4 stones
        windows = {w for w, _ in PUBLISHED_WINDOWS}
        most = max(k for k, _ in PUBLISHED_STONES)
        for c in deck.cards:
            size = (c.pattern.height, c.pattern.width)
            if size not in windows or not 1 <= c.pattern.stones <= most:
                out.append(f"card {c.id}: a {size[0]}x{size[1]} window with {c.pattern.stones} stones, not "
                           f"shaped like the published deck's (parameters.stones: published)")
    if isinstance(stones, list) and len(stones) == 2:
        lo, hi = stones
        for c in deck.cards:
            if not lo <= c.pattern.stones <= hi:
                out.append(f"card {c.id}: {c.pattern.stones} stones, outside parameters.stones {lo}-{hi}")
    if "tiles" in params and params["tiles"] != deck.tiles.title:
        out.append(f"parameters.tiles: {params['tiles']!r}, but the deck's tiles are {deck.tiles.title!r}")
    return out


def hand_written(deck: Deck) -> bool:
    """Whether the deck is a designer's own list (no seed, no recorded mix), not generated."""
    return deck.seed is None and "mix" not in deck.parameters


def verify_deck(deck: Deck, *, time_limit: float | None = None, tiers_from: Deck | None = None,
                tiers_name: str = "", strict: bool = False, workers: int = 1) -> DeckCheck:
    """Check every card and every rule (see the module docstring). ``tiers_from``: another
    deck whose points scale places the cards (default: this deck's own, else the absolute
    scale). A hand-written list with its own points gets an ``agreement`` with the absolute
    scale, and its inverted pairs are problems only when ``strict``; a generated deck's are
    always. ``time_limit`` is accepted for the command's sake; every search here finishes.
    ``workers`` too: the cards are measured in one bit-parallel search, in this process."""
    del time_limit, workers
    own = scale_of(deck)
    other = scale_of(tiers_from) if tiers_from is not None else None
    if other is not None:
        (bounds, top), scale = other, f"the points of {tiers_name or 'the other deck'}"
    elif own is not None:
        (bounds, top), scale = own, "the deck's own points"
    else:
        bounds, top, scale = DEFAULT_POINT_BOUNDS, DEFAULT_TOP, ("the absolute scale (about 0.9 points an "
                                                                "expected action, as the published deck)")
    g = grids(deck.tiles)
    found: list[CardCheck] = []
    # 64 cards a search (a machine word of windows): each card's grids are a few MB, so a
    # deck's memory stays flat however many cards it has
    for start in range(0, len(deck.cards), 64):
        cards = deck.cards[start:start + 64]
        shown = [g.showing(c.pattern.rows) for c in cards]
        feasible = [k for k, s in enumerate(shown) if s.any()]
        counts = g.levels([shown[k] for k in feasible]) if feasible else None
        column = {k: counts[:, i] for i, k in enumerate(feasible)} if counts is not None else {}
        found += [check_card(g, deck, c, bounds, top, shown[k], column.get(k)) for k, c in enumerate(cards)]
        del shown
    checks = tuple(found)
    rules: list[str] = []
    first: dict[str, CardId] = {}
    for k in checks:
        if k.feasible and k.key in first:
            rules.append(f"card {k.card} shows on exactly the grids card {first[k.key]} shows (the same pattern)")
        first.setdefault(k.key, k.card)
    mine = hand_written(deck)
    by_play = str(deck.parameters.get("price", "exact")).startswith("play:")
    rules += point_problems(deck, checks, inversions=(strict or not mine) and not by_play)
    if by_play:
        rules += play_problems(deck)
    rules += parameter_problems(deck)
    usage = Counter(f for c in deck.cards for f in c.pattern.fixed)
    return DeckCheck(checks, tuple(rules), {name: usage[i] for i, name in enumerate(deck.tiles.faces)},
                     tuple(bounds), top, scale, agreement(deck, checks) if mine else None)
