"""A cap on the requests of one server process that touch the database at once.

Requests run on a pool of threads per server process (arbiter/asgi.py). Threads that all
reach for the database at once fight over its locks and a few games starve (multi-second p99,
docs/design.md). The gate wraps the whole API operation (authentication included, which
reads the database too), so a waiting request holds no pooled connection. Every route that
writes passes it (tests/api/test_gate_on_writes.py).
"""

from __future__ import annotations

import functools
import os
import threading
from collections import deque

try:
    import fcntl
except ImportError:  # Windows: SQLite's own locking alone
    fcntl = None

from django.conf import settings

from arbiter.infra.sqlite_checkpoint import database_file


def _default_limit() -> int:
    # SQLite takes one writer at a time for the whole database, and a blocked writer polls
    # with growing sleeps: one request at a time per process waits on this gate instead and
    # is woken at once (p99 of moves 120 ms with 4, 47 ms with 1; benchmarks/move_entry.py).
    engine = settings.DATABASES["default"]["ENGINE"]
    return 1 if engine == "django.db.backends.sqlite3" else 4


class FairGate:
    """At most `limit` threads inside at once, let in in the order they came.

    A semaphore is not fair: a thread leaving it and coming straight back with its next
    request often takes the slot before the waiter it woke, which waits again at the back.
    Under a steady load some requests waited out the whole run this way (10-15 s, while the
    p99 was 1 s; benchmarks/move_entry.py flat out). Here a leaving thread hands its slot to
    the oldest waiter directly, so nobody can overtake.
    """

    def __init__(self, limit: int):
        self._lock = threading.Lock()
        self._free = limit
        self._waiters: deque[threading.Lock] = deque()

    def __enter__(self) -> None:
        with self._lock:
            if self._free and not self._waiters:
                self._free -= 1
                return
            waiter = threading.Lock()
            waiter.acquire()
            self._waiters.append(waiter)
        waiter.acquire()  # released by the thread that hands over its slot

    def __exit__(self, *exc) -> None:
        with self._lock:
            if self._waiters:
                self._waiters.popleft().release()
            else:
                self._free += 1


class ProcessLock:
    """On SQLite: one API request at a time across the server's processes, by an exclusive
    flock on a file beside the database. Two processes both taking SQLite's write lock made
    the loser poll with growing sleeps (SQLite's busy handler): p99 of moves 35-160 ms at 200
    moves/s where the median was 5 ms. A process waiting here is woken as soon as the other
    lets go. Does nothing for another database, an in-memory one, or without fcntl (Windows).
    """

    def __init__(self, database: dict | None = None):
        self._database = database  # the settings' default database when None
        self._fd: int | None = None
        self._pid: int | None = None

    def _file(self) -> int | None:
        if self._pid != os.getpid():  # opened in this process, not inherited
            self._pid, self._fd = os.getpid(), None
            path = database_file(self._database or settings.DATABASES["default"])
            if fcntl is not None and path is not None:
                self._fd = os.open(f"{path}-gate", os.O_RDWR | os.O_CREAT, 0o600)
        return self._fd

    def __enter__(self) -> None:
        fd = self._file()
        if fd is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)

    def __exit__(self, *exc) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)


#: Requests per process inside the gate at once (env API_DB_CONCURRENCY).
LIMIT = max(1, int(os.environ.get("API_DB_CONCURRENCY") or _default_limit()))
_gate = FairGate(LIMIT)
_across_processes = ProcessLock()


def db_gate(run):
    """Decorator for an operation's run (use with ninja.decorators.decorate_view)."""

    @functools.wraps(run)
    def gated(request, *args, **kwargs):
        with _gate:
            if request.method == "GET":  # reads go on beside a writer (SQLite's WAL mode)
                return run(request, *args, **kwargs)
            with _across_processes:
                return run(request, *args, **kwargs)

    return gated
