"""Rows read and written by plain statements (arbiter/sqlrows.py) are what the ORM gives."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from arbiter import sqlrows
from arbiter.games import services
from arbiter.games.models import Game, Move
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
