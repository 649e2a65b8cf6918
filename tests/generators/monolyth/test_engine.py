"""Monolyth as played (``generators.monolyth.engine``): the set-up, the ring and the crystal,
placing under the support rule, singles, level and structure tokens, prophecies, the end,
and whole games that keep every piece, single and token."""

from __future__ import annotations

from dataclasses import replace

import pytest

from generators.common.errors import RequestError
from generators.common.play import GreedyAgent, RandomAgent, SearchAgent, agents_from, play, replay
from generators.common.rng import Rng
from generators.monolyth import engine
from generators.monolyth.deck import Card, Deck, read_deck
from solver.heightmap import CONTAIN, EQUAL, Target
from tests.data import DATA

DECK = read_deck(DATA / "monolyth-3-seed-2.json")
E = engine.EMPTY


def one_card(heights: tuple[int | None, ...], rule: str = CONTAIN, turn: bool = True,
             colours: tuple[tuple[tuple[int, int, int], str], ...] = ()) -> Deck:
    return replace(DECK, cards=(Card(1, Target(heights, colours, rule)),), rule=rule, turn=turn)


def column(x: int, y: int) -> int:
    return y * 4 + x


def test_the_set_up_follows_the_rules() -> None:
    for players in (1, 2, 3, 4):
        s = engine.start(DECK, players, 5)
        height = 4 if players <= 2 else 3
        assert s.table.height == height and len(s.ring) == engine.RING and E not in s.ring
        assert s.crystal == E and len(s.bag) == sum(k.count or 0 for k in DECK.pool.pieces) - engine.RING == 65 - 12
        assert s.structures == (10, 8, 6, 4)[:players]
        assert s.levels == tuple(sorted(DECK.pool.level_tokens, reverse=True))[:players * height]
        assert len(s.prophecies) == 2 * players and len(set(s.boards)) == players
        assert all(sum(h) == 0 for h in s.heights) and engine.check(s) == []
        assert engine.to_act(s) == 0 and not engine.over(s)
    with pytest.raises(RequestError, match="1 to 4 players"):
        engine.start(DECK, 5, 1)
    tall = one_card((4,) + (None,) * 15)
    assert engine.start(tall, 2, 1).table.height == 4
    with pytest.raises(RequestError, match="higher than the 4x4x3 monolith"):
        engine.start(tall, 3, 1)


def test_the_crystal_moves_one_to_four_spaces_and_the_space_it_left_is_refilled() -> None:
    s = engine.start(DECK, 2, 3)
    first = {m[1] for m in engine.moves(s) if m[0] != "prophecy"}
    assert first == {1, 2, 3, 4}
    move = next(m for m in engine.moves(s) if m[0] == "piece" and m[1] == 3)
    after = engine.apply(s, move)
    assert after.crystal == 2 and after.ring[2] == E  # the first move lands on space 3 and draws nothing
    assert after.bag == s.bag and after.ring[:2] == s.ring[:2] and after.ring[3:] == s.ring[3:]
    move = next(m for m in engine.moves(after) if m[0] in ("piece", "single") and m[1] == 4)
    again = engine.apply(after, move)
    assert again.crystal == 6 and again.ring[6] == E and again.ring[2] == s.bag[0]  # refilled from the bag
    assert again.bag == s.bag[1:] and engine.check(again) == []
    # once the bag is empty, empty spaces are skipped and not counted
    bare = replace(again, bag=(), ring=(E,) * 6 + (E, 4, E, E, 7, E), out=tuple(
        k.count or 0 for k in again.table.kinds))
    bare = replace(bare, out=tuple(n - (1 if k in (4, 7) else 0) for k, n in enumerate(bare.out)))
    assert [(steps, space) for steps, space in engine._spaces(bare)] == [(1, 7), (2, 10)]


def test_a_piece_is_placed_only_where_every_cube_stands_on_the_floor_or_a_cube() -> None:
    s = engine.start(DECK, 3, 1)
    heights = (1, 0) + (0,) * 14  # one cube in the north-west corner
    s = replace(s, heights=(heights,) + s.heights[1:],
                cubes=((0,) + (E,) * 47,) + s.cubes[1:], out=s.out)
    t = s.table
    for move in engine.moves(s):
        if move[0] != "piece":
            continue
        kind = s.ring[dict(engine._spaces(s))[move[1]]]
        p = t.placements[t.shape_of[kind]][move[2]]
        assert all(heights[c] == base for c, base, _ in p.base)  # each column it touches stands at its base
        assert max(z for _, _, z in p.cubes) < t.height
    # a flat domino over the corner cube and the empty square beside it would hang: never offered
    domino = [m for m in engine.moves(s) if m[0] == "piece"
              and {(0, 0, 1), (1, 0, 1)} == set(t.placements[t.shape_of[s.ring[dict(engine._spaces(s))[m[1]]]]][
                  m[2]].cubes)]
    assert domino == []


