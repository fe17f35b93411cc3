"""On SQLite, the WAL file is copied back into the database by a thread of each web process,
not by the request that happens to pass SQLite's threshold.

SQLite checkpoints when a commit leaves more than `wal_autocheckpoint` pages in the WAL
(1000 by default): that request copies the pages and syncs the file while it holds the
write lock, and every move waiting behind it waits too. Here the web processes raise the
threshold (settings: a safety net) and a thread runs a PASSIVE checkpoint every second, which
never takes the write lock: writers go on meanwhile.
"""

from __future__ import annotations

import logging
import sqlite3
import threading

log = logging.getLogger(__name__)

EVERY_S = 1.0


def database_file(database: dict) -> str | None:
    """The file of a SQLite database setting; None for another engine or an in-memory one."""
    name = str(database.get("NAME") or "")
    if not database["ENGINE"].endswith("sqlite3") or ":memory:" in name or "mode=memory" in name:
        return None
    return name or None


def checkpoint(path: str) -> tuple[int, int, int]:
    """One PASSIVE checkpoint of the database at `path`: (busy, WAL frames, frames copied)."""
    with sqlite3.connect(path, timeout=1) as conn:
        return conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()


class Checkpointer:
    """The thread of start(); stop() ends it (tests; a web process lets it die with it)."""

    def __init__(self, path: str, every_s: float):
        self._stopped = threading.Event()
        self.thread = threading.Thread(
            target=self._run, args=(path, every_s), name="sqlite-checkpoint", daemon=True
        )

    def _run(self, path: str, every_s: float) -> None:
        while not self._stopped.wait(every_s):
            try:
                checkpoint(path)
            except sqlite3.Error:  # busy or locked: the next round, or SQLite's own, will do
                log.debug("checkpoint of %s skipped", path, exc_info=True)

    def stop(self, timeout: float = 5.0) -> None:
        self._stopped.set()
        self.thread.join(timeout)


def start(path: str, every_s: float = EVERY_S) -> Checkpointer:
    """Checkpoint `path` every `every_s` seconds from a daemon thread, for the process's life
    (or until its stop())."""
    checkpointer = Checkpointer(path, every_s)
    checkpointer.thread.start()
    return checkpointer
