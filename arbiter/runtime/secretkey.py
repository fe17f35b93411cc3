"""The secret key of a machine's own run (`python3 dev.py run` with no SECRET_KEY set).

Made once, at random, in the var directory (readable by its owner only) and used again on
every run, so that logins survive a restart; settings.py reads the same file. A deployment
sets SECRET_KEY instead; no fixed key is ever used outside DEBUG and the test suite.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

FILE_NAME = "secret_key"


def key_file(var_dir: Path) -> Path:
    return Path(var_dir) / FILE_NAME


def read_key(var_dir: Path) -> str:
    """The key stored in `var_dir`, or "" when there is none."""
    try:
        return key_file(var_dir).read_text().strip()
    except OSError:
        return ""


def ensure_key(var_dir: Path) -> str:
    """The key stored in `var_dir`, made first when there is none."""
    key = read_key(var_dir)
    if key:
        return key
    path = key_file(var_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    # O_EXCL: two runs starting at once keep one key (the loser reads the winner's).
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return read_key(var_dir)
    with os.fdopen(fd, "w") as out:
        out.write(key + "\n")
    return key
