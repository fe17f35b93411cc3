"""Model instances from plain cursor rows, and plain INSERT/UPDATE statements.

For the few statements every move runs. Building an ORM query cost more than running it
(~0.5 ms against ~0.08 ms for the token lookup), and a RawQuerySet re-reads the cursor's
description and re-resolves its columns on every call. Here the column list is fixed, and
each field's converters (the backend's and the field's own, as the ORM applies them) are
looked up once per process. On PostgreSQL their statements are bound on the server and
prepared once per connection (cursor()).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache

import psycopg
from django.db import DEFAULT_DB_ALIAS, connections


def db():
    """This thread's default connection itself. `django.db.connection` is a proxy that finds
    it anew on every attribute read (a thread-local lookup): a move read it ~65 times, about
    a twelfth of its CPU, mostly in the converters it was passed to."""
    return connections[DEFAULT_DB_ALIAS]


def columns(model, alias: str) -> str:
    """`alias.col, ...` for every concrete field of `model`, in field order (for instance())."""
    quote = db().ops.quote_name
    return ", ".join(f"{alias}.{quote(f.column)}" for f in model._meta.concrete_fields)


@cache
def _loader(model, field_name: str, vendor: str) -> tuple[object, tuple]:
    """(column expression, its converters) of one field, as the ORM's compiler finds them."""
    col = model._meta.get_field(field_name).get_col(model._meta.db_table)
    conn = db()
    return col, tuple(conn.ops.get_db_converters(col) + col.get_db_converters(conn))


def convert(model, field_name: str, value, conn=None):
    """`value` of `model.field_name` read by a plain cursor, as the ORM would give it.
    `conn`: the connection (db()), where the caller holds it already."""
    conn = conn or db()
    col, converters = _loader(model, field_name, conn.vendor)
    for converter in converters:
        value = converter(value, col, conn)
    return value


@cache
def _plan(model, vendor: str) -> tuple[list[str], list[tuple[int, object, tuple]]]:
    """The attnames of `model`'s concrete fields, and the fields that need converting."""
    fields = model._meta.concrete_fields
    convert_at = []
    for i, field in enumerate(fields):
        col, converters = _loader(model, field.name, vendor)
        if converters:
            convert_at.append((i, col, converters))
    return [f.attname for f in fields], convert_at


def instance(model, row, conn=None) -> object:
    """The `model` instance of `row`: the values of columns(model, ...), in that order."""
    conn = conn or db()
    names, convert_at = _plan(model, conn.vendor)
    values = list(row)
    for i, col, converters in convert_at:
        for converter in converters:
            values[i] = converter(values[i], col, conn)
    return model.from_db(conn.alias, names, values)


def insert_row(model, values: dict) -> None:
    """INSERT one row of `model` (field name or attname -> Python value; a foreign key's value
    is the related row's key), with no RETURNING."""
    insert_rows(model, [values])


def insert_rows(model, rows: list[dict]) -> None:
    """INSERT rows of `model` (each as insert_row() takes it, all with the same keys) in one
    statement, in the given order."""
    fields = [model._meta.get_field(name) for name in rows[0]]
    conn = db()
    quote = conn.ops.quote_name
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    sql = (
        f"INSERT INTO {quote(model._meta.db_table)} ("
        + ", ".join(quote(f.column) for f in fields)
        + ") VALUES "
        + ", ".join([one] * len(rows))
    )
    params = [
        f.get_db_prep_save(v, conn)
        for values in rows
        for f, v in zip(fields, values.values(), strict=True)
    ]
    _run_one(sql, params)


def update_rows(model, objects: list, fields: list[str]) -> None:
    """UPDATE each object's `fields` with one prepared statement run for all rows.

    (bulk_update() builds one CASE per field and row: for 200 flags at once it took seconds.)
    """
    columns_ = [model._meta.get_field(name) for name in fields]
    conn = db()
    quote = conn.ops.quote_name
    sql = (
        f"UPDATE {quote(model._meta.db_table)} SET "
        + ", ".join(f"{quote(c.column)} = %s" for c in columns_)
        + f" WHERE {quote(model._meta.pk.column)} = %s"
    )
    rows = [
        [c.get_db_prep_save(getattr(obj, c.attname), conn) for c in columns_] + [obj.pk]
        for obj in objects
    ]
    if len(rows) == 1:
        _run_one(sql, rows[0])
        return
    with cursor(prepare=False) as c:
        c.executemany(sql, rows)


