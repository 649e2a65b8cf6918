"""The game contract: everything a game gives the shared layers, and nothing more.

A game is a ``Game`` descriptor in the registry (``generators/__init__.py``) and the modules
it names, each implementing one of the protocols below:

=============  ==============================  ==============================================
member         where it lives                  what it is for
=============  ==============================  ==============================================
``rules``      ``generators/<game>/rules.py``  ``Rules``: the options and their request, the
                                               deck file (reader, writer, schema), generate,
                                               verify (and the read-out of a hand-written
                                               deck), and the figures every view draws
``paper``      ``print/<game>[.py]``           ``Paper``: the deck as PDFs (cards, backs, the
                                               game's extra sheets) and what each file is
``plastic``    ``cad/<game>[.py]``             ``Plastic``: the deck as a 3D kit (parts,
                                               plates, previews) and the report's captions
``commands``   ``templeforge/games/<game>.py`` optional: a click group of the game's own
                                               commands (``templeforge stones solve``)
``mine``       ``generators/<game>/mine.py``   optional: ``Miner``: the game's corpus for
                                               ``templeforge mine`` (its options, columns and
                                               chunks; ``generators.common.mine`` runs it)
``engine``     ``generators/<game>/engine.py`` optional: ``Engine``: the game as it is
                                               played (its state, moves, hidden hands and
                                               scores), for simulated playtests
                                               (``generators.common.play`` runs them)
``studio``     ``generators/<game>/studio.py`` optional: ``Studio``: the game's card
                                               editor in ``templeforge studio`` (what the
                                               page draws, a draft, the live proof)
=============  ==============================  ==============================================

A print or cad module may be a package split by job (cards, an answer key, paper pieces);
its ``__init__`` is then the module the descriptor names.

The shared layers (the CLI, ``*/common/``, the pipeline, the report) reach a game only
through these: they import a game's module by the path its descriptor gives and use it as
the protocol says. A module is checked against its protocol by the type checker (each
game's ``rules.py``, ``print`` and ``cad`` module ends with a conformance line), and
``tests/test_contract.py`` runs a toy game, defined only in the tests, through every
command. The descriptor holds only names and module paths, so the registry imports nothing
heavy and a descriptor pickles to a worker process.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, cast

from generators.common.corpus import Column
from generators.common.figures import Figure
from generators.common.options import Option

#: A generator's progress: (candidates tried, candidates usable so far).
Progress = Callable[[int, int], None]


class Deck(Protocol):
    """What the shared layers use of any game's deck."""

    @property
    def cards(self) -> Sequence[Any]: ...

    @property
    def seed(self) -> int | None: ...

    def card(self, card_id: Any) -> Any:
        """The card called ``card_id`` (raises ``DeckError`` naming the ids there are)."""

    def dumps(self) -> str:
        """The deck file's text: the same deck always gives the same bytes."""


class Spec(Protocol):
    """A checked generator request."""

    @property
    def seed(self) -> int: ...


class Settled(Protocol):
    """One checked item (a face, a card) whose check a time limit left open."""

    @property
    def where(self) -> str: ...


class Check(Protocol):
    """The independent verifier's verdict on a deck."""

    @property
    def ok(self) -> bool: ...

    @property
    def problems(self) -> Sequence[str]:
        """Every problem, each naming its card (and face)."""

    @property
    def unknown(self) -> Sequence[Settled]:
        """The items a time limit left unsettled (never counted as failures)."""

    @property
    def counted(self) -> str:
        """What was checked, counted (``216 faces``, ``72 patterns``)."""


