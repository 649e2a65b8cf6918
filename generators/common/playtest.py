"""Simulated playtests: whole games of a deck under its game's rules engine, and what they
say about the seats, the length of a game and each card's worth in play.

Two sets of ``games`` games are played, each from its own seed drawn from the request's:

- the *seat* games, each seat played by its agent (``--agents``, repeated round the table),
  which value the cards at their printed points: who wins from which seat (wins split on
  ties, with a 95% Wilson interval), the scores, the length of a game;
- the *pricing* games, the same agents blind to the printed points (every card worth the
  same to them, ``Engine.value(flat=True)``): a card's worth in play is read from how it
  fares there, never from its own price. ``value`` is the turns a card is held (by whoever
  holds it, counting each of their turns it spends in hand) for each time it is scored:
  the effort it costs in play. ``suggested_points`` gives the cards, easiest first, the
  points of the deck's own mix (or, for a deck without points, the game's published one).

The same request gives the same bytes whatever the executor and number of workers: each
game's seed depends on the request's seed and its number alone, and the games are gathered
in order.
"""

from __future__ import annotations

import hashlib
import importlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from generators.common.errors import RequestError
from generators.common.grading import spearman
from generators.common.play import AGENTS, MAX_TURNS, agents_from, play

#: Findings list at most this many cards of one kind by name.
NAMED = 8
#: Decimal places of the figures written.
PLACES = 4


@dataclass(frozen=True)
class Request:
    players: int
    games: int
    seed: int
    agents: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        return {"players": self.players, "games": self.games, "seed": self.seed, "agents": list(self.agents)}


def check_request(engine: Any, request: Request) -> None:
    problems = []
    if request.players not in engine.PLAYERS:
        problems.append(f"players: the rules are for {', '.join(map(str, engine.PLAYERS))} players, not "
                        f"{request.players}")
    if request.games < 1:
        problems.append(f"games: at least 1, not {request.games}")
    unknown = [a for a in request.agents if a not in AGENTS]
    if unknown or not request.agents:
        problems.append(f"agents: {', '.join(unknown) or 'none given'} (the agents: {', '.join(AGENTS)})")
    if problems:
        raise RequestError(problems)


def game_seed(seed: int, kind: str, index: int) -> int:
    """Game ``index``'s seed among the request's ``kind`` games."""
    return int.from_bytes(hashlib.sha256(f"playtest {seed} {kind} {index}".encode()).digest()[:6], "big")


@dataclass(frozen=True)
class Row:
    """One game as the tables keep it."""

    kind: str  # "seat" or "pricing"
    index: int
    seed: int
    agents: tuple[str, ...]
    scores: tuple[int, ...]
    shares: tuple[float, ...]
    turns: int
    ended: bool
    events: tuple[tuple[int, int, int], ...]  # per card in deck order: dealt, scored, turns held
    summary: Any = ()  # the engine's summary of the game (``Engine.summary``)


def _one(spec: tuple[str, Any, Request, str], index: int) -> Row:
    """Game ``index`` of ``spec``'s kind (in a worker)."""
    module, deck, request, kind = spec
    engine = importlib.import_module(module)
    seed = game_seed(request.seed, kind, index)
    seats = agents_from(request.agents, request.players, flat=kind == "pricing")
    played = play(engine, deck, request.players, seed, seats, max_turns=MAX_TURNS)
    events = engine.card_events(played.final)
    return Row(kind, index, seed, played.agents, played.scores, played.shares, played.turns, played.ended,
               tuple(events.values()), engine.summary(played.final) if kind == "seat" else ())


