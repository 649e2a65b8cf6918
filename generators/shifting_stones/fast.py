"""Shifting Stones games compiled (numba): the rules of ``engine`` and the random and greedy
agents of ``generators.common.play``, draw for draw, for playtests of tens of thousands of
games.

The same game as ``play(engine, ...)``: the set-up is the engine's own (``engine.start``);
the agents draw from the same ``rng.Rng`` streams, look at the moves in the same order,
value them with the same sums (so ties are the same ties) and, for the greedy agent, deal
the cards they cannot see afresh exactly as ``engine.determinise`` does. ``tests`` play both
ways and compare every move. The search agent stays in Python.

State, as arrays: ``grid[9]`` (faces); ``hands[seat, cards]`` kept sorted, with ``hand_len``
(a hand has no limit: passing every other turn grows it by two); ``draw`` and ``discard``
(tops last); ``scored[seat, cards]`` with ``scored_len``; and the scalars ``sc``: seat,
acted, turn, ending, finished, shuffles, the draw and discard piles' lengths.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from generators.common.memo import last_seen
from generators.common.play import AGENT_STREAM, SearchAgent
from generators.common.rng import derive

U = np.uint64
GOLDEN = U(0x9E3779B97F4A7C15)
M1 = U(0xBF58476D1CE4E5B9)
M2 = U(0x94D049BB133111EB)
MASK = U(0xFFFFFFFFFFFFFFFF)

#: Agents the compiled games play.
KINDS = {"random": 0, "greedy": 1, "search": 2}

SEAT, ACTED, TURN, ENDING, FINISHED, SHUFFLES, DRAW, DISCARD = range(8)
#: Move codes: (kind, a, b, card); swap's a and b are places, flip's a is the place.
SCORE, SWAP, FLIP, END, PASS = range(5)


@njit(cache=True, nogil=True)
def _mix64(z: Any) -> Any:
    z = (z ^ (z >> U(30))) * M1
    z = (z ^ (z >> U(27))) * M2
    return z ^ (z >> U(31))


@njit(cache=True, nogil=True)
def _derive(a: Any, b: Any) -> Any:
    return _mix64(_mix64(a + GOLDEN) + b * GOLDEN + U(1))


@njit(cache=True, nogil=True)
def _next64(rng: Any) -> Any:
    rng[0] = rng[0] + GOLDEN
    return _mix64(rng[0])


@njit(cache=True, nogil=True)
def _below(rng: Any, n: int) -> Any:
    m = U(n)
    top = MASK - ((MASK % m) + U(1)) % m
    while True:
        r = _next64(rng)
        if r <= top:
            return np.int64(r % m)


@njit(cache=True, nogil=True)
def _shuffle(rng: Any, items: Any, n: int) -> None:
    for i in range(n - 1, 0, -1):
        j = _below(rng, i + 1)
        t = items[i]
        items[i] = items[j]
        items[j] = t


@njit(cache=True, nogil=True)
def _shows(grid: Any, card: int, nfits: Any, fit_len: Any, fit_place: Any, fit_face: Any) -> bool:
    for f in range(nfits[card]):
        ok = True
        for k in range(fit_len[card, f]):
            if grid[fit_place[card, f, k]] != fit_face[card, f, k]:
                ok = False
                break
        if ok:
            return True
    return False


@njit(cache=True, nogil=True)
def _hand_value(grid: Any, hand: Any, n: int, skip: int, extra: Any, n_extra: int, base: float, worth: Any,
                nfits: Any, fit_len: Any, fit_place: Any, fit_face: Any) -> float:
    """``engine.value`` of a seat whose scored cards are worth ``base``, holding ``hand[:n]``
    but the card at ``skip`` (-1: none) and ``extra[:n_extra]``, on ``grid``."""
    shown = 0
    held = 0
    for i in range(n):
        if i == skip:
            continue
        held += 1
        c = hand[i]
        if _shows(grid, c, nfits, fit_len, fit_place, fit_face):
            shown += worth[c]
    for i in range(n_extra):
        held += 1
        c = extra[i]
        if _shows(grid, c, nfits, fit_len, fit_place, fit_face):
            shown += worth[c]
    return base + 0.9 * shown + 0.05 * held


@njit(cache=True, nogil=True)
def _moves(grid: Any, hand: Any, n: int, may_pass: bool, pairs: Any, out: Any, nfits: Any, fit_len: Any,
           fit_place: Any, fit_face: Any) -> int:
    """The legal moves in ``engine.moves``' order, into ``out``; their number."""
    m = 0
    for i in range(n):
        c = hand[i]
        if _shows(grid, c, nfits, fit_len, fit_place, fit_face):
            out[m, 0] = SCORE
            out[m, 3] = c
            m += 1
    for i in range(n):
        c = hand[i]
        for k in range(pairs.shape[0]):
            a = pairs[k, 0]
            b = pairs[k, 1]
            if grid[a] != grid[b]:
                out[m, 0] = SWAP
                out[m, 1] = a
                out[m, 2] = b
                out[m, 3] = c
                m += 1
        for p in range(9):
            out[m, 0] = FLIP
            out[m, 1] = p
            out[m, 3] = c
            m += 1
    out[m, 0] = END
    m += 1
    if may_pass:
        out[m, 0] = PASS
        m += 1
    return m


