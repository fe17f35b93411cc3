"""Calls released at once, each in its own thread with its own database connection."""

from __future__ import annotations

import threading

from django.db import connection


def all_at_once(calls, *, expected=()) -> list:
    """Run every call in its own thread, all released together by a barrier. Each outcome is
    ("ok", result), (exception class name, exc) for an exception in `expected`, or ("error",
    exc) for any other (reported by the caller's assertions)."""
    barrier = threading.Barrier(len(calls))
    outcomes: list = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait()
            outcomes[i] = ("ok", call())
        except tuple(expected) as exc:
            outcomes[i] = (type(exc).__name__, exc)
        except Exception as exc:  # noqa: BLE001 - reported by the caller's assertions
            outcomes[i] = ("error", exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return outcomes
