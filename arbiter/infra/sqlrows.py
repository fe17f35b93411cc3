"""Model instances from plain cursor rows, and plain INSERT/UPDATE statements.

For the few statements every move runs. Building an ORM query cost more than running it
(~0.5 ms against ~0.08 ms for the token lookup), and a RawQuerySet re-reads the cursor's
description and re-resolves its columns on every call. Here the column list is fixed, and
each field's converters (the backend's and the field's own, as the ORM applies them) are
looked up once per process. On PostgreSQL their statements are bound on the server and
prepared once per connection (cursor()). And bulk_insert(), for the thousands of rows of an
import, where bulk_create() spent its time preparing values.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache

import psycopg
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils import timezone


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


def bulk_insert(model, rows: list[dict], *, returning: bool = False) -> list | None:
    """INSERT many rows of `model` (an import's thousands). Each row is a dict, all with the
    same keys, of attname -> Python value (`event_id`: a key) or of a foreign key's name ->
    the related object (`event`: an Event); the fields not given take their default (an
    auto_now or auto_now_add field: now, the same for every row). With `returning`, the
    instances written, in the order of `rows`: their keys, their values and the related
    objects given, as the database holds them; otherwise nothing.

    bulk_create() prepared each value of each object inside the ORM's compiler, in
    statements of at most 999 parameters on SQLite: an import's 5000 players, entries and
    audit lines took 1.2 s there, 0.15 s of it the database's. Here a column prepares its
    values through its field's get_db_prep_save (once when it holds one value), and the
    rows go out in one COPY on PostgreSQL (_copy), one executemany on SQLite, or with the
    keys wanted, in statements of as many rows as SQLite takes parameters.
    """
    if not rows:
        return [] if returning else None
    conn = db()
    meta = model._meta
    names = list(rows[0])
    given = [meta.get_field(name) for name in names]
    values = [[row[name] for row in rows] for name in names]
    related = {}
    for i, (name, field) in enumerate(zip(names, given, strict=True)):
        if field.is_relation and name == field.name:
            related[field] = values[i]
            values[i] = [obj.pk for obj in values[i]]
    missing = [
        f for f in meta.concrete_fields if f not in given and not f.primary_key and not f.generated
    ]
    now = timezone.now()
    defaults = [
        now
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
        else f.get_default()
        for f in missing
    ]
    columns_ = [_prepared(f, column, conn) for f, column in zip(given, values, strict=True)]
    columns_ += [
        [f.get_db_prep_save(v, conn)] * len(rows) for f, v in zip(missing, defaults, strict=True)
    ]
    fields = given + missing
    db_rows = list(zip(*columns_, strict=True))
    if conn.vendor == "postgresql":
        keys = _copy(model, fields, db_rows, returning)
    else:
        keys = _insert_sqlite(model, fields, db_rows, returning)
    if not returning:
        return None
    by_attname = {f.attname: column for f, column in zip(given, values, strict=True)}
    by_attname[meta.pk.attname] = keys
    for f, default in zip(missing, defaults, strict=True):
        fresh = f.has_default() and callable(f.default)  # a list, a dict: one per instance
        by_attname[f.attname] = [f.get_default() for _ in rows] if fresh else [default] * len(rows)
    made = [
        model.from_db(conn.alias, None, list(row))
        for row in zip(*(by_attname[f.attname] for f in meta.concrete_fields), strict=True)
    ]
    for field, objects in related.items():
        for obj, other in zip(made, objects, strict=True):
            field.set_cached_value(obj, other)
    return made


def _prepared(field, values: list, conn) -> list:
    """`values` as `field` writes them: prepared once when they are all one object."""
    first = values[0]
    if all(v is first for v in values):
        return [field.get_db_prep_save(first, conn)] * len(values)
    return [field.get_db_prep_save(v, conn) for v in values]


def _insert_sqlite(model, fields: list, rows: list, returning: bool) -> list | None:
    """bulk_insert()'s statements on SQLite: one executemany, or with the keys wanted,
    multi-row INSERTs with RETURNING of as many rows as a statement takes parameters."""
    conn = db()
    quote = conn.ops.quote_name
    names = ", ".join(quote(f.column) for f in fields)
    head = f"INSERT INTO {quote(model._meta.db_table)} ({names}) VALUES "
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    with cursor(prepare=False) as c:
        if not returning:
            c.executemany(head + one, rows)
            return None
        keys: list = []
        per_statement = max(1, _max_params(conn) // len(fields))
        for start in range(0, len(rows), per_statement):
            chunk = rows[start : start + per_statement]
            values = ", ".join([one] * len(chunk))
            c.execute(
                f"{head}{values} RETURNING {quote(model._meta.pk.column)}",
                [v for r in chunk for v in r],
            )
            # In the order of VALUES, as bulk_create() relies on (SQLite 3.35+).
            keys.extend(row[0] for row in c.fetchall())
        return keys


def _copy(model, fields: list, rows: list, returning: bool) -> list | None:
    """bulk_insert() on PostgreSQL: one COPY, whose rows psycopg formats in C (an INSERT of
    arrays, as bulk_create() sends, or of many rows spent twice as long on its parameters).
    The keys, when wanted, are taken from the table's sequence first, in one statement."""
    conn = db()
    quote = conn.ops.quote_name
    table, pk = model._meta.db_table, model._meta.pk.column
    keys = None
    with cursor(prepare=False) as c:
        if returning:
            c.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, %s))"
                " FROM generate_series(1, %s) ORDER BY 1",
                [quote(table), pk, len(rows)],
            )
            keys = [row[0] for row in c.fetchall()]
            fields = [model._meta.pk, *fields]
            rows = [(key, *row) for key, row in zip(keys, rows, strict=True)]
        names = ", ".join(quote(f.column) for f in fields)
        with c.copy(f"COPY {quote(table)} ({names}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
    return keys


def _max_params(conn) -> int:
    """How many parameters one SQLite statement may carry, as this connection was built
    (32766 by default since 3.32; Django assumes 999)."""
    import sqlite3

    conn.ensure_connection()
    return conn.connection.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)


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

    def copy(self, sql: str):
        return self._raw.copy(sql)

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
