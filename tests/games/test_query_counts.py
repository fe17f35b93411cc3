"""The statements a move and a flag cost (SQLite, where every statement passes Django's
cursor; on PostgreSQL the writes of each are one statement, tests/infra/test_sqlrows.py).
A change that adds a statement to the hot path fails here: measure it first
(benchmarks/move_entry.py, benchmarks/flag_lateness.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection

from arbiter.events.models import Round
from arbiter.games import services

from .builders import make_event, make_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _sqlite_only():
    if connection.vendor != "sqlite":
        pytest.skip("counts the statements as SQLite runs them")


@pytest.fixture
def two_games(arbiter_user, clock_at, t0):
    event = make_event(time_control="7200", arbiter=arbiter_user)
    games = [make_game(event, fen="W:W38:B1"), make_game(event, fen="W:W28:B22")]
    Round.objects.filter(pk=games[0].round_id).update(status=Round.Status.PUBLISHED)
    clock_at(t0)
    for game in games:
        services.start_clocks(game, by=arbiter_user)
    return games


def test_a_move_costs_seven_statements(two_games, arbiter_user, django_assert_num_queries):
    # savepoint, lock (with the round's first start: no player marked present yet), clock,
    # 3 writes, release
    with django_assert_num_queries(7):
        services.submit_move(two_games[0].pk, ply=1, move="38-33", request_id="a", by=arbiter_user)


def test_a_move_that_ends_the_game_adds_only_the_ending(
    two_games, arbiter_user, django_assert_num_queries
):
    # + the clock's STOP line, the audit entry, the round's lock and its count of open boards
    # (the other board still plays: the round stays open)
    with django_assert_num_queries(7 + 4):
        services.submit_move(two_games[1].pk, ply=1, move="28x17", request_id="b", by=arbiter_user)


def test_a_flag_costs_eleven_statements(two_games, t0, django_assert_num_queries):
    # the unlocked look, savepoint, lock, clock, 2 updates, the FLAG and STOP lines (one
    # statement), the audit entry, the round's lock and count, release
    game = two_games[0]
    with django_assert_num_queries(11):
        assert services.check_flag(game.pk, ply=0, now=t0 + timedelta(minutes=121))
