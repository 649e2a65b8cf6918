"""What the project's own files say holds for a reader who has only the files: no file
points at a tracker's issue numbers (a user of the package cannot follow them)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).parents[1]
#: A tracker's number: the word issue (or issues) and a number, or a hash and a number in
#: brackets (this file writes its examples in pieces, so that it does not match itself).
TRACKER = re.compile(r"\b[Ii]ssues?\s+#?\d+|\(#\d+\)")


def tracked() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        names = out.splitlines()
    except (OSError, subprocess.CalledProcessError):  # not a git checkout (an unpacked sdist): every text file
        names = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file() and ".venv" not in p.parts]
    return [ROOT / n for n in names if n.endswith((".py", ".md", ".toml", ".txt", ".cfg", ".yml", ".yaml", ".html",
                                                   ".js", ".css")) or n.startswith(".ci/")]


def test_no_file_cites_a_trackers_issue_numbers() -> None:
    found = []
    for path in tracked():
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for n, line in enumerate(text.splitlines(), start=1):
            if TRACKER.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:80]}")
    assert not found, "\n".join(found)


def test_the_pattern_finds_what_it_is_for() -> None:
    assert TRACKER.search("the target (issue" + " 10) is")
    assert TRACKER.search("see (#" + "12)")
    assert not TRACKER.search("colour #2E3A46, 3 issues in all")