@njit(cache=True, nogil=True)
def _draw_into(seed: Any, sc: Any, draw: Any, discard: Any, k: int, got: Any) -> int:
    """Up to ``k`` cards from the top of ``draw`` into ``got`` (the discard pile shuffled in
    when the draw pile runs out, as ``engine._drawn`` does); how many."""
    n = 0
    for _ in range(k):
        if sc[DRAW] == 0 and sc[DISCARD] > 0:
            rng = np.empty(1, np.uint64)
            rng[0] = _derive(seed, U(sc[SHUFFLES]))
            for i in range(sc[DISCARD]):
                draw[i] = discard[i]
            _shuffle(rng, draw, sc[DISCARD])
            sc[DRAW] = sc[DISCARD]
            sc[DISCARD] = 0
            sc[SHUFFLES] += 1
        if sc[DRAW] == 0:
            break
        sc[DRAW] -= 1
        got[n] = draw[sc[DRAW]]
        n += 1
    return n


@njit(cache=True, nogil=True)
def _remove(hand: Any, n: int, card: int) -> None:
    at = 0
    while hand[at] != card:
        at += 1
    for i in range(at, n - 1):
        hand[i] = hand[i + 1]


@njit(cache=True, nogil=True)
def _sort_ints(a: Any, n: int) -> None:
    """``a[:n]`` sorted in place (an insertion sort: numba's own sorts are generated
    functions whose cached code can collide across processes; see ``tests/test_kernels.py``)."""
    for i in range(1, n):
        _insert_sorted(a, i, a[i])


@njit(cache=True, nogil=True)
def _order_by_value(values: Any, m: int, order: Any) -> None:
    """``order[:m]``: the indices of ``values[:m]``, highest value first, ties in index
    order (what a stable sort of ``-values`` gives)."""
    for i in range(m):
        order[i] = i
    _by_value(values, order, m)


@njit(cache=True, nogil=True)
def _by_value(values: Any, index: Any, n: int) -> None:
    """``index[:n]`` sorted in place by ``values[index]``, highest first, keeping the order of
    ties (an insertion sort)."""
    for i in range(1, n):
        j = i
        while j > 0 and values[index[j - 1]] < values[index[j]]:
            t = index[j - 1]
            index[j - 1] = index[j]
            index[j] = t
            j -= 1


@njit(cache=True, nogil=True)
def _insert_sorted(hand: Any, n: int, card: int) -> None:
    i = n
    while i > 0 and hand[i - 1] > card:
        hand[i] = hand[i - 1]
        i -= 1
    hand[i] = card


@njit(cache=True, nogil=True)
def _end_turn(seed: Any, sc: Any, hands: Any, hand_len: Any, draw: Any, discard: Any, passed: Any,
              scored_len: Any, dealt: Any, held: Any, k: int, passing: bool, target: int) -> None:
    seat = sc[SEAT]
    for i in range(hand_len[seat]):
        held[hands[seat, i]] += 1
    got = np.empty(max(k, 1), np.int64)
    n = _draw_into(seed, sc, draw, discard, k, got)
    for i in range(n):
        dealt[got[i]] += 1
        _insert_sorted(hands[seat], hand_len[seat], got[i])
        hand_len[seat] += 1
    players = hand_len.shape[0]
    if sc[ENDING] == 0:
        for s in range(players):
            if scored_len[s] >= target:
                sc[ENDING] = 1
    passed[seat] = 1 if passing else 0
    seat = (seat + 1) % players
    sc[SEAT] = seat
    sc[ACTED] = 0
    sc[TURN] += 1
    sc[FINISHED] = 1 if (sc[ENDING] == 1 and seat == 0) else 0


