"""``report.html``: one self-contained page about a build (no network, no other file needed
to read it: images are inline, plots are SVG drawn here, the table sorts with a few lines
of script). Thumbnails link to the full previews beside it.

The page is made from the game's figures (its rules' ``build_report``) and captions (its
cad module's ``CAPTIONS``), the
build's files (previews, ``models/bom.csv``) and its records (the command, versions and
versions). Two builds of the same request give the same page, byte for byte: the stages'
times are in ``build.json`` only.
"""

from __future__ import annotations

import base64
import csv
import io
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generators.common.figures import Bars, Drawing, Fact, Figure, Histogram, Table
from generators.common.words import plural
from generators.contract import Paper
from templeforge.pipeline.printing import esc, paper_html, plastic_html, plates_html

if TYPE_CHECKING:  # the report is given its data; it does not reach back into the runner
    from templeforge.pipeline.runner import Reported

THUMB = 360  #: the longest side of a thumbnail, in pixels

STYLE = """
.stamp { position: sticky; top: 0; z-index: 9; background: #c62828; color: #fff; font-weight: 700;
         padding: 8px 16px; text-align: center; letter-spacing: 0.04em; }
@media print { .stamp { position: fixed; top: 0; left: 0; right: 0; } }
:root { --ink: #1d1d1f; --muted: #5f6368; --line: #d9dce1; --soft: #f5f6f8; --accent: #0b5cad; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); }
main { max-width: 1120px; margin: 0 auto; padding: 16px; }
h3 { font-size: 1.02em; margin: 1em 0 0.2em; }
h1 { font-size: 1.6em; margin: 0.2em 0; } h2 { font-size: 1.2em; margin-top: 1.6em;
  border-bottom: 1px solid var(--line); padding-bottom: 4px; }
.lead { color: var(--muted); margin-top: 0; }
.verdict { padding: 10px 14px; border-radius: 6px; background: #e7f4ea; border: 1px solid #9fd3ad; }
.verdict.bad { background: #fdecea; border-color: #f1a7a0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 14px; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; }
.wide { overflow-x: auto; }
table { border-collapse: collapse; font-size: 0.92em; }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: middle; }
th { background: var(--soft); text-align: left; position: sticky; top: 0; }
th.sort { cursor: pointer; user-select: none; } th.sort::after { content: " \\2195"; color: var(--muted); }
td.r, th.r { text-align: right; font-variant-numeric: tabular-nums; }
.plots { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 16px; }
figure { margin: 0; } figcaption { color: var(--muted); font-size: 0.9em; }
.thumbs { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 10px; }
.thumbs a { display: block; text-decoration: none; color: var(--muted); font-size: 0.85em; }
.thumbs img { width: 100%; height: auto; border: 1px solid var(--line); background: #fff; }
.swatch { display: inline-block; width: 0.9em; height: 0.9em; border: 1px solid #666; border-radius: 2px;
          vertical-align: -0.1em; margin-right: 6px; }
details summary { cursor: pointer; color: var(--accent); margin: 6px 0; }
code, pre { background: var(--soft); border-radius: 4px; padding: 1px 4px; font-size: 0.9em; }
pre { padding: 8px; overflow-x: auto; }
svg text { font: 11px system-ui, sans-serif; fill: var(--ink); }
@media (max-width: 600px) { dl.facts { grid-template-columns: 1fr; } dl.facts dd { margin-bottom: 6px; } }
"""

SCRIPT = """
document.querySelectorAll("table.sortable").forEach(function (table) {
  table.querySelectorAll("th").forEach(function (th, column) {
    th.classList.add("sort");
    th.addEventListener("click", function () {
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      var down = th.dataset.order !== "up";
      th.dataset.order = down ? "up" : "down";
      rows.sort(function (a, b) {
        var x = a.cells[column].dataset.v, y = b.cells[column].dataset.v;
        var nx = parseFloat(x), ny = parseFloat(y);
        var c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : String(x).localeCompare(String(y));
        return down ? c : -c;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
"""


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


# -- plots -------------------------------------------------------------------------------------


#: The most labels a bar chart writes under its bars (more would run into each other).
LABELS = 16


