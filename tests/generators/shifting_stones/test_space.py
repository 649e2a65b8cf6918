"""The grid's state space and the breadth-first search: counts, moves that undo
themselves, pattern matching against a direct check, and distances that satisfy the
shortest-path equations at every state."""

from __future__ import annotations

import random

import numpy as np
import pytest

from generators.common.errors import RequestError
from generators.shifting_stones.space import MOVES, ORIENTATIONS, PAIRS, space
from generators.shifting_stones.tiles import PUBLISHED, Tile, TileSet

S = space(PUBLISHED)
F = PUBLISHED.face_id


def shows_directly(grid: tuple[int, ...], window: list[list[int | None]]) -> bool:
    h, w = len(window), max(len(r) for r in window)
    for r0 in range(4 - h):
        for c0 in range(4 - w):
            if all(face is None or grid[(r0 + dr) * 3 + c0 + dc] == face
                   for dr, row in enumerate(window) for dc, face in enumerate(row)):
                return True
    return False


def test_the_published_set_has_2580480_grids_and_21_actions_from_each() -> None:
    assert S.size == 2_580_480 == 5040 * 512
    assert len(PAIRS) == 12 and len(MOVES) == 21
    assert len(set(PAIRS)) == 12 and all(abs(a - b) in (1, 3) for a, b in PAIRS)


def test_every_action_undoes_itself_and_a_state_round_trips_through_its_faces() -> None:
    rng = random.Random(1)
    for _ in range(300):
        s = rng.randrange(S.size)
        assert S.state(S.faces(s)) == s
        for move in MOVES:
            assert S.after(S.after(s, move), move) == s
        a, b = PAIRS[0]
        f = S.faces(s)
        swapped = list(f)
        swapped[a], swapped[b] = swapped[b], swapped[a]
        assert S.faces(S.after(s, MOVES[0])) == tuple(swapped)


def test_shows_agrees_with_a_direct_check() -> None:
    rng = random.Random(2)
    windows = [[[F("Sun")]], [[F("Fish"), None], [None, F("Bird")]], [[F("Seed"), F("Seed"), F("Tree")]],
               [[F("Horse")], [F("Boat")], [F("Horse")]], [[F("Moon"), F("Fish"), F("Tree")] for _ in range(3)]]
    for window in windows:
        mask = S.shows(window)
        for s in [rng.randrange(S.size) for _ in range(400)] + list(np.flatnonzero(mask)[:50]):
            assert mask[s] == shows_directly(S.faces(s), window), (window, s)
    assert not S.shows([[F("Sun"), F("Sun")]]).any(), "one Sun/Moon stone cannot show two suns"


def test_distances_satisfy_the_shortest_path_equations_everywhere() -> None:
    shown = S.shows([[F("Fish"), F("Bird")], [F("Seed"), None]])
    dist = S.distances(shown).astype(np.int16)
    assert (dist >= 0).all() and ((dist == 0) == shown).all()
    a = np.repeat(np.arange(len(S.arrangements)), ORIENTATIONS)
    o = np.tile(np.arange(ORIENTATIONS), len(S.arrangements))
    best = np.full(S.size, 99, np.int16)
    for k in range(len(PAIRS)):
        best = np.minimum(best, dist[S.swap[a, k] * ORIENTATIONS + S.bits[o, k]])
    for p in range(9):
        best = np.minimum(best, dist[a * ORIENTATIONS + (o ^ (1 << p))])
    away = dist > 0
    assert (dist[away] == best[away] + 1).all()
    assert (best[~away] >= 0).all()


def test_a_path_reaches_the_pattern_in_exactly_its_distance() -> None:
    window = [[F("Sun"), F("Moon")]]
    assert not S.shows(window).any()
    window = [[F("Sun"), F("Fish"), F("Fish")]]
    shown = S.shows(window)
    dist = S.distances(shown)
    rng = random.Random(3)
    for _ in range(50):
        s = rng.randrange(S.size)
        moves = S.path(s, dist)
        assert len(moves) == dist[s]
        for m in moves:
            s = S.after(s, m)
        assert shows_directly(S.faces(s), window)


def test_a_tile_set_too_large_to_search_is_refused() -> None:
    many = TileSet("nine kinds", tuple(Tile((f"A{i}", f"B{i}"), 1, ("#000000", "#FFFFFF")) for i in range(9)))
    with pytest.raises(RequestError, match="more than the"):
        space(many)
