"""Mystery of the Temples as played (``generators.mystery_of_the_temples.engine``): the set-up,
moving round the circle, collecting, breaking a curse, the abilities, the end and the
scores, and whole games that keep every crystal, rune and marker."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from generators.common.errors import RequestError
from generators.common.play import GreedyAgent, RandomAgent, agent_rng, play, replay
from generators.common.rng import Rng
from generators.mystery_of_the_temples import components as parts
from generators.mystery_of_the_temples import engine
from generators.mystery_of_the_temples.box import DEFAULT, OURS_TEMPLES
from generators.mystery_of_the_temples.deck import Card, Deck

DECK = Deck(tuple(Card(i + 1, t) for i, t in enumerate(OURS_TEMPLES)))
E = engine.EMPTY


def side(name: str) -> int:
    return [s.name for s in DEFAULT.grids].index(name)


def begun(players: int = 3, seed: int = 1, sides: list[str] | None = None) -> engine.State:
    names = sides or ["3B", "2A", "3A", "4B"][:players]  # seat 0's 3B changes moving only
    return engine.start(DECK, players, seed, sides=[side(n) for n in names])


def at(state: engine.State, kind: int, n: int) -> int:
    return state.table.circle.index((kind, n))


def test_the_set_up_follows_the_rules() -> None:
    for players in (2, 3, 4):
        s = engine.start(DECK, players, 7)
        temples = [n for k, n in s.table.circle if k == 0]
        wild = [n for k, n in s.table.circle if k == 1]
        assert sorted(temples) == [1, 2, 3, 4, 5]
        assert sorted(wild) == [n for n in range(1, 11) if players == 4 or n not in (4, 7)]
        first = wild.index(min(wild))
        assert wild[first:] + wild[:first] == sorted(wild)  # in number order, clockwise, from a drawn start
        assert len(s.table.objectives) == (3 if players == 4 else 2)
        assert all(len(p) == parts.RUNES_PER_TEMPLE for p in s.piles) or "3A" in [s.table.ability(x)
                                                                               for x in range(players)]
        assert all(t.side == ("4" if players == 4 else "2-3") for t in s.table.temples)
        for seat in range(players):
            assert sorted(s.grids[seat])[-2:] == [0, 0] and sum(c != E for c in s.grids[seat]) == 2
        assert engine.check(s) == []
        assert all(m[0] == "go" for m in engine.moves(s))  # the first round: any free card
    for seed in range(12):  # grids in seat order, grid 1 starting; each player's side their own
        for players in (2, 3, 4):
            boards = [DEFAULT.grids[g].board for g in engine.start(DECK, players, seed).table.sides]
            assert boards == list(range(1, players + 1))
    drawn = {DEFAULT.grids[engine.start(DECK, 2, seed).table.sides[0]].side for seed in range(12)}
    assert drawn == {"A", "B"}
    with pytest.raises(RequestError, match="2 to 4 players"):
        engine.start(DECK, 5, 1)
    with pytest.raises(RequestError, match="no red temple for 4 players"):
        engine.start(Deck(tuple(c for c in DECK.cards if not (c.temple.colour == 1 and c.temple.side == "4"))), 4, 1)


def test_moving_skips_occupied_cards_and_buys_extra_steps() -> None:
    s = begun(3, sides=["1A", "2B", "4A"])
    temples = [i for i, (k, _) in enumerate(s.table.circle) if k == 0]
    s = replace(s, at=(temples[0], temples[1], -1))  # seat 0 on a temple, seat 1 on the next temple
    goes = {(m[1], m[2]) for m in engine.moves(s)}
    # temple circle: the occupied temple is skipped and not counted: 1-3 steps reach the 3 after it
    assert {(d, e) for d, e in goes if d in temples and e == 0} == {(temples[2], 0), (temples[3], 0), (temples[4], 0)}
    assert (temples[1], 0) not in goes and not any(d == temples[1] for d, _ in goes)  # never on an occupied card
    assert not any(d == temples[0] for d, _ in goes)  # a move moves: never back to where it stood
    wild = [i for k in range(1, len(s.table.circle)) for i in [(temples[0] + k) % len(s.table.circle)]
            if s.table.circle[i][0] == 1]
    assert sum(c != E for c in s.grids[0]) == 2  # the two colourless of the set-up
    assert (wild[3], 1) in goes and (wild[2], 0) in goes  # a fourth step bought with a crystal
    assert not any(d == wild[4] for d, _ in goes)  # a fifth costs 1 + 2: two crystals do not buy it
    s2 = engine.apply(s, ("go", wild[3], 1))
    assert s2.phase == "pay" and s2.owed == 1
    s3 = engine.apply(s2, ("pay", s2.grids[0].index(0)))
    assert s3.phase == "act" and sum(c != E for c in s3.grids[0]) == 1 and s3.supply[0] == s.supply[0] + 1
    rich = replace(s, grids=((0,) * 6 + (E,) * 6,) + s.grids[1:])  # six crystals: 1 + 2 + 3, three steps more
    goes = {(m[1], m[2]) for m in engine.moves(rich)}
    assert (wild[4], 2) in goes and (wild[5], 3) in goes and not any(d == wild[6] for d, _ in goes)
    s4 = engine.apply(rich, ("go", wild[5], 3))
    assert s4.phase == "pay" and s4.owed == 6 == engine.step_price(3)
    assert [engine.step_price(k) for k in range(5)] == [0, 1, 3, 6, 10]


def test_collecting_at_a_temple_and_on_direct_cards() -> None:
    s = begun(3)
    red = at(s, 0, 1)
    s = replace(s, at=(red, -1, -1), phase="act")
    s = engine.apply(s, ("collect",))
    assert s.phase == "place" and s.pending == (1,)
    s = engine.apply(s, ("place", 5))
    assert s.grids[0][5] == 1 and s.seat == 1 and s.turn == 1 and engine.check(s) == []
    one = at(s, 1, 1)  # wilderness 1: two colourless
    s = replace(s, at=(red, one, -1), phase="act")
    s = engine.apply(s, ("collect",))
    assert s.pending == (0, 0)


def test_grid_1a_gains_an_extra_colourless_and_buys_for_three() -> None:
    s = begun(3, sides=["1A", "2B", "3A"])
    one = at(s, 1, 1)
    s = replace(s, at=(one, -1, -1), phase="act")
    assert ("buy", 3) not in engine.moves(s)  # two crystals: not enough for three
    s = engine.apply(s, ("collect",))
    assert s.pending == (0, 0, 0, 0)  # two shown, each doubled
    for slot in (2, 3, 4, 5):
        s = engine.apply(s, ("place", slot))
    s = replace(s, seat=0, phase="act", acted=())
    assert ("buy", 3) in engine.moves(s)
    s = engine.apply(s, ("buy", 3))
    assert s.owed == 3


def test_an_exhausted_colour_comes_from_the_richest_other_grid() -> None:
    s = begun(3)
    purple = at(s, 0, 5)
    supply = list(s.supply)
    supply[5] -= 3
    grids = [list(g) for g in s.grids]
    grids[1][4] = 5
    grids[2][4] = grids[2][6] = 5
    supply[5] = 0  # all six elsewhere: 3 out of the game here, 3 on grids
    s = replace(s, supply=tuple(supply[:5] + [0]), grids=tuple(tuple(g) for g in grids), at=(purple, -1, -1),
                phase="act")
    s = replace(s, supply=s.supply[:5] + (0,))
    s = engine.apply(s, ("collect",))
    assert s.pending == (5,) and s.grids[2].count(5) == 1 and s.grids[1].count(5) == 1


def _paying(s: engine.State, temple: int, layer: int) -> engine.State:
    """Seat 0's grid laid with the left run of ``layer`` along a path, at that temple."""
    t = s.table.temples[temple]
    run = engine._runs(t, layer)[0]
    path = engine._paths(engine._grid(s, 0), len(run))[0]
    grid = [E] * engine.SLOTS
    supply = list(s.supply)
    supply[0] += 2  # the two it started with, back
    for slot, c in zip(path, run):
        grid[int(slot)] = c
        supply[c] -= 1
    return replace(s, grids=(tuple(grid),) + s.grids[1:], supply=tuple(supply), at=(at(s, 0, temple + 1),) +
                   s.at[1:], phase="act")


