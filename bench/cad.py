"""Benchmark: the whole 3D kit of the default Puzzle Temple deck.

Run by hand::

    .venv/bin/python bench/cad.py [--seed 0] [--cards 36] [--printer bambu-x1]

Makes the default deck (not timed), then times, in one run:

1. the parts: each card (plate, pocket, die rows and id cut, inlays), as seconds per card
   (p50 / p95), and the blocks, board, coupon, jewels and pawns;
2. ``make_kit``: the whole kit (36 cards, 4 block sets, board, 78 jewels, 4 pawns, coupon;
   STL plus AMS and NO-AMS 3MF plates and previews), with the share the parts take of it.

The target is the whole kit in <= 90 s on this 2-core machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cad import puzzle_temple as ct  # noqa: E402
from cad.common.profile import Physical, printer  # noqa: E402
from generators.puzzle_temple import generate as gen  # noqa: E402
from solver.pieces import preset  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cards", type=int, default=36)
    parser.add_argument("--printer", default="bambu-x1")
    args = parser.parse_args()

    deck = gen.generate(gen.Spec(preset("ubongo12"), cards=args.cards, seed=args.seed, workers=2))
    ph = Physical()
    bed = printer(args.printer)
    ct.card_parts(deck, deck.cards[0], ph, ams=True)  # warm-up: CadQuery loaded, caches made

    per_card = []
    for card in deck.cards:
        start = time.perf_counter()
        for _, shape in ct.card_parts(deck, card, ph, ams=True):
            ct.mesh(shape)
        per_card.append(time.perf_counter() - start)
    start = time.perf_counter()
    made = ct.make_kit(deck, ph, (bed.width, bed.depth))
    whole = time.perf_counter() - start
    cards = sum(per_card)
    size = sum(len(d) for d in made.files.values())
    p95 = sorted(per_card)[round(0.95 * (len(per_card) - 1))]
    print(f"deck: {len(deck.cards)} cards (seed {args.seed}); {bed.title} bed")
    print(f"card parts: p50 {statistics.median(per_card):.2f} s, p95 {p95:.2f} s, all {cards:.1f} s")
    print(f"whole kit:  {whole:6.1f} s for {made.pieces} parts on {made.ams_plates} plates, {len(made.files)} files "
          f"({size / 1e6:.1f} MB); cards are {cards / whole:.0%} of it  target <= 90 s: "
          f"{'met' if whole <= 90 else 'MISSED'}")


if __name__ == "__main__":
    main()