class Rules(Protocol):
    """A game's content: ``generators/<game>/rules.py``."""

    @property
    def OPTIONS(self) -> Sequence[Option]:  # noqa: N802 - a module's constant
        """The generator's options, declared once: the command's flags, a profile's keys and
        the parameters a deck records."""

    @property
    def HELP(self) -> str:  # noqa: N802
        """What ``templeforge generate <game>`` does, for its help."""

    @property
    def EXAMPLE(self) -> str:  # noqa: N802
        """The options of a worked example (``--cards 36 --seed 1``)."""

    @property
    def DECK_NAME(self) -> str:  # noqa: N802
        """The deck file's name in an output folder."""

    @property
    def VERIFY_HELP(self) -> str:  # noqa: N802
        """What ``templeforge verify`` re-proves and checks in this game's decks, for its help."""

    @property
    def SCALE(self) -> str:  # noqa: N802
        """What ``verify --tiers-from`` takes from another deck (``difficulty tiers``)."""

    @property
    def OK_TEXT(self) -> str:  # noqa: N802
        """The last words of a passing ``verify`` (``every face proved and every rule holds``)."""

    @property
    def VERIFIER(self) -> str:  # noqa: N802
        """The verifier's version, part of every seal (``generators.common.seal``): raised
        whenever what ``verify`` checks changes, so that decks sealed before are verified
        again before they are printed."""

    def spec(self, values: Mapping[str, Any], given: frozenset[str]) -> Spec:
        """The checked request from parsed option values (raises ``RequestError`` naming
        every option at fault)."""

    def generate(self, spec: Any, progress: Progress | None = None) -> Deck:
        """A deck whose every card is proved (raises ``Shortfall`` when the budget runs out)."""

    def deck_from_json(self, data: Any, source: str = "<deck>") -> Deck:
        """A deck from its parsed file (raises ``DeckError`` naming the field)."""

    def write_deck(self, deck: Any, path: str | Path) -> Path:
        """Write ``deck`` atomically; the path written."""

    def schema(self) -> dict[str, Any]:
        """The deck file's JSON Schema."""

    def verify(self, deck: Any, *, time_limit: float | None = None, tiers_from: Any = None,
               tiers_name: str = "", strict: bool = False, workers: int = 1) -> Check:
        """Re-prove every card without the generator; a hand-written deck gets its proofs.
        A hand-written deck's own pricing (points a designer wrote) that runs against the
        measured difficulty is reported, not failed, unless ``strict``; a generated deck's
        always fails. A game whose cards carry no designer pricing ignores ``strict``. The
        cards may be checked side by side in up to ``workers`` processes
        (``generators.common.pool.each``); the check is the same whatever the count."""

    def completed(self, deck: Any, check: Any) -> Deck:
        """``deck`` with every proof its passing ``check`` found written in (a hand-written
        deck's solutions and counts, difficulties, points); a deck that had them all comes
        back equal. The printers print this deck, so a hand-written deck is printed with
        its proofs."""

    def summary(self, deck: Any, check: Any, spec: Any = None) -> list[Figure]:
        """What ``generate`` prints after writing a deck."""

    def report(self, deck: Any, check: Any, show_all: bool = False) -> list[Figure]:
        """What ``verify`` prints."""

    def cards(self, deck: Any, chosen: Sequence[Any]) -> list[Figure]:
        """What ``show`` prints for the chosen cards."""

    def build_report(self, deck: Any, check: Any) -> list[Figure]:
        """The figures of ``report.html``: a ``verification`` fact, facts, plots and the card
        table (its columns and picture columns are the game's)."""


class Printed(Protocol):
    """A deck on paper: the files, how the card pages are laid out, and a label per card.
    Optionally ``pieces``: its paper pieces (tokens, stones) as (file name, that file's
    imposition, a name per piece), which a virtual table takes one by one."""

    @property
    def files(self) -> Mapping[str, bytes]: ...

    @property
    def imposition(self) -> Any: ...

    @property
    def labels(self) -> Sequence[str]: ...


class Paper(Protocol):
    """A game's print module: ``print/<game>.py``."""

    @property
    def USES(self) -> frozenset[str]:  # noqa: N802 - a module's constant
        """The ``templeforge pdf`` options it reads (another one given is refused, named)."""

    @property
    def FILES(self) -> Sequence[tuple[str, str]]:  # noqa: N802
        """Each file it may make, with what it holds, for the report's list."""

    def request(self, values: Mapping[str, Any]) -> Any:
        """Its print request from parsed ``templeforge pdf`` values."""

    def make(self, deck: Any, request: Any, title: str) -> Printed:
        """Every PDF of the deck (raises ``RequestError`` for an option it cannot take)."""

    def summary(self, printed: Any) -> list[str]:
        """The lines that tell a designer what was printed."""

    def deck_title(self, deck: Any, path: str | Path) -> str:
        """The name the sheets carry."""