def bars_svg(labels: Sequence[str], values: Sequence[float], title: str, width: int = 480, height: int = 220,
             colour: str = "#0b5cad") -> str:
    """A bar chart as SVG: one bar per label (each label under its bar, or every k-th when
    more than ``LABELS`` would crowd; every bar names itself on hover)."""
    left, bottom, top = 34, 34, 16
    every = max(1, math.ceil(len(labels) / LABELS))
    plot_w, plot_h = width - left - 8, height - bottom - top
    most = max(values, default=0) or 1
    if all(float(v).is_integer() for v in values):  # counts: whole-number ticks
        tick = max(1, math.ceil(most / 4))
        most = tick * 4
    step = plot_w / max(len(values), 1)
    out = [f'<svg viewBox="0 0 {width} {height}" width="100%" role="img" aria-label="{esc(title)}">']
    for k in range(5):
        v = most * k / 4
        y = top + plot_h - plot_h * k / 4
        out.append(f'<line x1="{left}" x2="{width - 8}" y1="{_num(y)}" y2="{_num(y)}" stroke="#e3e5e8"/>')
        out.append(f'<text x="{left - 4}" y="{_num(y + 4)}" text-anchor="end">{_num(v)}</text>')
    for i, (label, value) in enumerate(zip(labels, values)):
        h = plot_h * value / most
        x = left + i * step + step * 0.12
        out.append(f'<rect x="{_num(x)}" y="{_num(top + plot_h - h)}" width="{_num(step * 0.76)}" '
                   f'height="{_num(h)}" fill="{colour}"><title>{esc(label)}: {value:g}</title></rect>')
        if i % every == 0:
            out.append(f'<text x="{_num(x + step * 0.38)}" y="{height - bottom + 14}" text-anchor="middle">'
                       f'{esc(label)}</text>')
    out.append("</svg>")
    return "".join(out)


def histogram_svg(h: Histogram) -> str:
    labels = [f"{h.start + i * h.width:g}" for i in range(len(h.bins))]
    return bars_svg(labels, [float(n) for n in h.bins], h.title, colour="#6a3d9a")


#: The side of a picture's cell in the report, in pixels: one scale for every picture, so a
#: larger lock draws larger, and room for the cell's letter.
CELL = 16


def picture_svg(picture: str, colours: Mapping[str, str], cell: int = CELL) -> str:
    """A text picture (a letter per cell, ``.`` for none) as a grid of coloured squares, each
    with its letter (read without telling colours apart), in a frame round the picture."""
    rows = picture.splitlines()
    width = max((len(r) for r in rows), default=0)
    out = [f'<svg viewBox="0 0 {width * cell} {len(rows) * cell}" width="{width * cell}" '
           f'height="{len(rows) * cell}" role="img" aria-label="{esc(picture)}">',
           f'<rect x="0.5" y="0.5" width="{width * cell - 1}" height="{len(rows) * cell - 1}" '
           f'fill="#F4EFE3" stroke="#B8A98A" stroke-width="1" stroke-dasharray="2 2"/>']
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch in ". ":
                continue
            fill = colours.get(ch, "#888888")
            ink = "#000" if _light(fill) else "#fff"
            out.append(f'<rect x="{x * cell}" y="{y * cell}" width="{cell}" height="{cell}" fill="{fill}" '
                       f'stroke="#333" stroke-width="0.6"/>'
                       f'<text x="{x * cell + cell / 2:g}" y="{y * cell + cell * 0.7:g}" font-size="{cell * 0.55:g}" '
                       f'text-anchor="middle" font-weight="bold" fill="{ink}">{esc(ch)}</text>')
    out.append("</svg>")
    return "".join(out)


def _light(colour: str) -> bool:
    """Whether black reads better than white on ``colour`` (``#RRGGBB``)."""
    from generators.common.palette import INK, text_on

    return text_on(colour) == INK if colour.startswith("#") and len(colour) == 7 else True


# -- figures -----------------------------------------------------------------------------------


