"""The command reference of the documentation (``docs/commands.md``), made from the click
commands themselves: every command's and subcommand's ``--help``, as the terminal shows it.

``.venv/bin/python -m templeforge.docs`` writes it again; a test holds the file to what the
commands say.
"""

from __future__ import annotations

from pathlib import Path

import click

WIDTH = 100  #: the help's width, fixed so that the file does not follow the terminal
PAGE = Path(__file__).resolve().parent.parent / "docs" / "commands.md"


def _walk(command: click.Command, path: tuple[str, ...], parent: click.Context | None
          ) -> list[tuple[tuple[str, ...], str]]:
    ctx = click.Context(command, info_name=path[-1], parent=parent, terminal_width=WIDTH, max_content_width=WIDTH)
    out = [(path, command.get_help(ctx))]
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                out += _walk(sub, (*path, name), ctx)
    return out


def commands_markdown() -> str:
    """The reference page: a section per command, its help in a block."""
    from templeforge.cli import main

    parts = ["# Command reference", "",
             "Every command's `--help`, made from the commands themselves (`.venv/bin/python -m "
             "templeforge.docs` writes this page again; a test holds it to them). The options shared "
             "by a game's commands are in each game's page.", ""]
    for path, text in _walk(main, ("templeforge",), None):
        parts += [f"## {' '.join(path)}", "", "```text", text.rstrip(), "```", ""]
    return "\n".join(parts)


if __name__ == "__main__":
    PAGE.write_text(commands_markdown())
    print(f"wrote {PAGE}")
