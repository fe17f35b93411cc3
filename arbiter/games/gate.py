"""A cap on the requests of one server process that touch the database at once.

Under ASGI each sync view runs in its own thread: with 200 requests in flight, 200 threads
fight over the database lock and a few games starve (multi-second p99, DESIGN.md). The gate
wraps the whole API operation (authentication included, which reads the database too), so a
waiting request holds no pooled connection.
"""

from __future__ import annotations

import functools
import os
import threading

#: Requests per process inside the gate at once (env API_DB_CONCURRENCY).
LIMIT = max(1, int(os.environ.get("API_DB_CONCURRENCY", "4")))
_gate = threading.BoundedSemaphore(LIMIT)


def db_gate(run):
    """Decorator for an operation's run (use with ninja.decorators.decorate_view)."""

    @functools.wraps(run)
    def gated(*args, **kwargs):
        with _gate:
            return run(*args, **kwargs)

    return gated