def table_html(t: Table, sortable: bool = True) -> str:
    align = (t.align or "<" * len(t.columns)).ljust(len(t.columns), "<")
    colours = dict(t.colours)
    orders = {column: {word: str(rank) for rank, word in enumerate(words)} for column, words in t.orders}
    head = "".join(f'<th class="{"r" if a == ">" else ""}">{esc(c)}</th>' for c, a in zip(t.columns, align))
    rows = []
    for row in t.rows:
        cells = []
        for i, (value, a) in enumerate(zip(row, align)):
            if i in t.pictures:
                cells.append(f'<td data-v="{sum(ch not in ". " for ch in value)}">'
                             f'{picture_svg(value, colours)}</td>')
            else:
                key = orders.get(i, {}).get(value, value)
                cells.append(f'<td class="{"r" if a == ">" else ""}" data-v="{esc(key)}">{esc(value)}</td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    kind = ' class="sortable"' if sortable else ""
    return (f'<div class="wide"><table{kind}><thead><tr>{head}</tr></thead><tbody>'
            + "".join(rows) + "</tbody></table></div>")


def figures_html(figures: Sequence[Figure]) -> tuple[str, str, str]:
    """(facts, plots, tables) as HTML."""
    facts, plots, tables = [], [], []
    for f in figures:
        if isinstance(f, Fact):
            facts.append(f"<dt>{esc(f.label)}</dt><dd>{esc(f.text)}</dd>")
        elif isinstance(f, Histogram):
            plots.append(f"<figure>{histogram_svg(f)}<figcaption>{esc(f.title)}</figcaption></figure>")
        elif isinstance(f, Bars):
            plots.append(f"<figure>{bars_svg(f.labels, f.values, f.title)}<figcaption>{esc(f.title)}"
                         f"</figcaption></figure>")
        elif isinstance(f, Table):
            tables.append(table_html(f))
        elif isinstance(f, Drawing):
            tables.append(f"<h3>{esc(f.title)}</h3><pre>{esc(f.picture)}</pre>")
    return ('<dl class="facts">' + "".join(facts) + "</dl>", '<div class="plots">' + "".join(plots) + "</div>",
            "".join(tables))


# -- images ------------------------------------------------------------------------------------


def thumbnail(path: Path, size: int = THUMB) -> str:
    """A PNG shrunk to ``size`` pixels on its longest side, as a data URI (the same bytes
    for the same image)."""
    from PIL import Image

    with Image.open(path) as image:
        image = image.convert("RGB")
        image.thumbnail((size, size), Image.Resampling.LANCZOS)
        buf = io.BytesIO()
        image.save(buf, "PNG", optimize=True)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def thumbs_html(folder: Path, names: Sequence[str], label: Any = None) -> str:
    items = []
    for name in names:
        caption = label(name) if label else Path(name).stem
        items.append(f'<a href="{esc(name)}"><img src="{thumbnail(folder / name)}" alt="{esc(caption)}">'
                     f"<span>{esc(caption)}</span></a>")
    return '<div class="thumbs">' + "".join(items) + "</div>"


# -- the bill of materials ---------------------------------------------------------------------


def bom_html(path: Path) -> str:
    """Per profile and filament: plates, parts and grams, from ``bom.csv``."""
    if not path.is_file():
        return "<p>No 3D kit in this build.</p>"
    with path.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    totals: dict[tuple[str, str], list[float]] = {}
    plates: dict[str, set[str]] = {}
    for r in rows:
        t = totals.setdefault((r["profile"], r["filament"]), [0, 0.0, 0])
        t[0] += int(r["parts"])
        t[1] += float(r["grams_solid"])
        t[2] += 1
        plates.setdefault(r["profile"], set()).add(r["plate"])
    body = []
    for (profile, filament), (parts, grams, on) in sorted(totals.items()):
        body.append((profile, filament, str(int(on)), str(int(parts)), f"{grams:.1f}"))
    weight = {profile: sum(t[1] for (pr, _), t in totals.items() if pr == profile) for profile in plates}
    summary = ", ".join(f"{profile}: {plural(len(p), 'plate')}, {weight[profile]:.0f} g"
                        for profile, p in sorted(plates.items()))
    table = Table(("profile", "filament", "plates", "parts", "grams (solid)"), tuple(body), "<<>>>")
    return (f"<p>{esc(summary)} at most (printed solid; the slicer's infill takes less). "
            f'Per plate: <a href="models/bom.csv">models/bom.csv</a>.</p>' + swaps_html(rows) + table_html(table))


def swaps_html(rows: Sequence[Mapping[str, str]]) -> str:
    """Each profile's filament swaps (AMS) or colour changes (NO-AMS), with the plates that
    have the most and what AMS swaps purge, from ``bom.csv`` (none in an older one)."""
    if not rows or "plate_swaps" not in rows[0]:
        return ""
    said = []
    for profile in sorted({r["profile"] for r in rows}):
        plates = {r["plate"]: (int(r["plate_swaps"]), float(r["plate_purge_grams"])) for r in rows
                  if r["profile"] == profile}
        total = sum(n for n, _ in plates.values())
        purge = sum(g for _, g in plates.values())
        most = max(n for n, _ in plates.values())
        worst = sorted((p for p, (n, _) in plates.items() if n == most), key=int)
        none = sum(1 for n, _ in plates.values() if n == 0)
        if profile == "ams":
            text = (f"AMS: {plural(total, 'filament swap')} in all (about {purge:.0f} g purged), "
                    f"{plural(none, 'plate')} of {len(plates)} with none")
        else:
            text = (f"NO-AMS: {plural(total, 'colour change')} in all, {plural(none, 'plate')} of {len(plates)} "
                    f"with none")
        if most:
            text += f"; the most, {most}, on plate{'s' if len(worst) > 1 else ''} {', '.join(worst)}"
        said.append(text)
    return f"<p>{esc('. '.join(said))}.</p>"


# -- the page ----------------------------------------------------------------------------------


def page(*, title: str, lead: str, verdict: tuple[bool, str], command: str, versions: Mapping[str, str],
         figures: Sequence[Figure], folder: Path, files: Sequence[str],
         links: Sequence[tuple[str, str]], captions: Mapping[str, str], stamp: str | None = None,
         guidance: str = "", played: str = "") -> str:
    """The whole report as HTML text; ``stamp`` (``UNVERIFIED``) heads it, stays in view at
    the top of the window as the page scrolls, and is printed on every printed page."""
    facts, plots, tables = figures_html([f for f in figures if not (isinstance(f, Fact) and
                                                                   f.label == "verification")])
    ok, said = verdict
    pages = sorted(n for n in files if n.startswith("previews/") and n.endswith(".png")
                   and not n.endswith("contact-sheet.png"))
    ams = sorted(n for n in files if n.startswith("models/previews/ams/"))
    no_ams = sorted(n for n in files if n.startswith("models/previews/no-ams/"))
    assembled = sorted(n for n in files if n.startswith("models/previews/") and n.count("/") == 2)
    contact = [n for n in files if n.endswith("previews/contact-sheet.png")]
    version_rows = "".join(f"<tr><td>{esc(k)}</td><td>{esc(v)}</td></tr>" for k, v in sorted(versions.items()))
    link_items = "".join(f'<li><a href="{esc(href)}">{esc(href)}</a>: {esc(what)}</li>' for href, what in links)
    parts = [
        "<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(f'{stamp}: {title}' if stamp else title)}</title><style>{STYLE}</style></head><body>",
        (f'<div class="stamp">{esc(stamp)}: this deck was printed without proof: it failed verification or was '
         f"not verified</div>" if stamp else ""),
        "<main>",
        f"<h1>{esc(title)}</h1><p class=\"lead\">{esc(lead)}</p>",
        f'<p class="verdict{"" if ok else " bad"}"><strong>{"Verified" if ok else "Not verified"}:</strong> '
        f"{esc(said)}</p>",
        f"<h2>What was built</h2><ul>{link_items}</ul>",
        f"<h2>How to print</h2>{guidance}" if guidance else "",
        f"<h2>The deck</h2>{facts}{plots}",
        f"<h2>Cards</h2><p class=\"lead\">Click a column's heading to sort by it.</p>{tables}",
    ]
    if pages:
        parts.append("<h2>Print and play</h2>")
        if contact:
            parts.append("<p>Every card front:</p>" + thumbs_html(folder, contact, lambda n: "contact sheet"))
        parts.append("<p>Every page as printed (click for full size):</p>" + thumbs_html(folder, pages))
    if ams or no_ams or assembled:
        parts.append("<h2>3D kit</h2>")
        if assembled:
            parts.append(f"<p>{esc(captions.get('assembled', 'Previews'))}:</p>" + thumbs_html(folder, assembled))
        if ams:
            parts.append(f'<p>Every AMS plate (<a href="models/ams/">models/ams/</a>, '
                         f"{esc(captions.get('ams', 'each part in its own filament'))}), from above:</p>"
                         + thumbs_html(folder, ams))
        if no_ams:
            parts.append(f'<p>Every NO-AMS plate (<a href="models/no-ams/">models/no-ams/</a>, '
                         f"{esc(captions.get('no-ams', 'one filament'))}), from above:</p>"
                         + thumbs_html(folder, no_ams))
    if played:
        parts.append("<h2>Playtests</h2>" + played)
    parts.append("<h2>Bill of materials</h2>" + bom_html(folder / "models" / "bom.csv")
                 + plates_html(folder / "models"))
    parts.append(f"<h2>Reproduce it</h2><pre>{esc(command)}</pre><div class=\"wide\"><table><thead><tr>"
                 f"<th>package</th><th>version</th></tr></thead><tbody>{version_rows}</tbody></table></div>")
    parts.append("<p>Each stage's time is in <code>build.json</code>, beside this page: the page itself is the "
                 "same on every build of the same request.</p>")
    parts.append(f"<script>{SCRIPT}</script></main></body></html>")
    return "\n".join(parts) + "\n"


def played_html(path: Path) -> str:
    """The build's playtest in short (its seats and findings), linking to its own page; empty
    when the build played none."""
    import json

    if not path.is_file():
        return ""
    said = json.loads(path.read_text("utf-8"))
    rows = tuple((str(s["seat"]), s["agent"], f"{s['win_rate']:.1%}", f"{s['ci95'][0]:.1%}-{s['ci95'][1]:.1%}",
                  f"{s['mean_score']:.1f}") for s in said["seats"])
    table = Table(("seat", "agent", "wins", "95% interval", "mean score"), rows, "<<>>>")
    findings = "".join(f"<li>{esc(f)}</li>" for f in said["findings"]) or "<li>Nothing to report.</li>"
    length = said["length"]
    return (f"<p>{said['games']} games of {said['players']} players (agents {esc(', '.join(said['agents']))}, seed "
            f"{said['seed']}): a game runs {length['mean_turns']:g} turns on average. Every figure and picture: "
            f'<a href="playtest/playtest.html">playtest/playtest.html</a>.</p>'
            + table_html(table, sortable=False) + f"<ul>{findings}</ul>")


def links(paper: Paper) -> tuple[tuple[str, str], ...]:
    """The files the report lists, each with what it holds (the game's PDFs from its print
    module)."""
    return (("deck.json", "the deck: every card and what was proved of it"), *paper.FILES,
            ("models/", "STL, 3MF plates (ams/, no-ams/), previews and bom.csv"),
            ("playtest/playtest.html", "whole games played by agents: the seats, the length of a game, each "
                                       "card's worth in play (and playtest.json, games.parquet, cards.parquet)"),
            ("manifest.json", "every file with its size and SHA-256"))


def make(made: Reported) -> bytes:
    """The report of the build in ``made.folder`` (its files so far, its stage records)."""
    from cad import plastic_of
    from print import paper_of
    from templeforge import __version__

    info = made.settings.game
    figures = info.load_rules().build_report(made.deck, made.check)
    verdict = next((f.text for f in figures if isinstance(f, Fact) and f.label == "verification"), "")
    folder = made.folder
    files = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    have = set(files)
    listed = [(href, what) for href, what in links(paper_of(info))
              if href in have or (href.endswith("/") and any(n.startswith(href) for n in files))]
    given = made.settings.deck
    origin = f"from {Path(given[0]).name}" if given else f"seed {made.settings.generate.values.get('seed')}"
    lead = (f"{len(made.deck.cards)} cards, {origin}, built by templeforge {__version__}. Everything below "
            f"comes from the files beside this page.")
    guidance = paper_html(made.settings.pdf.values, files) + plastic_html(made.settings.cad.values,
                                                                          folder / "models")
    text = page(title=f"{info.title}: the kit", lead=lead, verdict=(made.check.ok, verdict), command=made.command,
                versions=made.versions, figures=figures, folder=folder, files=files,
                links=listed, captions=plastic_of(info).CAPTIONS, stamp=made.stamp, guidance=guidance,
                played=played_html(folder / "playtest" / "playtest.json"))
    return text.encode("utf-8")
