"""A build's settings: one TOML profile with a section per stage, under the command line.

::

    [kit]               # what paper and plastic share: set here, and only here
    players = 2
    pitch = 18
    [generate]          # the keys of `templeforge generate <game>` (not out or workers)
    cards = 24
    seed = 7
    [pdf]               # the keys of `templeforge pdf` (not out, players, pitch), and previews = true|false
    paper = "letter"
    duplex = "long"
    [cad]               # profile, printer, slicer, ams_slots, and every physical setting but pitch
    printer = "bambu-a1-mini"
    clearance = 0.25
    [generate.GAME]     # one game's own keys, over the section's shared ones
    cards = 12
    [playtest]          # off unless games is set: whole games of the deck (`templeforge playtest`)
    games = 500
    players = 4         # (default: [kit] players where the rules allow it, else 4 or the most they allow)
    agents = "greedy"
    seed = 0            # (default: the deck's seed)

A section's keys apply to every game built that has them (``--game all`` builds several);
a sub-table named after a game (``[generate.<game>]``) holds keys for that game
alone and wins over the shared ones. An unknown section or key is an error naming it.
``--seed`` on the command line wins over ``[generate] seed``. Each stage's settings are kept
twice: as written (``raw``, with the defaults filled in: what the stage's cache key is made
of) and parsed (``values``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generators.common.errors import RequestError
from generators.common.options import Option, profile_table, quoted_number, raw_values, resolve
from generators.contract import Game
from solver.textfiles import parse_toml, read_text

SECTIONS = ("kit", "generate", "pdf", "cad", "playtest")
#: ``[playtest]``'s keys: games (0: no playtest), players, agents, seed.
PLAYTEST = ("games", "players", "agents", "seed")

#: A build's card backs: for long-edge duplex, the way most printers print two-sided.
BUILD_DUPLEX = "long"
#: What paper and plastic share, set once in ``[kit]``: the pieces' cell (paper blocks and
#: printed locks at the plastic blocks' pitch, so either set fits either card) and the
#: number of players (paper sets, reference cards, plastic sets).
KIT = {"players": (1, 12), "pitch": (8.0, 30.0)}
#: Keys a stage has on its own command that the build sets itself.
BUILD_SETS = {"generate": {"out": "--out", "workers": "--jobs"}, "pdf": {"out": "--out"}, "cad": {"out": "--out"}}


@dataclass(frozen=True)
class Stage:
    """One stage's settings: as written (defaults filled in) and parsed."""

    raw: Mapping[str, Any]
    values: Mapping[str, Any] = field(default_factory=dict)
    given: frozenset[str] = frozenset()


@dataclass(frozen=True)
class GameSettings:
    """Everything a game's build is asked for."""

    game: Game
    generate: Stage
    pdf: Stage
    cad: Stage
    previews: bool = True
    #: ``[playtest]``: games, players, agents, seed (games 0: none played)
    playtest: Stage = Stage({"games": 0}, {"games": 0})
    #: print a deck the verifier rejects, marked UNVERIFIED (``build --unverified``)
    unverified: bool = False
    #: a designer's deck file, built in place of a generated one (``build --deck``): its name and bytes
    deck: tuple[str, bytes] | None = None


def read_profile(path: str | Path) -> dict[str, dict[str, Any]]:
    """The profile's sections (each a table), checked for unknown sections.

    Raises:
        RequestError: the file cannot be read or parsed, or holds something other than the
            known sections.
    """
    data = parse_toml(read_text(path, RequestError), str(path), RequestError)
    problems = []
    for name, value in data.items():
        if name not in SECTIONS:
            problems.append(f"{path}: unknown section [{name}] (expected {', '.join(f'[{s}]' for s in SECTIONS)})")
        elif not isinstance(value, dict):
            problems.append(f"{path}: {name}: expected a [{name}] section, got a value")
    if problems:
        raise RequestError(problems)
    return {name: dict(value) for name, value in data.items()}


def _build_keys(section: str, table: dict[str, Any]) -> None:
    """Take out of ``table`` the keys the build sets itself (``misplaced`` names them)."""
    for k in BUILD_SETS.get(section, {}):
        table.pop(k, None)


def _shared_keys(table: dict[str, Any]) -> None:
    """Take out of ``table`` the keys ``[kit]`` holds for paper and plastic (``misplaced``
    names them)."""
    for k in KIT:
        table.pop(k, None)


def misplaced(sections: Mapping[str, Mapping[str, Any]], where: str) -> list[str]:
    """The keys set where a build does not take them, in every game's sub-table as well as
    the shared ones, whichever games this build makes: a key the build sets itself (``out``,
    ``workers``), or one that paper and plastic share outside ``[kit]``."""
    problems = []
    for section in ("generate", "pdf", "cad"):
        data = sections.get(section, {})
        tables = [(f"[{section}]", {k: v for k, v in data.items() if not isinstance(v, dict)})]
        tables += [(f"[{section}.{game}]", v) for game, v in data.items() if isinstance(v, dict)]
        taken = BUILD_SETS.get(section, {})
        for named, table in tables:
            problems += [f"{where}: {named} {k}: the build sets it (use {taken[k]})" for k in table if k in taken]
            if section != "generate":
                problems += [f"{where}: {named} {k}: paper and plastic share it: set it once, in [kit]"
                             for k in table if k in KIT]
    return problems


