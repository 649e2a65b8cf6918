"""Check a Mystery of the Temples deck without the generator: every witness followed along
the lines, every difficulty measured again, every rule.

For each layer on each grid side: every stored path is a simple path along the grid's lines
as long as its run (``follows``), a run stored as unpayable has truly no path of its length,
and at least one run is payable; the difficulty there is measured again (the same seeded
grids) and must agree with the stored one. A hand-written deck (no measures) gets them. The
deck rules: points within the recorded range and rising with difficulty (no layer worth more
than a clearly harder one) and no layer free (a run of colourless crystals only): both
reported for a designer's own temples, failed for a generated deck or with ``--strict``; the
grid sides' balance within the recorded tolerance, the tracks' shape (generated decks: each
side mostly its own colour, colourless positions rare, ``shape_problems``; decks generated
before the tracks were shaped, recorded without ``tracks``, in proportion to the supply),
the stored grid means, and the layers blocked at 2 players (``block_problems``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from generators.common.grading import spearman
from generators.common.pool import each
from generators.mystery_of_the_temples.box import Side, crystals, free, runs
from generators.mystery_of_the_temples.deck import Card, CardId, Deck, Paid, Priced
from generators.mystery_of_the_temples.measure import PLACES, Balance, balance, difficulty, from_empty, witnesses
from solver.grids import Grid

#: How far a recomputed figure may be from the stored one (its rounding).
TOLERANCE = 0.0005 + 1e-9
#: How much harder (in actions) a layer must be before a cheaper one worth more is a fault.
CLEARLY = 0.25


@dataclass(frozen=True, slots=True)
class CardCheck:
    """One temple side, checked again: each layer measured (``priced``) and every problem."""

    card: CardId
    priced: tuple[Priced, ...]
    problems: tuple[str, ...]

    @property
    def where(self) -> str:
        return f"card {self.card}"


@dataclass(frozen=True, slots=True)
class DeckCheck:
    """The verdict: ``ok`` when no card and no rule has a problem; ``notes`` are a designer's
    own points that run against the difficulty (reported, not failed)."""

    cards: tuple[CardCheck, ...]
    rule_problems: tuple[str, ...]
    notes: tuple[str, ...]
    balance: Balance
    suggested: tuple[tuple[int, ...], ...]
    rank: float | None

    @property
    def problems(self) -> tuple[str, ...]:
        return self.rule_problems + tuple(f"{c.where}: {p}" for c in self.cards for p in c.problems)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def unknown(self) -> tuple[CardCheck, ...]:
        return ()

    @property
    def counted(self) -> str:
        layers = sum(len(c.priced) for c in self.cards)
        return f"{len(self.cards)} temple sides, {layers} layers"

    def check(self, card: CardId) -> CardCheck:
        return next(c for c in self.cards if str(c.card) == str(card))


def follows(path: Sequence[int], grid: Grid, length: int) -> str | None:
    """Why ``path`` is not a simple path of ``length`` slots along the grid's lines, or None."""
    if len(path) != length:
        return f"{len(path)} slots for a run of {length}"
    if any(not 0 <= s < grid.slots for s in path):
        return f"a slot outside 0-{grid.slots - 1}"
    if len(set(path)) != len(path):
        return "a slot is used twice"
    lines = set(grid.lines) | {(b, a) for a, b in grid.lines}
    for a, b in zip(path, path[1:]):
        if (a, b) not in lines:
            return f"no line joins slots {a} and {b}"
    return None