def test_breaking_a_curse_pays_along_lines_and_takes_a_marker_points_and_a_rune() -> None:
    s = begun(3)
    s = _paying(s, 0, 0)
    assert engine.check(s) == []
    breaks = [m for m in engine.moves(s) if m[0] == "break"]
    assert breaks and all(m[1] == 0 or m[0] == "break" for m in breaks)
    move = next(m for m in breaks if m[1] == 0 and m[2] == 0)
    top = s.piles[0][0]
    after = engine.apply(s, move)
    assert after.broken[0][0] == 0 and after.markers[0] == 1
    assert after.points[0] == s.table.temples[0].layers[0].points
    assert after.runes[0] == (top,) and after.piles[0] == s.piles[0][1:]
    assert all(after.grids[0][slot] == E for slot in move[3])
    assert engine.check(after) == []
    again = replace(after, seat=1, at=(-1, s.at[0], -1), phase="act", grids=(after.grids[0], s.grids[0], s.grids[2]))
    assert not any(m[0] == "break" and m[1] == 0 for m in engine.moves(again))  # each layer breaks once


def test_grid_1b_collects_and_breaks_at_one_temple() -> None:
    s = begun(3, sides=["1B", "2B", "3A"])
    s = _paying(s, 0, 0)
    s = engine.apply(s, ("collect",))
    s = engine.apply(s, ("place", next(i for i, c in enumerate(s.grids[0]) if c == E)))
    assert s.seat == 0 and s.phase == "act"
    assert any(m[0] == "break" for m in engine.moves(s)) and ("end",) in engine.moves(s)
    plain = replace(_paying(begun(3, sides=["4A", "2B", "3A"]), 0, 0))
    plain = engine.apply(plain, ("collect",))
    plain = engine.apply(plain, ("place", next(i for i, c in enumerate(plain.grids[0]) if c == E)))
    assert plain.seat == 1  # without 1B, one action


