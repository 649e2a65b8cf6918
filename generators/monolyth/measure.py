"""Monolyth's proofs and measures, shared by the generator, the verifier and "like mine":
an ordered build of a structure from the pool (``prove``), its difficulty in expected turns
(``difficulty``: ``RUNS`` seeded games of the greedy player, whose seed comes from the
structure itself) and, where the height maps number at most ``EXACT_STATES``, the bound on
it (``bound``: the expected turns of a player who plays perfectly, exact by dynamic
programming).

One scale: every card's difficulty comes from the same games, whatever its size. The
exact figure is the least any player can expect, not the same measure (the greedy player
needs 6-33% more turns on the default deck's cards), so it is kept beside the difficulty as
a bound and never mixed with it.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence

from generators.monolyth.deck import SIMULATED
from generators.monolyth.pool import Pool
from generators.monolyth.structure import rows_of
from solver.heightmap import SINGLE, Board, Build, Kind, Step, Target, build
from solver.shapes import Shape
from solver.turns import TooManyStates, expected_turns, simulate_turns

#: Height maps up to which the difficulty is exact.
EXACT_STATES = 2_100_000
#: Simulated games per card beyond that.
RUNS = 2000
#: Pieces on offer each turn (the crystal moves 1-4 spaces).
OFFER = 4
#: Search nodes an ordered build may take.
BUILD_BUDGET = 200_000
#: The most singles a build may use.
MAX_SINGLES = 6
#: Decimal places stored.
PLACES = 3


def pieces(pool: Pool) -> list[Kind]:
    """The pool's pieces by shape, colours merged (a structure without colours does not care
    which colour a piece is)."""
    counts: Counter[str] = Counter()
    shapes: dict[str, Shape] = {}
    for k in pool.pieces:
        counts[k.name] += k.count or 0
        shapes.setdefault(k.name, k.shape)
    return [Kind(name, shapes[name], "", counts[name]) for name in shapes]


def deal_colours(steps: Sequence[Step], pool: Pool) -> tuple[Step, ...]:
    """Colours for a colourless build's steps, dealt from the pool's counts: each step takes
    the colour with the most of its piece left (the pool's colour order breaks ties)."""
    left = Counter({(k.name, k.colour): k.count or 0 for k in pool.pieces})
    left.update({(SINGLE, c): n for c, n in pool.singles})
    order = pool.colour_names
    out = []
    for s in steps:
        colour = max(order, key=lambda c: (left[(s.piece, c)], -order.index(c)))
        left[(s.piece, colour)] -= 1
        out.append(Step(s.piece, colour, s.cubes))
    return tuple(out)


def structure_seed(target: Target, board: Board) -> int:
    """The simulation's seed for a structure: from its rows and rule, not the deck's seed."""
    text = "/".join(rows_of(target, board)) + ":" + target.rule
    if target.colours:  # a coloured card's games are its own
        text += ":" + ";".join(f"{x}{y}{z}{c}" for (x, y, z), c in target.colours)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=4).digest(), "big") % (1 << 31)


def kinds_for(pool: Pool, target: Target) -> list[Kind]:
    """The pieces a build of ``target`` draws on: by shape alone, or with their colours when
    the target asks for colours."""
    return list(pool.pieces) if target.colours else pieces(pool)


def difficulty(pool: Pool, board: Board, target: Target) -> tuple[float, str, float | None]:
    """The expected turns to build ``target`` in ``RUNS`` seeded games of the greedy player:
    (value, method, standard error)."""
    played = simulate_turns(kinds_for(pool, target), board, target, offer=OFFER, runs=RUNS,
                            seed=structure_seed(target, board))
    return round(played.mean, PLACES), SIMULATED, round(played.error, PLACES)


def bound(pool: Pool, board: Board, target: Target) -> float | None:
    """The expected turns to build ``target`` with perfect play (exact by dynamic
    programming), the least any player can expect; None beyond ``EXACT_STATES`` height maps."""
    try:
        return round(expected_turns(kinds_for(pool, target), board, target, offer=OFFER, max_states=EXACT_STATES),
                     PLACES)
    except TooManyStates:
        return None


def prove(pool: Pool, board: Board, target: Target) -> tuple[tuple[Step, ...], int] | None:
    """An ordered build of ``target`` with the fewest singles, or None. Without colours asked
    the build is by shape and its colours are dealt from the pool's counts afterwards; with
    colours every piece and single keeps its own colour and count."""
    found = search(pool, board, target)
    return (found.steps, found.singles) if found.steps is not None else None


def search(pool: Pool, board: Board, target: Target) -> Build:
    """``prove``'s search and what it found: the steps (colours dealt) and whether a spent
    budget left the answer open (``exhausted`` false: unknown, not unbuildable)."""
    singles = sum(n for _, n in pool.singles)
    if target.colours:
        stocked = [(c, n) for c, n in pool.singles if n > 0]
        return build(list(pool.pieces), board, target, singles=[c for c, _ in stocked],
                     single_counts=[n for _, n in stocked], max_singles=min(singles, MAX_SINGLES),
                     budget=BUILD_BUDGET)
    found = build(pieces(pool), board, target, singles=("",) if singles else (),
                  max_singles=min(singles, MAX_SINGLES), budget=BUILD_BUDGET)
    if found.steps is None:
        return found
    return Build(deal_colours(found.steps, pool), found.singles, found.nodes, found.exhausted)
