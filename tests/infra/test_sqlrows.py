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


# --- bulk_insert: an import's thousands of rows ------------------------------------------------


def _event(org_name="bulk-org"):
    from tests.accounts.builders import make_user
    from tests.events.builders import make_event

    return make_event(make_user(org_name, organizer=True), name="Bulk Open")


def test_bulk_insert_returns_what_the_orm_reads_back_in_the_order_given():
    from arbiter.events.models import Entry, Player

    event = _event()
    players = sqlrows.bulk_insert(
        Player,
        [{"surname": f"P{i}", "fmjd_id": str(9000 + i), "rating": i or None} for i in range(1200)],
        returning=True,
    )
    assert [p.surname for p in players] == [f"P{i}" for i in range(1200)]
    for made in (players[0], players[1], players[-1]):
        assert _fields(made) == _fields(Player.objects.get(pk=made.pk))  # created_at: now
    entries = sqlrows.bulk_insert(
        Entry,
        [{"event": event, "player": p, "pairing_number": i + 1} for i, p in enumerate(players)],
        returning=True,
    )
    stored = Entry.objects.get(pk=entries[7].pk)
    assert _fields(entries[7]) == _fields(stored)  # status, absent_rounds: their defaults
    assert entries[7].player is players[7] and entries[7].event is event  # no query to read them
    entries[0].absent_rounds.append(3)  # a default list is each instance's own
    assert entries[1].absent_rounds == []


def test_bulk_insert_without_returning_writes_every_row_and_a_bad_one_writes_none():
    from arbiter.events.models import AuditEntry, Player

    event = _event()
    rows = [{"event_id": event.pk, "action": "x", "new": {"i": i}} for i in range(300)]
    assert sqlrows.bulk_insert(AuditEntry, rows) is None
    assert sorted(a.new["i"] for a in AuditEntry.objects.filter(action="x")) == list(range(300))
    sqlrows.bulk_insert(Player, [{"surname": "Known", "fmjd_id": "77"}])
    with pytest.raises(IntegrityError), transaction.atomic():  # the FMJD id is unique
        sqlrows.bulk_insert(
            Player, [{"surname": "A", "fmjd_id": "78"}, {"surname": "B", "fmjd_id": "77"}]
        )
    assert not Player.objects.filter(surname__in=["A", "B"]).exists()
