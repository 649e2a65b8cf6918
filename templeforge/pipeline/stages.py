"""The work of each build stage, as functions that run in this process or in a worker.

Each takes plain values (the game's package name, the deck file's bytes, a stage's
settings) and returns ``Made``: the files it makes (paths relative to the game's folder)
and the lines that tell a designer what was made. None of them writes anything; the
runner does, into a staging folder.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from generators import deck_from_bytes
from generators.common.proof import STAMP, Proved, prove
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


def generate(settings: GameSettings, progress: Progress) -> tuple[Made, Checked]:
    """The deck, read back from its file's text and verified as ``templeforge generate`` does:
    a passing deck is written sealed (``generators.common.proof``), so the stages after it
    do not prove it twice. The check goes to the verify stage, which judges it."""
    import time

    from generators.common.proof import sealed_text

    began = time.perf_counter()
    rules = settings.game.load_rules()
    spec = rules.spec(settings.generate.values, settings.generate.given)
    deck = rules.generate(spec, progress=lambda tried, usable: progress(usable, 0, f"{tried} tried"))
    text = deck.dumps()
    started = time.perf_counter()
    progress(0, 0, "verifying")
    again, check = checked(settings.game, text.encode("utf-8"), settings.generate.values.get("workers") or 1)
    verified = Checked(again, check, time.perf_counter() - started)
    if check.ok:
        text = sealed_text(settings.game, text)
    return Made({rules.DECK_NAME: text.encode("utf-8")}, [f"{len(deck.cards)} cards (seed {spec.seed})"],
                started - began), verified


@dataclass(frozen=True)
class Checked:
    """A deck and its verifier's check, and the seconds the check took."""

    deck: Deck
    check: Check
    seconds: float | None = None


def checked(game: Game, data: bytes, workers: int = 1) -> tuple[Deck, Check]:
    """The deck in ``data`` and the independent verifier's check of it (in up to ``workers``
    processes)."""
    deck = deck_from_bytes(game, data)
    return deck, game.load_rules().verify(deck, workers=workers)


def verify(check: Check, unverified: bool = False) -> Made:
    """The verify stage's verdict on a check; a failure raises ``VerifyFailed`` naming the
    first problems (each names its card and face), unless the build prints it anyway
    (``unverified``: every card, plate and page then says so)."""
    if not check.ok:
        shown = "; ".join(check.problems[:3])
        more = f" (and {len(check.problems) - 3} more)" if len(check.problems) > 3 else ""
        if unverified:
            return Made({}, [f"FAILED verification: {shown}{more}; printed anyway, marked {STAMP} (--unverified)"])
        raise VerifyFailed(f"the deck fails verification: {shown}{more}")
    return Made({}, [f"{check.counted} proved and verified"])


def proved(settings: GameSettings, data: bytes) -> Proved:
    """The deck to print from the build's deck file: sealed (so not proved twice), else
    verified now, else (``--unverified``) marked.

    Raises:
        Unproved: the deck is not sealed and its verifier rejects it.
    """
    from generators.common import deckfile

    parsed = deckfile.loads(data.decode("utf-8"), "deck.json")
    deck = deck_from_bytes(settings.game, data)
    return prove(settings.game, deck, parsed, settings.game.load_rules().DECK_NAME, unverified=settings.unverified)


def pdf(settings: GameSettings, data: bytes, title: str, progress: Progress) -> Made:
    from print import deck_files

    deck = proved(settings, data)
    progress(0, 0, "drawing")
    files, lines = deck_files(settings.game, deck.deck, settings.pdf.values, title, settings.previews,
                              stamp=deck.stamp)
    return Made(files, lines)


def cad(settings: GameSettings, data: bytes, progress: Progress, mapper: Any = map) -> Made:
    from cad import kit_files, kit_steps

    deck = proved(settings, data)
    v = settings.cad.values
    total = kit_steps(settings.game, deck.deck)
    done = [0]

    def step(what: str) -> None:
        done[0] += 1
        progress(min(done[0], total), total, what)

    files, lines = kit_files(settings.game, deck.deck, physical=v["physical"], bed=v["printer"],
                             players=v["players"], profile=v["profile"], slicer=v["slicer"], slots=v["ams_slots"],
                             progress=step,
                             mapper=mapper, stamp=deck.stamp)
    return Made({f"models/{name}": data for name, data in files.items()}, lines)


# -- in a worker process -----------------------------------------------------------------------

_QUEUE: Any = None


_STOP: Any = None


def _start_worker(queue: Any, stop: Any) -> None:
    """A worker's start: progress goes to ``queue``. Ctrl-C and SIGTERM are the parent's to
    handle, even when they reach the whole process group (a terminal's Ctrl-C, ``kill --
    -PGID``): a worker that died of one mid-job would leave the parent waiting for that job
    for ever (``multiprocessing.Pool`` loses it), and one killed while it waits for work
    holds the pool's queue lock for good. A worker ends on SIGTERM only once its parent has
    raised ``stop`` (``end``)."""
    import signal

    global _QUEUE, _STOP
    _QUEUE, _STOP = queue, stop
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_sigterm)
    import threading

    threading.Thread(target=_orphaned, args=(os.getppid(),), name="parent watch", daemon=True).start()


def _orphaned(parent: int) -> None:
    """End this worker once its parent is gone (killed outright, SIGKILL): no worker
    outlives the command."""
    import time

    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _on_sigterm(signum: int, frame: Any) -> None:
    if _STOP is not None and _STOP.value:  # the parent is ending its pool
        os._exit(1)
    # else: a signal to the whole group; the parent decides, and ends its workers itself


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
    """A pool of fresh (spawned) worker processes and the queue their progress comes on;
    ``end`` ends it at once."""
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    stop = context.RawValue("b", 0)
    workers = context.Pool(processes, initializer=_start_worker, initargs=(queue, stop))
    workers.templeforge_stop = stop  # type: ignore[attr-defined]
    return workers, queue


def end(workers: Any) -> None:
    """End a ``pool`` now, its jobs abandoned. Its workers heed SIGTERM from here on, and
    ``terminate`` sends it; a worker whose signal went to another of its threads (its
    progress queue's) cannot run the handler, so after a moment it is killed, and a
    ``terminate`` left waiting on it is abandoned (its thread is a daemon)."""
    import threading

    workers.templeforge_stop.value = 1
    ending = threading.Thread(target=workers.terminate, name="ending workers", daemon=True)
    ending.start()
    ending.join(timeout=3)
    if ending.is_alive():
        for child in multiprocessing.active_children():
            child.kill()
            child.join(timeout=5)
        ending.join(timeout=3)
