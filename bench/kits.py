"""Benchmark: every game's default kit for every named printer, read back as the slicers
read it.

Run by hand::

    .venv/bin/python bench/kits.py [--printer NAME ...] [--game NAME ...] [--out output/bench-kits]

Makes each game's default deck once (``templeforge generate GAME``, not timed), then for
each printer writes the game's whole kit as a user does (``templeforge cad DECK --printer
P``, timed) and reads every 3MF file of it with ``cad.common.readers.problems`` (timed,
against the kit it reads as its peer). Prints, per printer and game: the files, the
problems found (the target is none), the most filament swaps of an AMS plate of
several-colour parts, the swaps of the plates of one-colour parts (the target is none),
and the seconds. With ``--slice-alone N`` it also slices up to N plates of each
PrusaSlicer-layout kit (``-1``: every plate) with PrusaSlicer's command line given the
project file and nothing else, so that whatever it prints with is the project's own, and
finds in the G-code the printer's check (``M862.3 P "MODEL"`` for a Prusa printer), a
heated bed (``M140``/``M190`` at 40 °C or more) and a nozzle heated before the first
layer. Every problem is printed in full after the table.
"""

from __future__ import annotations

import argparse
import csv
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import ROOT, command  # noqa: E402
from cad.common import slicing  # noqa: E402
from cad.common.profile import PRINTERS, Printer  # noqa: E402
from cad.common.readers import problems  # noqa: E402
from generators import GAMES  # noqa: E402


def swaps(bom: Path) -> tuple[int, int]:
    """The most swaps of a plate of several-colour parts, and the swaps of every plate of
    one-colour parts (a plate loading one filament), added up, from ``bom.csv``."""
    plates: dict[tuple[str, str], tuple[int, int]] = {}
    with bom.open(newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            key = (row["profile"], row["plate"])
            loads, swapped = plates.get(key, (0, 0))
            plates[key] = (loads + 1, int(row["plate_swaps"] or 0))
    mixed = max((s for loads, s in plates.values() if loads > 1), default=0)
    single = sum(s for loads, s in plates.values() if loads == 1)
    return mixed, single


def sliced_alone(path: Path, printer: Printer) -> list[str]:
    """What is wrong with the G-code PrusaSlicer makes of the project at ``path`` given no
    other option: no printer check, no heated bed or nozzle before the first layer."""
    out = path.with_suffix(".gcode")
    done = subprocess.run([slicing.find() or "prusa-slicer", "--export-gcode", str(path), "--output", str(out)],
                          capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        return [f"{path}: PrusaSlicer refused it: {(done.stdout + done.stderr).strip()[-300:]}"]
    gcode = out.read_text("utf-8", "replace")
    out.unlink()
    head = gcode[:gcode.find(";LAYER_CHANGE")] if ";LAYER_CHANGE" in gcode else gcode
    found = []
    if printer.prusa and f'M862.3 P "{printer.prusa}"' not in head:
        found.append(f'{path}: no printer check M862.3 P "{printer.prusa}" before the first layer')
    beds = [int(float(t)) for t in re.findall(r"^M1[49]0 S(\d+(?:\.\d+)?)", head, re.M)]
    if not beds or max(beds) < 40:
        found.append(f"{path}: the bed is heated to {max(beds, default=0)} °C before the first layer")
    if not re.search(r"^M109 S(1[5-9]\d|2\d\d)", head, re.M):
        found.append(f"{path}: the nozzle is not heated before the first layer")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--printer", action="append", choices=list(PRINTERS))
    parser.add_argument("--game", action="append", choices=list(GAMES))
    parser.add_argument("--out", type=Path, default=ROOT / "output" / "bench-kits")
    parser.add_argument("--slice-alone", type=int, default=0, metavar="N")
    args = parser.parse_args()
    printers = args.printer or list(PRINTERS)
    games = args.game or list(GAMES)
    args.out.mkdir(parents=True, exist_ok=True)
    decks = {}
    for game in games:
        deck = args.out / f"{game}.json"
        if not deck.exists():
            ran = command(["generate", game, "--out", str(deck)])
            if ran.status:
                sys.exit(f"templeforge generate {game} failed ({ran.status})")
        decks[game] = deck
    print("| printer | game | files | problems | most swaps, mixed plate | swaps, one-colour plates "
          "| kit s | read s | read / kit |")
    print("|---|---|---|---|---|---|---|---|---|")
    found: list[str] = []
    for name in printers:
        for game in games:
            folder = args.out / name / game
            ran = command(["cad", str(decks[game]), "--printer", name, "--out", str(folder)])
            if ran.status:
                print(f"| {name} | {game} | templeforge cad failed ({ran.status}) | | | | | | |")
                found.append(f"{name} {game}: templeforge cad failed ({ran.status})")
                continue
            started = time.perf_counter()
            files = sorted(folder.rglob("*.3mf"))
            mine = [p for path in files for p in problems(str(path.relative_to(args.out)), path.read_bytes())]
            read = time.perf_counter() - started
            mixed, single = swaps(folder / "bom.csv")
            plates = sorted(folder.glob("*ams/plate-*.3mf"))
            if args.slice_alone and plates and b"Slic3r_PE.config" in plates[0].read_bytes():
                chosen = plates if args.slice_alone < 0 else plates[:args.slice_alone]
                mine += [p for path in chosen for p in sliced_alone(path, PRINTERS[name])]
                sliced = f", {len(chosen)} sliced alone"
            else:
                sliced = ""
            found += mine
            print(f"| {name} | {game} | {len(files)}{sliced} | {len(mine)} | {mixed} | {single} | {ran.seconds:.1f} "
                  f"| {read:.1f} | {read / ran.seconds:.2f} |", flush=True)
    print(f"\n{len(found)} problems" + (":" if found else ""))
    for line in found:
        print(f"- {line}")


if __name__ == "__main__":
    main()
