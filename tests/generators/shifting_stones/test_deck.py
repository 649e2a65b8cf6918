"""Shifting Stones decks: patterns, the generator's promises, the independent verifier,
and both searches against a plain breadth-first search on a small tile set."""

from __future__ import annotations

import itertools
from collections import Counter, deque
from dataclasses import replace

import numpy as np
import pytest

from generators.common.errors import RequestError, Shortfall
from generators.shifting_stones import generate as gen
from generators.shifting_stones import scale, verify
from generators.shifting_stones.deck import Card, Deck, deck_from_json
from generators.shifting_stones.generate import generate, shapes
from generators.shifting_stones.pattern import Pattern, parse_grid, parse_pattern
from generators.shifting_stones.space import space
from generators.shifting_stones.spec import PUBLISHED_MIX, Spec, parse_mix, scaled
from generators.shifting_stones.tiles import PUBLISHED, Tile, TileSet

F = PUBLISHED.face_id


# -- patterns ----------------------------------------------------------------------------------------


def test_a_window_is_read_from_names_letters_and_blanks() -> None:
    p = parse_pattern("Sun any Fish / Boat Seed .", PUBLISHED, "w")
    assert p.rows == ((F("Sun"), None, F("Fish")), (F("Boat"), F("Seed"), None))
    assert parse_pattern("S.F/OE.", PUBLISHED, "w") == p
    assert p.stones == 4 and p.shape == "#.#/##."
    assert parse_pattern("Sun", PUBLISHED, "w").rows == ((F("Sun"),),), "a face name is not split into letters"


@pytest.mark.parametrize("text, message", [
    ("Sun Cat", "row 1, column 2: unknown face 'Cat'"),
    ("Sun / Sun / Sun / Sun", "1 to 3 rows"),
    ("Sun Sun Sun Sun", "1 to 3 columns"),
    ("Sun Moon / Fish", "the same number of cells"),
    ("any . / - any", "shows no stone"),
])
def test_bad_windows_are_named(text: str, message: str) -> None:
    with pytest.raises(RequestError, match=message):
        parse_pattern(text, PUBLISHED, "cards[3].window")


def test_a_grid_must_hold_the_sets_stones_and_shows_a_pattern_where_it_should() -> None:
    grid = parse_grid("Sun Fish Bird / Horse Boat Seed / Tree Seed Horse", PUBLISHED, "g")
    with pytest.raises(RequestError, match="holds 2 Horse/Boat"):
        parse_grid("Sun Fish Bird / Horse Boat Seed / Tree Seed Tree", PUBLISHED, "g")
    assert parse_pattern("Boat Seed / Seed Horse", PUBLISHED, "w").places(grid) == (4, 5, 7, 8)
    assert parse_pattern("Boat Seed / Seed Tree", PUBLISHED, "w").places(grid) is None


def test_a_window_needing_more_tiles_than_the_set_has_is_not_feasible() -> None:
    p = parse_pattern("Sun Moon", PUBLISHED, "w")
    assert not p.fits(PUBLISHED) and "2 Sun/Moon tiles" in (p.shortage(PUBLISHED) or "")
    assert not space(PUBLISHED).shows(p.rows).any()


def test_window_shapes_touch_every_edge() -> None:
    table = shapes()
    assert sum(len(v) for v in table.values()) == sum(
        1 for h in range(1, 4) for w in range(1, 4) for bits in range(1, 1 << (h * w))
        if _touches(bits, h, w))
    assert len(table[9]) == 1 and len(table[1]) == 1


