"""Benchmark: the design studio's live answers, each game's card as the designer edits it.

Run by hand::

    .venv/bin/python bench/studio.py [--windows 40] [--seed 0]

What the studio's proving worker does, in this process: every game's studio module warmed
as the server warms its worker before the first edit (``templeforge.studio.worker.warm``:
imported, a starting draft proved), then every card of the game's sample deck in ``tests/data/`` proved again as the
page proves an edit (``prove(deck, draft(deck, card), card)``), and for Shifting Stones
also ``--windows`` random windows of 1 to 9 stones (the hardest the editor can paint).

Targets (issue: "the answer appears within 0.3 s for a Puzzle Temple face or a stones
pattern and within 2 s for the others"): the slowest answer of each game, a whole Puzzle
Temple card (all six faces) held to the face's 0.3 s.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import Figure, best, missed, table  # noqa: E402
from generators import GAMES  # noqa: E402
from templeforge.studio.worker import warm  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
#: Each game's sample deck and its live target (s).
SAMPLES = {"puzzle-temple": ("puzzle-temple-36-seed-1.json", 0.3),
           "shifting-stones": ("shifting-stones-72-seed-1.json", 0.3),
           "monolyth": ("monolyth-3-seed-2.json", 2.0),
           "mystery-of-the-temples": ("mystery-of-the-temples-two-boards-seed-1.json", 2.0)}


def answers(studio: Any, deck: Any, drafts: list[tuple[Any, dict[str, Any]]]) -> list[float]:
    """Each draft proved once, as the page proves an edit: the seconds each took."""
    out = []
    for card_id, data in drafts:
        seconds, answer = best(lambda data=data, card_id=card_id: studio.prove(deck, data, card_id))
        assert answer["verdict"] in ("proved", "not proved", "unknown"), answer
        out.append(seconds)
    return out


def windows(studio: Any, deck: Any, count: int, seed: int) -> list[tuple[Any, dict[str, Any]]]:
    """``count`` random Shifting Stones windows, 1 to 3 rows of 1 to 3 places, every place a
    face's code or any face: new cards, as a designer paints them."""
    rng = random.Random(seed)
    codes = [*studio.codes(deck), studio.ANY_CODE]
    out: list[tuple[Any, dict[str, Any]]] = []
    for _ in range(count):
        rows, columns = rng.randint(1, 3), rng.randint(1, 3)
        out.append((None, {"grid": ["".join(rng.choice(codes) for _ in range(columns)) for _ in range(rows)]}))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--windows", type=int, default=40, help="random Shifting Stones windows (default 40)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    figures = []
    warmed = {}
    for name in SAMPLES:  # every game warmed first, as the server warms its worker
        started = time.perf_counter()
        warm(GAMES[name].studio)
        warmed[name] = time.perf_counter() - started
    for name, (sample, target) in SAMPLES.items():
        game = GAMES[name]
        studio = importlib.import_module(game.studio)
        deck = game.load_rules().deck_from_json(json.loads((DATA / sample).read_text()), sample)
        drafts = [(c.id, studio.draft(deck, c.id)) for c in deck.cards]
        times = answers(studio, deck, drafts)
        print(f"{name}: warm-up {warmed[name]:.2f} s; {len(times)} cards of {sample}: "
              f"median {statistics.median(times):.3f} s, slowest {max(times):.3f} s")
        figures.append(Figure("studio", f"{name}: slowest live answer, {len(times)} cards", max(times), "s",
                              target=target))
        if name == "shifting-stones":
            painted = answers(studio, deck, windows(studio, deck, args.windows, args.seed))
            print(f"{name}: {len(painted)} random windows: median {statistics.median(painted):.3f} s,"
                  f" slowest {max(painted):.3f} s")
            figures.append(Figure("studio", f"{name}: slowest live answer, {len(painted)} random windows",
                                  max(painted), "s", target=target))
    print()
    print(table(figures))
    if missed(figures):
        sys.exit(1)


if __name__ == "__main__":
    main()