def test_resonance_gives_each_matching_runes_bonus() -> None:
    s = begun(3)
    red = at(s, 0, 1)
    symbol = s.table.parts.temple_symbols[0]
    mine = [r.id for r in s.table.parts.runes if r.symbol == symbol][:2]
    piles = tuple(tuple(x for x in p if x not in mine) for p in s.piles)
    s = replace(s, runes=(tuple(mine),) + s.runes[1:], piles=piles, at=(red, -1, -1), phase="act")
    s = engine.apply(s, ("collect",))
    bonus = [c for r in mine for c in s.table.parts.runes[r - 1].crystals]
    assert sorted(s.pending) == sorted([1] + bonus)


def test_the_game_ends_when_the_round_of_a_fifth_marker_is_over() -> None:
    s = begun(3)
    s = replace(s, markers=(4, 0, 0), broken=((0, 0, 0, 0, E),) + s.broken[1:])
    s = _paying(s, 0, 4)
    s = replace(s, seat=1, at=s.at)  # seat 1 places it: seat 2 still plays
    s = replace(s, seat=0)
    move = next(m for m in engine.moves(s) if m[0] == "break" and m[1] == 4)
    s = engine.apply(s, move)
    while s.seat == 0 and s.phase != "move":
        s = engine.apply(s, engine.moves(s)[0])
    assert s.ending and not engine.over(s) and s.seat == 1
    s = replace(s, seat=2)
    s = engine._end_turn(s)
    assert engine.over(s)


def test_objectives_split_ties_as_the_rules_say() -> None:
    s = begun(3)
    s = replace(s, table=replace(s.table, objectives=(1, 2)), ending=True, seat=0, phase="move")
    broken = [(E,) * 5 for _ in range(5)]
    broken[0] = (0, 0, 1, 2, E)  # red: seat 0 most (4), seats 1 and 2 share second (2 // 2)
    broken[1] = (1, 2, E, E, E)  # yellow: seats 1 and 2 tie for most: 6 // 2 each
    s = replace(s, broken=tuple(broken), markers=(2, 2, 2))
    assert engine._objectives(s) == [4, 1 + 3, 1 + 3]


def test_ties_go_to_coloured_then_colourless_crystals_then_the_later_seat() -> None:
    s = replace(begun(3, sides=["3B", "1A", "3A"]), ending=True, seat=0, phase="move")
    assert engine.over(s) and engine.shares(s) == [0.0, 0.0, 1.0]  # level in all: the later seat
    spares = replace(begun(3, sides=["3B", "2A", "3A"]), ending=True, seat=0, phase="move")
    assert engine.shares(spares) == [0.0, 1.0, 0.0]  # grid 2A's three spare colourless count
    grids = list(s.grids)
    grids[0] = (1,) + grids[0][1:]
    assert engine.shares(replace(s, grids=tuple(grids))) == [1.0, 0.0, 0.0]


