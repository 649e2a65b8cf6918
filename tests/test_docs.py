"""The README and the documentation: a README a designer reads in minutes, a site that
builds with no broken link or anchor, a command reference that is the commands' own, and
every command the pages show is one the command line (or the install) takes."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest

ROOT = Path(__file__).parents[1]
README = (ROOT / "README.md").read_text("utf-8")


def test_the_readme_is_short_and_opens_with_the_two_commands() -> None:
    lines = README.splitlines()
    assert len(lines) <= 300
    block = README.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [line for line in block.splitlines() if line and not line.startswith("#")]
    assert commands[0].endswith(".venv/bin/templeforge build --game all")
    ci = (ROOT / ".ci" / "run").read_text().split("\n# (the README's command")[1].split("\n")[2]
    assert commands[1] == ci.removesuffix(" || exit 1").replace(" -q ", " ")  # .ci/run runs it, quietly


def test_every_page_the_readme_links_to_is_there() -> None:
    links = re.findall(r"\]\(((?:docs/)[^)#]+)(?:#[^)]*)?\)", README)
    assert links and all((ROOT / link).is_file() for link in links)


def test_the_documentation_builds_in_strict_mode(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                         cwd=ROOT, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert run.returncode == 0, run.stderr
    pages = {p.relative_to(tmp_path / "site").as_posix() for p in (tmp_path / "site").rglob("index.html")}
    assert {"index.html", "games/monolyth/index.html", "commands/index.html", "paper/index.html"} <= pages


def test_the_command_reference_is_what_the_commands_say() -> None:
    from templeforge.docs import PAGE, commands_markdown

    assert PAGE.read_text() == commands_markdown(), \
        "docs/commands.md is out of date: .venv/bin/python -m templeforge.docs writes it again"


PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _shown() -> list[Any]:
    """Every command in the shell blocks of the README and the documentation (each part of
    an ``&&`` list apart, its comment dropped), as a test's parameter named by page and line."""
    found = []
    for page in PAGES:
        text = page.read_text("utf-8")
        for block in re.finditer(r"```sh\n(.*?)```", text, re.S):
            first = text[:block.start()].count("\n") + 2
            for number, line in enumerate(block.group(1).splitlines(), start=first):
                if not shlex.split(line, comments=True):  # blank, or a comment
                    continue
                for part in line.split("  #")[0].split("&&"):
                    found.append(pytest.param(part.strip(), id=f"{page.relative_to(ROOT)}:{number}"))
    return found


#: Commands of other programs the pages may show, and what makes them valid here.
OTHERS = {"python3": "the install's virtual environment", "ruff": "the test extra", "mypy": "the test extra",
          "dask": "the cluster extra (Dask's own command line)"}


@pytest.mark.parametrize("line", _shown())
def test_every_command_the_pages_show_is_one_that_runs_here(line: str) -> None:
    """A ``templeforge`` command's command and subcommands exist and it parses: each option
    is the command's and takes the value shown (nothing is run; the console transcripts are
    run by test_docs_examples.py). An install names extras that pyproject.toml has; a
    script is there and takes the options shown; any other program is one the pages may
    name (``OTHERS``)."""
    import tomllib

    words = shlex.split(line)
    program = Path(words[0]).name
    if program == "templeforge":
        _parses(line, words[1:])
    elif program == "pip":
        extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
        assert words[1:3] == ["install", "-e"] and len(words) == 4, f"{line}: an editable install of the project"
        named = re.fullmatch(r"\.(?:\[([a-z,]+)\])?", words[3])
        assert named, f"{line}: installs {words[3]!r}, not the project"
        assert set((named.group(1) or "").split(",")) - {""} <= set(extras), f"{line}: no such extra"
    elif program == "python" and words[1:3] == ["-m", "pytest"]:
        pass
    elif program == "python" and words[1:2] == ["-m"]:
        assert (ROOT / (words[2].replace(".", "/") + ".py")).is_file(), f"{line}: no module {words[2]}"
    elif program == "python":
        script = ROOT / words[1]
        assert script.is_file(), f"{line}: no script {words[1]}"
        source = script.read_text("utf-8")
        for option in (w.split("=")[0] for w in words[2:] if w.startswith("--")):
            assert f'"{option}"' in source, f"{line}: {words[1]} takes no {option}"
    else:
        assert program in OTHERS, f"{line}: {program!r} is not a command the pages may show (see OTHERS)"
        if program == "dask":
            extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
            assert any(d.startswith("distributed") or d.startswith("dask") for d in extras["cluster"])


def _parses(line: str, words: list[str]) -> None:
    from templeforge.cli import main

    cmd: click.Command = main
    ctx = click.Context(main, info_name="templeforge")
    while isinstance(cmd, click.Group) and words and not words[0].startswith("-"):
        sub = cmd.get_command(ctx, words[0])
        assert sub is not None, f"{line}: no command {words[0]!r}"
        cmd, ctx, words = sub, click.Context(sub, info_name=words[0], parent=ctx), words[1:]
    cmd.make_context(cmd.name or "", list(words), parent=ctx.parent)  # raises click.UsageError if it cannot


def test_every_game_has_a_page_with_the_same_headings() -> None:
    from generators import GAMES

    heads = {}
    for name in GAMES:
        page = ROOT / "docs" / "games" / f"{name}.md"
        fence = False
        found = []
        for line in page.read_text("utf-8").splitlines():
            fence = fence != line.startswith("```")
            if not fence and line.startswith("## "):
                found.append(line[3:])
        heads[name] = found
    assert len({tuple(h) for h in heads.values()}) == 1, heads
    assert next(iter(heads.values())) == ["The box and the deck file", "Difficulty and points",
                                         "Verifying and showing a deck", "On paper and in plastic", "A deck like mine"]
