"""Rows read and written by plain statements (arbiter/infra/sqlrows.py) are what the ORM gives."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction

from arbiter.games import services
from arbiter.games.models import Game, Move
from arbiter.infra import sqlrows
from clocks.models import Clock

pytestmark = pytest.mark.django_db


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def _read(model, pk):
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {sqlrows.columns(model, 't')} FROM {quote(model._meta.db_table)} t "
            "WHERE t.id = %s",
            [pk],
        )
        return sqlrows.instance(model, cursor.fetchone())


def test_instances_from_plain_rows_equal_the_orms(setup, clock_at, t0):
    clock_at(t0)
    services.start_clocks(setup.game, by=setup.arbiter)
    clock_at(t0 + timedelta(seconds=3))
    services.submit_move(setup.game.pk, ply=1, move="32-28", request_id="a", by=setup.white)
    game = Game.objects.get(pk=setup.game.pk)
    assert game.rules_state and game.clock.running_since is not None  # JSON and datetimes
    for model, pk in [(Game, game.pk), (Clock, game.clock_id), (get_user_model(), setup.white.pk)]:
        assert _fields(_read(model, pk)) == _fields(model.objects.get(pk=pk)), model


def test_insert_rows_stores_several_rows_in_one_statement_in_their_order(t0):
    # A flag that ends a game logs FLAG then STOP at the same instant: their order is the
    # order of their keys (the clock's log is read by time, then key).
    from clocks.models import ClockLog

    clock = Clock.for_time_control("300")
    clock.save()
    row = {"clock_id": clock.pk, "at": t0, "side": "", "delta_ms": None, "reason": "",
           "user_id": None, "before": {}, "after": {}}  # fmt: skip
    with sqlrows.together():
        sqlrows.insert_rows(ClockLog, [{**row, "action": "flag"}, {**row, "action": "stop"}])
    assert list(ClockLog.objects.order_by("at", "pk").values_list("action", flat=True)) == [
        "flag",
        "stop",
    ]


def test_insert_row_stores_what_the_orm_reads_back(setup, t0):
    sqlrows.insert_row(
        Move,
        {
            "game": setup.game.pk,
            "ply": 1,
            "notation": "32-28",
            "fen_after": "W:W28:B19",
            "white_ms": 1,
            "black_ms": None,
            "played_at": t0,
            "request_id": "r",
            "by": None,
            "response": {"ok": [1, "é"]},
        },
    )
    move = Move.objects.get(game=setup.game)
    assert (move.ply, move.played_at, move.black_ms, move.response) == (
        1,
        t0,
        None,
        {"ok": [1, "é"]},
    )


def _move_row(game, ply: int, request_id: str, t0) -> dict:
    return {
        "game": game.pk,
        "ply": ply,
        "notation": "32-28",
        "fen_after": "W:W28:B19",
        "white_ms": 1,
        "black_ms": 2,
        "played_at": t0,
        "request_id": request_id,
        "by": None,
        "response": {},
    }


def test_writes_together_store_every_row_at_the_end_of_the_block(setup, t0):
    game = setup.game
    game.fen, game.ply = "W:W28:B19", 1
    with sqlrows.together():
        sqlrows.update_rows(Game, [game], ["fen", "ply"])
        sqlrows.insert_row(Move, _move_row(game, 1, "r1", t0))
        # Nothing is written before the block ends.
        assert not Move.objects.filter(game=game).exists()
        assert Game.objects.get(pk=game.pk).ply == 0
    stored = Game.objects.get(pk=game.pk)
    assert (stored.fen, stored.ply) == ("W:W28:B19", 1)
    assert list(Move.objects.filter(game=game).values_list("request_id", flat=True)) == ["r1"]


def test_writes_together_write_nothing_when_the_block_raises(setup, t0):
    game = setup.game
    game.ply = 5
    with pytest.raises(ValueError), sqlrows.together():
        sqlrows.update_rows(Game, [game], ["ply"])
        sqlrows.insert_row(Move, _move_row(game, 1, "r1", t0))
        raise ValueError("refused")
    assert Game.objects.get(pk=game.pk).ply == 0
    assert not Move.objects.filter(game=game).exists()


def test_a_failing_write_together_fails_them_all(setup, t0):
    """A duplicate move (unique game and ply) fails the statement: the game is not updated."""
    game = setup.game
    sqlrows.insert_row(Move, _move_row(game, 1, "r1", t0))
    game.ply = 7
    with pytest.raises(IntegrityError), transaction.atomic(), sqlrows.together():
        sqlrows.update_rows(Game, [game], ["ply"])
        sqlrows.insert_row(Move, _move_row(game, 1, "r2", t0))
    assert Game.objects.get(pk=game.pk).ply == 0
    assert list(Move.objects.filter(game=game).values_list("request_id", flat=True)) == ["r1"]


def test_writes_together_do_not_nest():
    with pytest.raises(RuntimeError, match="does not nest"), sqlrows.together(), sqlrows.together():
        pass


@pytest.mark.postgres
def test_the_statements_every_move_runs_are_prepared_once_per_connection(setup, clock_at, t0):
    """PostgreSQL: the lock, the clock read and the writes are parsed and planned once per
    connection (sqlrows.cursor), then reused: the second move prepares nothing new."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: DATABASE_URL is not a PostgreSQL server")
    if connection.settings_dict["OPTIONS"].get("prepare_threshold") is None:
        pytest.skip("prepared statements are turned off (DB_PREPARE=0)")

    def prepared() -> list[str]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements")
            return sorted(row[0] for row in cursor.fetchall())

    clock_at(t0)
    services.start_clocks(setup.game, by=setup.arbiter)
    # The first moves also write the game's start and each player's arrival: other columns.
    plies = [("32-28", setup.white), ("19-23", setup.black), ("28x19", setup.white)]
    for ply, (move, by) in enumerate(plies, start=1):
        services.submit_move(setup.game.pk, ply=ply, move=move, request_id=str(ply), by=by)
    before = prepared()
    assert any("FOR UPDATE OF g" in sql for sql in before), before
    assert any(sql.startswith("WITH w0 AS (UPDATE") for sql in before), before
    services.submit_move(setup.game.pk, ply=4, move="14x23", request_id="4", by=setup.black)
    assert prepared() == before