# The writes collected by together(), or None outside it (one list per thread or task).
_collected: ContextVar[list | None] = ContextVar("sqlrows_collected", default=None)


def _run_one(sql: str, params: list) -> None:
    collected = _collected.get()
    if collected is not None:
        collected.append((sql, params))
        return
    with cursor() as c:
        c.execute(sql, params)


@contextmanager
def together() -> Iterator[None]:
    """Run the single-row insert_row() and update_rows() calls made inside as one statement
    at the end of the block, on PostgreSQL: each but the last becomes a data-modifying WITH
    of the last (`WITH w0 AS (UPDATE ...), w1 AS (UPDATE ...) INSERT ...`). They see the
    same snapshot, so they must touch different rows, and nobody reads their row counts.
    A move's three writes cost a third of the driver's work this way. Elsewhere they run one
    after another at the end of the block. Nothing is written if the block raises."""
    if _collected.get() is not None:
        raise RuntimeError("sqlrows.together() does not nest")
    collected: list = []
    token = _collected.set(collected)
    try:
        yield
    finally:
        _collected.reset(token)
    if not collected:
        return
    if db().vendor == "postgresql" and len(collected) > 1:
        *first, (last_sql, last_params) = collected
        with_ = ", ".join(f"w{i} AS ({sql})" for i, (sql, _) in enumerate(first))
        params = [p for _, ps in first for p in ps] + list(last_params)
        collected = [(f"WITH {with_} {last_sql}", params)]
    with cursor() as c:
        for sql, params in collected:
            c.execute(sql, params)


class _Prepared:
    """psycopg's own cursor (parameters bound on the server); with `prepare`, each statement
    it executes is prepared on its connection the first time, then reused."""

    def __init__(self, raw, prepare: bool):
        self._raw, self._prepare = raw, prepare

    def execute(self, sql: str, params=()) -> None:
        self._raw.execute(sql, params, prepare=self._prepare)

    def executemany(self, sql: str, rows) -> None:
        self._raw.executemany(sql, rows)

    def fetchone(self):
        return self._raw.fetchone()

    def fetchall(self):
        return self._raw.fetchall()


@contextmanager
def cursor(*, prepare: bool = True) -> Iterator:
    """A cursor for the few statements every move runs (execute, executemany, fetchone,
    fetchall; errors raised as Django's).

    On PostgreSQL: psycopg's own cursor on Django's connection, binding parameters on the
    server, and with `prepare` each statement is parsed and planned once per connection.
    Django's cursors bind on the client and never prepare, so the server parsed and planned
    the lock's five-table join on every move: preparing cut the server's CPU per move from
    1.3 to 0.5 ms (benchmarks/move_entry.py). Leave `prepare` off for one-off statements
    (e.g. a lock of many games), which would only fill the connection's cache.
    DB_PREPARE=0 (arbiter/settings.py) turns preparing off. Elsewhere: Django's cursor.
    """
    conn = db()
    if conn.vendor != "postgresql":
        with conn.cursor() as c:
            yield c
        return
    conn.ensure_connection()
    conn.validate_no_broken_transaction()
    # psycopg's own cursor binds on the server (Django's connections make ClientCursors).
    with conn.wrap_database_errors, psycopg.Cursor(conn.connection) as raw:
        yield _Prepared(raw, prepare)


@contextmanager
def batched() -> Iterator[None]:
    """On PostgreSQL, send the statements run inside without waiting for each answer
    (psycopg's pipeline mode): they go out together, with the first read of rows or at the
    end. Only for plain statements whose row counts nobody reads (the ORM's save() and
    update() read them: they would be wrong here). Errors are raised as Django's, at that
    read or at the end. Elsewhere (SQLite, in-process) it does nothing."""
    conn = db()
    if conn.vendor != "postgresql":
        yield
        return
    conn.ensure_connection()
    with conn.wrap_database_errors, conn.connection.pipeline():
        yield


class _PipelineAbortNote(logging.Filter):
    """psycopg logs a warning when a pipeline ends after the error the block raised (it
    "aborted" the rest): that error is raised to the caller anyway, e.g. a reused request_id."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (
            str(record.msg).startswith("error ignored terminating")
            and "pipeline aborted" in str(record.args)
        )


logging.getLogger("psycopg").addFilter(_PipelineAbortNote())
