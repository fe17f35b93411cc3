"""Every API route that writes passes the request gate (arbiter/infra/gate.py): on SQLite a
write outside it waits in SQLite's busy handler, the path the gate exists to avoid."""

from __future__ import annotations

from arbiter.api import api
from arbiter.infra.gate import db_gate


def operations():
    for _prefix, router in api._routers:
        for path, view in router.path_operations.items():
            for operation in view.operations:
                yield path, operation


def test_every_route_that_writes_passes_the_gate():
    writes = [
        (path, op) for path, op in operations() if set(op.methods) - {"GET", "HEAD", "OPTIONS"}
    ]
    assert len(writes) >= 20  # moves, clocks, arrival, results, events: all of them found
    ungated = [
        f"{'/'.join(op.methods)} {path}"
        for path, op in writes
        if db_gate not in getattr(op, "_run_decorators", [])
    ]
    assert ungated == []


def test_the_move_route_is_among_the_gated_ones():
    (move,) = [op for path, op in operations() if path.endswith("/moves")]
    assert db_gate in move._run_decorators
