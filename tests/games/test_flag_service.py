"""The one flag-fall service and its callers without Celery: the sweep, the lazy read check."""

from __future__ import annotations

from datetime import timedelta

import pytest

from arbiter.games import services, tasks
from arbiter.games.models import Game
from arbiter.games.services import flags
from clocks.models import ClockLog

pytestmark = pytest.mark.django_db

S = timedelta(seconds=1)


@pytest.fixture
def running(setup, clock_at, t0):
    clock_at(t0)
    services.start_clocks(setup.game, by=setup.arbiter)
    return setup.game


def test_check_flag_before_the_deadline_does_nothing(running, clock_at, t0):
    clock_at(t0 + 299 * S)
    assert services.check_flag(running.pk, ply=0) is False
    assert Game.objects.get(pk=running.pk).status == "running"


def test_check_flag_records_the_flag_once(running, clock_at, t0):
    clock_at(t0 + 300 * S + 5 * timedelta(milliseconds=1))
    assert services.check_flag(running.pk, ply=0) is True
    assert services.check_flag(running.pk, ply=0) is False
    assert services.check_flags_due() == 0
    game = Game.objects.get(pk=running.pk)
    assert (game.result, game.termination, game.flag_side) == ("0-2", "flag", "white")
    assert game.flag_at == t0 + 300 * S
    assert game.finished_at == t0 + 300 * S + 5 * timedelta(milliseconds=1)
    assert ClockLog.objects.filter(action="flag").count() == 1


def test_a_stale_ply_does_nothing(running, setup, clock_at, t0):
    clock_at(t0 + 10 * S)
    services.submit_move(running.pk, ply=1, move="32-28", request_id="r", by=setup.white)
    clock_at(t0 + 400 * S)  # Black's time is out too, but the task was armed for ply 0
    assert services.check_flag(running.pk, ply=0) is False
    assert services.check_flag(running.pk, ply=1) is True
    assert Game.objects.get(pk=running.pk).result == "2-0"


def test_check_flag_of_a_missing_game_does_nothing(db):
    assert services.check_flag(10**9, ply=0) is False


def test_the_sweep_flags_every_clock_past_its_deadline_and_only_those(setup, clock_at, t0):
    from .builders import make_game

    clock_at(t0)
    games = [make_game(setup.event) for _ in range(3)]
    for game in games[:2]:
        services.start_clocks(game, by=setup.arbiter)
    clock_at(t0 + 100 * S)
    services.start_clocks(games[2], by=setup.arbiter)
    clock_at(t0 + 301 * S)
    assert tasks.sweep_flags() == 2
    results = dict(Game.objects.filter(pk__in=[g.pk for g in games]).values_list("pk", "result"))
    assert results == {games[0].pk: "0-2", games[1].pk: "0-2", games[2].pk: ""}


def test_reading_a_game_past_its_deadline_records_the_flag(running, setup, clock_at, t0, client):
    clock_at(t0 + 301 * S)
    state = client.get(f"/api/games/{running.pk}").json()
    assert (state["status"], state["result"], state["termination"]) == ("finished", "0-2", "flag")
    assert state["clock"]["white_ms"] == 0 and state["clock"]["running"] is None


def test_task_woken_before_the_deadline_rearms_for_the_same_ply(running, clock_at, t0, monkeypatch):
    calls = []
    monkeypatch.setattr(flags, "arm_flag_check", lambda *a: calls.append(a))
    monkeypatch.setattr(services, "arm_flag_check", lambda *a: calls.append(a))
    clock_at(t0 + 200 * S)
    assert tasks.check_flag(running.pk, 0) is False
    assert calls == [(running.pk, 0, t0 + 300 * S)]
    calls.clear()
    assert tasks.check_flag(running.pk, 7) is False  # a stale ply re-arms nothing
    assert calls == []