@pytest.mark.parametrize("players", [pytest.param(2, marks=pytest.mark.slow), 3,
                                     pytest.param(4, marks=pytest.mark.slow)])
def test_random_games_keep_every_crystal_rune_and_marker(players: int) -> None:
    """Random seats swap and buy away their crystals and seldom break a curse: 300 turns of
    every move there is, each state checked, and the moves replayed to the same state."""
    for seed in range(2):
        game = play(engine, DECK, players, seed, [RandomAgent() for _ in range(players)], checked=True,
                    max_turns=300)
        assert replay(engine, DECK, players, seed, game.moves) == game.final


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.slow
def test_greedy_games_end_by_the_rules(players: int) -> None:
    game = play(engine, DECK, players, 1, [GreedyAgent() for _ in range(players)], checked=True)
    assert game.ended and max(game.final.markers) == parts.MARKERS
    assert game.turns % players == 0  # the round was finished
    assert sum(game.shares) == pytest.approx(1.0) and max(game.shares) == 1.0


@pytest.mark.slow
def test_a_greedy_seat_beats_random_ones() -> None:
    wins = 0.0
    for seed in range(4):
        agents = [GreedyAgent(), RandomAgent()] if seed % 2 == 0 else [RandomAgent(), GreedyAgent()]
        game = play(engine, DECK, 2, seed, agents, checked=True)
        wins += game.shares[seed % 2]
    assert wins >= 3


def test_determinising_keeps_what_the_seat_sees() -> None:
    s = begun(3)
    d = engine.determinise(s, 1, Rng(5))
    assert engine.seen(d, 1) == engine.seen(s, 1)
    assert [p[0] for p in d.piles] == [p[0] for p in s.piles]


def _break_at(s: engine.State, temple: int, layer: int) -> engine.State:
    move = next(m for m in engine.moves(s) if m[0] == "break" and m[1] == layer)
    return engine.apply(s, move)


def _fill(s: engine.State, seat: int, colours: list[int]) -> engine.State:
    """``colours`` added to ``seat``'s grid in its first empty slots, from the supply."""
    grid = list(s.grids[seat])
    supply = list(s.supply)
    for c in colours:
        grid[grid.index(E)] = c
        supply[c] -= 1
    return replace(s, grids=s.grids[:seat] + (tuple(grid),) + s.grids[seat + 1:], supply=tuple(supply))


def test_grid_2b_raises_the_marker_to_a_higher_layer_for_crystals() -> None:
    s = _paying(begun(3, sides=["2B", "1A", "3A"]), 0, 0)
    s = _fill(s, 0, [0, 0, 0])
    s = _break_at(s, 0, 0)
    assert s.phase == "raise" and set(engine.moves(s)) == {("keep",), ("raise", 1), ("raise", 2)}
    before = s.points[0]
    s = engine.apply(s, ("raise", 2))
    assert s.phase == "pay" and s.owed == 3
    assert s.broken[0][:3] == (E, E, 0) and s.points[0] == before - 3 + 8  # layer 1's 3 points become layer 3's 8
    for _ in range(3):
        s = engine.apply(s, engine.moves(s)[0])
    assert engine.check(s) == [] and s.markers[0] == 1


def test_at_two_players_a_spare_marker_covers_each_blocked_layer() -> None:
    blocked = [[j for j, layer in enumerate(t.layers) if layer.blocked] for t in engine.start(DECK, 2, 1).table.temples]
    assert blocked == [[1]] * 5  # ours: one on each side for 2-3 players, the layer of median points
    two, three = begun(2, sides=["2B", "1A"]), begun(3, sides=["2B", "1A", "3A"])
    assert two.broken == ((E, engine.BLOCKED, E, E, E),) * 5 and three.broken == ((E,) * 5,) * 5
    assert engine.check(two) == [] and engine.card_events(two) == {i: (1, 0, 0) for i in two.table.ids}
    assert all(points[1] is None and None not in points[:1] + points[2:] for _, points in engine.summary(two)[3])
    for s, offered in ((two, False), (three, True)):  # the grid pays the blocked layer; only 3 players may break it
        paying = _paying(s, 0, 1)
        assert any(m[0] == "break" and m[1] == 1 for m in engine.moves(paying)) is offered
    s = _break_at(_fill(_paying(two, 0, 0), 0, [0, 0, 0]), 0, 0)  # grid 2B's raise passes over the covered layer
    assert s.phase == "raise" and set(engine.moves(s)) == {("keep",), ("raise", 2)}