def test_a_piece_may_be_swapped_for_a_single_of_its_colour_or_else_goes_out() -> None:
    s = engine.start(DECK, 3, 2)
    kind = s.ring[0]
    colour = s.table.kind_colour[kind]
    single = engine.apply(s, ("single", 1, 5))
    assert single.heights[0][5] == 1 and single.cubes[0][5 * 3] == colour
    assert single.singles[colour] == s.singles[colour] - 1 and single.out[kind] == 1
    assert engine.check(single) == []
    none_left = replace(s, singles=tuple(0 if c == colour else n for c, n in enumerate(s.singles)),
                        single_cubes=tuple(s.table.singles[c] if c == colour else 0 for c in range(5)))
    assert not any(m[0] == "single" and m[1] == 1 for m in engine.moves(none_left))
    full = replace(none_left, heights=((3,) * 16,) + s.heights[1:], cubes=((0,) * 48,) + s.cubes[1:])
    assert ("discard", 1) in engine.moves(full) and not any(m[0] == "piece" for m in engine.moves(full))


def test_completing_levels_takes_the_largest_level_tokens_left() -> None:
    s = engine.start(DECK, 3, 4)
    kind = s.ring[0]
    colour = s.table.kind_colour[kind]
    # every column at 2 but one at 0: a single there completes level 1 (not 2)
    heights = (0,) + (2,) * 15
    cubes = tuple(colour if z < heights[c] else E for c in range(16) for z in range(3))
    s = replace(s, heights=(heights,) + s.heights[1:], cubes=(cubes,) + s.cubes[1:])
    after = engine.apply(s, ("single", 1, 0))
    assert after.taken[0] == (s.levels[0],) and after.levels == s.levels[1:]
    heights = (1,) + (2,) * 15
    cubes = tuple(colour if z < heights[c] else E for c in range(16) for z in range(3))
    s2 = replace(after, seat=0, heights=(heights,) + after.heights[1:], cubes=(cubes,) + after.cubes[1:])
    two = engine.apply(s2, ("single", 1, 0))
    assert two.taken[0] == (s.levels[0], s.levels[1])  # the next largest


def test_a_build_that_matches_the_card_claims_the_highest_structure_token_once() -> None:
    wall = (1, 1, 1, 1) + (None,) * 12  # the north row one high
    deck = one_card(wall)
    s = engine.start(deck, 3, 1)
    colour = s.table.kind_colour[s.ring[0]]
    # turned: the west column one high but one square matches the card turned a quarter
    heights = (1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0)
    cubes = tuple(colour if z < heights[c] else E for c in range(16) for z in range(3))
    s = replace(s, heights=(heights,) + s.heights[1:], cubes=(cubes,) + s.cubes[1:])
    claimed = engine.apply(s, ("single", 1, column(0, 3)))
    assert claimed.claimed[0] == 10 and claimed.structures == (8, 6) and claimed.claimed_at[0] == 1
    assert engine.scores(claimed)[0] == 10
    again = replace(claimed, seat=0)
    more = engine.apply(again, next(m for m in engine.moves(again) if m[0] == "single"))
    assert more.claimed[0] == 10 and more.structures == (8, 6)  # once a player
    fixed = engine.start(one_card(wall, turn=False), 3, 1)
    fixed = replace(fixed, heights=(heights,) + fixed.heights[1:], cubes=(cubes,) + fixed.cubes[1:])
    assert engine.apply(fixed, ("single", 1, column(0, 3))).claimed[0] == 0  # not when turning is not allowed
    equal = engine.start(one_card((1, 1, 1, 1) + (0,) * 12, rule=EQUAL, turn=False), 3, 1)
    north = (1, 1, 1, 0) + (0,) * 12
    cubes = tuple(colour if z < north[c] else E for c in range(16) for z in range(3))
    equal = replace(equal, heights=(north,) + equal.heights[1:], cubes=(cubes,) + equal.cubes[1:])
    assert engine.apply(equal, ("single", 1, 3)).claimed[0] == 10
    assert engine.apply(equal, ("single", 1, 4)).claimed[0] == 0  # a cube where the card says none
    red = engine.start(one_card(wall, turn=False, colours=(((0, 0, 0), "red"),)), 3, 1)
    assert red.table.forms[0][0].colours == ((0, 0, 0),)


def test_prophecies_score_when_the_wall_shows_enough_squares_of_the_sides_colour() -> None:
    s = engine.start(DECK, 3, 6)
    value = s.prophecies[0]
    placed = engine.apply(s, ("prophecy", value, 0))
    assert placed.placed[0][0] == value and len(placed.prophecies) == len(s.prophecies) - 1
    assert engine.to_act(placed) == 1 and placed.ring == s.ring  # a prophecy is the whole turn
    assert not any(m[0] == "prophecy" and m[2] == 0 for m in engine.moves(replace(placed, seat=0)))
    north = s.table.boards[s.boards[0]][0]
    other = (north + 1) % 5
    heights = (3, 3, 3, 3) + (0,) * 12
    for shown, expected in ((value, value), (value - 1, 0)):
        colours = [north] * shown + [other] * (12 - shown)
        cubes = [E] * 48
        for i, (c, z) in enumerate((c, z) for c in range(4) for z in range(3)):
            cubes[c * 3 + z] = colours[i]
        state = replace(placed, heights=(heights,) + placed.heights[1:], cubes=(tuple(cubes),) + placed.cubes[1:])
        assert engine.wall(state, 0, 0) == shown and engine.fulfilled(state, 0) == expected