@njit(cache=True, nogil=True)
def _values(seed: Any, grid: Any, hand: Any, n: int, base: float, may_pass: bool, sample_draw: Any, draw_n: int,
            discard: Any, discard_n: int, shuffles: int, hand_size: int, pass_draw: int, worth: Any, pairs: Any,
            nfits: Any, fit_len: Any, fit_place: Any, fit_face: Any, legal: Any, values: Any, scratch: Any) -> int:
    """The legal moves of a seat holding ``hand[:n]`` with ``base`` points scored (into
    ``legal``, in ``engine.moves``' order) and ``engine.value`` after each (into ``values``),
    an end or a pass drawing from the deal ``sample_draw[:draw_n]`` (the discard pile
    shuffled in as the engine does); their number."""
    m = _moves(grid, hand, n, may_pass, pairs, legal, nfits, fit_len, fit_place, fit_face)
    got = scratch[:8]
    g2 = scratch[8:17]
    # (run-time values, not literals: a literal argument compiles the callee once more, as do the
    # np.int64 casts at the calls below)
    nothing = n - n
    no_skip = nothing - 1
    for k in range(m):
        kind = legal[k, 0]
        if kind == SCORE or kind == SWAP or kind == FLIP:
            c = legal[k, 3]
            skip = 0
            while hand[skip] != c:
                skip += 1
            if kind == SCORE:
                values[k] = _hand_value(grid, hand, n, skip, got, nothing, base + worth[c], worth, nfits, fit_len,
                                        fit_place, fit_face)
                continue
            for p in range(9):
                g2[p] = grid[p]
            if kind == SWAP:
                g2[legal[k, 1]] = grid[legal[k, 2]]
                g2[legal[k, 2]] = grid[legal[k, 1]]
            else:
                g2[legal[k, 1]] = grid[legal[k, 1]] ^ 1
            values[k] = _hand_value(g2, hand, n, skip, got, nothing, base, worth, nfits, fit_len, fit_place, fit_face)
        else:  # an end or a pass: the cards drawn from the deal
            want = max(0, hand_size - n) if kind == END else pass_draw
            sample_sc = np.zeros(8, np.int64)
            sample_sc[DRAW] = draw_n
            sample_sc[DISCARD] = discard_n
            sample_sc[SHUFFLES] = shuffles
            d = sample_draw.copy()
            pile = discard[:max(discard_n, 1)].copy()
            got_n = _draw_into(seed, sample_sc, d, pile, want, got)
            values[k] = _hand_value(grid, hand, n, no_skip, got, got_n, base, worth, nfits, fit_len, fit_place,
                                    fit_face)
    return m


