"""Benchmark: the three PDFs of the default Puzzle Temple deck, and their previews.

Run by hand::

    .venv/bin/python bench/pdf.py [--seed 0] [--cards 36] [--repeat 3]

Makes the default deck (not timed), then times, best of ``--repeat`` runs:

1. ``print.puzzle_temple.make``: cards.pdf (fronts and long-edge duplex backs), answers.pdf
   and blocks.pdf (4 player sets) in memory, with pages per second;
2. the PNG previews of every page at 100 dpi and the contact sheet (PDFium), as a ratio to
   (1): the peer here is our own PDF writing, measured in the same run.

The target is all three PDFs in <= 5 s on this 2-core machine.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import best  # noqa: E402
from generators.puzzle_temple import generate as gen  # noqa: E402
from print import puzzle_temple as pt  # noqa: E402
from print.common.previews import previews  # noqa: E402
from print.common.sizes import parse_paper  # noqa: E402
from solver.pieces import preset  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cards", type=int, default=36)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    deck = gen.generate(gen.Spec(preset("ubongo12"), cards=args.cards, seed=args.seed, workers=2))
    request = pt.Request("auto", parse_paper("a4"), "long", (0.0, 0.0), 3.0, 15.0, 4)
    pt.make(deck, request, "warm-up")  # fonts registered, modules loaded

    took, printed = best(lambda: pt.make(deck, request, "bench"), args.repeat)
    pages = {name: data.count(b"/Type /Page\n") for name, data in printed.files.items()}
    total = sum(pages.values())
    shown, files = best(lambda: previews(printed.files, printed.imposition, [str(c.id) for c in deck.cards]),
                        args.repeat)
    size = sum(len(d) for d in printed.files.values())
    print(f"deck: {len(deck.cards)} cards (seed {args.seed}); card size {printed.size}")
    for name in sorted(pages):
        print(f"  {name:16s} {pages[name]:3d} pages  {len(printed.files[name]) / 1024:7.1f} KiB")
    print(f"PDFs:     {took:6.2f} s for {total} pages ({total / took:.1f} pages/s, {size / 1024:.0f} KiB)  "
          f"target <= 5 s: {'met' if took <= 5 else 'MISSED'}")
    print(f"previews: {shown:6.2f} s for {len(files)} PNGs ({shown / took:.2f}x the PDF time)")


if __name__ == "__main__":
    main()
