"""The ``templeforge`` command line: a thin click group whose commands load on demand.

Each command lives in ``templeforge.commands.<name>`` and is imported only when it runs (or
when help lists it), so ``templeforge --help`` does not load the solvers. Commands parse,
call the library, write files and echo a short summary; every error ends here as one line
on stderr and an exit status (``EXIT``, documented in docs/reference.md).
"""

from __future__ import annotations

import errno
import importlib
import os
import sys
from typing import Any

import click

from templeforge import __version__, stopping

#: Exit statuses, the same for every command.
EXIT = {
    "ok": 0,             # done: solved, verified, written
    "failed": 1,         # proved unsolvable, or verification failed
    "bad input": 2,      # a malformed or impossible request, a file that cannot be read or written
    "unknown": 3,        # a limit came first (time, budget): nothing is claimed, nothing written
    "internal": 70,      # a bug in templeforge (please report it with the command line)
    "cannot write": 73,  # an output file could not be written (a full disk, a read-only folder): named
    "output": 74,        # standard output could not be written (a full disk, ...)
    "interrupted": 130,  # Ctrl-C
    "closed pipe": 141,  # standard output's reader went away (| head): no message
}

#: The commands, each a module of the same name under ``templeforge.commands``; the games'
#: own commands follow them (``generators.contract.Game.commands``).
COMMANDS = ("build", "shapes", "solve", "generate", "verify", "show", "pdf", "cad", "mine", "playtest", "studio",
            "export")


#: What makes an output file fail mid-way (rather than an input that cannot be read).
WRITING = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO, errno.EFBIG}


def one_line(message: str) -> str:
    """Collapse a message onto one line for the terminal."""
    return " / ".join(part.strip() for part in str(message).splitlines() if part.strip())


def interrupted() -> None:
    """Stop on a signal: the temporary files the command had begun removed (the signal may
    have fallen between one and its clean-up), ``interrupted`` said, exit 130."""
    from generators.common.files import discard_pending

    discard_pending()
    fail("interrupted", EXIT["interrupted"])


def fail(message: str, status: int) -> None:
    """Say ``message`` on one line of stderr and exit with ``status``."""
    try:
        click.echo(f"templeforge: {one_line(message)}", err=True)
    except OSError:
        pass
    sys.exit(status)


class LazyGroup(click.Group):
    """A group whose subcommands are imported the first time they are looked up."""

    def __init__(self, *args: Any, lazy: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = tuple(lazy)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.lazy) + sorted(set(super().list_commands(ctx)) - set(self.lazy))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.lazy:
            command: click.Command = importlib.import_module(f"templeforge.commands.{name}").command
            return command
        return super().get_command(ctx, name)


def _closed_pipe() -> None:
    """The reader went away (``templeforge ... | head``): stop quietly, as ``cat`` does."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    sys.exit(EXIT["closed pipe"])


def game_commands() -> dict[str, str]:
    """The registered games' own commands: name -> module path."""
    from generators import GAMES

    return {name: path for g in GAMES.values() for name, path in g.commands}


