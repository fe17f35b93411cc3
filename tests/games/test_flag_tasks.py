"""Flags caught by REAL parts: a Redis server and Celery worker processes on the test database.

DESIGN.md, Deadlines: the ETA task catches a flag to the millisecond; the sweep (beat, every
second) catches the flags of a worker killed with its tasks; the service makes repeats harmless.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from arbiter.games import services
from arbiter.games.models import Game
from clocks.models import ClockLog

from .factories import make_event, make_game, make_user

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
