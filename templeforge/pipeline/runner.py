"""The build: per game, generate -> verify -> {PDF, 3D kit} -> report and manifest.

Each stage has a key: the SHA-256 of what it reads (the deck's bytes, its settings as
written, the files they name) and the tool's version. ``build.json`` records each stage's
key, files and time; a stage whose key and files are unchanged is not run again, and its
files are carried over (hard-linked) from the previous build. ``--force`` runs everything.

Nothing is written in place: the build fills ``DIR/.<game>.partial/``, and only a complete
build replaces ``DIR/<game>/`` (two renames). A failure or Ctrl-C removes the partial folder
and leaves the previous build as it was.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generators.common.errors import RequestError, Unproved
from generators.common.files import inside
from generators.common.proof import STAMP
from generators.common.signals import ask_stop
from generators.contract import Check, Deck
from templeforge import __version__, stopping
from templeforge.apart import Apart
from templeforge.pipeline import stages
from templeforge.pipeline.settings import GameSettings

STATE = "build.json"
MANIFEST = "manifest.json"
REPORT = "report.html"
#: The folder of a build's playtest (`[playtest] games`).
PLAYTESTS = "playtest"
FORMAT = "templeforge.pipeline/1"
ORDER = ("generate", "verify", "pdf", "cad", "playtest", "report")


#: What makes an output file fail mid-way (a full disk, a read-only folder).
WRITING = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO, errno.EFBIG}


class StageFailed(Exception):
    """A stage stopped: ``stage`` names it, the message says why; ``status`` is the exit
    status (1 verification failed, 2 bad input, 73 a file could not be written, 130
    interrupted, 70 a bug)."""

    def __init__(self, stage: str, message: str, status: int) -> None:
        super().__init__(message)
        self.stage = stage
        self.status = status


@dataclass
class Record:
    """What ``build.json`` keeps of a stage: its key, files, seconds and summary lines."""

    key: str
    files: list[str] = field(default_factory=list)
    seconds: float = 0.0
    lines: list[str] = field(default_factory=list)
    cached: bool = False

    def as_json(self) -> dict[str, Any]:
        return {"key": self.key, "files": self.files, "seconds": round(self.seconds, 3), "lines": self.lines}


@dataclass
class Outcome:
    """A game's build: where it is, each stage's record and the canonical command."""

    game: str
    folder: Path
    records: dict[str, Record]
    command: str


@dataclass(frozen=True)
class Reported:
    """What the report is made from: the build's folder so far, its settings and records,
    the canonical command, the deck, the verify stage's check of it and the tools' versions."""

    folder: Path
    settings: GameSettings
    records: Mapping[str, Record]
    command: str
    deck: Deck
    check: Check
    versions: Mapping[str, str] = field(default_factory=dict)
    #: what every page says when the deck is printed without proof (``--unverified``)
    stamp: str | None = None


class Display:
    """Where the build says what it is doing (``templeforge.pipeline.display`` draws it)."""

    def start(self, stage: str) -> None: ...
    def update(self, stage: str, done: int, total: int, what: str) -> None: ...
    def finish(self, stage: str, record: Record) -> None: ...
    def close(self) -> None: ...


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def key_of(stage: str, *parts: Any) -> str:
    """A stage key: the stage, the tool version and its inputs, as canonical JSON."""
    text = json.dumps([stage, __version__, *parts], sort_keys=True, default=repr, separators=(",", ":"))
    return sha256(text.encode("utf-8"))


def file_hashes(raw: Mapping[str, Any]) -> dict[str, str]:
    """The SHA-256 of every file a stage's settings name (a block set, a reference deck),
    so that editing that file rebuilds the stage."""
    out = {}
    for name, value in sorted(raw.items()):
        if isinstance(value, str) and value.endswith((".toml", ".json")) and Path(value).is_file():
            out[name] = sha256(Path(value).read_bytes())
    return out


def read_state(folder: Path) -> dict[str, Record]:
    """The previous build's records (none if there is no readable ``build.json``)."""
    try:
        data = json.loads((folder / STATE).read_text("utf-8"))
        if data.get("format") != FORMAT:
            return {}
        return {name: Record(r["key"], list(r["files"]), float(r["seconds"]), list(r["lines"]))
                for name, r in data["stages"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def _manifest_hashes(folder: Path) -> dict[str, str]:
    try:
        data = json.loads((folder / MANIFEST).read_text("utf-8"))
        return {f["path"]: f["sha256"] for f in data["files"]}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def _intact(folder: Path, record: Record, hashes: Mapping[str, str]) -> bool:
    """Every file of a previous stage is still there, as the manifest recorded it."""
    for name in record.files:
        path = folder / name
        if not path.is_file() or name not in hashes or sha256(path.read_bytes()) != hashes[name]:
            return False
    return True


def _carry(old: Path, new: Path, names: list[str]) -> None:
    for name in names:
        target = new / name
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(old / name, target)
        except OSError:
            shutil.copy2(old / name, target)


def _write(folder: Path, files: Mapping[str, bytes]) -> list[str]:
    targets = {name: inside(folder, name) for name in files}  # none written if one leads out
    for name, data in files.items():
        path = targets[name]
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        except OSError as err:  # a write() that fails names no file: name it here
            raise OSError(err.errno, err.strerror, str(path)) from None
    return sorted(files)


class Build:
    """One game's build in progress: what its stages read (the settings, the deck once it is
    made, the verify stage's check) and what they have made so far (``records``)."""

    def __init__(self, settings: GameSettings, partial: Path, command: str, display: Display, jobs: int,
                 report: Callable[[Reported], bytes] | None) -> None:
        self.settings = settings
        self.partial = partial
        self.command = command
        self.display = display
        self.jobs = jobs
        self.report = report
        self.records: dict[str, Record] = {}
        self.keys: dict[str, str] = {}
        self.deck = b""
        self.checked: stages.Checked | None = None
        self.pending: dict[str, Apart[stages.Made]] = {}  # stage -> its work in a child process, beside
        self.current: Apart[Any] | None = None  # the stage the build waits on, in a child process

    @property
    def deck_name(self) -> str:
        return self.records["generate"].files[0]

    @property
    def title(self) -> str:
        if self.settings.deck is not None:
            return f"{self.settings.game.title} - {Path(self.settings.deck[0]).name}"
        return f"{self.settings.game.title} - {self.deck_name} (seed {self.settings.generate.values.get('seed')})"

    def progress(self, stage: str) -> stages.Progress:
        """What a stage's progress calls: the display."""

        def step(done: int, total: int, what: str) -> None:
            self.display.update(stage, done, total, what)

        return step

    def start_apart(self, stage: str, work: Callable[..., Any] = stages.apart, *args: Any) -> Apart[Any]:
        """The stage's work (native code) started in a child process: this process only
        waits on it, so a signal stops the build at once (``templeforge.apart``). Its work
        is ``work(*args)``; by default the stage's own (``stages.apart``)."""
        if not args:
            args = (stage, self.settings, self.deck, self.title, self.jobs)
        running = self.pending[stage] = Apart(work, *args, progress=self.progress(stage))
        return running

    def collect(self, wait: bool = False) -> None:
        """Pass on the progress of the stages in child processes and take in those that are
        done (all of them, ``wait``)."""
        while self.pending:
            for stage, running in list(self.pending.items()):
                if running.pump(0.05 if wait else 0.0):
                    made = running.result()
                    del self.pending[stage]
                    self.finish(stage, made, made.seconds or 0.0)
            if not wait:
                return

    def run_apart(self, stage: str, work: Callable[..., Any] = stages.apart, *args: Any) -> Any:
        """``start_apart``, the other stages in child processes kept going, until it is done:
        its value."""
        running = self.start_apart(stage, work, *args)
        del self.pending[stage]  # collected here, not by collect()
        self.current = running
        while not running.pump(0.05):
            self.collect()
        self.current = None
        return running.result()

    def abandon(self) -> None:
        """Every stage still running in a child process ended now."""
        for running in [*self.pending.values(), *([self.current] if self.current is not None else [])]:
            running.kill()
        self.pending.clear()
        self.current = None

    def finish(self, stage: str, made: stages.Made, seconds: float) -> None:
        self.records[stage] = Record(self.keys[stage], _write(self.partial, made.files), seconds, made.lines)
        self.display.finish(stage, self.records[stage])


# -- the stages: what each one's key is made of and its work, in build order ---------------------


def _generate(b: Build) -> stages.Made:
    if b.settings.deck is not None:
        made, b.checked = stages.adopt(b.settings, b.progress("generate"))
    else:
        made, b.checked = stages.generate(b.settings, b.progress("generate"))
    return made


def _generate_inputs(b: Build) -> list[Any]:
    """What the deck stage reads: the generator's settings, or the designer's deck file."""
    if b.settings.deck is not None:
        return ["deck", sha256(b.settings.deck[1])]
    return [b.settings.generate.raw, file_hashes(b.settings.generate.raw)]


def _verify(b: Build) -> stages.Made:
    if b.checked is None:  # the deck was carried over and its check was not
        started = time.perf_counter()
        b.checked = stages.Checked(*stages.checked(b.settings.game, b.deck, b.jobs), time.perf_counter() - started)
    made = stages.verify(b.checked.check, b.settings.unverified)
    return stages.Made(made.files, made.lines, b.checked.seconds)


def _pdf(b: Build) -> stages.Made:
    made: stages.Made = b.run_apart("pdf")
    return made


def _cad(b: Build) -> stages.Made:
    made: stages.Made = b.run_apart("cad")
    return made


def _playtest(b: Build) -> stages.Made:
    from generators.common.playtest import Request
    from templeforge.pipeline import playpage

    if b.checked is None:  # verify was carried over
        b.checked = stages.Checked(*stages.checked(b.settings.game, b.deck, b.jobs))
    wanted = b.settings.playtest.values
    request = Request(wanted["players"], wanted["games"], wanted["seed"], tuple(wanted["agents"].split(",")))
    step = b.progress("playtest")
    files, said = playpage.played(b.settings.game, b.checked.deck, request, sha256(b.deck),
                                  f"Playtest: {b.title}", b.jobs,
                                  progress=lambda done, total: step(done, total, "games played"))
    seats = ", ".join(f"{s['win_rate']:.0%}" for s in said["seats"])
    lines = [f"{request.games} games of {request.players} players: seats win {seats}; "
             f"{len(said['findings'])} findings"]
    return stages.Made({f"{PLAYTESTS}/{name}": data for name, data in files.items()}, lines)


def _report(b: Build) -> stages.Made:
    assert b.report is not None
    if b.checked is None:  # verify was carried over: the report still shows a real check
        b.checked = stages.Checked(*stages.checked(b.settings.game, b.deck, b.jobs))
    stamp = None if b.checked.check.ok else STAMP
    # (a child process of its own too: the report draws with native libraries)
    made = b.run_apart("report", stages.report, b.report,
                       Reported(b.partial, b.settings, b.records, b.command, b.checked.deck, b.checked.check,
                                versions=tool_versions(), stamp=stamp))
    return stages.Made({REPORT: made}, [REPORT])


@dataclass(frozen=True)
class Stage:
    """A stage: its ``name``, what its key is made of (``inputs``), its ``work``;
    ``beside``: with more than one job it starts in a child process and runs beside the
    stages after it, collected before the report."""

    name: str
    inputs: Callable[[Build], list[Any]]
    work: Callable[[Build], stages.Made]
    beside: bool = False
    wanted: Callable[[Build], bool] = lambda b: True


STAGES = (
    Stage("generate", _generate_inputs, _generate),
    Stage("verify", lambda b: [sha256(b.deck), b.settings.unverified], _verify),
    Stage("pdf", lambda b: [sha256(b.deck), b.settings.pdf.raw, b.title, b.settings.unverified], _pdf,
          beside=True),
    Stage("cad", lambda b: [sha256(b.deck), b.settings.cad.raw, b.settings.unverified], _cad),
    Stage("playtest", lambda b: [sha256(b.deck), b.settings.playtest.raw], _playtest,
          wanted=lambda b: bool(b.settings.playtest.values.get("games"))),
    Stage("report", lambda b: [b.command, [b.keys.get(s) for s in ORDER[:-1]]], _report),
)


def build_game(settings: GameSettings, out: Path, *, command: str, jobs: int = 1, force: bool = False,
               display: Display | None = None,
               report: Callable[[Reported], bytes] | None = None) -> Outcome:
    """Build one game's kit into ``out/<game>/``: each stage of ``STAGES`` in turn, carried
    over from the previous build when its key and files are unchanged.

    Raises:
        StageFailed: a stage stopped (the previous build is left as it was).
    """
    display = display or Display()
    game = settings.game.name
    folder = out / game
    partial = out / f".{game}.partial"
    aside = out / f".{game}.old"
    if not folder.exists() and aside.is_dir() and not aside.is_symlink():
        os.replace(aside, folder)  # killed between the two renames of _swap: the previous build comes back
    previous = {} if force else read_state(folder)
    hashes = _manifest_hashes(folder) if previous else {}
    b = Build(settings, partial, command, display, jobs, report)
    running = "setup"
    try:
        with stopping.installed():
            if partial.exists():
                shutil.rmtree(partial)  # left by a build that was killed outright
            partial.mkdir(parents=True)
            for stage in STAGES:
                if not stage.wanted(b):
                    continue
                if stage.name == "report":
                    running = next(iter(b.pending), running)
                    b.collect(wait=True)  # the report shows every file
                    if report is None:
                        continue
                key = b.keys[stage.name] = key_of(stage.name, game, *stage.inputs(b))
                old = previous.get(stage.name)
                if old is not None and old.key == key and _intact(folder, old, hashes):
                    _carry(folder, partial, old.files)
                    b.records[stage.name] = Record(key, old.files, old.seconds, old.lines, cached=True)
                    display.finish(stage.name, b.records[stage.name])
                elif stage.beside and jobs > 1:
                    display.start(stage.name)
                    b.start_apart(stage.name)
                else:
                    running = stage.name
                    display.start(stage.name)
                    started = time.perf_counter()
                    made = stage.work(b)
                    took = time.perf_counter() - started
                    b.finish(stage.name, made, made.seconds if made.seconds is not None else took)
                if stage.name == "generate":
                    b.deck = (partial / b.deck_name).read_bytes()
            running = "manifest"
            _finish(partial, b.records, command, settings)
            _swap(partial, folder, aside)
    except KeyboardInterrupt:
        if not partial.exists() and folder.exists():  # it came as the finished kit went in place: the kit
            ask_stop()                                # is built; the stop stops what comes after it
            return Outcome(game, folder, b.records, command)
        if not folder.exists() and aside.exists():  # it came between the two moves: the previous kit back
            os.replace(aside, folder)
        _abandon(b, partial)
        raise StageFailed(running, "interrupted", 130) from None
    except stages.VerifyFailed as err:
        _abandon(b, partial)
        raise StageFailed(running, str(err), 1) from None
    except Unproved as err:
        _abandon(b, partial)
        raise StageFailed(running, str(err), err.status) from None
    except RequestError as err:
        _abandon(b, partial)
        raise StageFailed(running, str(err), 2) from None
    except OSError as err:
        _abandon(b, partial)
        if err.errno in WRITING:  # a full disk, a read-only folder: name the file, keep the previous build
            where = err.filename if err.filename is not None else f"a file in {partial}"
            raise StageFailed(running, f"cannot write {where}: {err.strerror or err}", 73) from None
        raise
    except BaseException as err:
        _abandon(b, partial)
        if stopping.interrupted(err):  # a library's own error for an interrupt inside it
            raise StageFailed(running, "interrupted", 130) from None
        raise StageFailed(running, f"{type(err).__name__}: {err}", 70) from err
    finally:
        display.close()
    return Outcome(game, folder, b.records, command)


def _abandon(b: Build, partial: Path) -> None:
    b.abandon()
    shutil.rmtree(partial, ignore_errors=True)


PACKAGES = ("cadquery", "click", "numba", "numpy", "ortools", "pillow", "pypdfium2", "reportlab")


def tool_versions() -> dict[str, str]:
    """Templeforge's, Python's and the libraries' versions that shape what a build makes."""
    import platform
    from importlib import metadata

    out = {"templeforge": __version__, "python": platform.python_version()}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def _finish(folder: Path, records: Mapping[str, Record], command: str, settings: GameSettings) -> None:
    """``manifest.json`` (every file of the kit with its size and SHA-256, the command and the
    versions: the same bytes for the same build) and ``build.json`` (the stages' keys, files
    and times, for the next build to compare against)."""
    names = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    files = [{"path": n, "bytes": (folder / n).stat().st_size, "sha256": sha256((folder / n).read_bytes())}
             for n in names if n not in (MANIFEST, STATE)]
    manifest = {"format": "templeforge.manifest/1", "game": settings.game.name, "command": command,
                "versions": tool_versions(), "files": files}
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", "utf-8")
    state = {"format": FORMAT, "version": __version__, "stages": {s: records[s].as_json() for s in ORDER
                                                                  if s in records}}
    (folder / STATE).write_text(json.dumps(state, indent=1) + "\n", "utf-8")


def _swap(partial: Path, folder: Path, old: Path) -> None:
    """Put the complete build in place: the previous one moves aside, then goes."""
    if old.exists():
        shutil.rmtree(old)
    if folder.exists():
        os.replace(folder, old)
    os.replace(partial, folder)
    shutil.rmtree(old, ignore_errors=True)
