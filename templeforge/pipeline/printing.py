"""The report's printing guidance: how to print the paper (scale, paper, duplex), how to
open the 3D kit in each slicer, and every plate's filaments with where its colour changes
fall.

Everything comes from the build's settings and the files beside the report (``bom.csv``,
the plates' own colour-change lists), so the page says what the files hold.
"""

from __future__ import annotations

import csv
import html
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

#: What a duplex setting asks of the person at the printer.
DUPLEX = {
    "long": "Print two-sided, flipped on the long edge (most printers' default two-sided setting). "
            "Print calibration.pdf the same way first and hold it to the light: if the backs' marks do not "
            "sit over the fronts', build again with back_offset = \"X,Y\" in [pdf] (the shift in mm the sheet "
            "shows).",
    "short": "Print two-sided, flipped on the short edge. Print calibration.pdf the same way first and hold it "
             "to the light: if the backs' marks do not sit over the fronts', build again with back_offset = "
             "\"X,Y\" in [pdf] (the shift in mm the sheet shows).",
    "gutter": "Print one-sided: each sheet holds fronts and backs side by side. Cut the sheet's outline, fold it "
              "on the marked centre line, glue the halves, then cut the cards.",
    "none": "Print one-sided: the cards have no backs (build with --duplex long for backs).",
}


def esc(text: object) -> str:
    """``text`` escaped for HTML, quotes too (the report's pages use it throughout)."""
    return html.escape(str(text), quote=True)


def paper_html(pdf: Mapping[str, Any], files: Sequence[str]) -> str:
    """How to print the PDFs of a build made with the ``pdf`` stage's values."""
    paper = pdf.get("paper")
    name = getattr(paper, "name", "a4")
    size = f"{name.upper() if name.startswith('a') else name.title()}"
    if paper is not None:
        size += f" ({paper.width:g} x {paper.height:g} mm)"
    pdfs = sorted(n for n in files if n.endswith(".pdf") and "/" not in n)
    duplex = str(pdf.get("duplex", "none"))
    bleed = float(pdf.get("bleed", 0) or 0)
    if pdf.get("layout") == "cards":
        items = [
            "cards.pdf has one card a page, for a print-on-demand service: each page is the card with its "
            f"{bleed:g} mm bleed (the BleedBox), the card itself its TrimBox"
            + (", each front's back on the page after it" if duplex != "none" else ", fronts only")
            + ". Upload it as it is, at 100%.",
            f"The other PDFs ({', '.join(n for n in pdfs if n != 'cards.pdf') or 'none'}) are sheets to print "
            f"at home at 100% scale on {esc(size)}.",
        ]
        return "<h3>Paper</h3><ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>"
    items = [
        f"Print {', '.join(pdfs) or 'the PDFs'} at <strong>100% scale</strong> (\"Actual size\"; not \"Fit to "
        f"page\"): the files ask viewers not to scale them, and the ruler on every sheet must measure "
        f"what it says. Paper: {esc(size)}.",
        esc(DUPLEX.get(duplex, DUPLEX["none"])),
        "Cards: 250-300 gsm card stock (90-110 lb cover) holds up to play; or print on plain paper and "
        "slide each card into a sleeve in front of an old playing card.",
        "Cut on the crop marks: every cut line is marked at both edges of the sheet, outside the cards"
        + (f", and the colour runs {bleed:g} mm past each cut (bleed), so a cut a little off shows no white edge"
           if bleed else "") + ".",
    ]
    if pdf.get("layout") == "tight":
        items[-1] = (
            "The cards touch and share their cuts (tight layout), so each cut line is marked only at the sheet's "
            "edges" + (f" and the colour runs {bleed:g} mm past the outer cuts" if bleed else "") + ". Cut the "
            "inner lines of one direction first, right across the sheet, each by its two marks; then stack the "
            "strips square on their uncut paper edge under an outer strip and cut the other lines by its marks; "
            "trim the outer edges last.")
    return "<h3>Paper</h3><ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>"


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def changes_of(folder: Path) -> dict[int, tuple[tuple[float, str], ...]]:
    """Every NO-AMS plate's colour changes (``cad.common.threemf.colour_changes``), by plate."""
    from cad.common.threemf import colour_changes

    out = {}
    for path in sorted((folder / "no-ams").glob("plate-*.3mf")):
        out[int(path.stem.split("-")[1])] = colour_changes(path.read_bytes())
    return out


def _heights(changes: Mapping[int, tuple[tuple[float, str], ...]]) -> str:
    """The colour-change heights of a kit, with the plates at each (``3.6 mm: plates 3-27``)."""
    at: dict[float, list[int]] = {}
    for plate, these in changes.items():
        for z, _ in these:
            at.setdefault(z, []).append(plate)
    from print.common.sheets import id_ranges

    return "; ".join(f"{z:g} mm (plate{'s' if len(plates) > 1 else ''} {id_ranges(sorted(plates))})"
                     for z, plates in sorted(at.items()))


