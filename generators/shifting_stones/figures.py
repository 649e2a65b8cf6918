"""The figures of a Shifting Stones deck, as data (``generators.common.figures``).

``summary`` is what ``generate`` prints (the points mix with each value's difficulty range,
the Spearman correlation of points and difficulty, face use, window shapes, the histogram),
``report`` what ``verify`` prints (a row per card, then the summary), ``cards`` what ``show``
prints, ``build_report`` what the build report shows. Every number is the verifier's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from generators.common.figures import Bars, Drawing, Fact, Figure, Histogram, Table
from generators.common.grading import spearman
from generators.common.words import plural, times
from generators.shifting_stones import scale as price
from generators.shifting_stones.deck import Card, Deck
from generators.shifting_stones.pattern import Pattern
from generators.shifting_stones.tiles import TileSet

if TYPE_CHECKING:  # the verifier's types only: this module loads no solver until one is needed
    from generators.shifting_stones.verify import CardCheck, DeckCheck


def window_text(pattern: Pattern, tiles: TileSet) -> str:
    """The window as rows of face names, ``.`` for any stone, in columns."""
    names = [["." if f is None else tiles.faces[f] for f in row] for row in pattern.rows]
    width = max(len(n) for row in names for n in row)
    return "\n".join("  ".join(f"{n:<{width}}" for n in row).rstrip() for row in names)


def measure_text(k: CardCheck) -> str:
    if not k.feasible:
        return "no grid shows it"
    return (f"difficulty {k.difficulty:.3f} actions, {100 * k.shown:.3g}% of grids show it, "  # type: ignore[operator]
            f"at most {k.max} actions")


def points_ranges(deck: Deck, check: DeckCheck) -> list[tuple[int, int, float, float, float]]:
    """(points, cards, least, mean and most difficulty) for each points value."""
    by: dict[int, list[float]] = {}
    for card, k in zip(deck.cards, check.cards):
        if card.points is not None and k.difficulty is not None:
            by.setdefault(card.points, []).append(k.difficulty)
    return [(p, len(v), min(v), sum(v) / len(v), max(v)) for p, v in sorted(by.items())]


def correlation(deck: Deck, check: DeckCheck) -> float | None:
    pairs = [(c.points, k.difficulty) for c, k in zip(deck.cards, check.cards)
             if c.points is not None and k.difficulty is not None]
    return spearman([p for p, _ in pairs], [d for _, d in pairs]) if pairs else None


def summary(deck: Deck, check: DeckCheck, spec: Any = None) -> list[Figure]:
    out: list[Figure] = []
    stones = [c.pattern.stones for c in deck.cards]
    shapes = Counter(c.pattern.shape for c in deck.cards)
    sizes = Counter((c.pattern.height, c.pattern.width) for c in deck.cards)
    out.append(Fact("windows", ", ".join(f"{h}x{w} {n}" for (h, w), n in sorted(sizes.items())) +
                    f"; {len(shapes)} different stone layouts (the most used {times(max(shapes.values()))})"))
    out.append(Fact("stones per pattern", ", ".join(f"{k}: {n}" for k, n in sorted(Counter(stones).items())) +
                    f" (mean {sum(stones) / len(stones):.2f})"))
    ranges = points_ranges(deck, check)
    if ranges:
        out.append(Fact("points by difficulty", "; ".join(
            f"{plural(p, 'point')}: {plural(n, 'card')}, {lo:.2f}-{hi:.2f} (mean {mean:.2f}, "
            f"published {price.anchor(p):g})"
            for p, n, lo, mean, hi in ranges)))
        rho = correlation(deck, check)
        if rho is not None:
            out.append(Fact("Spearman correlation of points and difficulty", f"{rho:.3f}"))
        priced = [(c.points, k.difficulty) for c, k in zip(deck.cards, check.cards)
                  if c.points is not None and k.difficulty is not None]
        steps = price.bounds([p for p, _ in priced])
        on = sum(price.rate(d, steps) == p for p, d in priced)
        ratio = sum(p for p, _ in priced) / max(sum(d for _, d in priced), 1e-9)
        out.append(Fact("points per expected action", f"{ratio:.2f} (the published deck: about 0.9); "
                                                      f"{on} of {len(priced)} cards worth what the absolute "
                                                      f"scale gives them"))
    else:
        bounds = ", ".join(f"{plural(p, 'point')} up to {b:.2f}" for p, b in check.bounds)
        rated = Counter(k.rated for k in check.cards if k.rated is not None)
        out.append(Fact("points these patterns would earn",
                        ", ".join(f"{plural(p, 'point')}: {n}" for p, n in sorted(rated.items())) +
                        f" (scale: {bounds}, {check.top} above; {check.scale})"))
    usage = check.usage
    low = min(usage.values())
    out.append(Fact("face use (stones)", ", ".join(f"{f} {n}" for f, n in usage.items()) +
                    (f"; max/min {max(usage.values()) / low:.2f}" if low else "; some face is never used")))
    values = [k.difficulty for k in check.cards if k.difficulty is not None]
    if values:
        out.append(Histogram.of("difficulty (mean least actions from a random grid)", values))
    reference = getattr(spec, "like", None)
    if reference is not None and values:
        out.extend(likeness(deck, check, reference))
    return out


def likeness(deck: Deck, check: DeckCheck, reference: Any) -> list[Figure]:
    """How a deck made ``--like`` a reference compares with it (``generators.common.like``):
    difficulties, windows, stones per pattern and points side by side."""
    from generators.common.like import Profile, comparison, natural
    from generators.shifting_stones.reference import POINTS, STONES, WINDOW, window_of

    rated = [(c, k.difficulty) for c, k in zip(deck.cards, check.cards) if k.difficulty is not None]
    classes = {WINDOW: tuple(window_of(c.pattern) for c, _ in rated),
               STONES: tuple(str(c.pattern.stones) for c, _ in rated),
               POINTS: tuple(str(c.points) for c, _ in rated if c.points is not None)}
    mine = Profile(tuple(d for _, d in rated), classes)
    return comparison(mine, reference.profile, reference.source, unit="actions", items="cards",
                      skipped=reference.skipped, orders={name: natural for name in classes})


def card_table(deck: Deck, check: DeckCheck) -> Table:
    rows = []
    for card, k in zip(deck.cards, check.cards):
        rows.append((str(card.id), card.pattern.text(deck.tiles), str(card.points or "-"),
                     f"{k.difficulty:.3f}" if k.difficulty is not None else "-",
                     f"{100 * k.shown:.3g}%" if k.shown is not None else "-",
                     str(k.max) if k.max is not None else "-",
                     str(k.rated) if k.rated is not None and card.points is None else ""))
    columns = ("card", "window", "points", "difficulty", "shown", "max", "would earn")
    if all(c.points is not None for c in deck.cards):
        return Table(columns[:-1], tuple(r[:-1] for r in rows), "><>>>>")
    return Table(columns, tuple(rows), "><>>>>>")


def agreement(check: DeckCheck) -> list[Figure]:
    """A hand-written list's own points beside the absolute scale: the shares that agree,
    the correlation and the inverted pairs, widest gap first."""
    a = check.agreement
    if a is None:
        return []
    rho = f"; Spearman correlation of your points and difficulty {a.rho:.3f}" if a.rho is not None else ""
    out: list[Figure] = [Fact("your points beside the absolute scale",
                              f"{a.equal:.0%} of {plural(a.cards, 'card')} worth what the scale gives them, "
                              f"{a.near:.0%} within one step{rho}; "
                              f"{plural(a.pairs, 'inverted pair')} (a card worth less but harder than one worth "
                              f"more)")]
    if a.inverted:
        rows = tuple((str(c), str(p), f"{d:.3f}", str(c2), str(p2), f"{d2:.3f}", f"{d - d2:.3f}")
                     for c, p, d, c2, p2, d2 in a.inverted)
        if a.pairs > len(rows):
            out.append(Fact("inverted pairs shown", f"the {len(rows)} widest of {a.pairs}"))
        out.append(Table(("card", "points", "difficulty", "harder than card", "worth", "difficulty", "gap"),
                         rows, "<>><>>>"))
    return out


def report(deck: Deck, check: DeckCheck, show_all: bool = False) -> list[Figure]:
    """What ``verify`` prints: the card table (each window drawn too with ``show_all``),
    the summary, and for a hand-written list with points their agreement with the scale."""
    out: list[Figure] = [card_table(deck, check)]
    if show_all:
        out += cards(deck, deck.cards, check)
    return out + summary(deck, check) + agreement(check)


def cards(deck: Deck, chosen: Sequence[Card], check: DeckCheck | None = None) -> list[Figure]:
    """What ``show`` prints: each card's window in face names, its points and difficulty."""
    out: list[Figure] = []
    for card in chosen:
        head = f"card {card.id}"
        if card.points is not None:
            head += f": {plural(card.points, 'point')}"
        k = check.check(card.id) if check is not None else None
        if k is not None:
            head += f", {measure_text(k)}"
        elif card.difficulty is not None:
            head += f", difficulty {card.difficulty:.3f} actions"
        out.append(Drawing(head, window_text(card.pattern, deck.tiles)))
    return out