@njit(cache=True, nogil=True)
def _play(seed: Any, agent_seeds: Any, kinds: Any, flat: bool, max_turns: int, target: int, hand_size: int,
          pass_draw: int, width: int, points: Any, nfits: Any, fit_len: Any, fit_place: Any, fit_face: Any, pairs: Any,
          grid: Any, hands: Any, hand_len: Any, draw: Any, discard: Any, sc: Any, passed: Any, scored: Any,
          scored_len: Any, dealt: Any, held: Any) -> Any:
    """A whole game from the state given (changed in place): the moves played (kind, a, b,
    card), one a row."""
    players = hand_len.shape[0]
    cards = points.shape[0]
    moves_out = np.empty((64 * players, 4), np.int64)
    most = cards * 22 + 2  # legal moves at most: per card in hand a score, 12 swaps and 9 flips; end, pass
    worth = points.copy()
    if flat:
        worth[:] = 1
    rngs = np.empty((players, 1), np.uint64)
    for s in range(players):
        rngs[s, 0] = agent_seeds[s]
    legal = np.zeros((most, 4), np.int64)
    values = np.empty(most, np.float64)
    unseen = np.empty(cards, np.int64)
    sample_draw = np.empty(cards, np.int64)
    best = np.empty(most, np.int64)
    order = np.empty(most, np.int64)
    scratch = np.empty(cards + 16, np.int64)
    hand1 = np.empty(cards, np.int64)
    grid1 = np.empty(9, np.int64)
    discard1 = np.empty(cards, np.int64)
    legal1 = np.zeros((most, 4), np.int64)
    values1 = np.empty(most, np.float64)
    played = 0
    while sc[FINISHED] == 0 and sc[TURN] < max_turns:
        seat = sc[SEAT]
        rng = rngs[seat]
        hand = hands[seat]
        n = hand_len[seat]
        may_pass = sc[ACTED] == 0 and passed[seat] == 0
        no_pass = sc[ACTED] < 0  # False, at run time (see _values)
        if kinds[seat] == 0:  # random: any legal move
            m = _moves(grid, hand, n, may_pass, pairs, legal, nfits, fit_len, fit_place, fit_face)
            choice = _below(rng, np.int64(m))
        else:  # greedy or search, on a deal of the cards it cannot see
            u = 0
            for s in range(players):
                if s != seat:
                    for i in range(hand_len[s]):
                        unseen[u] = hands[s, i]
                        u += 1
            for i in range(sc[DRAW]):
                unseen[u] = draw[i]
                u += 1
            _sort_ints(unseen, np.int64(u))
            _shuffle(rng, unseen, np.int64(u))
            at = 0
            for s in range(players):
                if s != seat:
                    at += hand_len[s]
            for i in range(u - at):
                sample_draw[i] = unseen[at + i]
            base = 0.0
            for i in range(scored_len[seat]):
                base += worth[scored[seat, i]]
            m = _values(seed, grid, hand, n, base, may_pass, sample_draw, u - at, discard, sc[DISCARD], sc[SHUFFLES],
                        hand_size, pass_draw, worth, pairs, nfits, fit_len, fit_place, fit_face, legal, values,
                        scratch)
            if kinds[seat] == 1:  # greedy: the best by one step
                top = values[0]
                for k in range(1, m):
                    if values[k] > top:
                        top = values[k]
                nb = 0
                for k in range(m):  # the best, by value then in the moves' order (engine: sorted by (-value, order))
                    if values[k] > top - 1e-9:
                        best[nb] = k
                        nb += 1
                _by_value(values, best, np.int64(nb))  # a stable sort by value, highest first
                choice = best[_below(rng, np.int64(nb))]
            else:  # search: the best few by one step, each looked at one move further
                _order_by_value(values, np.int64(m), order)
                top = -np.inf
                nb = 0
                for r in range(min(width, m)):
                    k = order[r]
                    v = values[k]
                    kind = legal[k, 0]
                    if kind == SCORE or kind == SWAP or kind == FLIP:  # the seat moves again: its best next move
                        c = legal[k, 3]
                        n1 = 0
                        for i in range(n):
                            if hand[i] != c:
                                hand1[n1] = hand[i]
                                n1 += 1
                        for p in range(9):
                            grid1[p] = grid[p]
                        base1 = base
                        d1 = sc[DISCARD]
                        for i in range(d1):
                            discard1[i] = discard[i]
                        if kind == SCORE:
                            base1 = base + worth[c]
                        else:
                            if kind == SWAP:
                                grid1[legal[k, 1]] = grid[legal[k, 2]]
                                grid1[legal[k, 2]] = grid[legal[k, 1]]
                            else:
                                grid1[legal[k, 1]] = grid[legal[k, 1]] ^ 1
                            discard1[d1] = c
                            d1 += 1
                        m1 = _values(seed, grid1, hand1, np.int64(n1), base1, no_pass, sample_draw, u - at, discard1,
                                     d1, sc[SHUFFLES], hand_size, pass_draw, worth, pairs, nfits, fit_len, fit_place,
                                     fit_face, legal1, values1, scratch)
                        for k1 in range(m1):
                            if values1[k1] > v:
                                v = values1[k1]
                    if v > top + 1e-9:
                        top = v
                        best[0] = k
                        nb = 1
                    elif v > top - 1e-9:
                        best[nb] = k
                        nb += 1
                choice = best[_below(rng, np.int64(nb))]
        kind = legal[choice, 0]
        if played == moves_out.shape[0]:
            grown = np.empty((2 * played, 4), np.int64)
            grown[:played] = moves_out
            moves_out = grown
        for i in range(4):
            moves_out[played, i] = legal[choice, i]
        played += 1
        c = legal[choice, 3]
        if kind == SCORE:
            held[c] += 1
            _remove(hand, n, c)
            hand_len[seat] -= 1
            scored[seat, scored_len[seat]] = c
            scored_len[seat] += 1
            sc[ACTED] = 1
        elif kind == SWAP or kind == FLIP:
            held[c] += 1
            if kind == SWAP:
                a = legal[choice, 1]
                b = legal[choice, 2]
                t = grid[a]
                grid[a] = grid[b]
                grid[b] = t
            else:
                grid[legal[choice, 1]] ^= 1
            _remove(hand, n, c)
            hand_len[seat] -= 1
            discard[sc[DISCARD]] = c
            sc[DISCARD] += 1
            sc[ACTED] = 1
        else:  # an end draws up to a hand, a pass its cards
            k = max(0, hand_size - n) if kind == END else pass_draw
            _end_turn(seed, sc, hands, hand_len, draw, discard, passed, scored_len, dealt, held, k, kind == PASS,
                      target)
    return moves_out[:played]


