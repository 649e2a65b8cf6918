"""Re-prove a Puzzle Temple deck, trusting nothing the generator did.

Nouns:
    FaceCheck   what was established for one face: the recomputed status and count, the
                rating, a solution to show, and every problem found.
    DeckCheck   every face's check, the card and deck rules that failed, the tier scale the
                cards were placed on, and the block usage.

Nothing here imports the generator or its engine. Each stored solution is checked by the
plain-Python verifier (``solver.verify``). Each face is solved again from scratch by two
searches the generator does not use: CP-SAT counts its tilings, and the rating's own
plain-Python search counts them again while it rates the face; both counts must agree with
each other and with the file, and the recomputed difficulty must match the stored one to
within its rounding step. The rules of a lock card: the lock is connected (and hole-free
unless ``parameters.holes``); six faces, one per die number 1-6, with pairwise different
block sets; every face can be solved (exactly one way with ``parameters.unique``). The deck
rules: unique card ids; no two locks alike up to rotation and reflection; every recorded
parameter holds for every card (the block set, the number of cards, blocks per face, lock
size, lock cells, fill); the tier bounds are two ordered numbers and the cards spread over
the tiers as ``parameters.difficulty`` asks. A hand-written deck gets the same checks, and its
cards are placed on a tier scale (the default deck's, or another deck's) for a read-out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generators.common import grading
from generators.common.errors import RequestError
from generators.common.grading import Tier
from generators.common.pool import each
from generators.puzzle_temple.deck import DICE, Card, CardId, Deck, Face
from solver import tiling
from solver.pieces import PRESETS, preset
from solver.puzzle import Solution
from solver.rating import RatingLimit, rate
from solver.verify import verify_tiling

#: Search states the verifier lets one rating take (Ubongo-size faces need tens to hundreds).
MAX_RATING_STATES = 20_000

#: The tier bounds of the default deck (``templeforge generate puzzle-temple``, seed 0): the
#: scale a hand-written deck is read against. A test holds this to a fresh default deck.
DEFAULT_TIER_BOUNDS = (5.46, 5.88)



@dataclass(frozen=True, slots=True)
class FaceCheck:
    """One face, re-proved.

    Attributes:
        card: the card's id.
        die: the face's die number.
        blocks: the face's blocks.
        status: ``solved``, ``unsolvable`` (a proof) or ``unknown`` (the time limit came
            first).
        count: the recomputed number of tilings (a lower bound when the limit came first).
        exhaustive: whether ``count`` is exact.
        difficulty: the recomputed rating in bits, or None when there is no tiling.
        solution: the stored solution when it is valid, else the first one found.
        reason: why the face cannot be solved, or why the search stopped.
        problems: every fault found in the stored proof or against the rules.
    """

    card: CardId
    die: int
    blocks: tuple[str, ...]
    status: tiling.Status
    count: int
    exhaustive: bool
    difficulty: float | None
    solution: Solution | None
    reason: str | None
    problems: tuple[str, ...]

    @property
    def unique(self) -> bool | None:
        if self.count >= 2:
            return False
        return self.count == 1 if self.exhaustive else None

    @property
    def where(self) -> str:
        return f"card {self.card}, face {self.die}"


@dataclass(frozen=True, slots=True)
class DeckCheck:
    """The verdict on a deck: ``ok`` when no face and no rule has a problem.

    Attributes:
        faces: every face's check, card by card.
        rule_problems: the card and deck rules broken, each naming its card.
        usage: faces per block.
        bounds: the tier scale the cards were placed on (None: no difficulties to place).
        scale: where the scale came from (``the deck's tier_bounds``, a file, the default).
    """

    faces: tuple[FaceCheck, ...]
    rule_problems: tuple[str, ...]
    usage: dict[str, int]
    bounds: tuple[float, float] | None = None
    scale: str = ""

    @property
    def problems(self) -> tuple[str, ...]:
        """Every problem, each naming its card (and face)."""
        face_problems = tuple(f"{f.where}: {p}" for f in self.faces for p in f.problems)
        return self.rule_problems + face_problems

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def unknown(self) -> tuple[FaceCheck, ...]:
        return tuple(f for f in self.faces if f.status is tiling.Status.UNKNOWN)

    @property
    def counted(self) -> str:
        """What was checked, counted (``216 faces``)."""
        return f"{len(self.faces)} faces"

    @property
    def usage_ratio(self) -> float | None:
        """Most-used block's face count over the least-used one's (None if one is unused)."""
        counts = list(self.usage.values())
        if not counts or min(counts) == 0:
            return None
        return max(counts) / min(counts)

    def card_difficulty(self, card: CardId) -> float | None:
        """The mean of the recomputed face difficulties of a card (None if one is missing)."""
        values = [f.difficulty for f in self.faces if f.card == card]
        if not values or any(v is None for v in values):
            return None
        return grading.mean(values)  # type: ignore[arg-type]

    def tier(self, card: CardId) -> Tier | None:
        """A card's tier on the scale, from its recomputed difficulties."""
        value = self.card_difficulty(card)
        if value is None or self.bounds is None:
            return None
        return grading.tier_of(value, self.bounds)


def check_face(deck: Deck, card: Card, face: Face, *, time_limit: float | None = None) -> FaceCheck:
    """Re-prove one face: the stored solution, the count (twice) and the difficulty."""
    problems: list[str] = []
    puzzle = deck.puzzle(card, face)
    rating = None
    try:
        rating = rate(puzzle, max_states=MAX_RATING_STATES)
    except RatingLimit:
        pass
    limit = rating.tilings + 1 if rating is not None else None
    result = tiling.count(puzzle, keep=1, limit=limit, time_limit=time_limit, engine=tiling.Engine.CP_SAT)
    shown = result.solution
    if face.solution is not None:
        verdict = verify_tiling(card.lock, puzzle.pieces, face.solution.placements, flips=deck.flips)
        if verdict.ok:
            shown = face.solution
        else:
            problems.extend(f"stored solution: {p}" for p in verdict.problems)
    if result.status is tiling.Status.UNSOLVABLE:
        problems.append(f"cannot be solved: {result.reason}")
    count = result.count or 0
    exhaustive = result.exhaustive or (rating is not None and result.status is not tiling.Status.UNKNOWN
                                       and count == rating.tilings)
    if rating is not None and result.status is not tiling.Status.UNKNOWN and count != rating.tilings:
        problems.append(f"CP-SAT counts {count} solution(s) but the rating's search counts {rating.tilings}")
    if exhaustive and face.solutions is not None and face.solutions != count:
        problems.append(f"stores {face.solutions} solution(s) but has {count}")
    if deck.unique and count >= 2:
        problems.append(f"the deck asks for unique solutions but this face has {count}")
    difficulty = rating.bits if rating is not None and rating.tilings else None
    if face.difficulty is not None and count:
        if difficulty is None and result.status is tiling.Status.SOLVED:
            problems.append(f"stores difficulty {face.difficulty}, but the face is too big to rate "
                            f"(over {MAX_RATING_STATES} search states)")
        elif difficulty is not None and not grading.close(face.difficulty, difficulty):
            problems.append(f"stores difficulty {face.difficulty} but rates {difficulty}")
    return FaceCheck(card.id, face.die, face.blocks, result.status, count, exhaustive,
                     difficulty, shown, result.reason if result.status is not tiling.Status.SOLVED else None,
                     tuple(problems))


def card_problems(deck: Deck, card: Card) -> list[str]:
    """The lock card rules (see the module docstring) that ``card`` breaks."""
    out = []
    where = f"card {card.id}"
    if not card.lock.is_connected():
        out.append(f"{where}: the lock is not connected")
    holes = card.lock.holes()
    if holes and not deck.holes:
        out.append(f"{where}: the lock has {len(holes)} hole(s) (the deck does not allow holes)")
    dice = [f.die for f in card.faces]
    repeated = sorted(d for d, k in Counter(dice).items() if k > 1)
    if repeated:
        out.append(f"{where}: die number(s) {', '.join(map(str, repeated))} appear on more than one face")
    missing = [d for d in DICE if d not in dice]
    if missing:
        out.append(f"{where}: has {len(card.faces)} face(s); a lock card needs one for every die "
                   f"number (missing {', '.join(map(str, missing))})")
    seen: dict[frozenset[str], int] = {}
    for f in card.faces:
        key = frozenset(f.blocks)
        if key in seen:
            out.append(f"{where}: faces {seen[key]} and {f.die} have the same blocks")
        else:
            seen[key] = f.die
    return out


def deck_problems(deck: Deck) -> list[str]:
    """The deck rules: unique card ids, no two locks the same up to rotation and reflection."""
    out = []
    ids = Counter(str(c.id) for c in deck.cards)
    for card_id in sorted(i for i, k in ids.items() if k > 1):
        out.append(f"card id {card_id} is used by {ids[card_id]} cards")
    first: dict[object, CardId] = {}
    for c in deck.cards:
        key = c.lock.canonical(flips=True)
        if key in first:
            out.append(f"card {c.id}: the lock is the same as card {first[key]}'s (up to rotation "
                       f"and reflection)")
        else:
            first[key] = c.id
    return out


def _pair(value: object) -> tuple[int, int] | None:
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return value[0], value[1]
    return None


def parameter_problems(deck: Deck) -> list[str]:
    """Every recorded parameter checked against the cards (see the module docstring)."""
    p: Mapping[str, object] = deck.parameters
    out = []
    name = p.get("blocks")
    if isinstance(name, str) and name in PRESETS:
        want = {b.name: b.shape for b in preset(name, deck.flips)}
        have = {b.name: b.shape for b in deck.blocks}
        if deck.blocks_listed and have != want:
            out.append(f"parameters.blocks: the deck's blocks are not the {name} preset "
                       f"({', '.join(sorted(set(have) ^ set(want))) or 'shapes differ'})")
    cards = p.get("cards")
    if isinstance(cards, int) and cards != len(deck.cards):
        out.append(f"parameters.cards: records {cards} cards, the deck has {len(deck.cards)}")
    if "seed" in p and deck.seed is not None and p["seed"] != deck.seed:
        out.append(f"parameters.seed: records {p['seed']}, the deck's seed is {deck.seed}")
    per_face, size, cells = _pair(p.get("blocks_per_face")), _pair(p.get("lock_size")), _pair(p.get("lock_cells"))
    fill = p.get("min_fill")
    for card in deck.cards:
        rows, cols = card.lock.extent()
        if size is not None and (cols > size[0] or rows > size[1]):
            out.append(f"card {card.id}: the lock is {cols}x{rows} cells, larger than "
                       f"parameters.lock_size {size[0]}x{size[1]}")
        if cells is not None and not cells[0] <= card.lock.size <= cells[1]:
            out.append(f"card {card.id}: the lock has {card.lock.size} cells, outside "
                       f"parameters.lock_cells {cells[0]}-{cells[1]}")
        if isinstance(fill, (int, float)) and card.lock.size < fill * rows * cols - 1e-9:
            out.append(f"card {card.id}: the lock fills {card.lock.size / (rows * cols):.2f} of its "
                       f"{cols}x{rows} box, less than parameters.min_fill {fill}")
        if p:  # a generated card's faces go from die 1 (easiest) to 6 (README)
            out += _die_order(card)
        if per_face is not None:
            for f in card.faces:
                if not per_face[0] <= len(f.blocks) <= per_face[1]:
                    out.append(f"card {card.id}, face {f.die}: {len(f.blocks)} blocks, outside "
                               f"parameters.blocks_per_face {per_face[0]}-{per_face[1]}")
    return out


def _die_order(card: Card) -> list[str]:
    """The faces of a generated card, in die order, must not get easier (ties in any order);
    the stored difficulties are checked against the recomputed ones face by face."""
    rated = sorted((f.die, f.difficulty) for f in card.faces if f.difficulty is not None)
    return [f"card {card.id}: face {a} (difficulty {x:g}) is harder than face {b} ({y:g}); a generated card's "
            f"faces go from die 1 (easiest) to 6 (hardest)"
            for (a, x), (b, y) in zip(rated, rated[1:]) if x > y + 1e-9]


def tier_problems(deck: Deck) -> list[str]:
    """The difficulty spread the deck asked for (``parameters.difficulty`` against
    ``parameters.tier_bounds``), checked on the cards' stored mean difficulties."""
    wanted, raw = deck.parameters.get("difficulty"), deck.parameters.get("tier_bounds")
    if raw is None:
        return []
    try:
        bounds = grading.check_bounds(raw, "parameters.tier_bounds")
    except RequestError as err:
        return [str(err)]
    if not isinstance(wanted, str):
        return []
    try:
        target = grading.parse_target(wanted, "parameters.difficulty")
    except RequestError as err:
        return [str(err)]
    if target is None:
        return []
    means = [c.difficulty for c in deck.cards]
    if any(m is None for m in means):
        return []
    have = Counter(grading.tier_of(m, bounds) for m in means)  # type: ignore[arg-type]
    want = grading.tier_counts(len(deck.cards), target)
    if all(have.get(t, 0) == want.get(t, 0) for t in Tier):
        return []

    def show(counts: Mapping[Any, int]) -> str:
        return ", ".join(f"{t.value} {counts.get(t, 0)}" for t in Tier)

    return [f"the deck asks for difficulty {wanted} ({show(want)}) but its cards are {show(have)}"]


def tier_scale(deck: Deck, other: Deck | None = None, other_name: str = "") -> tuple[tuple[float, float], str]:
    """The tier bounds to place ``deck``'s cards on: ``other``'s when given, else the deck's
    own ``tier_bounds``, else the default deck's.

    Raises:
        RequestError: the bounds given are malformed.
    """
    if other is not None:
        raw = other.parameters.get("tier_bounds")
        if raw is None:
            raise RequestError(f"{other_name or 'the other deck'}: records no parameters.tier_bounds to read "
                               f"tiers from")
        return grading.check_bounds(raw, f"{other_name}: parameters.tier_bounds"), f"the tiers of {other_name}"
    raw = deck.parameters.get("tier_bounds")
    if raw is not None:
        try:
            return grading.check_bounds(raw), "the deck's own tier_bounds"
        except RequestError:
            pass
    return DEFAULT_TIER_BOUNDS, "the default deck's tiers"


def verify_deck(deck: Deck, *, time_limit: float | None = None, tiers_from: Deck | None = None,
                tiers_name: str = "", workers: int = 1) -> DeckCheck:
    """Re-prove every face of ``deck`` and check the card and deck rules.

    Args:
        deck: a generated or hand-written deck.
        time_limit: seconds per face before its answer is ``unknown`` (never unsolvable).
        tiers_from: a deck whose tier bounds place this deck's cards (default: the deck's
            own, else the default deck's).
    """
    bounds, scale = tier_scale(deck, tiers_from, tiers_name)
    rules = deck_problems(deck) + parameter_problems(deck) + tier_problems(deck)
    usage: Counter[str] = Counter({b.name: 0 for b in deck.blocks})
    for card in deck.cards:
        rules.extend(card_problems(deck, card))
        for face in card.faces:
            usage.update(face.blocks)
    faces = each(_check_face, deck, [(card, face) for card in deck.cards for face in card.faces], workers, time_limit)
    return DeckCheck(tuple(faces), tuple(rules), dict(usage), bounds, scale)


def _check_face(deck: Deck, pair: tuple[Card, Face], time_limit: float | None) -> FaceCheck:
    return check_face(deck, *pair, time_limit=time_limit)
