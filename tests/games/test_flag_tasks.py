"""Flags caught by REAL parts: a Redis server and Celery worker processes on the test database.

docs/design.md, Deadlines: the ETA task catches a flag to the millisecond; the sweep (beat,
every second) catches the flags of a worker killed with its tasks; the service makes repeats harmless.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from arbiter.games import services
from arbiter.games.models import Game
from clocks.models import ClockLog
from tests.accounts.builders import make_user

from .builders import make_event, make_game

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def wait_finished(game_ids, timeout: float) -> dict[int, Game]:
    """Poll the database (no request to the app) until every game is finished."""
    end = time.monotonic() + timeout
    while True:
        games = {g.pk: g for g in Game.objects.filter(pk__in=game_ids, status="finished")}
        if len(games) == len(game_ids) or time.monotonic() > end:
            return games
        time.sleep(0.05)


def test_a_clock_that_runs_out_gets_its_flag_within_a_second_without_any_request(celery_parts):
    celery_parts.worker("w1")
    arbiter = make_user()
    game = make_game(make_event(time_control="2", arbiter=arbiter))
    services.start_clocks(game, by=arbiter)  # arms the task after commit
    game.refresh_from_db()
    deadline = game.clock.deadline

    done = wait_finished([game.pk], timeout=10)
    assert game.pk in done, "no flag 10 s after a 2 s clock was started"
    flagged = done[game.pk]
    assert (flagged.result, flagged.termination, flagged.flag_side) == ("0-2", "flag", "white")
    assert flagged.flag_at == deadline
    late = flagged.finished_at - deadline
    assert timedelta(0) <= late < timedelta(seconds=1), late


def test_flags_of_a_killed_worker_fall_within_two_seconds_and_none_twice(celery_parts, redis_url):
    import redis

    first = celery_parts.worker("doomed")
    arbiter = make_user()
    # Long enough for two more Celery processes to start on a busy 2-core machine.
    event = make_event(time_control="15", arbiter=arbiter)
    games = [make_game(event) for _ in range(12)]
    for game in games:
        services.start_clocks(game, by=arbiter)
    ids = [g.pk for g in games]
    deadlines = dict(Game.objects.filter(pk__in=ids).values_list("pk", "clock__deadline"))

    # The doomed worker takes every ETA task (held unacknowledged until due)...
    client = redis.Redis.from_url(redis_url)
    end = time.monotonic() + 10
    while client.hlen("unacked") < len(games) and time.monotonic() < end:
        time.sleep(0.05)
    assert client.hlen("unacked") >= len(games), "the first worker never took the tasks"
    # ...another worker and the beat come up...
    rescuer, beat = celery_parts.worker("rescuer", wait=False), celery_parts.beat(wait=False)
    rescuer.wait_ready()
    beat.wait_ready()
    # ...and the first one dies with the tasks before any is due.
    first.kill()
    assert timezone.now() < min(deadlines.values()), "machine too slow: deadlines passed"

    done = wait_finished(
        ids, timeout=(max(deadlines.values()) - timezone.now()).total_seconds() + 10
    )
    assert sorted(done) == sorted(ids)
    lateness = {pk: done[pk].finished_at - deadlines[pk] for pk in ids}
    assert all(timedelta(0) <= late <= timedelta(seconds=2) for late in lateness.values()), lateness

    time.sleep(2.5)  # let the sweep run again: a flag is recorded once only
    counts = [ClockLog.objects.filter(clock__game=pk, action="flag").count() for pk in ids]
    assert counts == [1] * len(ids)


def test_a_worker_keeps_its_database_connections_from_one_flag_task_to_the_next(celery_parts):
    """On PostgreSQL a flag task takes a connection from the process's pool and gives it back;
    the pool outlives the task (Celery's own fixup closed it after each one: a new connection,
    about 10 ms, for every flag)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: the connection pool is PostgreSQL's")

    def worker_backends() -> set[int]:
        """The server processes of the worker's connections (realservices names them)."""
        with connection.cursor() as cursor:
            cursor.execute("SELECT pid FROM pg_stat_activity WHERE application_name = 'celery-w1'")
            return {pid for (pid,) in cursor.fetchall()}

    celery_parts.worker("w1")
    arbiter = make_user()
    event = make_event(time_control="1", arbiter=arbiter)
    first, second = make_game(event), make_game(event)
    services.start_clocks(first, by=arbiter)
    assert first.pk in wait_finished([first.pk], timeout=10)
    time.sleep(0.5)  # the task has returned and its connection with it
    after_first = worker_backends()
    assert after_first, "the worker kept no connection open after its flag task"

    services.start_clocks(second, by=arbiter)
    assert second.pk in wait_finished([second.pk], timeout=10)
    time.sleep(0.5)
    assert after_first <= worker_backends(), "the worker's connections were closed between tasks"


def test_flag_tasks_sent_together_reach_the_clock_queue_each_with_its_eta(redis_url, settings, db):
    """arm_flag_checks sends many tasks in one Redis round trip (the publisher thread, the
    arming beat task): every one arrives, for its game and ply, its ETA capped at MAX_ETA."""
    import json

    import redis

    from arbiter.games.services import flags

    from .realservices import purge_queues

    settings.CELERY_TASK_ALWAYS_EAGER = False
    purge_queues()
    now = timezone.now()
    checks = [(10, 3, now + timedelta(seconds=30)), (11, 0, now + timedelta(hours=2))]
    checks.append((12, 5, None))  # no deadline (a paused clock): nothing to send
    flags.arm_flag_checks(checks)

    client = redis.Redis.from_url(redis_url)
    messages = [json.loads(raw) for raw in client.lrange("clock", 0, -1)]
    purge_queues()
    sent = {}
    for message in messages:
        headers = message["headers"]
        assert headers["task"] == "arbiter.games.tasks.check_flag"
        sent[headers["argsrepr"]] = datetime.fromisoformat(headers["eta"])
    assert set(sent) == {"(10, 3)", "(11, 0)"}
    assert sent["(10, 3)"] == checks[0][2]
    assert timedelta(0) < sent["(11, 0)"] - now <= flags.MAX_ETA + timedelta(seconds=5)