class Kit(Protocol):
    """A deck in plastic, before ``bom.csv``: see ``cad.common.kit.Kit``."""

    @property
    def files(self) -> Mapping[str, bytes]: ...


class Plastic(Protocol):
    """A game's cad module: ``cad/<game>.py``."""

    @property
    def CAPTIONS(self) -> Mapping[str, str]:  # noqa: N802 - a module's constant
        """Captions of the report's 3D section: ``assembled`` (the previews directly in
        ``models/previews/``), ``ams`` and ``no-ams`` (the plates)."""

    def steps(self, deck: Any) -> int:
        """How many parts ``make_kit`` reports through ``progress``."""

    def make_kit(self, deck: Any, ph: Any, bed: tuple[float, float], *, players: int = 4, ams: bool = True,
                 no_ams: bool = True, slicer: str = "bambu", slots: int = 4, machine: Any = None,
                 progress: Callable[[str], None] = ..., mapper: Any = ...) -> Kit:
        """The kit: STL, 3MF plates per profile (AMS plates with at most ``slots``
        filaments; ``machine``, a ``cad.common.threemf.Machine``, names the printer in the
        slicers' project configs), previews."""


class Plan(Protocol):
    """A checked mining request: the corpus cut into chunks. It is pickled to the workers,
    which make each chunk's rows from it and the chunk's index alone."""

    def request(self) -> dict[str, Any]:
        """What was asked, as JSON values: recorded in the corpus and the resume identity."""

    def chunks(self) -> int:
        """How many chunks the corpus is cut into."""

    def rows(self, index: int) -> list[tuple[Any, ...]]:
        """Chunk ``index``'s rows (tuples in ``COLUMNS`` order), in a fixed order: the same
        on any machine."""


class Miner(Protocol):
    """A game's corpus: ``generators/<game>/mine.py``."""

    @property
    def OPTIONS(self) -> Sequence[Option]:  # noqa: N802 - a module's constant
        """The request's options (the command adds ``--out``, ``--workers`` and ``--cluster``)."""

    @property
    def HELP(self) -> str:  # noqa: N802
        """What ``templeforge mine <game>`` records, for its help."""

    @property
    def EXAMPLE(self) -> str:  # noqa: N802
        """The options of a worked example."""

    @property
    def COLUMNS(self) -> Sequence[Column]:  # noqa: N802
        """The corpus's columns, in order, each with its Arrow type and meaning."""

    @property
    def VERSION(self) -> str:  # noqa: N802
        """Raised whenever the rows a request gives change: chunks of another version are
        not resumed."""

    def plan(self, values: Mapping[str, Any]) -> Plan:
        """The checked request from parsed option values (raises ``RequestError`` naming
        every option at fault)."""