def test_completing_the_monolith_finishes_the_round_and_an_empty_ring_ends_the_game() -> None:
    s = engine.start(DECK, 3, 7)
    colour = s.table.kind_colour[s.ring[0]]
    heights = (2,) + (3,) * 15
    cubes = tuple(colour if z < heights[c] else E for c in range(16) for z in range(3))
    s = replace(s, seat=1, turn=1, heights=(s.heights[0], heights, s.heights[2]),
                cubes=(s.cubes[0], cubes, s.cubes[2]))
    done = engine.apply(s, ("single", 1, 0))
    assert done.ending and not engine.over(done) and engine.to_act(done) == 2
    last = engine.apply(done, engine.moves(done)[0])
    assert engine.over(last) and engine.turns(last) == 3  # every seat has had its turn
    empty = engine.start(DECK, 2, 1)
    gone = tuple(k.count or 0 for k in empty.table.kinds)
    one = list(gone)
    one[empty.ring[0]] -= 1
    empty = replace(empty, bag=(), ring=(empty.ring[0],) + (E,) * 11, out=tuple(one))
    after = engine.apply(empty, ("single", 1, 0))
    assert after.ending and engine.to_act(after) == 1
    assert engine.moves(replace(after, prophecies=())) == [("pass",)]


def test_whole_games_keep_every_piece_single_and_token_and_replay() -> None:
    for players in (1, 2, 3, 4):
        for agents in (["random"], ["greedy"]) + ((["search", "greedy"],) if players == 2 else ()):
            game = play(engine, DECK, players, players + 10, agents_from(agents, players), checked=True)
            assert game.ended and sum(game.shares) == pytest.approx(1.0)
            final = game.final
            assert list(game.scores) == engine.scores(final)
            for s in range(players):
                assert game.scores[s] == final.claimed[s] + sum(final.taken[s]) + engine.fulfilled(final, s)
            assert replay(engine, DECK, players, players + 10, game.moves) == final
            events = engine.card_events(final)
            played = DECK.cards[final.card].id
            assert events[played][0] == players and events[played][1] == sum(1 for v in final.claimed if v)


def test_what_a_seat_cannot_see_is_the_bags_order() -> None:
    s = engine.start(DECK, 3, 2)
    other = engine.determinise(s, 1, Rng(9))
    assert other.bag != s.bag and sorted(other.bag) == sorted(s.bag)
    assert engine.seen(other, 1) == engine.seen(s, 1)
    assert engine.moves(other) == engine.moves(s)


@pytest.mark.slow
def test_the_search_agent_beats_random() -> None:
    wins = 0.0
    for game in range(6):
        order = [SearchAgent(), RandomAgent()] if game % 2 == 0 else [RandomAgent(), SearchAgent()]
        result = play(engine, DECK, 2, game, order)
        wins += result.shares[0 if game % 2 == 0 else 1]
    assert wins >= 5


def test_the_search_agent_looks_on_to_its_next_turn() -> None:
    s = engine.start(DECK, 3, 3)
    after = engine.apply(s, engine.moves(s)[0])
    ahead = engine.again(after, 0)
    assert ahead is not None and engine.to_act(ahead) == 0 and ahead.turn == 3
    assert ahead.crystal != after.crystal and engine.check(ahead) == []  # the two seats between took pieces
    assert GreedyAgent().choose(engine, s, 0, Rng(1)) in engine.moves(s)


def test_prophecies_in_play_are_priced_per_token_taken() -> None:
    def game(*placed: tuple[int, bool]) -> tuple[object, ...]:  # engine.summary's fields
        return (0, (10, 0), (5, 0), (6, 4), (0, 0), (10, 8), True, 40, placed)

    games = [game((4, True), (8, True))] * 15 + [game((4, True), (8, False))] * 15 + [game((12, False))] * 5
    rows, spread = engine.prophecies_in_play(games)
    assert [(r["value"], r["taken"], r["fulfilled"], r["points"]) for r in rows] == [
        (4, 30, 1.0, 4.0), (8, 30, 0.5, 4.0), (12, 5, 0.0, 0.0)]
    assert rows[1]["fulfilled_ci95"][0] < 0.5 < rows[1]["fulfilled_ci95"][1]
    assert spread == 1.0  # 12 was taken too rarely to count
    rows, spread = engine.prophecies_in_play([game((4, True), (6, True))] * 20 + [game((6, False))] * 20)
    assert spread == pytest.approx(4.0 / 3.0, abs=1e-3)  # 4 scores 4 a token, 6 scores 3
    # the finding names the values that count, not one taken once
    summaries = [game((4, True), (6, True))] * 20 + [game((6, False))] * 20 + [game((12, False))]
    said, found = engine.insights(summaries, 2, [1])
    finding = next(f for f in found if f.startswith("Prophecy tokens are not level"))
    assert "a 4 scores 4.00" in finding and "a 6 3.00" in finding and "12" not in finding
