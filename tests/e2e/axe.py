"""axe-core (the accessibility checker, npm package `axe-core`) for the browser tests.

Never committed: the test finds `axe.min.js` from AXE_CORE_JS, else in a cache directory
(ARBITER_CACHE_DIR or ~/.cache/arbiter), and installs it there with npm once when npm is
present. None when neither is possible: the tests then say so and use their own checks.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

AXE_VERSION = "4"


def axe_source() -> str | None:
    given = os.environ.get("AXE_CORE_JS")
    if given and Path(given).is_file():
        return Path(given).read_text()
    cache = Path(os.environ.get("ARBITER_CACHE_DIR") or Path.home() / ".cache" / "arbiter")
    script = cache / "axe" / "node_modules" / "axe-core" / "axe.min.js"
    if not script.is_file() and shutil.which("npm"):
        script.parent.parent.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                "npm",
                "install",
                "--no-audit",
                "--no-fund",
                "--prefix",
                str(cache / "axe"),
                f"axe-core@{AXE_VERSION}",
            ],
            check=False,
            capture_output=True,
            timeout=300,
        )
    return script.read_text() if script.is_file() else None


def serious_violations(browser, source: str) -> list[str]:
    """Run axe on the open page; its serious and critical violations, one line each."""
    if not browser.js("typeof window.axe !== 'undefined'"):
        browser.js(source + "; true")
    found = browser.js(
        "axe.run(document, {resultTypes: ['violations']}).then(r => r.violations"
        ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
        ".map(v => v.id + ': ' + v.help + ' -> ' + v.nodes.slice(0, 3)"
        ".map(n => n.target.join(' ')).join(' | ')))"
    )
    return list(found or [])