def tables(table: Any) -> tuple[np.ndarray, ...]:
    """The engine's ``Table`` as arrays: points, and each card's fits (their count, each
    fit's length, places and faces)."""
    n = len(table.ids)
    most = max(len(f) for f in table.fits)
    nfits = np.zeros(n, np.int64)
    fit_len = np.zeros((n, most), np.int64)
    fit_place = np.zeros((n, most, 9), np.int64)
    fit_face = np.zeros((n, most, 9), np.int64)
    for c, fits in enumerate(table.fits):
        nfits[c] = len(fits)
        for f, fit in enumerate(fits):
            fit_len[c, f] = len(fit)
            for k, (p, face) in enumerate(fit):
                fit_place[c, f, k] = p
                fit_face[c, f, k] = face
    return np.array(table.points, np.int64), nfits, fit_len, fit_place, fit_face


def play(state: Any, agents: tuple[str, ...], flat: bool, max_turns: int, rules: tuple[int, int, int],
         ends: tuple[tuple[Any, ...], tuple[Any, ...]]) -> tuple[Any, list[tuple[Any, ...]]]:
    """The game from ``state`` (``engine.start``'s) with ``agents`` (random, greedy or search)
    in its seats, under ``rules`` (the cards scored that end the game, the hand drawn up to,
    the cards a pass draws): the final state (an ``engine.State``) and the moves played, as
    the engine writes them (``ends``: its end and pass moves)."""
    from dataclasses import replace

    from generators.shifting_stones.space import PAIRS

    table = state.table
    players = len(state.hands)
    n = len(table.ids)
    points, nfits, fit_len, fit_place, fit_face = _arrays(table)
    grid = np.array(state.grid, np.int64)
    hands = np.zeros((players, n), np.int64)
    hand_len = np.zeros(players, np.int64)
    for s, hand in enumerate(state.hands):
        hands[s, :len(hand)] = hand
        hand_len[s] = len(hand)
    draw = np.zeros(n, np.int64)
    draw[:len(state.draw)] = state.draw
    discard = np.zeros(n, np.int64)
    discard[:len(state.discard)] = state.discard
    sc = np.array([state.seat, int(state.acted), state.turn, int(state.ending), int(state.finished), state.shuffles,
                   len(state.draw), len(state.discard)], np.int64)
    passed = np.array([int(p) for p in state.passed], np.int64)
    scored = np.zeros((players, n), np.int64)
    scored_len = np.zeros(players, np.int64)
    for s, cards in enumerate(state.scored):
        scored[s, :len(cards)] = cards
        scored_len[s] = len(cards)
    dealt = np.array(state.dealt, np.int64)
    held = np.array(state.held, np.int64)
    seeds = np.array([derive(state.seed, AGENT_STREAM + s) for s in range(players)], np.uint64)
    kinds = np.array([KINDS[a] for a in agents], np.int64)
    target, hand_size, pass_draw = rules
    played = _play(U(state.seed), seeds, kinds, flat, max_turns, target, hand_size, pass_draw, SearchAgent().width,
                   points, nfits, fit_len, fit_place, fit_face,
                   np.array(PAIRS, np.int64), grid, hands, hand_len, draw, discard, sc, passed, scored, scored_len,
                   dealt, held)
    moves: list[tuple[Any, ...]] = []
    for kind, a, b, c in played.tolist():
        moves.append((("score", c), ("swap", a, b, c), ("flip", a, c), *ends)[kind])
    final = replace(state, grid=tuple(grid.tolist()),
                    hands=tuple(tuple(hands[s, :hand_len[s]].tolist()) for s in range(players)),
                    draw=tuple(draw[:sc[DRAW]].tolist()), discard=tuple(discard[:sc[DISCARD]].tolist()),
                    scored=tuple(tuple(scored[s, :scored_len[s]].tolist()) for s in range(players)),
                    seat=int(sc[SEAT]), acted=bool(sc[ACTED]), passed=tuple(bool(p) for p in passed.tolist()),
                    turn=int(sc[TURN]), ending=bool(sc[ENDING]), finished=bool(sc[FINISHED]),
                    shuffles=int(sc[SHUFFLES]), dealt=tuple(dealt.tolist()), held=tuple(held.tolist()))
    return final, moves


_arrays = last_seen(tables)  # a playtest plays one deck: its table's arrays, made once
