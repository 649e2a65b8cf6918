"""The README and the documentation: a README a designer reads in minutes, a site that
builds with no broken link or anchor, a command reference that is the commands' own, and
every command the README shows parses as the command line would take it."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

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


def _shown() -> list[str]:
    """Every `templeforge ...` command in the README's shell blocks, without its comment."""
    found = []
    for block in re.findall(r"```sh\n(.*?)```", README, re.S):
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            words = shlex.split(line)
            if "templeforge" in [Path(w).name for w in words[:1]] or (words and words[0].endswith("/templeforge")):
                found.append(line)
            elif "&&" in words and any(w.endswith("templeforge") for w in words):
                found.append(line.split("&&")[-1].strip())
    return found


@pytest.mark.parametrize("line", _shown())
def test_every_command_the_readme_shows_is_one_the_command_line_takes(line: str) -> None:
    """Its command and subcommands exist and it parses: each option is the command's and
    takes the value shown (nothing is run)."""
    from templeforge.cli import main

    words = shlex.split(line)[1:]
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
