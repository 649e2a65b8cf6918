"""Monolyth's figures: what generate, verify, show and the report draw of a structure deck."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from generators.common.figures import Drawing, Fact, Figure, Histogram, Table
from generators.common.grading import Tier
from generators.common.words import plural
from generators.monolyth.deck import EXACT, Card, Deck
from generators.monolyth.structure import colour_rows, rows_of
from generators.monolyth.verify import CardCheck, DeckCheck, bounded, tiers
from solver.heightmap import Board, Step, Target

#: Letters that tell a build's steps apart in a drawing.
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def rule_text(deck: Deck) -> str:
    """The match rule in words, as printed on the cards."""
    rule = ("your monolith must reach at least the heights shown (more is fine)" if deck.rule == "contain" else
            "your monolith must have exactly the heights shown where a number is given")
    return rule + ("; the card may be turned or mirrored" if deck.turn else "; the card may not be turned")


def difficulty_text(difficulty: float | None, method: str | None, error: float | None,
                    bound: float | None = None) -> str:
    if difficulty is None:
        return "difficulty not measured yet (verify measures it)"
    if method == EXACT:
        return f"{difficulty:.2f} turns (exact, an older deck's scale)"
    least = f", at least {bound:.2f} with perfect play" if bound is not None else ""
    return f"{difficulty:.2f} +- {error or 0:.2f} turns{least}"


def summary(deck: Deck, check: DeckCheck, spec: Any = None) -> list[Figure]:
    out: list[Figure] = [Fact("match rule", rule_text(deck))]
    counted = tiers(check.cards)
    if check.bounds is not None:
        low, high = check.bounds
        out.append(Fact("cards by tier", ", ".join(f"{t.value} {counted[t]}" for t in Tier) +
                        f" (easy below {low:.2f} turns, hard from {high:.2f}; {check.scale})"))
    if check.notes:
        out.append(Fact("on our scale", "; ".join(check.notes[:3]) + (" ..." if len(check.notes) > 3 else "") +
                        " (reported; --strict fails them)"))
    from generators.monolyth.measure import RUNS  # here: help loads this module, and measure compiles

    n, exact = len(check.cards), bounded(check.cards)
    out.append(Fact("difficulty", f"expected turns to build each card when each turn offers four random pieces, "
                                  f"{RUNS} seeded games of the greedy player a card (one scale); its bound, the "
                                  f"expected turns with perfect play (exact), for {exact} of {n}" +
                                  (" (the others have too many height maps)" if exact < n else "")))
    volume = [sum(h or 0 for h in c.target.heights) for c in deck.cards]
    out.append(Fact("cubes per structure", f"{min(volume)}-{max(volume)} (mean {sum(volume) / len(volume):.1f}); "
                                           f"singles in the proofs: {sum(k.singles or 0 for k in check.cards)}"))
    values = [k.difficulty for k in check.cards if k.difficulty is not None]
    if len(values) > 1 and min(values) > 0:
        out.append(Fact("spread", f"{min(values):.2f}-{max(values):.2f} turns, max/min "
                                  f"{max(values) / min(values):.2f}"))
    if values:
        out.append(Histogram.of("difficulty (expected turns)", values, width=1.0))
    pool = deck.pool
    out.append(Fact("pool", f"{pool.title}: {plural(sum(k.count or 0 for k in pool.pieces), 'piece')} in the bag, "
                            f"{plural(sum(n for _, n in pool.singles), 'single')}; level tokens "
                            f"{', '.join(map(str, pool.level_tokens))}; structure tokens "
                            f"{', '.join(map(str, pool.structure_tokens))}"))
    reference = getattr(spec, "like", None)
    if reference is not None and values:
        out.extend(likeness(deck, check, reference))
    return out + prophecy_table(deck)


def likeness(deck: Deck, check: DeckCheck, reference: Any) -> list[Figure]:
    """How a deck made ``--like`` a reference compares with it (``generators.common.like``)."""
    from generators.common.like import Profile, comparison, natural
    from generators.monolyth.reference import CUBES, cubes_band

    rated = [(c, k.difficulty) for c, k in zip(deck.cards, check.cards) if k.difficulty is not None]
    mine = Profile(tuple(d for _, d in rated if d is not None), {CUBES: tuple(cubes_band(c.target.heights)
                                                                                for c, _ in rated)})
    return comparison(mine, reference.profile, reference.source, unit="turns", items="cards",
                      orders={CUBES: natural})


def prophecy_table(deck: Deck) -> list[Figure]:
    """The prophecy tokens: value, count, chance (with its error and range over colours), and
    the expected score of one token and of all of that value."""
    if not deck.prophecies:
        return []
    rows = tuple((str(p.value), str(p.count), f"{p.chance:.1%} +- {p.error:.1%}", f"{p.low:.1%}-{p.high:.1%}",
                  f"{p.expected:.2f}", f"{p.expected * p.count:.2f}") for p in deck.prophecies)
    return [Fact("prophecy tokens", f"{sum(p.count for p in deck.prophecies)} tokens; chance: the share of "
                                    f"finished walls showing at least the value's squares of the side's colour "
                                    f"for a player who made the prophecy"),
            Table(("value", "tokens", "chance", "by colour", "expected score", "all tokens"), rows, ">>>>>>")]


def card_table(deck: Deck, check: DeckCheck) -> Table:
    coloured = any(c.target.colours for c in deck.cards)
    rows = []
    for card, k in zip(deck.cards, check.cards):
        rows.append((str(card.id), "/".join(rows_of(card.target, deck.board)),
                     str(sum(h or 0 for h in card.target.heights)),
                     *((colours_text(card.target),) if coloured else ()),
                     difficulty_text(k.difficulty, k.method, k.error, k.bound), k.tier.value if k.tier else "-",
                     str(len(k.witness)) if k.witness is not None else "-",
                     str(k.singles) if k.singles is not None else "-"))
    if coloured:
        return Table(("card", "target (north row first)", "cubes", "colours", "difficulty", "tier", "steps",
                      "singles"), tuple(rows), "<<><><>>", orders=((5, tuple(t.value for t in Tier)),))
    return Table(("card", "target (north row first)", "cubes", "difficulty", "tier", "steps", "singles"),
                 tuple(rows), "<<>><>>", orders=((4, tuple(t.value for t in Tier)),))


def report(deck: Deck, check: DeckCheck, show_all: bool = False) -> list[Figure]:
    out: list[Figure] = [card_table(deck, check)]
    if show_all:
        out += cards(deck, deck.cards, check)
    return out + summary(deck, check)


def target_picture(card: Card, board: Board, letters: Mapping[str, str] | None = None) -> str:
    """The target as rows of heights, north at the top; a card with colours also shows, level
    by level, each cube's colour letter (``.``: any colour) and which letter is which."""
    heights = [" ".join(row) for row in rows_of(card.target, board)]
    if not card.target.colours or letters is None:
        return "\n".join(heights)
    levels = colour_rows(card.target, board, letters)
    lines = ["heights".ljust(2 * board.width) + "  " + "  ".join(f"level {z + 1}".ljust(2 * board.width)
                                                                for z in range(len(levels)))]
    for y in range(board.depth):
        lines.append(heights[y].ljust(2 * board.width) + "  " +
                     "  ".join(" ".join(level[y]).ljust(2 * board.width) for level in levels))
    used = dict.fromkeys(c for _, c in card.target.colours)
    lines.append(", ".join(f"{letters[c]} {c}" for c in used) + "; . any colour")
    return "\n".join(line.rstrip() for line in lines)


