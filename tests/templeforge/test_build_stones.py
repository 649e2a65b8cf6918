"""``templeforge build --game shifting-stones`` end to end on a small deck (apart from
``test_build.py`` so that the two builds run side by side)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from templeforge.cli import main


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.slow
def test_a_shifting_stones_build_makes_its_kit_and_report(tmp_path: Path) -> None:
    path = tmp_path / "stones.toml"
    path.write_text("[kit]\nplayers = 1\n[generate]\ncards = 4\nseed = 2\n[cad]\nprofile = 'no-ams'\n")
    result = run("build", "--game", "shifting-stones", "--profile", str(path), "--out", str(tmp_path / "out"),
                 "--jobs", "1")
    assert result.exit_code == 0, result.output + result.stderr
    folder = tmp_path / "out" / "shifting-stones"
    have = files(folder)
    for name in ("deck.json", "cards.pdf", "stones.pdf", "report.html", "manifest.json", "models/bom.csv",
                 "models/no-ams/plate-01.3mf", "models/stl/stone-1-sun-moon.stl", "previews/contact-sheet.png"):
        assert name in have, name
    report = have["report.html"].decode()
    assert "every one of the 4 patterns is feasible and distinct" in report
    assert "Spearman correlation of points and difficulty" in report and "stones.pdf" in report
    # where each NO-AMS colour change falls, and which filament each loads, read from the plate
    assert "(already in the files; the printer pauses before the layer at each height and asks for the next " \
           "filament): 1.2 mm (plate 1); 4.2 mm (plate 1)." in report
    assert "<td>at the start, at 4.2 mm</td>" in report and "<td>at 1.2 mm</td>" in report
    again = run("build", "--game", "shifting-stones", "--profile", str(path), "--out", str(tmp_path / "out"))
    assert again.exit_code == 0 and "nothing to redo" in again.output
