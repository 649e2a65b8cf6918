"""``playtest.html``: a playtest's figures as pictures, on one self-contained page (no network,
no other file; plots are SVG drawn here, tables sort with the report's few lines of script).

Made from ``playtest.json``'s content and the games' rows alone, so the same playtest gives
the same page, byte for byte. What it shows: each seat's wins with their 95% interval
against a fair share, the scores per seat, the length of a game, each card's worth in play
against its printed (or suggested) points, the cards as a table, and whatever the game's
own questions found (``insights``), as facts and tables.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from generators.common.figures import Table
from templeforge.pipeline.printing import esc
from templeforge.pipeline.report import SCRIPT, STYLE, _num, bars_svg, table_html

EXTRA_STYLE = """
ul.findings li { margin: 4px 0; }
.fair { stroke: #c62828; stroke-dasharray: 4 3; }
"""


def intervals_svg(labels: Sequence[str], rates: Sequence[float], spans: Sequence[Sequence[float]], fair: float,
                  title: str, width: int = 480, height: int = 220) -> str:
    """Rates as bars with their intervals as whiskers, and the fair share as a dashed line."""
    left, bottom, top = 40, 34, 16
    plot_w, plot_h = width - left - 8, height - bottom - top
    most = max([fair, *(high for _, high in spans), *rates, 0.01])
    most = math.ceil(most * 10) / 10

    def y(v: float) -> float:
        return top + plot_h - plot_h * v / most

    step = plot_w / max(len(rates), 1)
    out = [f'<svg viewBox="0 0 {width} {height}" width="100%" role="img" aria-label="{esc(title)}">']
    for k in range(5):
        v = most * k / 4
        out.append(f'<line x1="{left}" x2="{width - 8}" y1="{_num(y(v))}" y2="{_num(y(v))}" stroke="#e3e5e8"/>')
        out.append(f'<text x="{left - 4}" y="{_num(y(v) + 4)}" text-anchor="end">{v:.0%}</text>')
    for i, (label, rate, (low, high)) in enumerate(zip(labels, rates, spans)):
        x = left + i * step + step * 0.2
        w = step * 0.6
        out.append(f'<rect x="{_num(x)}" y="{_num(y(rate))}" width="{_num(w)}" height="{_num(y(0) - y(rate))}" '
                   f'fill="#0b5cad"><title>{esc(label)}: {rate:.1%} (95% interval {low:.1%}-{high:.1%})</title>'
                   f"</rect>")
        mid = x + w / 2
        out.append(f'<line x1="{_num(mid)}" x2="{_num(mid)}" y1="{_num(y(low))}" y2="{_num(y(high))}" '
                   f'stroke="#1d1d1f" stroke-width="1.5"/>')
        for v in (low, high):
            out.append(f'<line x1="{_num(mid - 6)}" x2="{_num(mid + 6)}" y1="{_num(y(v))}" y2="{_num(y(v))}" '
                       f'stroke="#1d1d1f" stroke-width="1.5"/>')
        out.append(f'<text x="{_num(mid)}" y="{height - bottom + 14}" text-anchor="middle">{esc(label)}</text>')
    out.append(f'<line class="fair" x1="{left}" x2="{width - 8}" y1="{_num(y(fair))}" y2="{_num(y(fair))}">'
               f"<title>a fair share: {fair:.1%}</title></line>")
    out.append("</svg>")
    return "".join(out)


def scatter_svg(points: Sequence[tuple[float, float, str]], x_label: str, y_label: str, title: str,
                width: int = 480, height: int = 260) -> str:
    """Points (x, y, what the point is) with labelled axes; points on the same x spread a
    little sideways so that none hides another. Values spread over more than a factor of 20
    go on a log scale (ticks at 1, 2, 5, 10, ...)."""
    left, bottom, top, right = 46, 40, 12, 10
    plot_w, plot_h = width - left - right, height - bottom - top
    xs = [p[0] for p in points] or [0.0]
    ys = [p[1] for p in points] or [0.0]
    x0, x1 = min(xs), max(xs)
    if x1 == x0:
        x0, x1 = x0 - 1, x1 + 1
    pad = (x1 - x0) * 0.06
    x0, x1 = x0 - pad, x1 + pad
    positive = [v for v in ys if v > 0]
    log = bool(positive) and max(positive) / min(positive) > 20
    if log:
        lo_e = math.floor(math.log10(min(positive)))
        hi_e = math.ceil(math.log10(max(positive)))
        y_ticks = [m * 10.0 ** e for e in range(lo_e, hi_e + 1) for m in (1, 2, 5)
                   if 10.0 ** lo_e <= m * 10.0 ** e <= 10.0 ** hi_e]
        y_lo, y_hi = math.log10(10.0 ** lo_e), math.log10(10.0 ** hi_e)
    else:
        raw = (max(ys) or 1.0) / 4
        mag = 10.0 ** math.floor(math.log10(raw))
        step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
        y_ticks = [step * k for k in range(5)]
        y_lo, y_hi = 0.0, step * 4

    def px(v: float) -> float:
        return left + plot_w * (v - x0) / (x1 - x0)

    def py(v: float) -> float:
        at = math.log10(max(v, 10.0 ** y_lo)) if log else v
        return top + plot_h - plot_h * (at - y_lo) / (y_hi - y_lo)

    out = [f'<svg viewBox="0 0 {width} {height}" width="100%" role="img" aria-label="{esc(title)}">']
    for v in y_ticks:
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{_num(py(v))}" y2="{_num(py(v))}" stroke="#e3e5e8"/>')
        out.append(f'<text x="{left - 4}" y="{_num(py(v) + 4)}" text-anchor="end">{v:g}</text>')
    if len(set(xs)) <= 8:
        ticks = sorted(set(xs))
    else:
        raw = (max(xs) - min(xs)) / 5 or 1.0
        mag = 10.0 ** math.floor(math.log10(raw))
        step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
        ticks = [step * k for k in range(math.ceil(min(xs) / step), math.floor(max(xs) / step) + 1)]
    for t in ticks:
        out.append(f'<text x="{_num(px(t))}" y="{height - bottom + 14}" text-anchor="middle">{_num(t)}</text>')
    out.append(f'<text x="{left + plot_w / 2}" y="{height - 6}" text-anchor="middle">{esc(x_label)}</text>')
    out.append(f'<text x="12" y="{top + plot_h / 2}" text-anchor="middle" transform="rotate(-90 12 '
               f'{_num(top + plot_h / 2)})">{esc(y_label + (" (log scale)" if log else ""))}</text>')
    seen: Counter[float] = Counter()
    spread = plot_w / max(len(set(xs)), 1) * 0.35
    for x, y_, what in points:
        n = seen[x]
        seen[x] += 1
        shift = ((n % 9) - 4) * spread / 9 if len(set(xs)) <= 8 else 0.0
        out.append(f'<circle cx="{_num(px(x) + shift)}" cy="{_num(py(y_))}" r="3.2" fill="#6a3d9a" '
                   f'fill-opacity="0.7"><title>{esc(what)}</title></circle>')
    out.append("</svg>")
    return "".join(out)


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, (int, float)) for v in value):
        return f"{value[0]:.3g}-{value[1]:.3g}"
    if isinstance(value, Mapping):  # a small record: each key with its value
        return ", ".join(f"{k}: {_cell(v)}" for k, v in value.items())
    return str(value)


def insights_html(insights: Mapping[str, Any]) -> str:
    """A game's own figures: scalars and small records as facts, lists of records as tables."""
    facts, tables = [], []
    for key, value in insights.items():
        name = key.replace("_", " ")
        if isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
            columns = tuple(value[0].keys())
            rows = tuple(tuple(_cell(v.get(c)) for c in columns) for v in value)
            align = "".join(">" if isinstance(value[0].get(c), (int, float, list)) else "<" for c in columns)
            tables.append(f"<h3>{esc(name)}</h3>" + table_html(Table(tuple(c.replace("_", " ") for c in columns),
                                                                        rows, align)))
        elif isinstance(value, Mapping):
            said = ", ".join(f"{k.replace('_', ' ')} {_cell(v)}" for k, v in value.items())
            facts.append(f"<dt>{esc(name)}</dt><dd>{esc(said)}</dd>")
        else:
            facts.append(f"<dt>{esc(name)}</dt><dd>{esc(_cell(value))}</dd>")
    return '<dl class="facts">' + "".join(facts) + "</dl>" + "".join(tables)


def played(info: Any, deck: Any, request: Any, deck_sha256: str, title: str, workers: int = 1,
           progress: Any = None) -> tuple[dict[str, bytes], dict[str, Any]]:
    """A playtest's files (playtest.json, playtest.html, games.parquet, cards.parquet) and
    playtest.json's content: the request's games played (``generators.common.playtest``)."""
    import json

    from generators.common import playtest as pt
    from generators.common.corpus import to_bytes

    engine = info.load_engine()
    rows = pt.play_all(info.engine, deck, request, workers, progress=progress)
    said = pt.report(info, engine, deck, request, rows, deck_sha256)
    games_table, cards_table = pt.tables(said, rows)
    files = {
        "playtest.json": (json.dumps(said, indent=2, ensure_ascii=False) + "\n").encode("utf-8"),
        "playtest.html": make(said, rows, title),
        "games.parquet": to_bytes(games_table),
        "cards.parquet": to_bytes(cards_table),
    }
    return files, said


def make(report: Mapping[str, Any], rows: Sequence[Any], title: str) -> bytes:
    """The page for ``report`` (playtest.json's content) and the games' ``rows``."""
    seats = report["seats"]
    players = report["players"]
    seat_rows = [r for r in rows if r.kind == "seat"]
    labels = [f"seat {s['seat']} ({s['agent']})" for s in seats]
    wins = intervals_svg([f"seat {s['seat']}" for s in seats], [s["win_rate"] for s in seats],
                         [s["ci95"] for s in seats], 1 / players, "wins by seat")
    scores = []
    for s, label in enumerate(labels):
        counts = Counter(r.scores[s] for r in seat_rows)
        low, high = min(counts), max(counts)
        values = list(range(low, high + 1))
        plot = bars_svg([str(v) for v in values], [float(counts[v]) for v in values], label, colour="#2e7d32")
        scores.append(f"<figure>{plot}<figcaption>{esc(label)}: final scores (games)</figcaption></figure>")
    turns = Counter(r.turns for r in seat_rows)
    span = list(range(min(turns), max(turns) + 1))
    if len(span) > 30:  # bins of several turns
        width = math.ceil(len(span) / 24)
        starts = list(range(span[0], span[-1] + 1, width))
        binned = [float(sum(turns[t] for t in range(b, b + width))) for b in starts]
        length = bars_svg([str(b) for b in starts], binned, "game length")
    else:
        length = bars_svg([str(t) for t in span], [float(turns[t]) for t in span], "game length")
    cards = report["cards"]
    printed = any("points" in c for c in cards)
    worth = [c for c in cards if c["value"] is not None]
    if printed:
        points = [(float(c["points"]), float(c["value"]), f"card {c['id']}: {c['points']} points, {c['value']:.3g}")
                  for c in worth if "points" in c]
        x_label = "printed points"
    else:
        points = [(float(n + 1), float(c["value"]), f"card {c['id']}: {c['value']:.3g}") for n, c in enumerate(cards)
                  if c["value"] is not None]
        x_label = "card (deck order)"
    value_label = report["pricing"].get("value", "value in play")
    scatter = scatter_svg(points, x_label, "value in play", "each card's value in play")
    columns = ["card", "dealt", "scored", "value in play"] + (["points"] if printed else []) + \
        (["suggested points"] if any(c["suggested_points"] is not None for c in cards) else [])
    table_rows = []
    for c in cards:
        row = [str(c["id"]), str(c["dealt"]), str(c["scored"]), "-" if c["value"] is None else f"{c['value']:.3g}"]
        if printed:
            row.append(str(c.get("points", "-")))
        if "suggested points" in columns:
            row.append(str(c["suggested_points"]))
        table_rows.append(tuple(row))
    table = table_html(Table(tuple(columns), tuple(table_rows), "<" + ">" * (len(columns) - 1)))
    length_facts = report["length"]
    agreement = report.get("agreement")
    agree = ""
    if agreement:
        agree = (f"<p>Prices from play against the printed points: equal on {agreement['equal']:.0%} of the cards, "
                 f"within one step on {agreement['near']:.0%}"
                 + (f", Spearman {agreement['spearman']:.2f}" if agreement["spearman"] is not None else "") + ".</p>")
    findings = "".join(f"<li>{esc(f)}</li>" for f in report["findings"]) or "<li>Nothing to report.</li>"
    parts = [
        "<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title><style>{STYLE}{EXTRA_STYLE}</style></head><body><main>",
        f"<h1>{esc(title)}</h1>",
        f'<p class="lead">{players} players, {report["games"]} games with agents '
        f'{esc(", ".join(report["agents"]))} (seed {report["seed"]}), and {report["pricing"]["games"]} more blind '
        f"to the printed points to price the cards. Deck SHA-256 <code>{esc(report['deck_sha256'][:16])}</code>."
        f"</p>",
        f'<h2>Findings</h2><ul class="findings">{findings}</ul>',
        f'<h2>At a glance</h2><p>A game runs {length_facts["mean_turns"]:g} turns on average; 10% of games end '
        f'by turn {length_facts["p10"]:g}, 90% by turn {length_facts["p90"]:g}'
        + (f"; {length_facts['unended']} did not end" if length_facts.get("unended") else "") + ". "
        f"A card's value in play is {esc(value_label)} (lower is easier), from the pricing games.</p>{agree}"
        f'<div class="plots"><figure>{wins}<figcaption>wins by seat (ties split), with 95% intervals; the dashed '
        f"line is a fair share ({1 / players:.0%})</figcaption></figure>"
        f"<figure>{length}<figcaption>games by their turns</figcaption></figure>"
        f"<figure>{scatter}<figcaption>each card: value in play against {esc(x_label)}</figcaption></figure></div>",
        f'<h2>Scores by seat</h2><div class="plots">{"".join(scores)}</div>',
        f'<h2>Cards in play</h2><p class="lead">Click a column\'s heading to sort by it.</p>{table}',
    ]
    if report.get("insights"):
        parts.append(f"<h2>The game's own questions</h2>{insights_html(report['insights'])}")
    parts.append(f"<script>{SCRIPT}</script></main></body></html>")
    return ("\n".join(parts) + "\n").encode("utf-8")
