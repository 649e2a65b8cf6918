"""A page opened in headless Chromium, for the tests of the pages we write (report.html,
playtest.html): a probe script injected into a copy of the page writes what it found into
the document's title as ``CHECK {json}``; ``probe`` returns that JSON."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
#: The skip reason of a test that needs it.
NEEDS = "needs Chromium (Debian: apt-get install chromium); .ci/run installs it"


def probe(page: Path, head: str = "", body: str = "", budget_ms: int = 15000) -> dict[str, Any]:
    """``page`` with ``head`` injected at the start of its head and ``body`` at the end of its
    body, opened beside it (so that relative links resolve the same): the probe's JSON."""
    assert CHROMIUM is not None
    text = page.read_text("utf-8")
    copy = page.with_name(page.stem + "-check.html")
    copy.write_text(text.replace("<head>", "<head>" + head, 1).replace("</body>", body + "</body>", 1), "utf-8")
    try:
        dom = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                              f"--virtual-time-budget={budget_ms}", "--dump-dom", copy.as_uri()],
                             capture_output=True, text=True, timeout=120).stdout
    finally:
        copy.unlink()
    found = re.search(r"<title>CHECK (.*?)</title>", dom, re.S)
    assert found, dom[:500]
    result: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    return result