def _readable_output() -> None:
    """A file name that is not valid UTF-8 (a surrogate-escaped path) is printed escaped
    rather than failing on a strict UTF-8 terminal or pipe."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):
                pass


class Main(LazyGroup):
    """The top group: every error becomes one line and a documented exit status."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return super().list_commands(ctx) + [n for n in game_commands() if n not in self.lazy]

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        own = game_commands()
        if name not in self.lazy and name in own:
            game_command: click.Command = importlib.import_module(own[name]).command
            return game_command
        return super().get_command(ctx, name)

    def invoke(self, ctx: click.Context) -> Any:
        # click itself turns a closed pipe into exit 1, which here means "failed"
        try:
            out = super().invoke(ctx)
            sys.stdout.flush()
            return out
        except BrokenPipeError:
            _closed_pipe()

    def main(self, *args: Any, **kwargs: Any) -> Any:
        from solver.errors import TempleforgeError

        kwargs["standalone_mode"] = False
        _readable_output()
        stopping.install()  # SIGTERM (a service manager, kill, a CI timeout) stops a command as Ctrl-C does
        from templeforge.apart import quiet_tracker

        quiet_tracker()  # before any child process: the children a signal kills leave no warning
        try:
            status = super().main(*args, **kwargs)
            sys.stdout.flush()
            return status
        except click.exceptions.Abort:
            interrupted()
        except KeyboardInterrupt:
            interrupted()
        except click.exceptions.Exit as done:
            sys.exit(done.exit_code)
        except click.exceptions.NoArgsIsHelpError as err:
            # a group named alone (`templeforge`, `templeforge generate`): the help it asks for,
            # whole and readable, rather than an error folded onto one line
            click.echo(err.ctx.get_help())
            sys.exit(EXIT["ok"])
        except click.ClickException as err:
            ctx = getattr(err, "ctx", None)
            hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
            fail(f"error: {err.format_message()}{hint}", err.exit_code)
        except BrokenPipeError:
            _closed_pipe()
        except TempleforgeError as err:
            from generators.common.errors import Shortfall, Unproved
            from generators.common.files import CannotWrite

            if isinstance(err, Unproved):  # a deck not to print: verify's verdict, its status
                fail(str(err), err.status)
            if isinstance(err, CannotWrite):  # a full disk part-way: the files there are as they were
                fail(f"error: {err}; the files already there are as they were", EXIT["cannot write"])
            if isinstance(err, Shortfall):
                fail(f"error: {err}; nothing written", EXIT["unknown"])
            from generators.common.pool import WorkerLost

            if isinstance(err, WorkerLost):
                fail(f"error: {err}; nothing written (a mine keeps its finished chunks)", EXIT["unknown"])
            fail(f"error: {err}", EXIT["bad input"])
        except RecursionError:
            fail("error: the input is nested too deeply to read", EXIT["bad input"])
        except OSError as err:
            name = getattr(err, "filename", None)
            if name is None:  # standard output
                fail(f"error: cannot write the output: {err.strerror or err}", EXIT["output"])
            if err.errno in WRITING:
                fail(f"error: cannot write {name}: {err.strerror or err}; the files already there are as they were",
                     EXIT["cannot write"])
            fail(f"error: {name}: {err.strerror or err}", EXIT["bad input"])
        except Exception as err:  # noqa: BLE001 - the last line of defence: one line, not a traceback
            if stopping.interrupted(err):  # a library's own error for an interrupt inside it
                interrupted()
            if os.environ.get("TEMPLEFORGE_DEBUG"):
                raise
            fail(f"internal error: {type(err).__name__}: {err} (a bug in templeforge {__version__}: please "
                 f"report it with the command line; TEMPLEFORGE_DEBUG=1 shows the traceback)", EXIT["internal"])
        return None


@click.group(cls=Main, lazy=COMMANDS)
@click.version_option(__version__, prog_name="templeforge")
def main() -> None:
    """Templeforge: proved-solvable board-game content, ready to print.

    Exit status: 0 done, 1 proved unsolvable or verification failed, 2 bad input,
    3 unknown (a time limit or budget came first; nothing written), 70 internal error,
    73 an output file could not be written, 74 standard output not written, 130
    interrupted, 141 output pipe closed.
    """


def run() -> None:
    """The ``templeforge`` program (the console script and ``python -m templeforge``): the
    command, then an undisturbed exit. A signal that comes once the command has ended (its
    status chosen, its files in place) is ignored, rather than killing the interpreter on its
    way out with a status nobody documented.

    An interrupted command (its files cleaned up, its message said) ends at once, without
    the interpreter's tidying: libraries stopped mid-work (a compiler, a pool) would print
    their own complaints on the way out, after the command's last line."""
    import signal

    try:
        try:
            main()
        except KeyboardInterrupt:  # before the command's own handling began
            interrupted()
    except SystemExit as done:
        for s in (signal.SIGINT, signal.SIGTERM):
            signal.signal(s, signal.SIG_IGN)
        if done.code == EXIT["interrupted"]:
            _end_now(EXIT["interrupted"])
        raise
    finally:
        for s in (signal.SIGINT, signal.SIGTERM):
            signal.signal(s, signal.SIG_IGN)


def _end_now(status: int) -> None:
    """Exit with ``status`` now: the streams flushed, any child process still running
    killed (none should be: each command ends its own), no finalizers."""
    import multiprocessing

    for child in multiprocessing.active_children():
        child.kill()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)