def kit_table(sections: Mapping[str, Mapping[str, Any]], game: str, where: str) -> tuple[dict[str, Any], list[str]]:
    """The ``[kit]`` section (and its game sub-table), checked: what the paper and the
    plastic of one build share."""
    from generators.common import parse

    try:
        table, named = game_table(sections, "kit", game, where)
    except RequestError as err:
        return {}, list(err.problems)
    problems = []
    out: dict[str, Any] = {}
    for key, value in table.items():
        if key not in KIT:
            problems.append(f"{where}: {named}: unknown key {key!r} (expected {', '.join(KIT)})")
            continue
        low, high = KIT[key]
        if quoted_number(value):
            problems.append(f"{where}: {named} {key}: expected a number, got the text {value!r} (write {key} = "
                            f"{value.strip()}, without quotes)")
            continue
        try:
            if isinstance(low, int):
                out[key] = parse.parse_int(value, f"{where}: {named} {key}", low=low, high=int(high))
            else:
                out[key] = parse.parse_float(value, f"{where}: {named} {key}", low=low, high=high)
        except RequestError as err:
            problems.extend(err.problems)
    return out, problems


def _options(options: Sequence[Option], section: str) -> tuple[Option, ...]:
    return tuple(o for o in options if o.name not in BUILD_SETS.get(section, {}))


def game_table(sections: Mapping[str, Mapping[str, Any]], section: str, game: str, where: str,
               mine: frozenset[str] | None = None, anyones: frozenset[str] | None = None,
               ) -> tuple[dict[str, Any], str]:
    """One game's keys of a section: the shared keys (those the game has, when ``mine`` is
    given, leaving to the other games the keys only ``anyones`` has), then its own sub-table
    over them. Returns the table and how to name it in messages.

    Raises:
        RequestError: a sub-table that names no game.
    """
    from generators import GAMES

    data = sections.get(section, {})
    bad = [k for k, v in data.items() if isinstance(v, dict) and k not in GAMES]
    if bad:
        raise RequestError([f"{where}: [{section}.{k}]: not a game (expected one of {', '.join(GAMES)})"
                            for k in bad])
    shared = {k: v for k, v in data.items() if not isinstance(v, dict)}
    if mine is not None and anyones is not None:
        shared = {k: v for k, v in shared.items() if k in mine or k not in anyones}
    own = data.get(game, {})
    name = f"[{section}]" + (f" and [{section}.{game}]" if own else "")
    return {**shared, **own}, name


def game_settings(info: Game, sections: Mapping[str, Mapping[str, Any]], where: str, folder: Path, *,
                  seed: int | None = None, jobs: int = 1, duplex: str | None = None) -> GameSettings:
    """Parse every stage's settings for ``info``'s game. A build prints card backs and the
    calibration sheet for long-edge duplex unless ``[pdf] duplex`` or ``duplex`` (the
    command line's, which wins) says otherwise.

    Raises:
        RequestError: every bad key or value, naming the profile, section and key.
    """
    from generators import GAMES
    from print.common.options import OPTIONS as PRINT_OPTIONS

    problems: list[str] = misplaced(sections, where)
    rules = info.load_rules()
    # generate: a shared key belongs to the games that have it
    mine = frozenset(o.name for o in rules.OPTIONS)
    anyones = frozenset(o.name for g in GAMES.values() for o in g.load_rules().OPTIONS)
    try:
        table, named = game_table(sections, "generate", info.name, where, mine, anyones)
    except RequestError as err:
        problems.extend(err.problems)
        table, named = {}, "[generate]"
    _build_keys("generate", table)
    try:
        options = _options(rules.OPTIONS, "generate")
        table = profile_table(table, options, f"{where}: {named}", folder)
        # the seed stays the integer it is: `--seed 7` and `seed = 7` make the same stage key
        given: dict[str, Any] = {"seed": seed} if seed is not None else {}
        values = resolve(rules.OPTIONS, {**given, "workers": jobs}, table=table, source=f"{where}: {named}")
        generate = Stage(raw_values(options, given, table=table), values.values, values.given - {"workers"})
    except RequestError as err:
        problems.extend(err.problems)
        generate = Stage({})
    # what paper and plastic share
    kit, kit_problems = kit_table(sections, info.name, where)
    problems += kit_problems
    # pdf
    try:
        table, named = game_table(sections, "pdf", info.name, where)
    except RequestError as err:
        problems.extend(err.problems)
        table, named = {}, "[pdf]"
    _shared_keys(table)
    table.update(kit)
    if duplex is not None:
        table["duplex"] = duplex
    table.setdefault("duplex", BUILD_DUPLEX)
    previews = table.pop("previews", True)
    if not isinstance(previews, bool):
        problems.append(f"{where}: [pdf] previews: expected true or false, got {previews!r}")
    _build_keys("pdf", table)
    try:
        options = _options(PRINT_OPTIONS, "pdf")
        table = profile_table(table, options, f"{where}: {named}", folder)
        values = resolve(PRINT_OPTIONS, {}, table=table, source=f"{where}: {named}")
        pdf = Stage({**raw_values(options, {}, table=table), "previews": previews}, values.values, values.given)
    except RequestError as err:
        problems.extend(err.problems)
        pdf = Stage({})
    # cad
    try:
        table, named = game_table(sections, "cad", info.name, where)
        _build_keys("cad", table)
        _shared_keys(table)
        table.update(kit)
        cad = cad_stage(table, f"{where}: {named}")
    except RequestError as err:
        problems.extend(err.problems)
        cad = Stage({})
    try:
        playtest = playtest_stage(sections, info, where, kit.get("players"), generate.values.get("seed"))
    except RequestError as err:
        problems.extend(err.problems)
        playtest = Stage({"games": 0}, {"games": 0})
    if problems:
        raise RequestError(problems)
    return GameSettings(info, generate, pdf, cad, bool(previews), playtest=playtest)


