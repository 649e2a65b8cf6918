"""The work of each build stage, as functions that run in this process or in a worker.

Each takes plain values (the game's package name, the deck file's bytes, a stage's
settings) and returns ``Made``: the files it makes (paths relative to the game's folder)
and the lines that tell a designer what was made. None of them writes anything; the
runner does, into a staging folder.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from templeforge.pipeline.settings import GameSettings

Progress = Callable[[int, int, str], None]  # done, total (0: unknown), what


@dataclass(frozen=True)
class Made:
    files: dict[str, bytes]
    lines: list[str] = field(default_factory=list)
    seconds: float | None = None  #: the stage's own time, when it ran in a worker


class VerifyFailed(Exception):
    """The verifier rejected the deck: the message names the card and face."""


def deck_of(package: str, data: bytes) -> Any:
    from generators.common import deckfile

    module = __import__(f"{package}.deck", fromlist=["deck"])
    return module.deck_from_json(deckfile.loads(data.decode("utf-8"), "deck.json"), "deck.json")


def generate(settings: GameSettings, progress: Progress) -> Made:
    info = settings.game
    spec_module = info.module("spec")
    spec = spec_module.Spec.from_values(settings.generate.values, settings.generate.given).checked()
    deck = info.module("generate").generate(spec, progress=lambda tried, usable: progress(usable, 0,
                                                                                           f"{tried} tried"))
    return Made({spec_module.DECK_NAME: deck.dumps().encode("utf-8")},
                [f"{len(deck.cards)} cards (seed {spec.seed})"])


_CHECKED: dict[tuple[str, str], tuple[Any, Any]] = {}


def checked(package: str, data: bytes) -> tuple[Any, Any]:
    """The deck in ``data`` and the independent verifier's check of it, kept for the last
    deck asked about (the report shows the check the verify stage made, not a second run)."""
    import hashlib

    key = (package, hashlib.sha256(data).hexdigest())
    if key not in _CHECKED:
        deck = deck_of(package, data)
        _CHECKED.clear()
        _CHECKED[key] = deck, __import__(f"{package}.verify", fromlist=["verify"]).verify_deck(deck)
    return _CHECKED[key]


def verify(package: str, data: bytes) -> Made:
    """The independent verifier on the deck as written; a failure raises ``VerifyFailed``
    naming the first problems (each names its card and face)."""
    _, check = checked(package, data)
    if not check.ok:
        shown = "; ".join(check.problems[:3])
        more = f" (and {len(check.problems) - 3} more)" if len(check.problems) > 3 else ""
        raise VerifyFailed(f"the deck fails verification: {shown}{more}")
    return Made({}, [f"{check.counted} proved and verified"])


def pdf(settings: GameSettings, data: bytes, title: str, progress: Progress) -> Made:
    from print import deck_files

    deck = deck_of(settings.game.package, data)
    progress(0, 0, "drawing")
    files, lines = deck_files(settings.game.package, deck, settings.pdf.values, title, settings.previews)
    return Made(files, lines)


def cad(settings: GameSettings, data: bytes, progress: Progress, mapper: Any = map) -> Made:
    from cad import kit_files, kit_steps

    deck = deck_of(settings.game.package, data)
    v = settings.cad.values
    total = kit_steps(settings.game.package, deck)
    done = [0]

    def step(what: str) -> None:
        done[0] += 1
        progress(min(done[0], total), total, what)

    files, lines = kit_files(settings.game.package, deck, physical=v["physical"], bed=v["bed"],
                             players=v["players"], profile=v["profile"], slicer=v["slicer"], progress=step,
                             mapper=mapper)
    return Made({f"models/{name}": data for name, data in files.items()}, lines)


# -- in a worker process -----------------------------------------------------------------------

_QUEUE: Any = None


def _start_worker(queue: Any) -> None:
    """A worker's start: progress goes to ``queue``; Ctrl-C is the parent's to handle."""
    import signal

    global _QUEUE
    _QUEUE = queue
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _report(stage: str) -> Progress:
    def send(done: int, total: int, what: str) -> None:
        if _QUEUE is not None:
            _QUEUE.put((stage, done, total, what))

    return send


def run_in_worker(stage: str, *args: Any) -> Made:
    """Run a stage in a worker, its progress sent to the parent, timing itself."""
    import time

    if stage != "pdf":
        raise ValueError(f"no stage {stage!r} to run in a worker")
    started = time.perf_counter()
    made = pdf(*args, _report(stage))
    return Made(made.files, made.lines, time.perf_counter() - started)


def pool(processes: int) -> tuple[Any, Any]:
    """A pool of fresh (spawned) worker processes and the queue their progress comes on."""
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    return context.Pool(processes, initializer=_start_worker, initargs=(queue,)), queue