def test_grid_3a_keeps_a_turned_up_rune_for_the_game_but_not_for_the_objective() -> None:
    s = begun(3, sides=["3A", "1A", "3B"])
    assert s.kept[0] and s.kept[1] == 0 and sum(len(p) for p in s.piles) == 19
    rune = s.table.parts.runes[s.kept[0] - 1]
    card = next(i for i in range(len(s.table.circle)) if engine._symbol(s, i) == rune.symbol and
                s.table.circle[i][0] == 0)
    s = replace(s, at=(card, -1, -1), phase="act")
    s = engine.apply(s, ("collect",))
    assert len(s.pending) == 1 + len(rune.crystals)
    assert engine._rune_kinds(s, 0) == 0


def test_grid_3b_teleports_to_any_free_card() -> None:
    s = begun(3, sides=["3B", "1A", "3A"])
    s = replace(s, at=(0, 1, -1))
    assert {m[1] for m in engine.moves(s)} == set(range(2, len(s.table.circle)))


def test_grid_4a_gives_the_numbered_bonus_and_4b_takes_a_neighbours_rune() -> None:
    s = _paying(begun(3, sides=["4A", "1A", "3B"]), 0, 0)
    s = replace(s, markers=(1, 0, 0), broken=((E, E, E, E, 0),) + s.broken[1:])
    s = _break_at(s, 0, 0)
    bonus = s.table.parts.bonuses[1]  # the second marker's
    assert s.pending == bonus.crystals and s.points[0] == 3 + bonus.points
    s = _paying(begun(3, sides=["4B", "1A", "3B"]), 0, 0)
    s = _break_at(s, 0, 0)
    temples = [n - 1 for k, n in s.table.circle if k == 0]
    k = temples.index(0)
    assert s.phase == "rune" and {m[1] for m in engine.moves(s)} == {0, temples[k - 1], temples[(k + 1) % 5]}
    s = engine.apply(s, ("rune", temples[k - 1]))
    assert len(s.runes[0]) == 1 and engine._rune_kinds(s, 0) == 2  # one kind held, and 4B's one more


def test_grid_2a_turns_a_spare_into_any_colour() -> None:
    s = begun(3, sides=["2A", "1A", "3B"])
    assert s.spares == (3, 0, 0) and engine.check(s) == []
    s = replace(s, at=(0, -1, -1), phase="act")
    s = engine.apply(s, ("spare", 5))
    assert s.phase == "place" and s.pending == (5,)
    s = engine.apply(s, ("place", 7))
    assert s.phase == "act" and s.spares[0] == 2 and s.grids[0][7] == 5 and engine.check(s) == []


def test_enhancement_takes_the_colours_covered_and_clears_a_full_card() -> None:
    s = begun(4, sides=["1B", "1A", "3B", "2B"])
    two = at(s, 1, 2)
    s = _fill(replace(s, at=(two, -1, -1, -1), phase="act"), 0, [0, 0])
    s = engine.apply(s, ("enhance", (1, 2)))  # red and yellow squares
    s = engine.apply(s, ("pay", 0))
    s = engine.apply(s, ("pay", 1))
    assert sorted(s.pending) == [1, 2] and sum(x != E for x in s.squares[1]) == 2 and engine.check(s) == []
    full = begun(4, sides=["1B", "1A", "3B", "2B"])
    full = replace(full, at=(two, -1, -1, -1), phase="act", squares=full.squares[:1] + ((0, 0, E, E, E),) +
                   full.squares[2:], supply=(full.supply[0] - 2,) + full.supply[1:])
    assert engine.check(full) == []
    left = engine.apply(full, ("enhance", (3,)))
    left = engine.apply(left, ("pay", 0))
    assert left.squares[1] == (E,) * 5 and engine.check(left) == []  # two left empty: cleared, crystals back