class Engine(Protocol):
    """A game as it is played, as data and pure functions: ``generators/<game>/engine.py``.

    A state is an immutable value; ``apply`` returns a new one. Everything is decided by the
    deck, the number of players and the seed: the same three give the same game, and a
    game's moves replayed from its start give the same end. Moves are small immutable values
    (tuples), the same from ``moves`` each time for the same state, in a fixed order.

    A game of one move a turn may also give ``again(state, seat)``: the state ``seat`` would
    likely find at its next turn (None: it has none), so that the search agent looks on past
    its own turn (``generators.common.play.SearchAgent``)."""

    @property
    def PLAYERS(self) -> Sequence[int]:  # noqa: N802 - a module's constant
        """The player counts the rules allow."""

    @property
    def EFFORT(self) -> str:  # noqa: N802 - a module's constant
        """What a card's ``value`` in play counts, in words ("turns held for each time it is
        scored")."""

    def start(self, deck: Any, players: int, seed: int) -> Any:
        """The state after set-up (shuffles and deals drawn from ``seed``).

        Raises:
            RequestError: the deck cannot be played (too few cards, no points, ...) or
                ``players`` is not one the rules allow.
        """

    def to_act(self, state: Any) -> int:
        """The seat (0-based) whose move it is."""

    def moves(self, state: Any) -> Sequence[Any]:
        """The legal moves of the seat to act (never empty while the game is not over)."""

    def apply(self, state: Any, move: Any) -> Any:
        """The state after ``move`` (a legal one)."""

    def over(self, state: Any) -> bool:
        """Whether the game has ended."""

    def scores(self, state: Any) -> Sequence[int]:
        """Each seat's points so far (the final score once ``over``)."""

    def shares(self, state: Any) -> Sequence[float]:
        """Each seat's share of the win by the game's own rule (and tie-breaks), summing to
        1: split evenly among the seats the rules cannot tell apart."""

    def turns(self, state: Any) -> int:
        """The turns played so far (a turn: one seat's go, however many moves it took)."""

    def seen(self, state: Any, seat: int) -> Any:
        """What ``seat`` knows of the state: everything but the others' hands and the order
        of face-down piles. Two states that differ only in what ``seat`` cannot see give the
        same value."""

    def determinise(self, state: Any, seat: int, rng: Any) -> Any:
        """A state ``seat`` cannot tell from ``state`` (the same ``seen``), what it cannot
        see drawn at random from what it could be (the others' hands and face-down piles
        dealt afresh from the cards unseen): what agents look ahead on, so that no agent
        peeks at a hidden card."""

    def value(self, state: Any, seat: int, flat: bool = False) -> float:
        """A quick estimate of how well ``seat`` stands (its points, plus what its position
        promises), from what it sees: the greedy agent's look-ahead. ``flat``: every card
        counted as worth the same (the agents that price cards from play must not read
        the printed points)."""

    def check(self, state: Any) -> list[str]:
        """The invariants the state breaks (pieces and cards conserved, scores equal to what
        was scored): empty for every state a legal game reaches."""

    def card_events(self, state: Any) -> Mapping[Any, tuple[int, int, int]]:
        """For each card (its id in the deck): how often it was dealt to a hand, how often
        scored, and the turns it was held in all (each turn of its holder that it spent in
        hand, the turn it was scored or spent included), so far."""

    def printed(self, deck: Any) -> Sequence[int | None]:
        """Each card's printed points (None: none printed), in deck order."""

    def scale(self, cards: int) -> Sequence[tuple[int, int]]:
        """The game's own point values and how many cards of ``cards`` carry each, as the
        published game mixes them: what prices from play are mapped onto (empty: the
        game's cards print no points)."""

    def compiled(self, state: Any, agents: tuple[str, ...], flat: bool,
                 max_turns: int) -> tuple[Any, Sequence[Any]] | None:
        """The game from ``state`` (``start``'s) played to its end by compiled code, with the
        agents named in its seats, as ``generators.common.play.play`` would play it move for
        move: the final state and the moves; None where the engine has no compiled games
        for these agents."""

    def summary(self, state: Any) -> Any:
        """What ``insights`` needs of a finished game, small and picklable (``()``: none)."""

    def insights(self, summaries: Sequence[Any], players: int, ids: Sequence[Any]) -> tuple[dict[str, Any],
                                                                                          list[str]]:
        """What the game's own questions find over the seat games' ``summary`` values (the
        cards named by ``ids``, in deck order): figures for playtest.json's ``insights`` and
        findings (sentences) for its ``findings``; ``({}, [])`` when the game asks none."""