def test_arming_caps_the_eta_at_five_minutes(running, t0, clock_at, monkeypatch, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    sent = []
    monkeypatch.setattr(tasks.check_flag, "apply_async", lambda *a, **kw: sent.append((a, kw)))
    clock_at(t0)
    flags.arm_flag_check(running.pk, 0, t0 + timedelta(hours=2))
    flags.arm_flag_check(running.pk, 0, t0 + 30 * S)
    assert [kw["eta"] for _, kw in sent] == [t0 + flags.MAX_ETA, t0 + 30 * S]
    assert all(kw["queue"] == "clock" and a == ((running.pk, 0),) for a, kw in sent)


def test_the_sweep_records_flags_in_one_go_under_each_events_policy(setup, clock_at, t0):
    from .builders import make_event, make_game

    claim_event = make_event(time_control="300", flag_policy="claim", arbiter=setup.arbiter)
    auto = [make_game(setup.event) for _ in range(3)]
    claim = [make_game(claim_event) for _ in range(2)]
    clock_at(t0)
    for game in auto + claim:
        services.start_clocks(game, by=setup.arbiter)
    clock_at(t0 + 305 * S)
    assert services.check_flags_due() == 5
    assert services.check_flags_due() == 0  # nothing twice
    rows = {
        g.pk: g
        for g in Game.objects.select_related("clock").filter(pk__in=[g.pk for g in auto + claim])
    }
    for game in auto:
        row = rows[game.pk]
        assert (row.status, row.result, row.termination) == ("finished", "0-2", "flag")
        assert row.flag_at == t0 + 300 * S and row.finished_at == t0 + 305 * S
        assert row.clock.running == "" and row.clock.remaining_white_ms == 0
    for game in claim:
        row = rows[game.pk]
        # "claim": recorded, the game open, the clock stopped at the flag showing 0.
        assert (row.status, row.result, row.flag_side) == ("running", "", "white")
        assert row.clock.paused and row.clock.deadline is None
    logs = ClockLog.objects.filter(action="flag")
    assert sorted(logs.values_list("clock__game", flat=True)) == sorted(rows)
    assert all(log.before["running"] == "white" for log in logs)


def test_a_move_with_a_distant_deadline_queues_no_task_until_it_comes_within_the_horizon(
    setup, clock_at, t0, armed, django_capture_on_commit_callbacks
):
    # FMJD classical: two hours each. Black's deadline after White's first move is 2 h away.
    from .builders import make_event, make_game

    game = make_game(make_event(time_control="7200", arbiter=setup.arbiter))
    clock_at(t0)
    with django_capture_on_commit_callbacks(execute=True):
        services.start_clocks(game, by=setup.arbiter)
        services.submit_move(game.pk, ply=1, move="32-28", request_id="a", by=setup.arbiter)
    assert armed == []
    black_out = t0 + 7200 * S
    # Beat's runs: nothing while the deadline is beyond the horizon, then the run that sees
    # it come within arms it with the exact deadline; the next run, whose window overlaps,
    # arms it once more; later runs no longer do.
    first = black_out - flags.ARM_HORIZON
    assert services.arm_upcoming(first - flags.ARM_EVERY - S) == 0
    assert services.arm_upcoming(first) == 1
    assert armed == [(game.pk, 1, black_out)]
    assert services.arm_upcoming(first + flags.ARM_EVERY) == 1
    assert services.arm_upcoming(first + 2 * flags.ARM_EVERY) == 0


def test_a_move_with_a_near_deadline_queues_its_task_at_once(
    setup, clock_at, t0, armed, django_capture_on_commit_callbacks
):
    from .builders import make_event, make_game

    game = make_game(make_event(time_control="90", arbiter=setup.arbiter))
    clock_at(t0)
    with django_capture_on_commit_callbacks(execute=True):
        services.start_clocks(game, by=setup.arbiter)
        clock_at(t0 + 10 * S)
        services.submit_move(game.pk, ply=1, move="32-28", request_id="a", by=setup.arbiter)
    assert armed == [(game.pk, 0, t0 + 90 * S), (game.pk, 1, t0 + 100 * S)]


def test_arm_upcoming_skips_finished_flagged_and_stopped_clocks(
    running, setup, clock_at, t0, armed
):
    from .builders import make_game

    paused = make_game(setup.event)
    clock_at(t0)
    services.start_clocks(paused, by=setup.arbiter)
    services.pause_clocks(paused, by=setup.arbiter, reason="toilet")
    clock_at(t0 + 301 * S)
    services.check_flag(running.pk, ply=0)  # running's flag falls: the game is over
    assert services.arm_upcoming(t0 - flags.ARM_HORIZON + 300 * S) == 0
    assert armed == []


def test_the_arming_task_runs_every_arm_every_on_the_clock_queue(settings, monkeypatch):
    entry = settings.CELERY_BEAT_SCHEDULE["arm-flags"]
    assert entry["task"] == tasks.arm_flags.name
    assert entry["schedule"] == flags.ARM_EVERY.total_seconds()
    assert entry["options"]["queue"] == "clock"
    monkeypatch.setattr(services, "arm_upcoming", lambda: 3)
    assert tasks.arm_flags() == 3


def test_a_flag_on_the_last_board_is_logged_and_finishes_its_round(running, clock_at, t0):
    """FMJD (time exceeded, loss): the clock's log line, the event's log line and the round
    closed, as for a result an arbiter enters; written together with the flag."""
    from arbiter.events.models import AuditEntry, Round

    Round.objects.filter(pk=running.round_id).update(status=Round.Status.PUBLISHED)
    clock_at(t0 + 301 * S)
    assert services.check_flag(running.pk, ply=0) is True
    game = Game.objects.get(pk=running.pk)
    *_, flag, stop = ClockLog.objects.filter(clock=game.clock_id).order_by("at", "pk")
    assert (flag.action, flag.side, flag.at) == ("flag", "white", t0 + 301 * S)
    # The flag is logged, then the game's end stops the clock (one STOP line, as every ending).
    assert (stop.action, stop.at) == ("stop", t0 + 301 * S)
    assert stop.before["running"] == "white" and stop.after["running"] is None
    entry = AuditEntry.objects.get(action="game.result")
    assert entry.new == {"result": "0-2", "termination": "flag", "game_id": running.pk}
    assert entry.event_id == running.round.event_id and entry.reason == "automatic: time exceeded"
    assert Round.objects.get(pk=running.round_id).status == Round.Status.FINISHED


def test_with_the_broker_down_a_move_is_accepted_and_the_sweep_flags_it_later(
    setup, clock_at, t0, settings, caplog
):
    """Redis unreachable: queueing the flag task fails (logged), the move stands, and the
    sweep (or any read) still records the flag at the deadline."""
    from arbiter.celery import app
    from arbiter.runtime.localservices import free_port

    from .realservices import use_broker

    settings.CELERY_TASK_ALWAYS_EAGER = False
    previous = app.conf.broker_url
    use_broker(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    try:
        game = setup.game
        clock_at(t0)
        services.start_clocks(game, by=setup.arbiter)
        clock_at(t0 + 250 * S)  # White's deadline (300 s) is now within the arming horizon
        with caplog.at_level("ERROR", logger=flags.__name__):
            state = services.submit_move(
                game.pk, ply=1, move="32-28", request_id="r1", by=setup.white
            )
            flags.arm_flag_checks([(game.pk, 1, t0 + 301 * S)])
        assert state["ply"] == 1
        assert "could not queue the flag checks" in caplog.text
    finally:
        use_broker(previous)
    clock_at(t0 + 700 * S)  # Black's 300 s ran out at 550 s
    assert services.check_flags_due() == 1
    assert Game.objects.get(pk=game.pk).result == "2-0"