def test_conversion_discards_three_for_two_colours() -> None:
    s = begun(3, sides=["1B", "1A", "3B"])
    six = at(s, 1, 6)
    s = _fill(replace(s, at=(six, -1, -1), phase="act"), 0, [1])
    s = engine.apply(s, ("convert", 4, 5))
    assert s.phase == "pay" and s.owed == 3
    for _ in range(3):
        s = engine.apply(s, engine.moves(s)[0])
    assert sorted(s.pending) == [4, 5] and engine.check(s) == []


def test_insights_price_grid_sides_and_curses_from_the_games() -> None:
    temples = ((11, (3, 5, 8)), (12, (3, 4)))
    games = []
    for k in range(40):  # side 1B wins every game it plays; curse (11, layer 1) broken early, (11, 3) late
        sides = ("1B", "2A") if k % 2 == 0 else ("2A", "1B")
        shares = (1.0, 0.0) if k % 2 == 0 else (0.0, 1.0)
        games.append((sides, shares, ((0, 0, 1, k % 2), (0, 2, 9, 1 - k % 2), (1, 1, 5, 0)), temples))
    said, found = engine.insights(games, 2, [11, 12])
    rates = {row["side"]: row["win_rate"] for row in said["grid_sides"]}
    assert rates == {"1B": 1.0, "2A": 0.0}
    assert any(f.startswith("Grid side 1B wins 100.0%") for f in found)
    curses = {(row["card"], row["layer"]): row for row in said["curses"]}
    assert curses[(11, 1)]["broken"] == 1.0 and curses[(11, 1)]["mean_round"] == 1
    assert curses[(11, 2)]["broken"] == 0.0 and curses[(11, 3)]["breaker_wins"] == 0.0
    assert any("2 curses never broken in 40 games: 11 layer 2, 12 layer 1" in f for f in found)
    assert said["points_against_round"] > 0  # 3 points in round 1, 4 in round 5, 8 in round 9
    covered = [(sides, shares, log, ((11, (3, None, 8)), (12, (3, 4)))) for sides, shares, log, _ in games]
    said, found = engine.insights(covered, 2, [11, 12])  # a layer covered at 2 players is not a curse in play
    assert (11, 2) not in {(row["card"], row["layer"]) for row in said["curses"]}
    assert any("1 curse never broken in 40 games: 12 layer 1." in f for f in found)


def test_a_game_reports_its_breaks_in_its_summary() -> None:
    game = play(engine, DECK, 3, 1, [GreedyAgent() for _ in range(3)], max_turns=30)
    sides, shares, log, temples = engine.summary(game.final)
    assert len(sides) == 3 and sum(game.final.markers) == len(log)
    assert all(game.final.broken[t][layer] == seat for t, layer, _, seat in log)
    assert [card_id for card_id, _ in temples] == list(game.final.table.ids)


def _missing(grid: tuple[int, ...], ps: np.ndarray, run: tuple[int, ...], pending: list[int]) -> int:
    """The plain count, every path at once: the crystals of ``run`` not in place on each
    path, less those ``pending`` can fill (a coloured one its own colour, what is left any
    colourless position), the least over the paths."""
    if not len(ps):
        return 99
    held = np.asarray(grid)[ps]
    want = np.asarray(run)[None, :]
    wrong = ~((held >= 0) & ((want == 0) | (held == want)))
    missing = np.zeros(len(ps), dtype=np.int64)
    left = np.full(len(ps), sum(pending))
    for colour in range(1, len(pending)):
        needed = (wrong & (want == colour)).sum(axis=1)
        filled = np.minimum(needed, pending[colour])
        missing += needed - filled
        left -= filled
    missing += np.maximum(0, (wrong & (want == 0)).sum(axis=1) - left)
    return int(missing.min())


def test_the_look_ahead_counts_missing_crystals_as_path_by_path() -> None:
    """The compiled count over every layer at once (passing over path beginnings that miss
    too much) gives, for random grids and crystals about to be placed, what the plain count
    over every path gives."""
    state = engine.start(DECK, 3, 5)
    table = state.table
    runs = engine._table_runs(table)
    rng = Rng(11)
    for trial in range(60):
        side = trial % len(table.box.grids)
        grid = tuple(rng.randrange(len(table.box.colours) + 1) - 1 for _ in range(engine.SLOTS))
        pending = tuple(sorted(rng.randrange(len(table.box.colours)) for _ in range(rng.randrange(3))))
        counts = [0] * len(table.box.colours)
        for c in pending:
            counts[c] += 1
        g = table.box.grids[side].grid
        expected = [min(_missing(grid, engine._paths(g, len(run)), run, counts)
                        for run in engine._runs(table.temples[k], m)) for k, m in runs.layers]
        assert engine._lacks(table, runs, side, grid, [True] * len(runs.layers), pending) == expected


