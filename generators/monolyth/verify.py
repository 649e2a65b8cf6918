"""Check a Monolyth deck without the generator: every witness replayed, every difficulty
measured again, every rule.

For each card: its stored build is replayed cube by cube (``solver.heightmap.replay``: each
step a piece of the pool of that name and colour, congruent to it and within its count,
inside the board and below the height limit, every cube supported when placed, the target
reached under the deck's rule); a card without a build (a hand-written list) gets one from
the search, or is reported unbuildable (or unknown, when the search budget ran out). Its
difficulty is measured again in the same seeded games (``measure.difficulty``) and must agree
with the stored value, and so must its bound (the exact expected turns with perfect play)
where it has one; a difficulty stored as ``exact`` (an older deck's, a bound on another
scale) is refused. The deck rules: unique ids, no two
cards alike (up to turning when the deck allows it), the recorded parameters, and the
prophecy tokens' chances (measured again) and counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from generators.common import grading
from generators.common.grading import Tier
from generators.common.pool import each
from generators.common.words import plural
from generators.monolyth.deck import EXACT, Card, CardId, Deck
from generators.monolyth.structure import key
from solver.heightmap import CONTAIN, SINGLE, Kind, Step, replay

#: How far a recomputed difficulty may be from the stored one (its rounding).
TOLERANCE = 0.0005 + 1e-9

#: Our scale: the default deck's tier bounds (``generate monolyth``, seed 0) and its band,
#: the least and most expected turns of its cards, for our pool at height 3 under
#: ``contain`` with turning. A hand-written list of that pool, height and rule is placed on
#: it (not on its own thirds, which would make a card's tier depend on its neighbours); a
#: test holds both to what the generator makes.
OURS_BOUNDS = (8.595, 10.125)
OURS_BAND = (7.088, 9.641)


@dataclass(frozen=True, slots=True)
class CardCheck:
    """One card, built and measured again."""

    card: CardId
    buildable: bool | None  # None: the search budget ran out (unknown)
    witness: tuple[Step, ...] | None
    singles: int | None
    difficulty: float | None
    method: str | None
    error: float | None
    tier: Tier | None
    problems: tuple[str, ...]
    bound: float | None = None

    @property
    def where(self) -> str:
        return f"card {self.card}"


@dataclass(frozen=True, slots=True)
class DeckCheck:
    """The verdict on a deck: ``ok`` when no card and no rule has a problem."""

    cards: tuple[CardCheck, ...]
    rule_problems: tuple[str, ...]
    bounds: tuple[float, float] | None
    scale: str
    notes: tuple[str, ...] = ()  # reported, not failed (``--strict`` fails them)

    @property
    def problems(self) -> tuple[str, ...]:
        return self.rule_problems + tuple(f"{c.where}: {p}" for c in self.cards for p in c.problems)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def unknown(self) -> tuple[CardCheck, ...]:
        return tuple(c for c in self.cards if c.buildable is None)

    @property
    def counted(self) -> str:
        return plural(len(self.cards), "structure")

    def check(self, card: CardId) -> CardCheck:
        return next(c for c in self.cards if str(c.card) == str(card))


def pool_kinds(deck: Deck) -> list[Kind]:
    """The pool's pieces with their colours and counts, and its singles as pieces."""
    from solver.shapes import Shape

    cube = Shape(frozenset({(0, 0, 0)}))
    return list(deck.pool.pieces) + [Kind(SINGLE, cube, colour, n) for colour, n in deck.pool.singles]


def check_card(deck: Deck, card: Card, bounds: tuple[float, float] | None) -> CardCheck:
    from generators.monolyth.measure import bound, difficulty, prove

    problems: list[str] = []
    board = deck.board
    witness = card.witness
    buildable: bool | None = True
    if witness is not None:
        problems += [f"witness: {p}" for p in replay(witness, pool_kinds(deck), board, card.target)]
        singles = sum(1 for s in witness if s.piece == SINGLE)
        if card.singles is not None and card.singles != singles:
            problems.append(f"singles: stored {card.singles}, the witness uses {singles}")
    else:
        proof = prove(deck.pool, board, card.target)
        if proof is None:
            buildable = False
            problems.append("no ordered build from the pool reaches this structure within the search")
            singles = None
        else:
            witness, singles = proof
    value, method, error = difficulty(deck.pool, board, card.target)
    least = bound(deck.pool, board, card.target)
    if card.difficulty is not None:
        if card.method == EXACT:
            problems.append(f"difficulty: stored as exact ({card.difficulty} turns with perfect play, an older "
                            f"version's figure and now the card's bound), but the deck's scale is the greedy "
                            f"player's games ({value} turns): generate the deck again, or delete the card's "
                            f"difficulty and verify measures it")
        elif abs(card.difficulty - value) > TOLERANCE:
            problems.append(f"difficulty: stored {card.difficulty} turns, recomputed {value}")
    if card.bound is not None and (least is None or abs(card.bound - least) > TOLERANCE):
        problems.append(f"difficulty.bound: stored {card.bound} turns, recomputed "
                        f"{least if least is not None else 'none (too many height maps for the exact figure)'}")
    tier = grading.tier_of(value, bounds) if bounds is not None else None
    return CardCheck(card.id, buildable, witness, singles, value, method, error, tier, tuple(problems), least)


