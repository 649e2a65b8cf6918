"""A one-card Prusa-layout project, and PrusaSlicer slicing a project file with nothing else:
what the tests of a printer's setup in a project share."""

from __future__ import annotations

import subprocess
from pathlib import Path

from cad.common import kit, slicing, threemf
from cad.common.meshes import box
from cad.common.profile import Printer


def card_plate(printer: Printer, folder: Path, nozzle: float = 0.4, layer: float = 0.2) -> Path:
    """A 40 x 40 x 4 mm card in sand, alone on ``printer``'s bed, as a Prusa-layout 3MF
    project (``folder/plate.3mf``) carrying the printer's settings."""
    card = kit.Piece("card-1", "card 1", (kit.Solid("card", box(40, 40, 4), "body"),), 1, 3.4)
    (sheet,) = kit.arrange([card], printer.width, printer.depth, 5.0)
    filaments = kit.Filaments((threemf.Filament("sand", "#CBBE9E"),), {"body": 1}, {})
    plate = kit.project(sheet, {"card-1": card}, "t", False, filaments, "prusa", layer,
                        printer.machine(nozzle, layer))
    path = folder / "plate.3mf"
    path.write_bytes(threemf.write(plate))
    return path


def sliced_alone(path: Path) -> str:
    """The G-code PrusaSlicer's command line makes of the project at ``path``, given no option
    but the file (so whatever printer it prints for is the project's own)."""
    out = path.with_suffix(".gcode")
    done = subprocess.run([slicing.find() or "prusa-slicer", "--export-gcode", str(path), "--output", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return out.read_text()