def test_the_look_ahead_counts_crystals_owed_as_spent() -> None:
    """A step bought is not free to the agents: while it is being paid, the seat is valued as
    standing on the card it bought its way to, less the crystal and ``OWED`` besides."""
    s = begun(3, sides=["1A", "2B", "4A"])
    temples = [i for i, (k, _) in enumerate(s.table.circle) if k == 0]
    s = replace(s, at=(temples[0], temples[1], -1), grids=((0,) * 6 + (E,) * 6,) + s.grids[1:])
    bought = [m for m in engine.moves(s) if m[0] == "go" and m[2] >= 1]
    promising = [m for m in bought if engine.standing(replace(engine.apply(s, m), phase="act", owed=0, then=()), 0)
                 != ((), -1)]
    assert promising  # a temple or a direct wilderness card a bought step away
    paying = engine.apply(s, promising[0])
    arrived = replace(paying, phase="act", owed=0, then=())  # the same card reached for nothing
    assert engine.standing(paying, 0) == engine.standing(arrived, 0) != ((), -1)
    owed = engine.step_price(promising[0][2])
    assert engine.value(paying, 0) == pytest.approx(engine.value(arrived, 0) - owed * (engine.OWED + 0.1))


def test_the_look_ahead_sees_what_a_conversion_an_enhancement_or_a_purchase_gives() -> None:
    """While a seat pays for a conversion, an enhancement or a crystal bought, the colours it
    pays for count as on their way (without them the agents never converted or enhanced:
    every such move looked like crystals thrown away); and greedy agents do use them."""
    s = begun(3, sides=["1A", "2B", "4A"])
    wild = [i for i, (k, n) in enumerate(s.table.circle) if k == 1 and s.table.parts.card(n).kind == "enhancement"]
    s = replace(s, at=(wild[0], -1, -1), phase="act", grids=(((0,) * 4 + (E,) * 8),) + s.grids[1:])
    enhance = next(m for m in engine.moves(s) if m[0] == "enhance")
    assert engine.standing(engine.apply(s, enhance), 0) == (tuple(enhance[1]), -1)
    bought = engine.apply(replace(s, grids=((0,) * 5 + (E,) * 7,) + s.grids[1:]), ("buy", 5))
    assert engine.standing(bought, 0) == ((5,), -1)
    used = set()
    for seed in range(3):
        state = engine.start(DECK, 3, seed)
        agents = [GreedyAgent() for _ in range(3)]
        rngs = [agent_rng(seed, s) for s in range(3)]
        while not engine.over(state):
            seat = engine.to_act(state)
            move = agents[seat].choose(engine, state, seat, rngs[seat])
            used.add(move[0])
            state = engine.apply(state, move)
    assert {"enhance", "convert"} & used


def test_the_agents_count_the_objectives_as_they_stand() -> None:
    """A marker that takes the lead on an objective's temple, and a rune of a new kind, are
    worth their end-of-game points to the agents while the game is played (without them the
    agents played for the points on the tracks alone, and the sides that lean on runes looked
    weaker than they are)."""
    s = begun(3, sides=["1A", "2B", "4A"])
    temple = s.table.objectives[0] - 1
    lead = replace(s, broken=s.broken[:temple] + ((0,) + s.broken[temple][1:],) + s.broken[temple + 1:])
    first, _ = parts.OBJECTIVE_POINTS
    assert engine.value(lead, 0) - engine.value(s, 0) == pytest.approx(first)
    kinds = {}
    for rune in s.table.parts.runes:
        kinds.setdefault(rune.symbol, rune.id)
    two = replace(s, runes=(tuple(list(kinds.values())[:2]),) + s.runes[1:])
    assert engine.value(two, 0) - engine.value(s, 0) == pytest.approx(parts.RUNE_POINTS[2])
