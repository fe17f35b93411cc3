"""Django's PostgreSQL backend, whose pool checks a connection only when it sat idle.

Django gives psycopg's pool `ConnectionPool.check_connection` (CONN_HEALTH_CHECKS): an empty
query before every request's first statement, one more round trip on every move, and the
largest part of what a move cost more than before the check came (about 0.2 ms of a web
process's CPU of 2.2 ms in-process, benchmarks/move_entry.py). A connection given back to the
pool less than IDLE_CHECK_S ago worked then; one the server dropped (a restart, a failover, a
cut network) has sat in the pool through that outage, longer than IDLE_CHECK_S, and is checked
and replaced before a request gets it (tests/runtime/test_faults.py cuts the connections for
5 s). A drop shorter than that can reach one request, which answers 503 (infra/unavailable.py),
and the pool discards that connection when it comes back.

Settings: ENGINE "arbiter.infra.postgresql" with CONN_HEALTH_CHECKS off (this pool's check
replaces Django's).
"""

from __future__ import annotations

import time

from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool

#: A pooled connection given back less than this long ago (s) is handed out unchecked.
IDLE_CHECK_S = 1.0


def given_back(conn) -> None:
    """The pool's `reset` callback: when the connection was last given back, working."""
    conn.arbiter_given_back_at = time.monotonic()


def check_if_idle(conn) -> None:
    """The pool's `check` callback: psycopg's check for a connection idle since long enough."""
    given_back_at = getattr(conn, "arbiter_given_back_at", None)
    if given_back_at is not None and time.monotonic() - given_back_at < IDLE_CHECK_S:
        return
    ConnectionPool.check_connection(conn)


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self):
        options = self.settings_dict["OPTIONS"].get("pool")
        if isinstance(options, dict) and "reset" not in options:
            options["reset"] = given_back  # Django builds the pool from these on first use
        pool = super().pool
        if pool is not None and pool._check is not check_if_idle:
            # Django passes the pool's `check` itself (None with CONN_HEALTH_CHECKS off), so
            # it cannot come with the options; psycopg_pool reads it on every getconn.
            pool._check = check_if_idle
        return pool