def rule_problems(deck: Deck) -> list[str]:
    out = []
    seen: dict[tuple[object, ...], CardId] = {}
    ids: set[str] = set()
    for c in deck.cards:
        if str(c.id) in ids:
            out.append(f"card id {c.id!r} is used twice")
        ids.add(str(c.id))
        known = key(c.target, deck.board, deck.turn)
        if known in seen:
            turned = " (turned or mirrored)" if deck.turn else ""
            out.append(f"card {c.id} asks for the same structure as card {seen[known]}{turned}")
        seen.setdefault(known, c.id)
    params = deck.parameters
    for name, value in (("height", deck.height), ("rule", deck.rule), ("turn", deck.turn)):
        if name in params and params[name] != value:
            out.append(f"parameters.{name}: {params[name]!r}, but the deck's {name} is {value!r}")
    if "cards" in params and params["cards"] != len(deck.cards):
        out.append(f"parameters.cards: {params['cards']}, but the deck has {len(deck.cards)} cards")
    return out


def prophecy_problems(deck: Deck) -> list[str]:
    """The prophecy tokens' chances measured again, and their counts: the pool's own values,
    or the shares ``prophecy.shares`` gives for the recorded number of tokens."""
    from generators.monolyth.prophecy import chances, shares, values

    if not deck.prophecies:
        return []
    out = []
    allowed = set(values(deck.height))
    measured = chances(deck.pool, deck.height)
    for p in deck.prophecies:
        if p.value not in allowed:
            out.append(f"prophecies: a token of {p.value}, outside {min(allowed)}-{max(allowed)} (a side shows "
                       f"{max(allowed)} squares)")
            continue
        again = measured[p.value]
        stored = (p.chance, p.error, p.low, p.high)
        if any(abs(a - b) > 1e-4 + 1e-9 for a, b in zip(stored, again)):
            out.append(f"prophecies: value {p.value}: stored chance {p.chance} (error {p.error}, {p.low}-{p.high}), "
                       f"measured {again[0]} (error {again[1]}, {again[2]}-{again[3]})")
    counted = {p.value: p.count for p in deck.prophecies}
    if deck.pool.prophecy_tokens:
        want = {v: list(deck.pool.prophecy_tokens).count(v) for v in set(deck.pool.prophecy_tokens)}
    else:
        want = shares(measured, sum(counted.values()))
    if counted != want:
        out.append(f"prophecies: counts {counted}, but the chances share {sum(counted.values())} tokens as {want}")
    recorded = deck.parameters.get("prophecies")
    if isinstance(recorded, int) and not deck.pool.prophecy_tokens and recorded != sum(counted.values()):
        out.append(f"parameters.prophecies: {recorded}, but the deck has {sum(counted.values())} prophecy tokens")
    return out


def bounds_of(deck: Deck) -> tuple[float, float] | None:
    raw = deck.parameters.get("tier_bounds")
    if isinstance(raw, list) and len(raw) == 2:
        return float(raw[0]), float(raw[1])
    return None


def verify_deck(deck: Deck, *, time_limit: float | None = None, tiers_from: Deck | None = None,
                tiers_name: str = "", strict: bool = False, workers: int = 1) -> DeckCheck:
    """Check every card and every rule (see the module docstring). ``tiers_from``: another
    deck whose tier bounds place the cards (default: this deck's own, else its thirds).
    A hand-written list of our pool, height and rule is placed on our scale (``OURS_BOUNDS``)
    and a card outside ``OURS_BAND`` is noted (``strict``: failed). ``time_limit`` is
    accepted for the command's sake: every search here has a node budget."""
    del time_limit
    bounds = bounds_of(tiers_from) if tiers_from is not None else None
    scale = f"the tier bounds of {tiers_name or 'the other deck'}"
    if bounds is None:
        bounds, scale = bounds_of(deck), "the deck's own tier_bounds"
    ours = bounds is None and on_our_scale(deck)
    if ours:
        bounds, scale = OURS_BOUNDS, "our scale: the default deck's tier bounds"
    checks = each(check_card, deck, deck.cards, workers, bounds)
    if bounds is None:
        values = [k.difficulty for k in checks if k.difficulty is not None]
        cut = grading.quantile_bounds(values)
        bounds, scale = (cut[0], cut[1]), "the thirds of these structures"
        checks = [_tiered(k, bounds) for k in checks]
    notes = tuple(outside_band(checks)) if ours else ()
    problems = rule_problems(deck) + prophecy_problems(deck) + (list(notes) if strict else [])
    return DeckCheck(tuple(checks), tuple(problems), bounds, scale, () if strict else notes)


def on_our_scale(deck: Deck) -> bool:
    """Whether ``deck`` is a hand-written list our scale measures: our pool, height 3,
    ``contain``, turning allowed, no tier bounds of its own."""
    from generators.monolyth.pool import DEFAULT

    return (deck.seed is None and bounds_of(deck) is None and deck.pool == DEFAULT and deck.height == 3 and
            deck.rule == CONTAIN and deck.turn)


def outside_band(checks: Sequence[CardCheck]) -> list[str]:
    """A note for each card whose expected turns fall outside our band (the default deck's
    least to most)."""
    low, high = OURS_BAND
    out = []
    for k in checks:
        if k.difficulty is not None and not low <= k.difficulty <= high:
            side = "easier than" if k.difficulty < low else "harder than"
            out.append(f"card {k.card}: {k.difficulty:.2f} turns, {side} every card of the default deck "
                       f"({low:.2f}-{high:.2f} turns)")
    return out


def _tiered(k: CardCheck, bounds: tuple[float, float]) -> CardCheck:
    from dataclasses import replace

    return replace(k, tier=grading.tier_of(k.difficulty, bounds) if k.difficulty is not None else None)


def tiers(checks: Sequence[CardCheck]) -> dict[Tier, int]:
    counted = {t: 0 for t in Tier}
    for k in checks:
        if k.tier is not None:
            counted[k.tier] += 1
    return counted


def bounded(checks: Sequence[CardCheck]) -> int:
    """The cards with an exact bound."""
    return sum(1 for k in checks if k.bound is not None)