class Studio(Protocol):
    """A game's card editor for ``templeforge studio``: ``generators/<game>/studio.py``.

    The page is the same for every game: it draws what ``editor`` describes (a ``grid`` of
    cells to paint, at most ``rows`` x ``columns``, with a ``palette`` of one-character
    codes, each with a ``label``, a ``short`` text and a ``colour`` (without one: ``#``),
    and how a blank inside the painted box reads (``blank``); optionally ``lists``: one list
    of names picked from ``choices`` for each of ``names``, ``pick`` = [fewest, most]) and
    sends the designer's draft, ``{"grid": [rows of codes, "." for none], "lists": [[name,
    ...], ...]}``, back to ``prove`` as they draw. The answer is JSON: ``verdict``
    (``proved``, ``not proved``, ``unknown`` or ``invalid``), a one-line ``headline`` and
    ``items``, each with a ``label``, a ``status``, a ``text``, an ``overlay`` of ``[row,
    column, letter]`` (a fourth element true: drawn as just changed) to draw on the grid,
    and optionally ``frames``, overlays with a ``caption`` each to step through; an item or
    a frame may carry a ``picture``: an SVG document the game draws (a build in
    isometric view), shown as an image beside the grid.

    A game may also give ``parts(deck)``: the deck's parts besides its cards that the page
    edits (a box's boards), each ``{"id", "label", "title"}``; ``draft``, ``prove`` and ``put``
    then take a part's id as a card's, and a part's draft ``{"graph": {"slots": [[x, y],
    ...], "lines": [[a, b], ...]}}`` is drawn as points joined by lines: click two points to
    join or part them, a point then an empty place to move it."""

    def blank(self) -> Deck:
        """A new deck with no card yet, its components the game's defaults (a block set, a
        tile set): what *New deck* edits until its first card is saved."""

    def editor(self, deck: Any) -> dict[str, Any]:
        """What the page draws for ``deck``'s cards (see above)."""

    def draft(self, deck: Any, card_id: Any = None) -> dict[str, Any]:
        """Card ``card_id`` as the page edits it (None: a new card's starting draft)."""

    def table(self, deck: Any) -> dict[str, Any]:
        """The deck view's table: ``columns`` (the figures' names) and one row a card, in
        deck order, ``{"id": ..., "values": [a number or None a column]}``: what the
        designer sorts the deck by (its difficulty, its points). Optionally a ``reference``
        to show each column's spread against: ``{"label": ..., "columns": {a column's name:
        [[value, cards], ...]}}`` (a published deck's, or the game's target)."""

    def prove(self, deck: Any, data: Mapping[str, Any], card_id: Any = None,
              time_limit: float = 2.0) -> dict[str, Any]:
        """The live answer for a draft of card ``card_id`` (None: a new card; the deck's
        other cards are what it is compared with); a malformed one: verdict ``invalid``
        naming the field; a limit gives ``unknown``, never a proof."""

    def put(self, deck: Any, data: Mapping[str, Any], card_id: Any = None) -> Deck:
        """The deck with the draft in place of card ``card_id`` (None: added), proofs left to
        the verifier (raises ``RequestError`` naming the field at fault)."""


@dataclass(frozen=True, slots=True)
class Game:
    """A game as the registry knows it: names and the paths of the modules it provides.

    Attributes:
        name: the deck files' ``game`` and the command-line name (``my-game``).
        title: how people write it (``My Game``).
        summary: one line on what a deck holds.
        rules: the module implementing ``Rules``.
        paper: the module implementing ``Paper``.
        plastic: the module implementing ``Plastic``.
        commands: the game's own commands, as (command name, module path) pairs; each
            module's ``command`` is a click command or group.
        mine: the module implementing ``Miner`` ("" when the game mines no corpus).
        engine: the module implementing ``Engine`` ("" when the game is not played yet).
        studio: the module implementing ``Studio`` ("" when the studio cannot edit its cards).
    """

    name: str
    title: str
    summary: str
    rules: str
    paper: str
    plastic: str
    commands: tuple[tuple[str, str], ...] = ()
    mine: str = ""
    engine: str = ""
    studio: str = ""

    def load_rules(self) -> Rules:
        """The game's rules module, imported now."""
        return cast(Rules, importlib.import_module(self.rules))

    def load_engine(self) -> Engine:
        """The game's rules engine, imported now (the game must have one)."""
        return cast(Engine, importlib.import_module(self.engine))

    def load_studio(self) -> Studio:
        """The game's studio module, imported now (the game must have one)."""
        return cast(Studio, importlib.import_module(self.studio))

    def load_miner(self) -> Miner:
        """The game's miner module, imported now (the game must have one)."""
        return cast(Miner, importlib.import_module(self.mine))
