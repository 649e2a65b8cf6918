"""Every console transcript in the README and the documentation runs, and prints what the
page shows.

A transcript is a ```` ```console ```` block: ``$ command`` lines, each followed by what it
prints. Sybil finds the blocks; each command runs in a scratch folder laid out as a designer's
would be after ``templeforge generate`` (the sample decks of ``tests/data`` sealed at
``output/<game>/deck.json``, and ``examples/``), and its output (standard output, then
standard error, as a log gets them: ``command > log 2>&1``) is compared with the page's as
doctest compares (``...`` stands for any
text, across lines too). Seconds differ from run to run, so every ``N s`` reads the same on
both sides; any other figure (pages, parts, plates, files, grams) must be the page's.

A block that runs a long command is marked ``<!-- docs: slow -->`` on the line above it and
runs with ``pytest -m slow``. The games' pages are run by ``test_docs_game_pages.py``, the
rest here (two modules, so that the parallel run gives each its own worker).
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sybil import Example, Sybil
from sybil.parsers.markdown import CodeBlockParser

ROOT = Path(__file__).parents[1]
GAME_PAGES = sorted((ROOT / "docs" / "games").glob("*.md"))
PAGES = [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").rglob("*.md") if p not in GAME_PAGES)]
SLOW = "<!-- docs: slow -->"

#: The sample deck each game's transcripts read as the one ``templeforge generate`` wrote.
DECKS = {"puzzle-temple": "puzzle-temple-36-seed-1.json", "shifting-stones": "shifting-stones-72-seed-1.json",
         "monolyth": "monolyth-3-seed-2.json",
         "mystery-of-the-temples": "mystery-of-the-temples-two-boards-seed-1.json"}

_SECONDS = re.compile(r"\b\d+(?:\.\d+)? s\b")


def _plain(text: str) -> str:
    """``text`` with every time in seconds the same (``N s``), no trailing spaces and no blank
    lines at the end (the page may leave one before its next command)."""
    return "\n".join(_SECONDS.sub("N s", line).rstrip() for line in text.splitlines()).rstrip("\n") + "\n"


def run_console(example: Example) -> str | None:
    """Run the transcript's commands in ``example.namespace['scratch']``; a failure is what
    Sybil reports (the command, what the page shows and what it printed)."""
    scratch: Path = example.namespace["scratch"]
    steps: list[tuple[str, list[str]]] = []
    for line in example.parsed.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line)
        else:
            return f"a console block must open with a `$ command` line, not {line!r}"
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "PYTHONUNBUFFERED": "1",
           "TEMPLEFORGE_PROGRESS_SECONDS": "3600"}  # no "working" line: how often one comes depends on the machine
    for command, shown in steps:
        words = shlex.split(command)
        if words[0] == "templeforge":
            words = [sys.executable, "-m", "templeforge", *words[1:]]
        run = subprocess.run(words, cwd=scratch, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             env=env, timeout=1800)
        printed = run.stdout
        want = _plain("\n".join(shown))
        if not doctest.OutputChecker().check_output(want, _plain(printed), doctest.ELLIPSIS):
            return (f"$ {command} (exit {run.returncode})\n--- the page shows ---\n{want}"
                    f"--- it printed ---\n{printed}")
    return None


SYBIL = Sybil(parsers=[CodeBlockParser(language="console", evaluator=run_console)])


def examples(pages: list[Path]) -> list[Any]:
    """Each console block of ``pages`` as a test's parameter, marked slow where the page says."""
    found = []
    for page in pages:
        document = SYBIL.parse(page)
        for example in document.examples():
            above = document.text[:example.start].rstrip().rsplit("\n", 1)[-1]
            marks = [pytest.mark.slow] if above.strip() == SLOW else []
            found.append(pytest.param(example, id=f"{page.relative_to(ROOT)}:{example.line}", marks=marks))
    return found


def designer(folder: Path, games: list[str]) -> Path:
    """A designer's folder: ``examples/``, the sample decks, and those of ``games`` sealed
    where generate puts them."""
    shutil.copytree(ROOT / "examples", folder / "examples")
    shutil.copytree(ROOT / "tests" / "data", folder / "tests" / "data",
                    ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    for game in games:
        name = DECKS[game]
        deck = folder / "output" / game / "deck.json"
        deck.parent.mkdir(parents=True)
        shutil.copyfile(ROOT / "tests" / "data" / name, deck)
        seal = subprocess.run([sys.executable, "-m", "templeforge", "verify", "--seal", str(deck)],
                              capture_output=True, text=True)
        assert seal.returncode == 0, seal.stdout + seal.stderr
    return folder


def evaluate(example: Example, tmp_path: Path) -> None:
    """Run ``example`` in a designer's folder of its own (decks sealed when it reads one)."""
    example.namespace["scratch"] = designer(tmp_path / "designer",
                                            [game for game in DECKS if f"output/{game}/" in example.parsed])
    example.evaluate()


@pytest.mark.parametrize("example", examples(PAGES))
def test_the_transcript_prints_what_the_page_shows(example: Example, tmp_path: Path) -> None:
    evaluate(example, tmp_path)


def test_every_transcript_is_found() -> None:
    """The pages' transcripts are ```console blocks (a `$` line in any other block would go
    untested), and there are some on the game pages and the others."""
    assert len(examples(PAGES)) >= 5 and len(examples(GAME_PAGES)) >= 5
    for page in PAGES + GAME_PAGES:
        fence = None
        for number, line in enumerate(page.read_text("utf-8").splitlines(), start=1):
            if line.lstrip().startswith("```"):
                fence = line.strip()[3:] if fence is None else None
            elif fence is not None and fence != "console" and line.lstrip().startswith("$ "):
                raise AssertionError(f"{page.relative_to(ROOT)}:{number}: a transcript in a ```{fence} block")