def check_card(deck: Deck, card: Card) -> CardCheck:
    from solver.paths import paths

    problems: list[str] = []
    priced = []
    box = deck.box
    for n, layer in enumerate(card.temple.layers):
        where = f"layer {layer.position}"
        asked = runs(card.temple, layer, deck.reading)
        stored = {p.grid: p for p in card.priced[n].grids} if card.priced is not None else None
        paid: list[Paid] = []
        for side in box.grids:
            again = _measured(deck, side, card, n)
            if again is None:
                problems.append(f"{where}: grid {side.name} cannot pay it (no path as long as any of its runs)")
                continue
            paid.append(again)
            if stored is None:
                continue
            mine = stored.get(side.name)
            if mine is None:
                problems.append(f"{where}: no witness for grid {side.name}")
                continue
            if len(mine.witness) != len(asked):
                problems.append(f"{where}, grid {side.name}: {len(mine.witness)} witness paths for {len(asked)} runs")
                continue
            for i, (run, path) in enumerate(zip(asked, mine.witness)):
                way = "row" if deck.reading == "rows" else ("left", "right")[i]
                if path is None:
                    if len(paths(side.grid, len(run))):
                        problems.append(f"{where}, grid {side.name}: the {way} run is stored as unpayable, but a "
                                        f"path of {len(run)} slots exists")
                    continue
                why = follows(path, side.grid, len(run))
                if why is not None:
                    problems.append(f"{where}, grid {side.name}: the {way} run's path {list(path)}: {why}")
            if abs(mine.actions - again.actions) > TOLERANCE or abs(mine.paid - again.paid) > TOLERANCE:
                problems.append(f"{where}, grid {side.name}: stored {mine.actions} actions ({mine.paid:.1%} paid), "
                                f"measured {again.actions} ({again.paid:.1%})")
        mean = round(sum(p.actions for p in paid) / len(paid), PLACES) if paid else 0.0
        exact = from_empty(box, card.temple, layer, deck.reading)
        if card.priced is not None:
            if abs(card.priced[n].actions - mean) > TOLERANCE:
                problems.append(f"{where}: stored difficulty {card.priced[n].actions} actions, measured {mean}")
            if abs(card.priced[n].from_empty - exact) > TOLERANCE:
                problems.append(f"{where}: stored {card.priced[n].from_empty} crystals from an empty grid, "
                                f"computed {exact}")
        priced.append(Priced(exact, mean, tuple(paid)))
    return CardCheck(card.id, tuple(priced), tuple(problems))


def _measured(deck: Deck, side: Side, card: Card, n: int) -> Paid | None:
    layer = card.temple.layers[n]
    m = difficulty(deck.box, side, card.temple, layer, deck.reading)
    if m is None:
        return None
    return Paid(side.name, round(m.mean, PLACES), round(m.error, PLACES), round(m.paid, PLACES),
                tuple(witnesses(side, card.temple, layer, deck.reading)))


def verify_deck(deck: Deck, *, time_limit: float | None = None, tiers_from: Deck | None = None,
                tiers_name: str = "", strict: bool = False, workers: int = 1) -> DeckCheck:
    """Check every card and every rule (see the module docstring). ``time_limit`` and
    ``tiers_from`` are accepted for the command's sake: every measure here is a fixed number
    of seeded grids, and points, not tiers, price a layer. The temple sides are measured
    side by side in up to ``workers`` processes."""
    from generators.mystery_of_the_temples.generate import TRACKS, TWO_PLAYERS, colour_budget, play_points, points_for
    from generators.mystery_of_the_temples.inplay import CLEARLY_TURNS

    del time_limit, tiers_from, tiers_name
    checks = each(check_card, deck, deck.cards, workers)
    out: list[str] = []
    notes: list[str] = []
    generated = bool(deck.parameters) and not deck.parameters.get("grids_only")  # points made, not given
    by_play = deck.parameters.get("price") == "play"
    if by_play:  # priced by play: the stored costs in play are what the points follow, and are played again
        out_play = play_problems(deck, workers)
    layers = [(c, layer, _price_of(c, j, k, by_play)) for c, k in zip(deck.cards, checks)
              for j, layer in enumerate(c.temple.layers) if j < len(k.priced)]
    low, high = _range(deck.parameters.get("points"))
    for card, layer, _ in layers:
        if layer.points is not None and low is not None and not low <= layer.points <= (high or 99):
            out.append(f"card {card.id}, layer {layer.position}: {layer.points} points, outside {low}-{high}")
    for card, layer, _ in layers:
        if free(card.temple, layer, deck.reading):
            (out if generated or strict else notes).append(
                f"card {card.id}, layer {layer.position}: a run of colourless crystals only, paid by any crystals: "
                f"the layer is free")
    rising = []
    unit, clearly = ("turns in play", CLEARLY_TURNS) if by_play else ("actions", CLEARLY)
    for a_card, a, a_value in layers:
        for b_card, b, b_value in layers:
            if (a.points is not None and b.points is not None and a.points > b.points
                    and a_value + clearly < b_value):
                rising.append(f"card {a_card.id}, layer {a.position} is worth {a.points} points at {a_value:.2f} "
                              f"{unit}, more than card {b_card.id}, layer {b.position} ({b.points} points) at "
                              f"{b_value:.2f}")
    if by_play:
        out.extend(out_play)
    (out if generated or strict else notes).extend(rising[:5])
    if len(rising) > 5:
        (out if generated or strict else notes).append(f"... and {len(rising) - 5} more pairs")
    values = [[[p.actions for p in k.priced[j].grids] + [None] * (len(deck.box.grids) - len(k.priced[j].grids))
               for j in range(len(k.priced))] for k in checks]
    grid_balance = balance(values) if checks else Balance((), ())
    limit = deck.parameters.get("balance")
    if isinstance(limit, (int, float)) and grid_balance.ratio > limit + 1e-9:
        out.append(f"grids: the hardest grid side's mean is {grid_balance.ratio:.3f} times the easiest's, more than "
                   f"the recorded balance {limit}")
    if deck.means is not None:
        for side, stored, again in zip(deck.box.grids, deck.means, grid_balance.means):
            if abs(stored - again) > TOLERANCE:
                out.append(f"grids: {side.name}: stored mean {stored}, measured {again}")
    if generated and deck.parameters.get("tracks") == TRACKS:
        out.extend(shape_problems(deck))
    elif generated:
        counted = [0] * len(deck.box.names)
        for c in deck.cards:
            for colour in crystals(c.temple, deck.reading):
                counted[colour] += 1
        want = colour_budget(deck.box.supply, sum(counted))
        if counted != want:
            shown = ", ".join(f"{n} {c}/{w}" for n, c, w in zip(deck.box.names, counted, want) if c != w)
            out.append(f"tracks: colours not in proportion to the supply (found/expected: {shown})")
    out.extend(component_problems(deck, notes))
    out.extend(block_problems(deck, generated and deck.parameters.get("two_players") == TWO_PLAYERS))
    ids: set[str] = set()
    for c in deck.cards:
        if str(c.id) in ids:
            out.append(f"card id {c.id!r} is used twice")
        ids.add(str(c.id))
    means = [value for _, _, value in layers]
    if by_play and means and len(means) == sum(len(c.temple.layers) for c in deck.cards):
        flat = play_points(deck, means, low if low is not None else 3, high if high is not None else 8)
        if generated:
            out.extend(side_problems(deck))
    else:
        flat = points_for(means, low if low is not None else 3, high if high is not None else 8) if means else []
    suggested = []
    at = 0
    for c in deck.cards:
        suggested.append(tuple(flat[at:at + len(c.temple.layers)]))
        at += len(c.temple.layers)
    given = [float(layer.points) for _, layer, _ in layers if layer.points is not None]
    rank = spearman(means, given) if len(given) == len(means) and len(means) > 2 else None
    return DeckCheck(tuple(checks), tuple(out), tuple(notes), grid_balance, tuple(suggested), rank)




