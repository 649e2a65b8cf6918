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

#: file name -> (game, the request's options as ``templeforge generate`` takes them)
SAMPLES: dict[str, tuple[str, dict[str, Any]]] = {
    "puzzle-temple-3-seed-11.json": ("puzzle-temple", {"cards": 3, "seed": 11}),
    "puzzle-temple-4-seed-5.json": ("puzzle-temple", {"cards": 4, "seed": 5}),
    "puzzle-temple-7-seed-3.json": ("puzzle-temple", {"cards": 7, "seed": 3}),
    # a whole deck of the published size: the playtests play its 9 rounds
    "puzzle-temple-36-seed-1.json": ("puzzle-temple", {"cards": 36, "seed": 1}),
    "shifting-stones-12-seed-5.json": ("shifting-stones", {"cards": 12, "seed": 5}),
    # a whole deck of the published size: the playtests deal it to five players
    "shifting-stones-72-seed-1.json": ("shifting-stones", {"cards": 72, "seed": 1}),
    "monolyth-3-seed-2.json": ("monolyth", {"cards": 3, "seed": 2, "attempts": 6, "difficulty": "thirds"}),
    "mystery-of-the-temples-two-boards-seed-1.json": ("mystery-of-the-temples", {
        "box": str(HERE.parents[1] / "examples" / "mystery-of-the-temples" / "box.toml"), "seed": 1, "attempts": 1,
        "price": "exact"}),
}


def generate(name: str, request: dict[str, Any]) -> str:
    """The deck file's text that ``request`` makes (through the game contract, as the
    command would, with two workers unless it says), without the versions (they change with
    every library upgrade and say nothing about the deck)."""
    from dataclasses import replace

    from generators import game
    from generators.common.options import resolve

    rules = game(name).load_rules()
    resolved = resolve(rules.OPTIONS, {"workers": 2, **request})
    deck = rules.generate(rules.spec(resolved.values, resolved.given))
    return replace(deck, versions={}).dumps()  # type: ignore[type-var]


def main() -> None:
    for name, (game, request) in SAMPLES.items():
        (HERE / name).write_text(generate(game, request))
        print(f"wrote {HERE / name}")


if __name__ == "__main__":
    main()
