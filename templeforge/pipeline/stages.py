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

from generators import deck_from_bytes
from generators.contract import Check, Deck, Game
from templeforge.pipeline.settings import GameSettings

Progress = Callable[[int, int, str], None]  # done, total (0: unknown), what


@dataclass(frozen=True)
class Made:
    files: dict[str, bytes]
    lines: list[str] = field(default_factory=list)
    seconds: float | None = None  #: the stage's own time, when it ran in a worker


class VerifyFailed(Exception):
    """The verifier rejected the deck: the message names the card and face."""


def generate(settings: GameSettings, progress: Progress) -> Made:
    rules = settings.game.load_rules()
    spec = rules.spec(settings.generate.values, settings.generate.given)
    deck = rules.generate(spec, progress=lambda tried, usable: progress(usable, 0, f"{tried} tried"))
    return Made({rules.DECK_NAME: deck.dumps().encode("utf-8")},
                [f"{len(deck.cards)} cards (seed {spec.seed})"])


def checked(game: Game, data: bytes) -> tuple[Deck, Check]:
    """The deck in ``data`` and the independent verifier's check of it."""
    deck = deck_from_bytes(game, data)
    return deck, game.load_rules().verify(deck)


def verify(check: Check) -> Made:
    """The verify stage's verdict on a check; a failure raises ``VerifyFailed`` naming the
    first problems (each names its card and face)."""
    if not check.ok:
        shown = "; ".join(check.problems[:3])
        more = f" (and {len(check.problems) - 3} more)" if len(check.problems) > 3 else ""
        raise VerifyFailed(f"the deck fails verification: {shown}{more}")
    return Made({}, [f"{check.counted} proved and verified"])


def pdf(settings: GameSettings, data: bytes, title: str, progress: Progress) -> Made:
    from print import deck_files

    deck = deck_from_bytes(settings.game, data)
    progress(0, 0, "drawing")
    files, lines = deck_files(settings.game, deck, settings.pdf.values, title, settings.previews)
    return Made(files, lines)


def cad(settings: GameSettings, data: bytes, progress: Progress, mapper: Any = map) -> Made:
    from cad import kit_files, kit_steps

    deck = deck_from_bytes(settings.game, data)
    v = settings.cad.values
    total = kit_steps(settings.game, deck)
    done = [0]

    def step(what: str) -> None:
        done[0] += 1
        progress(min(done[0], total), total, what)

    files, lines = kit_files(settings.game, deck, physical=v["physical"], bed=v["printer"],
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
    settings, data, title = args
    made = pdf(settings, data, title, _report(stage))
    return Made(made.files, made.lines, time.perf_counter() - started)


def pool(processes: int) -> tuple[Any, Any]:
    """A pool of fresh (spawned) worker processes and the queue their progress comes on."""
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    return context.Pool(processes, initializer=_start_worker, initargs=(queue,)), queue
