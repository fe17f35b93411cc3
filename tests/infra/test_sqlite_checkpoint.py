"""SQLite's WAL is copied back into the database by a thread, not by the moves' requests."""

from __future__ import annotations

import sqlite3
import time

from arbiter.infra import sqlite_checkpoint


def _wal_database(path) -> sqlite3.Connection:
    """A database in WAL mode whose writer never checkpoints by itself, with ~300 pages
    written to its WAL."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("CREATE TABLE t (x TEXT)")
    with conn:
        conn.executemany("INSERT INTO t VALUES (?)", [("x" * 4000,) for _ in range(300)])
    return conn


def test_a_passive_checkpoint_copies_the_whole_wal_while_a_writer_keeps_its_connection(
    tmp_path,
):
    path = str(tmp_path / "db.sqlite3")
    writer = _wal_database(path)
    busy, frames, copied = sqlite_checkpoint.checkpoint(path)
    assert busy == 0 and frames > 300 and copied == frames
    with writer:  # the writer goes on, and its rows are all there
        writer.execute("INSERT INTO t VALUES ('y')")
    assert writer.execute("SELECT count(*) FROM t").fetchone() == (301,)


def test_the_thread_checkpoints_by_itself(tmp_path):
    path = tmp_path / "db.sqlite3"
    writer = _wal_database(str(path))
    assert path.stat().st_size < 100_000  # the rows are in the WAL only
    checkpointer = sqlite_checkpoint.start(str(path), every_s=0.05)
    try:
        deadline = time.monotonic() + 10
        while path.stat().st_size < 300 * 4000 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert path.stat().st_size >= 300 * 4000  # copied into the database file
    finally:
        checkpointer.stop()
        writer.close()
    assert not checkpointer.thread.is_alive()  # stopped: it outlives neither test nor file