def colours_text(target: Target) -> str:
    """What a card asks of colours, shortly: ``12 red``, or ``-``."""
    counted = Counter(c for _, c in target.colours)
    return ", ".join(f"{n} {c}" for c, n in counted.items()) or "-"


def build_pictures(steps: Sequence[Step], board: Board) -> list[Drawing]:
    """The build step by step: after each step the heights, the step's columns lettered."""
    heights = [0] * board.columns
    out = []
    for n, step in enumerate(steps, start=1):
        touched = set()
        for x, y, z in step.cubes:
            c = board.column(x, y)
            heights[c] = max(heights[c], z + 1)
            touched.add(c)
        letter = LETTERS[(n - 1) % len(LETTERS)]
        lines = []
        for y in range(board.depth):
            cells = []
            for x in range(board.width):
                c = board.column(x, y)
                cells.append(f"{heights[c]}{letter if c in touched else ' '}")
            lines.append(" ".join(cells).rstrip())
        levels = sorted({z + 1 for _, _, z in step.cubes})
        at = f"level {levels[0]}" if len(levels) == 1 else f"levels {levels[0]}-{levels[-1]}"
        out.append(Drawing(f"step {n}: {step.piece} ({step.colour}), {at}", "\n".join(lines)))
    return out


def cards(deck: Deck, chosen: Sequence[Card], check: DeckCheck | None = None) -> list[Figure]:
    """What ``show`` prints: each card's target, its difficulty, and its build step by step."""
    out: list[Figure] = []
    for card in chosen:
        k: CardCheck | None = check.check(card.id) if check is not None else None
        difficulty = (difficulty_text(k.difficulty, k.method, k.error, k.bound) if k is not None else
                      difficulty_text(card.difficulty, card.method, card.error, card.bound))
        out.append(Drawing(f"card {card.id}: {difficulty}; heights, north at the top",
                           target_picture(card, deck.board, deck.pool.letters)))
        witness = card.witness if card.witness is not None else (k.witness if k is not None else None)
        if witness is None:  # a hand-written card: find a build to show
            from generators.monolyth.measure import prove

            proof = prove(deck.pool, deck.board, card.target)
            if proof is None:
                out.append(Fact(f"card {card.id}", "no ordered build from the pool reaches this structure"))
            witness = proof[0] if proof is not None else None
        if witness is not None:
            out += build_pictures(witness, deck.board)
    return out


def verdict(deck: Deck, check: DeckCheck) -> Fact:
    if check.ok:
        return Fact("verification", f"every one of the {plural(len(deck.cards), 'structure')} is built again by "
                                    f"replaying its stored order cube by cube (every cube supported when placed), "
                                    f"its difficulty measured again; no two alike")
    return Fact("verification", f"FAILED: {'; '.join(check.problems[:3])}")


def build_report(deck: Deck, check: DeckCheck) -> list[Figure]:
    return [verdict(deck, check), *summary(deck, check), card_table(deck, check)]