def _touches(bits: int, h: int, w: int) -> bool:
    on = [(i // w, i % w) for i in range(h * w) if bits >> i & 1]
    return {r for r, _ in on} >= {0, h - 1} and {c for _, c in on} >= {0, w - 1}


# -- the mix -------------------------------------------------------------------------------------------


def test_mixes_are_read_and_scaled() -> None:
    assert parse_mix("1:8,2:4,3:3,5:1", "m") == ((1, 8), (2, 4), (3, 3), (5, 1))
    assert parse_mix({"5": 1, "1": 2}, "m") == ((1, 2), (5, 1))
    for cards in (1, 4, 12, 36, 72, 100):
        assert sum(n for _, n in scaled(PUBLISHED_MIX, cards)) == cards
    assert scaled(PUBLISHED_MIX, 72) == PUBLISHED_MIX
    with pytest.raises(RequestError, match="POINTS:CARDS"):
        parse_mix("1-28", "--mix")
    with pytest.raises(RequestError, match="twice"):
        parse_mix("1:2,1:3", "--mix")


def test_a_mix_that_does_not_add_up_names_the_mix() -> None:
    with pytest.raises(RequestError, match="mix: 1:2,2:2 adds up to 4 cards, not the deck's 72"):
        Spec(mix=((1, 2), (2, 2))).checked()


def test_the_budget_running_out_is_a_shortfall() -> None:
    with pytest.raises(Shortfall, match="only 8 distinct feasible patterns") as err:
        generate(Spec(cards=10, mix=((1, 10),), stones=(1, 1), attempts=30, workers=1))
    assert (err.value.made, err.value.wanted) == (8, 10)


def test_choosing_takes_one_card_a_run_and_no_single_change_evens_the_deck_out_more() -> None:
    """Eight runs of three, where every run's easiest card is a Horse window: the choice
    spreads the faces, keeps one card per run, and ends where no swap helps."""
    faces = [F(n) for n in ("Horse", "Boat", "Seed", "Tree", "Fish", "Bird", "Sun", "Moon")]
    pool = []
    for j in range(8):
        for k, face in enumerate((F("Horse"), faces[j], faces[(j + 3) % 8])):
            rows = ((face, face if face != F("Sun") and face != F("Moon") else None), (None, F("Seed")))
            measure = gen.Measure(round(j + 0.1 * k, 3), 0.01, 9)
            pool.append(gen.Candidate(10 * j + k, Pattern(rows), f"{j}-{k}", measure))
    spec = Spec(cards=8, mix=((1, 8),))
    chosen = gen.choose(spec, pool)
    assert sorted(c.index // 10 for c in chosen) == list(range(8)), "one card from each run"
    easiest = [min((c for c in pool if c.index // 10 == j), key=lambda c: c.measure.difficulty) for j in range(8)]
    n_faces = len(PUBLISHED.faces)
    score = gen.balance(chosen, n_faces)
    assert score < gen.balance(easiest, n_faces)
    for j in range(8):
        for other in (c for c in pool if c.index // 10 == j):
            trial = [other if c.index // 10 == j else c for c in chosen]
            assert gen.balance(trial, n_faces) >= score - 1e-9
    assert len({f for c in chosen for f in c.pattern.fixed}) >= 7


# -- the default deck ------------------------------------------------------------------------------------


@pytest.mark.slow  # the default deck takes half a minute to make
def test_the_default_deck_keeps_its_promises(stones_deck: Deck) -> None:
    """Shaped and priced like the published deck: its windows and stones per
    pattern exactly, layouts repeated with other faces, faces used in proportion to the
    tiles, every card's points those the absolute scale gives it, and each points value's
    mean difficulty within 0.25 actions of the published mean."""
    cards = stones_deck.cards
    assert len(cards) == 72
    assert sorted(Counter(c.points for c in cards).items()) == list(PUBLISHED_MIX)
    by_points = sorted(cards, key=lambda c: (c.points, c.difficulty))
    for low, high in itertools.pairwise(by_points):
        if low.points < high.points:
            assert low.difficulty <= high.difficulty, "a card is harder than one worth more"
    stones = Counter(c.pattern.stones for c in cards)
    assert dict(stones) == dict(scale.PUBLISHED_STONES)
    windows = Counter((c.pattern.height, c.pattern.width) for c in cards)
    for window, n in scale.PUBLISHED_WINDOWS:
        assert abs(windows[window] - n) <= 1, (window, windows[window], n)
    assert set(windows) <= {w for w, _ in scale.PUBLISHED_WINDOWS}
    layouts = Counter(c.pattern.shape for c in cards)
    assert 18 <= len(layouts) <= 34 and max(layouts.values()) >= 12  # repeated with other faces
    for c in cards:
        assert scale.rate(c.difficulty, scale.PUBLISHED_SCALE) == c.points, c.id
    for points, mean in scale.ANCHORS:
        mine = [c.difficulty for c in cards if c.points == points]
        assert abs(sum(mine) / len(mine) - mean) <= 0.25, (points, sum(mine) / len(mine))
    faces = Counter(f for c in cards for f in c.pattern.fixed)
    total = sum(faces.values())
    for f, name in enumerate(PUBLISHED.faces):
        share = PUBLISHED.tiles[f // 2].count / 18
        assert abs(faces[f] / total - share) <= 0.03, (name, faces[f] / total, share)
    assert 0.8 <= sum(c.points for c in cards) / sum(c.difficulty for c in cards) <= 1.0  # points per action


@pytest.mark.slow  # the default deck
def test_the_verifier_agrees_with_the_default_deck(stones_deck: Deck) -> None:
    check = verify.verify_deck(deck_from_json(stones_deck.as_json()))
    assert check.ok, check.problems[:3]
    assert len({k.key for k in check.cards}) == 72
    assert all(k.rated == c.points for k, c in zip(check.cards, stones_deck.cards))


def test_the_absolute_scale_sits_between_the_published_means() -> None:
    assert scale.PUBLISHED_SCALE == (((1, 1.75), (2, 2.8), (3, 4.35)), 5)
    assert [scale.rate(d, scale.PUBLISHED_SCALE) for d in (1.2, 1.75, 1.76, 2.8, 3.0, 4.4, 9.0)] == \
        [1, 1, 2, 2, 3, 5, 5]
    # a value between anchors sits on the line through them; beyond, on the last two's
    assert scale.anchor(4) == pytest.approx(4.35) and scale.anchor(7) == pytest.approx(6.9)
    assert scale.bounds([1, 5]) == (((1, 3.3),), 5)


@pytest.mark.slow  # generates twice
def test_the_same_seed_gives_the_same_deck_whatever_the_workers(small_stones_deck: Deck) -> None:
    spec = Spec(cards=12, mix=scaled(PUBLISHED_MIX, 12), seed=5, workers=1)  # the sample was made with 2
    assert replace(generate(spec), versions={}).dumps() == small_stones_deck.dumps()
    assert replace(generate(replace(spec, seed=6)), versions={}).dumps() != small_stones_deck.dumps()


# -- the verifier catches what is wrong ------------------------------------------------------------------


def _with(deck: Deck, cards: list[Card]) -> Deck:
    return replace(deck, cards=tuple(cards))


def test_the_verifier_names_each_kind_of_fault(small_stones_deck: Deck) -> None:
    small_stones_deck = replace(small_stones_deck, cards=small_stones_deck.cards[::3])  # quick to verify four times
    cards = list(small_stones_deck.cards)
    tampered = [replace(cards[0], difficulty=cards[0].difficulty + 0.01), *cards[1:]]
    assert "difficulty: stored" in "; ".join(verify.verify_deck(_with(small_stones_deck, tampered)).problems)
    twice = [*cards[:-1], replace(cards[-1], pattern=cards[0].pattern)]
    text = "; ".join(verify.verify_deck(_with(small_stones_deck, twice)).problems)
    assert "shows on exactly the grids card 1 shows" in text
    swapped = [replace(cards[0], points=cards[-1].points), *cards[1:-1], replace(cards[-1], points=cards[0].points)]
    text = "; ".join(verify.verify_deck(_with(small_stones_deck, swapped)).problems)
    assert f"card {cards[-1].id} is worth {cards[0].points} but harder" in text
    infeasible = [replace(cards[0], pattern=Pattern(((F("Sun"), F("Moon")),))), *cards[1:]]
    text = "; ".join(verify.verify_deck(_with(small_stones_deck, infeasible)).problems)
    assert "card 1: no grid shows this window: it needs 2 Sun/Moon tiles" in text


def test_a_hand_written_list_is_measured_and_rated_on_the_default_scale() -> None:
    data = {"format": "templeforge.deck/1", "game": "shifting-stones",
            "cards": [{"window": [["Horse", "Seed"]]},
                      {"window": [["Boat", "Tree", "Bird"], ["Seed", "Horse", "Fish"], ["any", "any", "any"]]}]}
    deck = deck_from_json(data)
    check = verify.verify_deck(deck)
    assert check.ok and [c.id for c in deck.cards] == [1, 2]
    easy, hard = check.cards
    assert easy.difficulty < hard.difficulty
    assert easy.rated == scale.rate(easy.difficulty, scale.PUBLISHED_SCALE) == 1
    assert hard.rated == 5 and hard.difficulty > 4.35  # nine stones pinned: far harder than any published card
    assert "absolute scale" in check.scale


def test_bad_deck_files_name_the_field() -> None:
    data = {"format": "templeforge.deck/1", "game": "shifting-stones",
            "cards": [{"window": [["Sun"]]}, {"window": [["Sun", "Cat"]]}]}
    with pytest.raises(Exception, match=r"cards\[2\].window: row 1, column 2: unknown face 'Cat'"):
        deck_from_json(data, "mine.json")
    data["cards"][1]["window"] = [["Sun"]] * 4
    with pytest.raises(Exception, match=r"mine.json: not a templeforge.deck/1 deck: cards\[2\].window"):
        deck_from_json(data, "mine.json")
    data["cards"][1] = {"window": [["Sun"]]}
    data["tiles"] = {"tiles": [{"faces": ["A", "B"], "count": 8}]}
    with pytest.raises(Exception, match="counts add up to 8, not the grid's 9"):
        deck_from_json(data, "mine.json")


# -- both searches against a plain one ----------------------------------------------------------------


SMALL = TileSet("small", (Tile(("Ash", "Elm"), 7, ("#E69F00", "#009E73")),
                          Tile(("Oak", "Yew"), 2, ("#56B4E9", "#CC79A7"))))


def _plain_distances(tiles: TileSet, window: tuple[tuple[int | None, ...], ...]) -> dict[tuple[int, ...], int]:
    """Breadth-first search over grids as tuples of faces, actions applied one by one."""
    types = [t for t, tile in enumerate(tiles.tiles) for _ in range(tile.count)]
    grids = {tuple(2 * t + s for t, s in zip(layout, sides))
             for layout in set(itertools.permutations(types)) for sides in itertools.product((0, 1), repeat=9)}
    pattern = Pattern(window)
    dist = {g: 0 for g in grids if pattern.places(g) is not None}
    queue = deque(dist)
    pairs = [(p, p + 1) for p in range(9) if p % 3 < 2] + [(p, p + 3) for p in range(6)]
    while queue:
        g = queue.popleft()
        nexts = [tuple(f ^ 1 if i == p else f for i, f in enumerate(g)) for p in range(9)]
        for a, b in pairs:
            h = list(g)
            h[a], h[b] = h[b], h[a]
            nexts.append(tuple(h))
        for h in nexts:
            if h not in dist:
                dist[h] = dist[g] + 1
                queue.append(h)
    return dist


@pytest.mark.parametrize("window", [((2, None), (None, 3)), ((0, 1, 0),), ((2,), (None,), (3,))])
def test_both_searches_match_a_plain_search(window: tuple[tuple[int | None, ...], ...]) -> None:
    plain = _plain_distances(SMALL, window)
    sp = space(SMALL)
    generator = sp.distances(sp.shows(window))
    grids = verify.Grids(SMALL)
    checker = grids.distances(grids.showing(window))
    assert sp.size == grids.size == len(plain) == 36 * 512
    for state in range(sp.size):
        assert generator[state] == plain[sp.faces(state)]
    assert all(checker[i] == plain[grids.faces_of(i)] for i in range(grids.size))


def test_no_face_is_grey_which_on_a_card_means_any_stone() -> None:
    from generators.common.palette import colour_name
    from generators.shifting_stones.tiles import FACES, tile_set_from

    assert all(colour_name(c) != "grey" for t in PUBLISHED.tiles for c in t.colours)
    many = tile_set_from({"title": "many", "tiles": [{"faces": [f"A{k}", f"B{k}"], "count": 1} for k in range(9)]},
                         "tiles")
    assert all(c in FACES for t in many.tiles for c in t.colours)


@pytest.mark.parametrize("windows", [1, 64, 70, 130])  # one word, exactly one, two (in registers), three
def test_the_verifiers_many_window_search_counts_each_windows_levels(windows: int) -> None:
    import random

    grids = verify.Grids(SMALL)
    rng = random.Random(windows)
    chosen = []
    while len(chosen) < windows:
        h, w = rng.choice([(1, 2), (2, 1), (1, 3), (2, 2)])
        window = tuple(tuple(rng.choice([None, 0, 1, 2, 3]) for _ in range(w)) for _ in range(h))
        if grids.showing(window).any():
            chosen.append(window)
    shown = [grids.showing(w) for w in chosen]
    counts = grids.levels(shown)
    assert counts.shape[1] == windows
    for j in sorted({0, windows // 2, windows - 1}):
        dist = grids.distances(shown[j])
        assert (dist >= 0).all()
        want = np.bincount(dist, minlength=counts.shape[0])
        assert counts[:, j].tolist() == want.tolist()