def _price_of(card: Card, j: int, check: CardCheck, by_play: bool) -> float:
    """What a layer's points follow: its cost in play (a deck priced by play) or its
    difficulty measured again."""
    stored = card.priced[j].in_play if card.priced is not None and j < len(card.priced) else None
    if by_play and stored is not None:
        return stored.turns
    return check.priced[j].actions


def play_problems(deck: Deck, workers: int = 1) -> list[str]:
    """A deck priced by play: every layer's stored cost in play against the same chases
    played again (``inplay.layer_costs`` from the deck's seed)."""
    from generators.mystery_of_the_temples.inplay import layer_costs

    if deck.seed is None:
        return ["parameters.price: play, and the deck records no seed to play its chases again"]
    again = layer_costs(deck, deck.seed, workers=workers)
    out = []
    for c in deck.cards:
        for j, layer in enumerate(c.temple.layers):
            stored = c.priced[j].in_play if c.priced is not None and j < len(c.priced) else None
            found = again.get((c.id, j))
            if stored is None:
                out.append(f"card {c.id}, layer {layer.position}: priced by play, and no cost in play stored")
            elif found is None or (found.turns, found.error, found.capped, found.chases) != (
                    stored.turns, stored.error, stored.capped, stored.chases):
                out.append(f"card {c.id}, layer {layer.position}: stored cost in play {stored.turns} turns, played "
                           f"again {found.turns if found else 'none'}")
    return out


def side_problems(deck: Deck) -> list[str]:
    """A deck priced by play: the temple sides for one player count total within
    ``generate.SIDE_RATIO`` of each other, and the published curse is worth its published
    points."""
    from generators.mystery_of_the_temples.generate import PUBLISHED_POINTS, SIDE_RATIO, published_layers

    out = []
    for count in sorted({c.temple.side for c in deck.cards}):
        totals = {c.id: sum(layer.points or 0 for layer in c.temple.layers) for c in deck.cards
                  if c.temple.side == count}
        most, least = max(totals, key=lambda k: totals[k]), min(totals, key=lambda k: totals[k])
        if totals[least] and totals[most] > SIDE_RATIO * totals[least] + 1e-9:
            out.append(f"sides for {count} players: card {most} totals {totals[most]} points, card {least} "
                       f"{totals[least]}: more than {SIDE_RATIO} times")
    layers = [(c, layer) for c in deck.cards for layer in c.temple.layers]
    low, high = _range(deck.parameters.get("points"))
    if low is None or low <= PUBLISHED_POINTS <= (high or 99):
        for k in published_layers(deck.cards, deck.box, deck.reading):
            card, layer = layers[k]
            if layer.points != PUBLISHED_POINTS:
                out.append(f"card {card.id}, layer {layer.position}: the published curse yellow-yellow-blue is worth "
                           f"{layer.points} points, not the published {PUBLISHED_POINTS}")
    return out