def verdict(deck: Deck, check: DeckCheck) -> Fact:
    if check.ok:
        return Fact("verification", f"every one of the {plural(len(deck.cards), 'pattern')} is feasible and "
                                    f"distinct, its difficulty measured again over all grids by the independent "
                                    f"verifier; points never fall as difficulty rises")
    return Fact("verification", f"FAILED: {'; '.join(check.problems[:3])}")


def build_report(deck: Deck, check: DeckCheck) -> list[Figure]:
    """The verdict, the summary, face use as bars, and a row per card with its window as a
    coloured picture."""
    letters = deck.tiles.letters()
    rows = []
    for card, k in zip(deck.cards, check.cards):
        rows.append((str(card.id), card.pattern.picture(deck.tiles), str(card.points or k.rated or "-"),
                     f"{k.difficulty:.3f}" if k.difficulty is not None else "-",
                     f"{100 * k.shown:.3g}%" if k.shown is not None else "-",
                     str(k.max) if k.max is not None else "-", card.pattern.text(deck.tiles)))
    table = Table(("card", "window", "points", "difficulty (actions)", "grids showing it", "most actions",
                   "faces"), tuple(rows), "><>>>><", pictures=(1,),
                  colours=tuple((letters[i], deck.tiles.colour(i)) for i in range(len(letters))))
    usage = Bars("stones of each face across the deck", tuple(check.usage),
                 tuple(float(n) for n in check.usage.values()))
    return [verdict(deck, check), *summary(deck, check), *agreement(check), usage, table]
