"""``templeforge cad``: the printable 3D kit of a deck (STL, AMS and NO-AMS 3MF plates,
previews and a bill of materials)."""

from __future__ import annotations

import sys
import time
from typing import Any

import click

from cad.common.options import OPTIONS, OUT  # light: no CadQuery until the command runs
from cad.common.profile import Physical, Printer
from templeforge.options import declared, out_folder, unverified_option
from templeforge.terminal import plural


@click.command()
@click.argument("deck_file", metavar="DECK.json", required=False)  # not with --print-settings
@declared(OPTIONS)
@click.option("--settings", metavar="FILE.toml", help="Physical settings (pitch, clearance, depths, ...); "
              "`templeforge cad --print-settings` prints every one with its unit and reason.")
@click.option("--slice", "slice_", is_flag=True,
              help="Also slice every plate with PrusaSlicer's command line (Debian: prusa-slicer) and check "
                   "that it prints each part in the filament and with the colour changes its file names; "
                   "writes sliced.csv (layers, grams at 15% infill, print time per plate) and, for a Prusa "
                   "printer or one whose presets PrusaSlicer has (the Ender-3), gcode/ (each NO-AMS plate ready "
                   "to print, M600 at its colour changes).")
@click.option("--print-settings", is_flag=True, help="Print the default settings file and stop.")
@unverified_option
def cad(deck_file: str | None, settings: str | None, slice_: bool, print_settings: bool, unverified: bool,
        **given: Any) -> None:
    """Write the 3D kit of a deck: one STL per distinct part (stl/), 3MF plates for AMS
    (ams/) and single-extruder printers (no-ams/), PNG previews of every plate and of the
    first card with face 1's solution in its pocket (previews/), and a bill of materials
    (bom.csv: per plate and filament, the parts and grams). Each plate is a 3MF file that
    Bambu Studio and OrcaSlicer (or, with --slicer prusa, PrusaSlicer) open with every
    part's filament and the NO-AMS colour change in place.

    Pieces are their shapes shrunk by half the clearance and every pocket, hole or tray is
    grown by it, so every stored solution fits (the tests prove it).

    With --slice, PrusaSlicer slices every plate (0.2 mm layers, 15% infill, its generic
    printer) and the G-code is read back: each part must extrude from the extruder its file
    names and each NO-AMS colour change come before the first layer above its floor. For a
    Prusa printer (--printer prusa-mk4, prusa-mk4s, prusa-mini, prusa-core-one) the NO-AMS
    plates are sliced with its presets from PrusaSlicer's vendor bundle where installed, else
    with its start G-code (model and nozzle check, bed levelling, purge line) and PLA at
    215/60 C, and written to gcode/plate-NN.gcode: copy one to the printer and it prints,
    stopping at each colour change (M600) for the next filament. So is a printer whose presets
    the installed bundle has (the Ender-3, in Creality.ini), with its own start G-code.

    Only a proved deck is modelled: a deck sealed by `templeforge generate` or `verify
    --seal` (and unchanged since) is trusted; any other deck is verified first.

    Exit status: 0 written, 1 the deck fails verification or a plate does not slice as
    its file says (nothing written), 2 bad input (nothing written), 73 a file could not be
    written; and, as every command, 70 a bug, 74 standard output, 130 interrupted, 141 a
    closed pipe.

    Example:

        templeforge cad output/GAME/deck.json --printer bambu-a1-mini --profile no-ams
    """
    from cad.common.profile import load_settings, settings_toml
    from generators.common.options import resolve

    if print_settings:
        click.echo(settings_toml(), nl=False)
        return
    if deck_file is None:
        raise click.UsageError("Missing argument 'DECK.json'.")
    from generators import open_deck
    from generators.common.files import output_path, write_files
    from generators.common.proof import prove

    values = resolve(OPTIONS, {k: v for k, v in given.items() if v is not None}).values
    ph = load_settings(settings) if settings else Physical()
    bed = values["printer"]
    if slice_:
        from cad.common import slicing

        if slicing.find() is None:
            raise click.UsageError(f"--slice: {slicing.EXECUTABLE} is not installed (Debian: apt-get install "
                                   f"prusa-slicer)")
    info, deck, data = open_deck(deck_file)
    folder = out_folder(values["out"], OUT, info.name)
    output_path(f"{folder}/", "bom.csv")
    proved = prove(info, deck, data, deck_file, unverified=unverified)
    click.echo(proved.said)
    deck = proved.deck
    from templeforge.apart import run_apart
    from templeforge.heartbeat import Heartbeat

    started = time.perf_counter()
    # CadQuery works in a child process (its import too): Ctrl-C and SIGTERM stop the command at once
    with Heartbeat(f"cad {deck_file}") as beat:
        bar: Any = None

        def step(kind: str, said: Any) -> None:
            nonlocal bar
            if kind == "steps":
                bar = click.progressbar(length=said, label="building parts", file=sys.stderr, show_pos=True)
                bar.__enter__()
                return
            if bar is not None:
                bar.update(1 if bar.pos < (bar.length or 0) else 0)
                beat.update(f"{said}, {bar.pos} of {bar.length} parts")

        try:
            files, lines = run_apart(_kit, info, deck, physical=ph, bed=bed, players=values["players"],
                                     profile=values["profile"], slicer=values["slicer"], slots=values["ams_slots"],
                                     stamp=proved.stamp, progress=step)
        finally:
            if bar is not None:
                bar.__exit__(None, None, None)
    if slice_:
        lines += _sliced(files, bed, ph)
    written = write_files(folder, files)
    took = time.perf_counter() - started
    for line in lines:
        click.echo(line)
    click.echo(f"wrote {plural(len(written), 'file')} to {folder}/ in {took:.1f} s")