def playtest_stage(sections: Mapping[str, Mapping[str, Any]], info: Game, where: str, kit_players: int | None,
                   deck_seed: int | None) -> Stage:
    """The ``[playtest]`` section (and its game sub-table) for ``info``'s game: off (games 0)
    unless it sets games, and off for a game with no rules engine yet."""
    from generators.common import parse
    from generators.common.play import AGENTS

    table, named = game_table(sections, "playtest", info.name, where)
    problems = [f"{where}: {named}: unknown key {k!r} (expected {', '.join(PLAYTEST)})" for k in table
                if k not in PLAYTEST]
    games = 0
    try:
        games = parse.parse_int(table.get("games", 0), f"{where}: {named} games", low=0, high=10_000_000)
    except RequestError as err:
        problems.extend(err.problems)
    agents = table.get("agents", "greedy")
    names = [a.strip() for a in agents.split(",")] if isinstance(agents, str) else []
    if not names or any(a not in AGENTS for a in names):
        problems.append(f"{where}: {named} agents: expected agent names separated by commas ({', '.join(AGENTS)}), "
                        f"got {agents!r}")
    seed = deck_seed if deck_seed is not None else 0
    if "seed" in table:
        try:
            seed = parse.parse_int(table["seed"], f"{where}: {named} seed", low=0, high=2**63 - 1)
        except RequestError as err:
            problems.extend(err.problems)
    players = None
    if info.engine:
        allowed = tuple(info.load_engine().PLAYERS)
        if "players" in table:
            try:
                players = parse.parse_int(table["players"], f"{where}: {named} players", low=1, high=12)
                if players not in allowed:
                    problems.append(f"{where}: {named} players: {info.title} is played by "
                                    f"{', '.join(map(str, allowed))} players, not {players}")
            except RequestError as err:
                problems.extend(err.problems)
        else:
            players = kit_players if kit_players in allowed else (4 if 4 in allowed else allowed[-1])
    if problems:
        raise RequestError(problems)
    if not info.engine or games == 0:
        return Stage({"games": 0}, {"games": 0})
    raw = {"games": games, "players": players, "agents": ",".join(names), "seed": seed}
    return Stage(raw, raw, frozenset(table))


def cad_stage(table: Mapping[str, Any], where: str) -> Stage:
    """The ``[cad]`` section: the options of ``templeforge cad`` (``cad.common.options``, but
    ``out``) and any physical setting (``cad.common.profile``)."""
    from cad.common.options import OPTIONS as CAD_OPTIONS
    from cad.common.profile import BY_NAME, physical_from

    options = _options(CAD_OPTIONS, "cad")
    names = {o.name for o in options}
    problems = []
    mine = {k: v for k, v in table.items() if k in names}
    physical = {k: v for k, v in table.items() if k in BY_NAME}
    for key in table:
        if key not in names and key not in BY_NAME:
            problems.append(f"{where}: unknown key {key!r} (expected {', '.join(sorted(names))} or a physical "
                            f"setting: {', '.join(BY_NAME)})")
    values: dict[str, Any] = {}
    try:
        values = dict(resolve(CAD_OPTIONS, {}, table=mine, source=where).values)
    except RequestError as err:
        problems.extend(err.problems)
    try:
        values["physical"] = physical_from(physical, where)
    except RequestError as err:
        problems.extend(err.problems)
    if problems:
        raise RequestError(problems)
    raw = {**raw_values(options, {}, table=mine), **{k: physical[k] for k in sorted(physical)}}
    return Stage(raw, values, frozenset(table))
