"""Re-prove a Puzzle Temple deck, independently of the generator.

Nouns:
    FaceCheck   what was established for one face: the recomputed status and count, the
                rating, a solution to show, and every problem found.
    DeckCheck   every face's check, the card and deck rules that failed, and the figures of
                the whole deck (block usage, difficulty spread).

Nothing here imports the generator. Each stored solution is checked by the plain-Python
verifier (``solver.verify``), and each face is solved again from scratch: its tilings are
counted exhaustively and its difficulty is rated again, and both must match what the deck
stores. The rules of a lock card: the lock is connected (and hole-free unless the deck's
``parameters.holes`` allows holes); the card has six faces, one per die number 1-6, with
pairwise different block sets; every face can be solved (exactly one way when
``parameters.unique`` is set). The deck rules: no two locks are the same up to rotation and
reflection, and the cards spread over the difficulty tiers as ``parameters.difficulty``
asks (when the deck records its ``tier_bounds``). A hand-written deck without stored solutions gets the same checks; the found
solution is kept so it can be shown.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from generators.puzzle_temple import tiers
from generators.puzzle_temple.deck import DICE, Card, Deck, Face
from solver import tiling
from solver.puzzle import Solution
from solver.rating import RatingLimit, rate

#: Search states the verifier lets one rating take (Ubongo-size faces need tens to hundreds).
MAX_RATING_STATES = 20_000
from solver.verify import verify_tiling


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

    card: int
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
    """The verdict on a deck: ``ok`` when no face and no rule has a problem."""

    faces: tuple[FaceCheck, ...]
    rule_problems: tuple[str, ...]
    usage: dict[str, int]

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
    def usage_ratio(self) -> float | None:
        """Most-used block's face count over the least-used one's (None if one is unused)."""
        counts = list(self.usage.values())
        if not counts or min(counts) == 0:
            return None
        return max(counts) / min(counts)


def check_face(deck: Deck, card: Card, face: Face, *, time_limit: float | None = None) -> FaceCheck:
    """Re-prove one face: the stored solution, the count and the difficulty."""
    problems: list[str] = []
    puzzle = deck.puzzle(card, face)
    result = tiling.count(puzzle, keep=1, time_limit=time_limit)
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
    if result.exhaustive and face.solutions is not None and face.solutions != count:
        problems.append(f"stores {face.solutions} solution(s) but has {count}")
    if deck.unique and count >= 2:
        problems.append(f"the deck asks for unique solutions but this face has {count}")
    difficulty = None
    if result.status is tiling.Status.SOLVED and result.exhaustive:
        try:
            difficulty = rate(puzzle, max_states=MAX_RATING_STATES).bits
        except RatingLimit:
            if face.difficulty is not None:
                problems.append(f"stores difficulty {face.difficulty}, but the face is too big to rate "
                                f"(over {MAX_RATING_STATES} search states)")
        if difficulty is not None and face.difficulty is not None and abs(face.difficulty - difficulty) > 0.005:
            problems.append(f"stores difficulty {face.difficulty} but rates {difficulty}")
    return FaceCheck(card.id, face.die, face.blocks, result.status, count, result.exhaustive,
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
    ids = Counter(c.id for c in deck.cards)
    for card_id in sorted(i for i, k in ids.items() if k > 1):
        out.append(f"card id {card_id} is used by {ids[card_id]} cards")
    first: dict[object, int] = {}
    for c in deck.cards:
        key = c.lock.canonical(flips=True)
        if key in first:
            out.append(f"card {c.id}: the lock is the same as card {first[key]}'s (up to rotation "
                       f"and reflection)")
        else:
            first[key] = c.id
    return out


def tier_problems(deck: Deck) -> list[str]:
    """The difficulty spread the deck asked for (``parameters.difficulty`` against
    ``parameters.tier_bounds``), checked on the cards' stored mean difficulties."""
    wanted, bounds = deck.parameters.get("difficulty"), deck.parameters.get("tier_bounds")
    if not isinstance(wanted, str) or not (isinstance(bounds, list) and len(bounds) == 2):
        return []
    try:
        target = tiers.parse_target(wanted)
    except tiers.SpecError as err:
        return [f"parameters.{err}"]
    if target is None:
        return []
    means = [c.difficulty for c in deck.cards]
    if any(m is None for m in means):
        return []
    have = Counter(tiers.tier_of(m, (bounds[0], bounds[1])) for m in means)  # type: ignore[arg-type]
    want = tiers.tier_counts(len(deck.cards), target)
    if all(have.get(t, 0) == want.get(t, 0) for t in tiers.Tier):
        return []
    show = lambda counts: ", ".join(f"{t.value} {counts.get(t, 0)}" for t in tiers.Tier)  # noqa: E731
    return [f"the deck asks for difficulty {wanted} ({show(want)}) but its cards are {show(have)}"]


def verify_deck(deck: Deck, *, time_limit: float | None = None) -> DeckCheck:
    """Re-prove every face of ``deck`` and check the card and deck rules.

    Args:
        deck: a generated or hand-written deck.
        time_limit: seconds per face before its answer is ``unknown`` (never unsolvable).
    """
    faces = []
    rules = deck_problems(deck) + tier_problems(deck)
    usage: Counter[str] = Counter({b.name: 0 for b in deck.blocks})
    for card in deck.cards:
        rules.extend(card_problems(deck, card))
        for face in card.faces:
            usage.update(face.blocks)
            faces.append(check_face(deck, card, face, time_limit=time_limit))
    return DeckCheck(tuple(faces), tuple(rules), dict(usage))
