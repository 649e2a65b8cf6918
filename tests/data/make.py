"""Write the sample decks the tests read, from the generator (run by hand after a change
that alters what the generator makes; ``tests/test_samples.py`` fails until then).

    .venv/bin/python -m tests.data.make

Each sample is named after the request that made it; the tests read them instead of
generating decks, so that the default run stays quick.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

HERE = Path(__file__).parent

#: file name -> (game, the request's keyword arguments)
SAMPLES: dict[str, tuple[str, dict[str, Any]]] = {
    "puzzle-temple-3-seed-11.json": ("puzzle-temple", {"cards": 3, "seed": 11}),
    "puzzle-temple-4-seed-5.json": ("puzzle-temple", {"cards": 4, "seed": 5}),
    "puzzle-temple-7-seed-3.json": ("puzzle-temple", {"cards": 7, "seed": 3}),
    "shifting-stones-12-seed-5.json": ("shifting-stones", {"cards": 12, "seed": 5}),
    "monolyth-3-seed-2.json": ("monolyth", {"cards": 3, "seed": 2, "attempts": 6}),
}


def generate(game: str, request: dict[str, Any]) -> str:
    """The deck file's text that ``request`` makes, without the versions (they change with
    every library upgrade and say nothing about the deck)."""
    if game == "puzzle-temple":
        from generators.puzzle_temple.generate import Spec, generate
        from solver.pieces import preset

        deck = generate(Spec(preset("ubongo12"), **{"workers": 2, **request}))
    elif game == "monolyth":
        from generators.common.grading import TARGETS
        from generators.monolyth.generate import generate as generate_structures
        from generators.monolyth.spec import Spec as MonolythSpec

        deck = generate_structures(MonolythSpec(difficulty=TARGETS["thirds"], **{"workers": 2, **request}))
    else:
        from generators.shifting_stones.generate import generate as generate_stones
        from generators.shifting_stones.spec import PUBLISHED_MIX, scaled
        from generators.shifting_stones.spec import Spec as StonesSpec

        deck = generate_stones(StonesSpec(mix=scaled(PUBLISHED_MIX, request["cards"]), **{"workers": 2, **request}))
    from dataclasses import replace

    return replace(deck, versions={}).dumps()


def main() -> None:
    for name, (game, request) in SAMPLES.items():
        (HERE / name).write_text(generate(game, request))
        print(f"wrote {HERE / name}")


if __name__ == "__main__":
    main()