def play_all(module: str, deck: Any, request: Request, workers: int = 1,
             progress: Callable[[int, int], None] | None = None,
             kinds: tuple[str, ...] = ("seat", "pricing")) -> list[Row]:
    """Every game of the request (seat games, then pricing games), in order."""
    from generators.common.pool import Pool

    total = len(kinds) * request.games
    rows: list[Row] = []
    with Pool(workers) as pool:
        for kind in kinds:
            chunk = max(1, request.games // (8 * max(1, pool.workers)))
            for row in pool.imap(_one, (module, deck, request, kind), range(request.games), chunk=chunk):
                rows.append(row)
                if progress is not None:
                    progress(len(rows), total)
    return rows


def efforts(rows: Sequence[Row], cards: int) -> tuple[list[int], list[int], list[float | None]]:
    """Per card over ``rows``: times dealt, times scored, and its value in play (the effort
    for each time it is scored: held / scored; None when never scored)."""
    dealt = [sum(r.events[i][0] for r in rows) for i in range(cards)]
    scored = [sum(r.events[i][1] for r in rows) for i in range(cards)]
    held = [sum(r.events[i][2] for r in rows) for i in range(cards)]
    return dealt, scored, [held[i] / scored[i] if scored[i] else None for i in range(cards)]


def suggest(value: Sequence[float | None], dealt: Sequence[int], mix: Sequence[int]) -> list[int | None]:
    """The points ``mix`` (lowest first) handed out easiest first: the least effort in play
    first, never scored last (the dearest), ties by more dealt, then deck order (None for
    every card when the mix is empty)."""
    order = sorted(range(len(value)), key=lambda i: (value[i] is None, value[i] or 0.0, -dealt[i], i))
    suggested: list[int | None] = [None] * len(value)
    for rank, i in enumerate(order):
        suggested[i] = mix[min(rank, len(mix) - 1)] if mix else None
    return suggested


#: Players at the table of the games ``prices`` plays.
PRICING_PLAYERS = 4


def prices(module: str, deck: Any, points: Sequence[int], games: int, seed: int,
           workers: int = 1) -> list[int]:
    """``points`` (a mix, one value a card) given out to the deck's cards by their effort in
    ``games`` pricing games (``PRICING_PLAYERS`` greedy agents blind to the points): what
    ``generate --price play`` prints and its verifier checks. The deck's own points play no
    part in those games, so they can be priced and re-priced alike."""
    request = Request(PRICING_PLAYERS, games, seed, ("greedy",))
    rows = play_all(module, deck, request, workers, kinds=("pricing",))
    dealt, _, value = efforts(rows, len(points))
    return [int(p) for p in suggest(value, dealt, sorted(points))]  # type: ignore[arg-type]


def family_z(tests: int, level: float = 0.95) -> float:
    """The z of an interval wide enough that ``tests`` of them all hold their true values at
    ``level`` together (Bonferroni): a finding about one of several seats, faces or cards is
    then not just the one in twenty that misses by chance."""
    from statistics import NormalDist

    return NormalDist().inv_cdf(1 - (1 - level) / (2 * max(1, tests)))


def wilson(wins: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate of ``wins`` in ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _r(x: float) -> float:
    return round(x, PLACES)


def percentile(values: Sequence[int], q: float) -> float:
    """The ``q`` quantile (0-1) of ``values``, interpolated between neighbours."""
    ordered = sorted(values)
    at = q * (len(ordered) - 1)
    lo = math.floor(at)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (at - lo)


def _mix(engine: Any, deck: Any, cards: int) -> tuple[list[int], str | None]:
    """The points to hand out, lowest first, and where they come from (none: the game's
    cards print no points)."""
    printed = list(engine.printed(deck))
    if printed and all(p is not None for p in printed):
        return sorted(int(p) for p in printed), "the deck's own mix of points"
    values = [v for v, n in engine.scale(cards) for _ in range(n)]
    if not values:
        return [], None
    return sorted(values)[:cards], "the published game's mix of points"


def report(game: Any, engine: Any, deck: Any, request: Request, rows: Sequence[Row],
           deck_sha256: str) -> dict[str, Any]:
    """playtest.json's content."""
    seat_rows = [r for r in rows if r.kind == "seat"]
    pricing = [r for r in rows if r.kind == "pricing"]
    n = len(seat_rows)
    players = request.players
    seats = []
    findings = []
    for s in range(players):
        wins = sum(r.shares[s] for r in seat_rows)
        low, high = wilson(wins, n)
        agent = seat_rows[0].agents[s]
        seats.append({"seat": s + 1, "agent": agent, "wins": _r(wins), "win_rate": _r(wins / n),
                      "ci95": [_r(low), _r(high)], "mean_score": _r(sum(r.scores[s] for r in seat_rows) / n)})
        fair = 1 / players
        wide = wilson(wins, n, family_z(players))  # every seat tested at once
        if not wide[0] <= fair <= wide[1] and len(set(request.agents)) == 1:
            side = "more" if low > fair else "less"
            findings.append(f"Seat {s + 1} wins {wins / n:.1%} of {n} games (95% interval {low:.1%}-{high:.1%}, "
                            f"{wide[0]:.1%}-{wide[1]:.1%} with all {players} seats tested at once): {side} than a "
                            f"fair share of {fair:.1%}, with the same agent in every seat.")
    turns = [r.turns for r in seat_rows]
    unended = sum(not r.ended for r in rows)
    if unended:
        findings.append(f"{unended} of {len(rows)} games had not ended after {MAX_TURNS} turns: a state the "
                        f"agents could not play out (the rules may not cover it).")
    ids = list(engine.card_events(engine.start(deck, players, request.seed)).keys())
    dealt, scored, value = efforts(pricing, len(ids))
    mix, source = _mix(engine, deck, len(ids))
    suggested = suggest(value, dealt, mix)
    printed = list(engine.printed(deck))
    cards = []
    for i, card_id in enumerate(ids):
        worth = value[i]
        entry: dict[str, Any] = {"id": card_id, "dealt": dealt[i], "scored": scored[i],
                                 "value": None if worth is None else _r(worth),
                                 "suggested_points": suggested[i]}
        if printed[i] is not None:
            entry["points"] = printed[i]
        cards.append(entry)
    never = [ids[i] for i in range(len(ids)) if dealt[i] and not scored[i]]
    if never:
        named = ", ".join(str(c) for c in never[:NAMED]) + (f" and {len(never) - NAMED} more" if len(never) > NAMED
                                                             else "")
        findings.append(f"{len(never)} card{'s' if len(never) > 1 else ''} never scored in {len(pricing)} pricing "
                        f"games though dealt: {named}.")
    agreement = _agreement(ids, printed, suggested, value)
    insights, found = engine.insights([r.summary for r in seat_rows], players, ids)
    findings.extend(found)
    if agreement is not None:
        findings.append(f"Prices from play agree with the printed points on {agreement['equal']:.0%} of the cards, "
                        f"within one step on {agreement['near']:.0%}"
                        + (f" (Spearman {agreement['spearman']:.2f} between points and effort in play)."
                           if agreement["spearman"] is not None else "."))
    return {
        "game": game.name, "deck_sha256": deck_sha256, "players": players, "games": n, "seed": request.seed,
        "agents": list(request.agents), "seats": seats,
        "length": {"mean_turns": _r(sum(turns) / n), "p10": _r(percentile(turns, 0.1)),
                   "p90": _r(percentile(turns, 0.9)), "unended": unended},
        "pricing": {"games": len(pricing), "value": engine.EFFORT, "points_from": source},
        "cards": cards, "agreement": agreement, **({"insights": insights} if insights else {}),
        "findings": findings,
    }


def _agreement(ids: Sequence[Any], printed: Sequence[int | None], suggested: Sequence[int | None],
               value: Sequence[float | None]) -> dict[str, Any] | None:
    """How the printed points agree with the prices from play (None: the deck prints none)."""
    rows: list[tuple[Any, int, int, float | None]] = [
        (ids[i], p, s, value[i]) for i, (p, s) in enumerate(zip(printed, suggested)) if p is not None and s is not None]
    if len(rows) < 2:
        return None
    steps = sorted({p for _, p, _, _ in rows} | {s for _, _, s, _ in rows})
    place = {v: k for k, v in enumerate(steps)}
    equal = sum(p == s for _, p, s, _ in rows) / len(rows)
    near = sum(abs(place[p] - place[s]) <= 1 for _, p, s, _ in rows) / len(rows)
    worst = max((v for _, _, _, v in rows if v is not None), default=0.0)
    effort = [v if v is not None else worst * 2 + 1 for _, _, _, v in rows]  # never scored: the hardest
    rho = spearman([float(p) for _, p, _, _ in rows], effort)
    apart = sorted(rows, key=lambda t: (-abs(place[t[1]] - place[t[2]]), str(t[0])))
    widest = [{"id": c, "points": p, "suggested_points": s} for c, p, s, _ in apart[:5] if p != s]
    return {"equal": _r(equal), "near": _r(near), "spearman": None if rho is None else _r(rho), "widest": widest}


def _winner(shares: Sequence[float]) -> int | None:
    """The seat (from 1) that won alone, or None when seats tied and shared the win."""
    won = [s + 1 for s, share in enumerate(shares) if share > 0]
    return won[0] if len(won) == 1 else None


def tables(report_json: dict[str, Any], rows: Sequence[Row]) -> tuple[Any, Any]:
    """games.parquet's and cards.parquet's tables (pyarrow)."""
    import pyarrow as pa

    games = pa.table({
        "kind": pa.array([r.kind for r in rows], pa.string()),
        "game": pa.array([r.index + 1 for r in rows], pa.int32()),
        "seed": pa.array([r.seed for r in rows], pa.int64()),
        "seats": pa.array([len(r.agents) for r in rows], pa.int32()),
        "agents": pa.array([list(r.agents) for r in rows], pa.list_(pa.string())),
        "scores": pa.array([list(r.scores) for r in rows], pa.list_(pa.int32())),
        "winner": pa.array([_winner(r.shares) for r in rows], pa.int32()),
        "winners": pa.array([[s + 1 for s, share in enumerate(r.shares) if share > 0] for r in rows],
                            pa.list_(pa.int32())),
        "turns": pa.array([r.turns for r in rows], pa.int32()),
        "ended": pa.array([r.ended for r in rows], pa.bool_()),
    })
    cards = report_json["cards"]
    card_table = pa.table({
        "id": pa.array([str(c["id"]) for c in cards], pa.string()),
        "players": pa.array([report_json["players"]] * len(cards), pa.int32()),
        "dealt": pa.array([c["dealt"] for c in cards], pa.int32()),
        "scored": pa.array([c["scored"] for c in cards], pa.int32()),
        "value": pa.array([c["value"] for c in cards], pa.float64()),
        "points": pa.array([c.get("points") for c in cards], pa.int32()),
        "suggested_points": pa.array([c["suggested_points"] for c in cards], pa.int32()),
    })
    return games, card_table
