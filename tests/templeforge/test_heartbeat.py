"""Long work says what it is doing in a log: a line at least every 15 s without a terminal."""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from templeforge import heartbeat
from templeforge.cli import main

ROOT = Path(__file__).parents[2]


def test_without_a_terminal_a_line_comes_every_beat_with_the_latest_progress() -> None:
    out = io.StringIO()
    with heartbeat.Heartbeat("mine puzzle-temple", out, every=0.01, tty=False) as beat:
        beat.update("3/66 chunks, 120 rows")
        while out.getvalue().count("\n") < 2:  # however long a busy machine takes
            time.sleep(0.01)
    lines = out.getvalue().splitlines()
    assert all(line.startswith("templeforge: mine puzzle-temple: working: 3/66 chunks, 120 rows (")
               and line.endswith(" s)") for line in lines)


def test_on_a_terminal_it_says_nothing() -> None:
    out = io.StringIO()
    with heartbeat.Heartbeat("generate", out, every=0.001, tty=True) as beat:
        beat.update("working")
        assert beat.thread is None
    assert out.getvalue() == ""


def test_the_beat_is_fifteen_seconds_unless_the_environment_says(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(heartbeat.ENV, raising=False)
    assert heartbeat.beat_seconds() == 15.0
    monkeypatch.setenv(heartbeat.ENV, "2.5")
    assert heartbeat.beat_seconds() == 2.5
    for bad in ("soon", "-1", "0"):
        monkeypatch.setenv(heartbeat.ENV, bad)
        assert heartbeat.beat_seconds() == 15.0


class Recorder:
    """Stands in for Heartbeat: what each command said it was doing."""

    seen: list[tuple[str, list[str]]] = []

    def __init__(self, what: str, *args: Any, **kwargs: Any) -> None:
        self.what, self.said = what, []
        Recorder.seen.append((what, self.said))

    def update(self, text: str) -> None:
        self.said.append(text)

    def __enter__(self) -> Recorder:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


@pytest.mark.parametrize("args, what, said", [
    (["generate", "puzzle-temple", "--cards", "2", "--workers", "1"], "generate puzzle-temple", "usable"),
    (["mine", "puzzle-temple", "--blocks-per-face", "2", "--box", "3x2", "--workers", "1"], "mine puzzle-temple",
     "chunks"),
    (["verify", str(ROOT / "tests" / "data" / "puzzle-temple-3-seed-11.json")], "verify", "re-proving 3 cards"),
])
def test_long_commands_keep_a_heartbeat(args: list[str], what: str, said: str, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    Recorder.seen = []
    monkeypatch.setattr(heartbeat, "Heartbeat", Recorder)
    out = ["--out", str(tmp_path / ("c.parquet" if args[0] == "mine" else "deck.json"))] if args[0] != "verify" else []
    result = CliRunner().invoke(main, args + out)
    assert result.exit_code == 0, result.output
    assert any(w.startswith(what) and any(said in s for s in texts) for w, texts in Recorder.seen), Recorder.seen
