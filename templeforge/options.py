"""Option decorators shared by the commands, and click options made from a game's
declared options (``generators.common.options``: ``--seed``, ``--workers`` and ``--out`` of
every generator are declared there once)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from generators.common.options import SEED_RANGE

F = TypeVar("F", bound=Callable[..., Any])


class GameChoice(click.Choice):  # type: ignore[type-arg]
    """The registered games' names (and ``extra`` words such as ``all``), read from the
    registry each time, so that a game registered after import is a choice too."""

    def __init__(self, extra: Sequence[str] = ()) -> None:
        self.extra = tuple(extra)
        super().__init__([], case_sensitive=True)

    @property
    def choices(self) -> tuple[str, ...]:
        from generators import GAMES

        return (*GAMES, *self.extra)

    @choices.setter
    def choices(self, value: Sequence[str]) -> None:  # click sets it in __init__; the registry rules
        pass


def out_folder(value: object, default: str, game: str) -> Path:
    """The output folder asked for: the default (``default``, holding ``{game}``) with the
    game's name in it, or the user's own path exactly as given (braces in it are only
    characters: ``--out 'o{x}'`` writes to ``o{x}``)."""
    text = str(value)
    return Path(text.replace("{game}", game) if text == default else text)


def seed_option(help: str = "Random seed.") -> Callable[[F], F]:
    return click.option("--seed", type=click.IntRange(*SEED_RANGE), default=0, show_default=True, help=help)


def cluster_option(func: F) -> F:
    """``--cluster``: the executor of the work the command spreads (``generators.common.pool``)."""
    from generators.common.pool import CLUSTER_ENV, CLUSTER_HELP

    return click.option("--cluster", "cluster", metavar="local|dask|tcp://HOST:PORT", default=None,
                        help=f"{CLUSTER_HELP[0].upper()}{CLUSTER_HELP[1:]} [default: ${CLUSTER_ENV}, else local]")(func)


def profile_option(func: F) -> F:
    return click.option("--profile", type=click.Path(dir_okay=False), metavar="FILE.toml",
                        help="Read the request from a TOML profile; options given here win over it.")(func)


def json_option(func: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")(func)


def time_limit_option(help: str) -> Callable[[F], F]:
    return click.option("--time-limit", type=click.FloatRange(min=0, min_open=True, max=1e6),
                        metavar="SECONDS", help=help)


def flips_option(func: F) -> F:
    return click.option("--flips/--no-flips", default=True, show_default=True,
                        help="Whether pieces may be turned over (mirror images allowed).")(func)


def declared(options: Sequence[Any]) -> Callable[[F], F]:
    """Click options for a game's declared options. Values arrive as written (strings) and
    are parsed by the declaration, so a profile and the command line share one parser and
    one message; a switch becomes ``--name/--no-name``. Unset options arrive as None."""

    def decorate(func: F) -> F:
        for o in reversed(options):
            if o.is_switch:
                func = click.option(f"{o.flag}/--no-{o.flag[2:]}", o.name, default=None,
                                    help=f"{o.help[0].upper()}{o.help[1:]} [default: {o.shown_default()}]")(func)
            else:
                func = click.option(o.flag, o.name, default=None, metavar=o.metavar,
                                    help=f"{o.help[0].upper()}{o.help[1:]} [default: {o.shown_default()}]")(func)
        return func

    return decorate


unverified_option = click.option(
    "--unverified", is_flag=True,
    help="Print a deck that is not proved (a sketch) without verifying it: every card, plate and page then "
         "says UNVERIFIED. A sealed deck is proved and printed unmarked.")


def paper_deck(deck_file: str, given: dict[str, Any], also: frozenset[str] = frozenset()) -> tuple[Any, ...]:
    """A deck to print and its game's print module: ``(game, deck, data, module)``; a print
    option given (``given``, the unset ones already left out) that the game does not use,
    nor ``also``, is refused naming its flag."""
    from generators import open_deck
    from print import paper_of
    from print.common.options import OPTIONS

    info, deck, data = open_deck(deck_file)
    module = paper_of(info)
    unused = sorted(set(given) - module.USES - also)
    if unused:
        flags = ", ".join(o.flag for o in OPTIONS if o.name in unused)
        raise click.UsageError(f"{flags}: not used for {info.title} decks")
    return info, deck, data, module