def plastic_html(cad: Mapping[str, Any], folder: Path) -> str:
    """How to open the 3D kit in ``folder`` (``models/``) in each slicer, for the ``cad``
    stage's values; an empty string without a kit."""
    if not (folder / "bom.csv").is_file():
        return ""
    printer = cad.get("printer")
    slicer = cad.get("slicer")
    layout = slicer.for_printer(printer).value if slicer is not None and printer is not None else "bambu"
    title = getattr(printer, "title", "the printer")
    ams = sorted((folder / "ams").glob("plate-*.3mf"))
    no_ams = sorted((folder / "no-ams").glob("plate-*.3mf"))
    changes = changes_of(folder)
    heights = _heights(changes)
    gcode = sorted((folder / "gcode").glob("plate-*.gcode"))
    items = [f"The plates are laid out for the {esc(title)}"
             + (f" ({printer.width:g} x {printer.depth:g} mm bed"
                + (", clear of its excluded front-left corner" if printer.excluded else "") + ")"
                if printer is not None else "") + ". One 3MF file per plate: open the ones to print now, or all of "
             "them at once."]
    if heights:
        items.append(f"NO-AMS colour changes (already in the files; the printer pauses before the layer at each "
                     f"height and asks for the next filament): {esc(heights)}.")
    bambu = ("<strong>Bambu Studio, OrcaSlicer</strong>: double-click a plate, drag it onto the window, or File "
             "&gt; Open. Each opens as a project, with every filament in its colour")
    prusa = ("<strong>PrusaSlicer</strong> (2.8 or later): drag a plate onto the window or File &gt; Import; "
             "when it asks, load it as a project, so the colour changes come with it")
    together = [f"models/{p.name}"
                for p in sorted(folder.glob("*-all-plates*.3mf"), key=lambda p: (len(p.name), p.name))]
    if together:
        items.append("Or open every plate at once: " + " or ".join(f'<a href="{esc(n)}">{esc(n)}</a>' for n in together)
                     + " holds all the plates of its profile as one Bambu Studio / OrcaSlicer project (or, where "
                     "their filaments come to more than 16, the plates in turn over several), each plate "
                     "with its picture and colour changes; its filament list is the kit's, and each plate uses "
                     "only its own (at most the AMS's slots), which the slicer maps to slots when it prints.")
    if layout == "bambu":
        items.append(bambu + (": load each AMS plate's filaments into the slots the table below gives" if ams
                              else "") + (", and the NO-AMS plates with their colour changes in the preview"
                                          if no_ams else "") + ".")
        items.append(prusa + ". It reads these plates' geometry and colour changes, but not the AMS plates' "
                     "filament per part: for PrusaSlicer, build with slicer = \"prusa\" in [cad].")
    else:
        items.append(prusa + (", and every part in the extruder the table below gives" if ams else "") + ".")
        items.append("<strong>Bambu Studio, OrcaSlicer</strong> open these plates as geometry only, without "
                     "their filaments and colour changes: for them, build with slicer = \"bambu\" in [cad].")
    if gcode:
        items.append(f"<strong>G-code</strong>: <a href=\"models/gcode/\">models/gcode/</a> holds each NO-AMS "
                     f"plate sliced for the {esc(title)} in PLA: copy a file to the printer and print it; it "
                     f"stops with M600 at each colour change.")
    return "<h3>3D kit</h3><ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>"


def plates_html(folder: Path) -> str:
    """Every plate's filaments, from ``bom.csv``: AMS plates by slot, NO-AMS plates in the
    order the filaments are loaded (at the start, then at each colour change)."""
    path = folder / "bom.csv"
    if not path.is_file():
        return ""
    rows = _rows(path)
    changes = changes_of(folder)
    body = []
    for r in rows:
        plate, slot = int(r["plate"]), int(r["slot"])
        if r["profile"] == "ams":
            when = f"AMS slot {slot}"
        else:
            heights = [z for z, c in changes.get(plate, ()) if c.lower() == r["hex"].lower()]
            when = ", ".join((["at the start"] if slot == 1 else []) + [f"at {z:g} mm" for z in heights]) or "-"
        swatch = (f'<span class="swatch" style="background:{esc(r["hex"])}"></span>{esc(r["colour"])} '
                  f'<code>{esc(r["hex"])}</code>')
        body.append(f"<tr><td>{esc(r['profile'])}</td><td class=\"r\">{plate}</td><td>{when}</td>"
                    f"<td>{swatch}</td><td>{esc(r['filament'])}</td><td class=\"r\">{esc(r['parts'])}</td>"
                    f"<td class=\"r\">{float(r['grams_solid']):.1f}</td></tr>")
    plates = len({(r["profile"], r["plate"]) for r in rows})
    return (f"<details open><summary>Each plate's filaments ({plates} plates)</summary><div class=\"wide\"><table>"
            "<thead><tr><th>profile</th><th class=\"r\">plate</th><th>loaded</th><th>colour</th><th>filament</th>"
            "<th class=\"r\">parts</th><th class=\"r\">grams (solid)</th></tr></thead><tbody>"
            + "".join(body) + "</tbody></table></div></details>")
