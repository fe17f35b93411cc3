"""Clock actions of an arbiter (FMJD Annex 3: the referee starts, pauses and corrects clocks)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from arbiter.errors import Conflict, Forbidden, Invalid
from arbiter.games import services
from arbiter.games.models import Game
from clocks.models import ClockLog

from .builders import make_event, make_game, make_player

pytestmark = pytest.mark.django_db

S = timedelta(seconds=1)


def test_fmjd_annex3_start_runs_whites_clock_and_arms_the_flag_task(
    setup, clock_at, t0, armed, django_capture_on_commit_callbacks
):
    # 90 s each: the deadline is within the arming horizon, so the task is queued at once.
    game = make_game(make_event(time_control="90", arbiter=setup.arbiter))
    clock_at(t0)
    with django_capture_on_commit_callbacks(execute=True):
        state = services.start_clocks(game, by=setup.arbiter, reason="round 1")
    assert state["status"] == "running"
    assert state["clock"]["running"] == "white"
    assert state["clock"]["deadline"] == (t0 + 90 * S).isoformat()
    assert armed == [(game.pk, 0, t0 + 90 * S)]
    log = ClockLog.objects.get(clock__game=game)
    assert (log.action, log.user, log.reason, log.at) == ("start", setup.arbiter, "round 1", t0)


def test_adjustment_moves_the_deadline_and_rearms_the_task(
    setup, clock_at, t0, armed, django_capture_on_commit_callbacks
):
    clock_at(t0)
    services.start_clocks(setup.game, by=setup.arbiter)
    clock_at(t0 + 250 * S)  # 50 s left, 110 s after the adjustment: within the horizon
    with django_capture_on_commit_callbacks(execute=True):
        state = services.adjust_clock(
            setup.game, "white", 60_000, by=setup.arbiter, reason="opponent disturbed"
        )
    game = Game.objects.select_related("clock").get(pk=setup.game.pk)
    assert game.clock.deadline == t0 + 360 * S
    assert state["clock"]["white_ms"] == 110_000
    assert armed == [(game.pk, 0, t0 + 360 * S)]
    log = ClockLog.objects.get(clock=game.clock, action="adjust")
    assert (log.side, log.delta_ms, log.reason) == ("white", 60_000, "opponent disturbed")
    assert log.before["remaining_ms"] == [300_000, 300_000]
    assert log.after["remaining_ms"] == [360_000, 300_000]


def test_adjusting_the_waiting_side_leaves_the_deadline(setup, clock_at, t0):
    clock_at(t0)
    services.start_clocks(setup.game, by=setup.arbiter)
    services.adjust_clock(setup.game, "black", -30_000, by=setup.arbiter, reason="penalty")
    game = Game.objects.select_related("clock").get(pk=setup.game.pk)
    assert game.clock.deadline == t0 + 300 * S and game.clock.remaining_black_ms == 270_000


def test_pause_clears_the_deadline_and_resume_moves_it_by_the_pause(setup, clock_at, t0):
    clock_at(t0)
    services.start_clocks(setup.game, by=setup.arbiter)
    clock_at(t0 + 100 * S)
    paused = services.pause_clocks(setup.game, by=setup.arbiter, reason="toilet")
    assert paused["clock"]["deadline"] is None and paused["clock"]["paused"] is True
    assert paused["clock"]["running"] is None and paused["clock"]["white_ms"] == 200_000
    # Nothing is swept or flagged while paused, however long the pause.
    clock_at(t0 + 1000 * S)
    assert services.check_flags_due() == 0
    resumed = services.resume_clocks(setup.game, by=setup.arbiter)
    assert resumed["clock"]["deadline"] == (t0 + 1200 * S).isoformat()


def test_set_times_replaces_both_clocks(setup, clock_at, t0):
    clock_at(t0)
    services.start_clocks(setup.game, by=setup.arbiter)
    clock_at(t0 + 5 * S)
    state = services.set_clock_times(
        setup.game, 120_000, 90_000, by=setup.arbiter, reason="clock replaced"
    )
    assert (state["clock"]["white_ms"], state["clock"]["black_ms"]) == (120_000, 90_000)
    assert state["clock"]["deadline"] == (t0 + 125 * S).isoformat()


def test_adjust_and_set_need_a_reason(setup, clock_at, t0):
    clock_at(t0)
    services.start_clocks(setup.game, by=setup.arbiter)
    with pytest.raises(Invalid, match="reason"):
        services.adjust_clock(setup.game, "white", 1000, by=setup.arbiter, reason=" ")
    with pytest.raises(Invalid, match="reason"):
        services.set_clock_times(setup.game, 1, 1, by=setup.arbiter, reason="")


def test_taking_more_time_than_is_left_is_a_409_and_changes_nothing(setup, clock_at, t0):
    clock_at(t0)
    services.start_clocks(setup.game, by=setup.arbiter)
    with pytest.raises(Conflict, match="cannot adjust"):
        services.adjust_clock(setup.game, "black", -400_000, by=setup.arbiter, reason="x")
    assert not ClockLog.objects.filter(action="adjust").exists()


def test_players_may_not_touch_the_clock(setup, clock_at, t0):
    with pytest.raises(Forbidden):
        services.start_clocks(setup.game, by=setup.white)
    assert Game.objects.get(pk=setup.game.pk).clock is None


def test_starting_twice_is_a_409(setup):
    services.start_clocks(setup.game, by=setup.arbiter)
    with pytest.raises(Conflict, match="already been started"):
        services.start_clocks(setup.game, by=setup.arbiter)


def test_a_round_starts_pauses_and_resumes_at_once(setup, clock_at, t0):
    other = make_game(setup.event, white=make_player(), black=make_player())
    # (a board number of its own: a fixed one could be one the builders already gave)
    bye = make_game(setup.event, bye=True)
    Game.objects.filter(pk=bye.pk).update(result="bye")
    round_id = setup.game.round_id
    clock_at(t0)
    started = services.round_clock_action(round_id, "start", by=setup.arbiter, reason="go")
    assert sorted(started["changed"]) == sorted([setup.game.pk, other.pk])
    assert bye.pk not in started["changed"]
    clock_at(t0 + 10 * S)
    paused = services.round_clock_action(round_id, "pause", by=setup.arbiter, reason="fire alarm")
    assert sorted(paused["changed"]) == sorted([setup.game.pk, other.pk])
    assert not Game.objects.filter(round_id=round_id, clock__deadline__isnull=False).exists()
    clock_at(t0 + 70 * S)
    services.round_clock_action(round_id, "resume", by=setup.arbiter)
    deadlines = set(
        Game.objects.filter(round_id=round_id, clock__isnull=False).values_list(
            "clock__deadline", flat=True
        )
    )
    assert deadlines == {t0 + 360 * S}
    again = services.round_clock_action(round_id, "resume", by=setup.arbiter)
    assert again["changed"] == [] and len(again["skipped"]) == 2
    assert {s["code"] for s in again["skipped"]} == {"clock_action.refused"}


def test_round_clock_needs_an_arbiter(setup):
    with pytest.raises(Forbidden):
        services.round_clock_action(setup.game.round_id, "start", by=setup.black)