command = cad


def _kit(info: Any, deck: Any, progress: Any, **options: Any) -> tuple[dict[str, bytes], list[str]]:
    """The kit's files and lines (in the child process ``run_apart`` starts): first the
    number of parts to ``progress`` (``"steps"``), then each part as it is built."""
    from cad import kit_files, kit_steps

    progress("steps", kit_steps(info, deck))
    return kit_files(info, deck, progress=lambda what: progress("part", what), **options)


#: The infill the plates are sliced at for sliced.csv's grams and times.
INFILL = 15


def _sliced(files: dict[str, bytes], bed: Printer, ph: Physical) -> list[str]:
    """Slice every plate into ``files``' sliced.csv (and, on a Prusa printer, gcode/); a
    plate that disagrees with its file stops the command (exit 1, nothing written)."""
    import os

    from cad.common import slicing
    from templeforge.cli import EXIT, fail

    count = len(slicing.sliceable(files))
    skipped = sum(1 for n in files if slicing.bambu_ams(n, files[n]) and n.endswith(".3mf"))
    with click.progressbar(length=count, label="slicing plates", file=sys.stderr, show_pos=True) as bar:
        try:
            rows = slicing.slice_kit(files, (bed.width, bed.depth), infill=INFILL,
                                     workers=min(2, os.cpu_count() or 1), printer=bed, nozzle=ph.nozzle,
                                     progress=lambda _: bar.update(1))
        except slicing.SlicingError as err:
            fail(f"failed: {err}; nothing written", EXIT["failed"])
    wrong = [p for r in rows for p in r.problems]
    if wrong:
        how = "does not slice as its file says" if len(wrong) == 1 else "do not slice as their files say"
        fail(f"failed: {plural(len(wrong), 'plate')} {how}: "
             + "; ".join(wrong[:3]) +
             "; nothing written", EXIT["failed"])
    files["sliced.csv"] = slicing.sliced_csv(rows, ph.density).encode()
    gcode = {slicing.gcode_name(f"{r.profile}/plate-{r.plate:02d}.3mf"): r.sliced.gcode for r in rows
             if r.sliced.gcode}
    files.update(gcode)
    lines = slicing.summary(rows, ph.density, INFILL, skipped)
    if rows and not slicing.ready(bed):
        lines.append(f"the times are PrusaSlicer's generic printer's, not the {bed.title}'s: PrusaSlicer has no "
                     f"presets for it here, and its own slicer's presets are not PrusaSlicer's")
    if gcode:
        lines.append(f"gcode/: {plural(len(gcode), 'NO-AMS plate')} ready to print on a {bed.title} in PLA, "
                     f"M600 at each colour change")
    elif any(r.profile == "no-ams" for r in rows):
        lines.append(f"no G-code written: a {bed.title} prints from its own slicer (open the 3MF files there); "
                     f"--printer prusa-mk4 or prusa-mini writes G-code ready to print")
    return lines
