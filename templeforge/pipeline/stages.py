"""The work of each build stage, as functions that run in this process or in a child process.

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


def adopt(settings: GameSettings, progress: Progress) -> tuple[Made, Checked | None]:
    """The designer's deck (``build --deck``) as the build's deck file: kept as it is when
    its seal holds (the verify stage checks it again), else verified now and, when it
    passes, written completed (a hand-written card gets its solutions and ratings) and
    sealed, so the stages after it do not prove it twice. A deck that fails is kept as it
    is for the verify stage to judge."""
    import time

    from generators.common import deckfile, seal
    from generators.common.proof import sealed_text, verifier

    assert settings.deck is not None
    name, data = settings.deck
    rules = settings.game.load_rules()
    deck = deck_from_bytes(settings.game, data, name)
    said = f"{len(deck.cards)} cards from {name}"
    if seal.state(deckfile.loads(data.decode("utf-8"), name), verifier(rules, settings.game)) is seal.State.HOLDS:
        return Made({rules.DECK_NAME: data}, [f"{said} (sealed)"], 0.0), None
    progress(0, 0, "verifying")
    started = time.perf_counter()
    check = rules.verify(deck, workers=settings.generate.values.get("workers") or 1)
    verified = Checked(deck, check, time.perf_counter() - started)
    if not check.ok:
        return Made({rules.DECK_NAME: data}, [f"{said} (not sealed: it fails verification)"], 0.0), verified
    done = rules.completed(deck, check)
    text = sealed_text(settings.game, done.dumps())
    return Made({rules.DECK_NAME: text.encode("utf-8")}, [f"{said} (verified and sealed)"], 0.0), \
        Checked(done, check, verified.seconds)


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


# -- in a child process --------------------------------------------------------------------


def apart(stage: str, settings: GameSettings, data: bytes, title: str, jobs: int, progress: Progress) -> Made:
    """A stage that runs native code (CadQuery, PDF rendering), in the child process
    ``templeforge.apart`` starts for it, timing itself; the 3D stage spreads its parts over
    ``jobs`` worker processes of its own when ``jobs`` is more than one."""
    import time

    started = time.perf_counter()
    if stage == "pdf":
        made = pdf(settings, data, title, progress)
    elif stage == "cad" and jobs > 1:
        from generators.common.signals import held

        with held():  # the workers start with signals held back, until _start_worker
            workers = multiprocessing.get_context("spawn").Pool(jobs, initializer=_start_worker,
                                                                initargs=(os.getpid(),))
        with workers:
            made = cad(settings, data, progress, mapper=lambda f, xs: workers.imap(f, xs))
    elif stage == "cad":
        made = cad(settings, data, progress)
    else:
        raise ValueError(f"no stage {stage!r} to run apart")
    return Made(made.files, made.lines, time.perf_counter() - started)


def report(make: Callable[[Any], bytes], reported: Any, progress: Progress) -> bytes:
    """The report (``make(reported)``), in the child process ``templeforge.apart`` starts."""
    return make(reported)


def _start_worker(parent: int) -> None:
    """A worker of the 3D stage's own pool: Ctrl-C is the command's to handle; SIGTERM ends
    it (the pool's ``terminate`` sends it: one that ignored it would be waited for for
    ever); and it ends with the stage's process (``parent``), however that ends, also when
    it ended while this worker started (the pool replaces workers a group's SIGTERM ended,
    and a replacement started after the signal never receives it)."""
    from generators.common.signals import leave_to_parent
    from templeforge.apart import watch_parent

    leave_to_parent()
    watch_parent(parent)