def block_problems(deck: Deck, generated: bool) -> list[str]:
    """The layers blocked at 2 players: no more than the spare markers a game of two has
    (``components.SPARE_AT_TWO``), enough left open for both players' markers (where the
    sides have enough without blocking), and in a generated
    deck that records them (``parameters.two_players``; decks made before have none) the
    generator's choice (``box.two_player_block``), one on each side for 2-3 players."""
    from generators.mystery_of_the_temples.box import SIDES, two_player_block
    from generators.mystery_of_the_temples.components import MARKERS, SPARE_AT_TWO

    sides = [c for c in deck.cards if c.temple.side == SIDES[0]]
    blocked = sum(1 for c in sides for layer in c.temple.layers if layer.blocked)
    open_ = sum(1 for c in sides for layer in c.temple.layers if not layer.blocked)
    out = []
    if blocked > SPARE_AT_TWO:
        out.append(f"cards: {blocked} layers blocked at 2 players; a game of two has {SPARE_AT_TWO} spare markers")
    if blocked and open_ < 2 * MARKERS <= open_ + blocked:
        out.append(f"cards: the layers blocked at 2 players leave {open_} open on the sides for {SIDES[0]}; two "
                   f"players place {2 * MARKERS} markers")
    if generated:
        for c in sides:
            want = [layer.position for layer in two_player_block(c.temple).layers if layer.blocked]
            have = [layer.position for layer in c.temple.layers if layer.blocked]
            if have != want:
                out.append(f"card {c.id}: blocks {_positions(have)} at 2 players; the generator blocks "
                           f"{_positions(want)} (the layer of median points)")
    return out


def _positions(positions: Sequence[int]) -> str:
    return ", ".join(f"layer {p}" for p in positions) or "no layer"


def component_problems(deck: Deck, notes: list[str]) -> list[str]:
    """The wilderness, rune and objective cards and 4A's bonuses against the deck's colours
    and supply (``components.problems_of``: symbols that exist, colours of the supply,
    objectives naming real temples, enough rune cards to deal), and no card that gives more
    of a colour than the supply holds. Ours, in a deck of other colours that did not give its
    own, are a note: the deck prints, and plays only with cards of its own."""
    from generators.mystery_of_the_temples.components import OURS, problems_of

    parts = deck.box.components
    found = problems_of(parts, len(deck.box.colours))
    for w in parts.wilderness:
        for c in set(w.crystals):
            if c < len(deck.box.supply) and w.crystals.count(c) > deck.box.supply[c]:
                found.append(f"wilderness {w.number}: gives {w.crystals.count(c)} {deck.box.names[c]}, the supply "
                             f"holds {deck.box.supply[c]}")
    if parts == OURS and found:
        notes.append(f"our wilderness, rune and objective cards do not fit this deck's colours ({found[0]}): give "
                     f"your own (wilderness, runes, objectives) to play it")
        return []
    return found


def shape_problems(deck: Deck) -> list[str]:
    """Where a deck's tracks are not shaped like the game's (``generate.deal``): a side with
    fewer of its own colour than the generator gives, more than one colourless position on a
    side, or colourless positions over 15% of all."""
    from generators.mystery_of_the_temples.generate import COLOURLESS_SHARE, shaped

    out = []
    total = colourless = 0
    for c in deck.cards:
        shown = crystals(c.temple, deck.reading)
        own, most = shaped(len(shown))
        if shown.count(c.temple.colour) < own:
            out.append(f"card {c.id}: {shown.count(c.temple.colour)} of its {len(shown)} crystals are its temple's "
                       f"colour; a generated side has {own}")
        if shown.count(0) > most:
            out.append(f"card {c.id}: {shown.count(0)} colourless positions; a generated side has at most {most}")
        total += len(shown)
        colourless += shown.count(0)
    if total and colourless > COLOURLESS_SHARE * total:
        out.append(f"tracks: {colourless} of {total} positions are colourless, more than "
                   f"{COLOURLESS_SHARE:.0%}")
    return out


def _range(text: object) -> tuple[int | None, int | None]:
    if isinstance(text, str) and "-" in text:
        a, b = text.split("-", 1)
        return int(a), int(b)
    return None, None

