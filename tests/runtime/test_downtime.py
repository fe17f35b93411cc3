"""Time the system could not take moves is not charged (arbiter/runtime/downtime.py).

The game of `setup` has 5 minutes sudden death; its clock starts at t0 (White to move). The
web processes' heartbeat is written by beat(); a gap longer than the threshold (3 s) is an
outage, credited to every running clock before any flag is judged.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest

from arbiter.games import services
from arbiter.games.models import Game
from arbiter.runtime import downtime
from arbiter.runtime.models import Heartbeat, SystemEvent
from clocks.models import ClockLog
from tests.games.builders import make_game

pytestmark = pytest.mark.django_db

S = timedelta(seconds=1)


@pytest.fixture(autouse=True)
def heartbeat_on(settings):
    settings.HEARTBEAT = True  # off for the rest of the suite (tests/conftest.py)


@pytest.fixture
def running(setup, clock_at, t0):
    clock_at(t0)
    services.start_clocks(setup.game, by=setup.arbiter)
    return setup.game


def deadline(game) -> object:
    return Game.objects.select_related("clock").get(pk=game.pk).clock.deadline


def test_the_first_beat_writes_the_heartbeat_and_credits_nothing(running, clock_at, t0):
    assert not downtime.flags_on_hold()  # never beaten: nothing held (no web process yet)
    clock_at(t0 + 10 * S)
    assert downtime.beat() is None
    assert Heartbeat.objects.get(pk=1).at == t0 + 10 * S
    clock_at(t0 + 11 * S)
    assert downtime.beat() is None  # one second later: no gap
    assert Heartbeat.objects.get(pk=1).at == t0 + 11 * S
    assert not ClockLog.objects.filter(action="adjust").exists()


def test_a_gap_in_the_heartbeat_is_credited_to_the_running_clock_and_logged(running, clock_at, t0):
    clock_at(t0 + 10 * S)
    downtime.beat()
    before = deadline(running)
    assert before == t0 + 300 * S
    # The system stops at t0+10 s and comes back at t0+40 s: 30 s not charged.
    clock_at(t0 + 40 * S)
    assert downtime.flags_on_hold()
    assert downtime.beat() == 30_000
    assert deadline(running) == before + 30 * S
    entry = ClockLog.objects.get(action="adjust")
    assert (entry.side, entry.delta_ms, entry.user) == ("white", 30_000, None)
    assert "system down from 2026-11-30T14:00:10+00:00 to 2026-11-30T14:00:40" in entry.reason
    assert entry.before["running_since"] == t0.isoformat()
    assert entry.after["running_since"] == (t0 + 40 * S).isoformat()
    assert entry.after["spent_ms"] == 10_000  # the 10 s White did think are still charged
    event = SystemEvent.objects.get(kind="downtime")
    assert "down from 14:00:10 to 14:00:40 UTC (30.0 s): 1 running clock(s) credited" in (
        event.message
    )
    assert not downtime.flags_on_hold()
    clock_at(t0 + 41 * S)
    assert downtime.beat() is None  # credited once
    assert ClockLog.objects.filter(action="adjust").count() == 1
    # White still has its 290 s from t0+40 s: the flag falls at t0+330 s, not at t0+300 s
    # (the system beating every second meanwhile).
    clock_at(t0 + 329 * S)
    Heartbeat.objects.update(at=t0 + 329 * S)
    assert services.check_flags_due() == 0
    clock_at(t0 + 330 * S)
    Heartbeat.objects.update(at=t0 + 330 * S)
    assert services.check_flags_due() == 1


def test_no_flag_is_judged_before_the_outage_is_credited(setup, clock_at, t0):
    """A deadline that passed during the outage is moved by the credit; one that passed
    while the system was still up is a flag (FMJD Annex 3: time exceeded)."""
    clock_at(t0 - 280 * S)
    out_before = make_game(setup.event)
    services.start_clocks(out_before, by=setup.arbiter)  # deadline t0+20 s
    clock_at(t0)
    services.start_clocks(setup.game, by=setup.arbiter)  # deadline t0+300 s
    clock_at(t0 + 25 * S)
    downtime.beat()  # out_before's flag is due, not yet recorded; the system stops now
    clock_at(t0 + 400 * S)  # back after 375 s: setup.game's deadline passed meanwhile
    assert services.check_flags_due() == 0  # held: the outage is not credited yet
    assert services.check_flag(setup.game.pk, ply=0) is False
    assert Game.objects.filter(flag_side="").count() == 2
    downtime.beat()
    assert deadline(setup.game) == t0 + 675 * S  # 300 s + the 375 s the system was down
    assert services.check_flags_due() == 1  # out_before only
    assert Game.objects.get(pk=out_before.pk).termination == "flag"
    assert Game.objects.get(pk=setup.game.pk).status == "running"
    assert ClockLog.objects.filter(action="adjust").count() == 1


def test_a_paused_clock_is_not_credited(running, setup, clock_at, t0):
    clock_at(t0 + 5 * S)
    services.pause_clocks(running, by=setup.arbiter)
    downtime.beat()
    clock_at(t0 + 60 * S)
    assert downtime.beat() == 55_000
    assert not ClockLog.objects.filter(action="adjust").exists()
    assert "0 running clock(s) credited" in SystemEvent.objects.get().message


def test_an_event_that_does_not_credit_downtime_is_charged_the_outage_and_its_log_says_so(
    setup, clock_at, t0
):
    """The arbiter's policy, per event (Event.downtime_credit, on by default): off, its
    running clocks are charged the outage; the other events' clocks are still credited."""
    from tests.games.builders import make_event

    strict = make_event(time_control="300", arbiter=setup.arbiter, downtime_credit=False)
    charged = make_game(strict)
    clock_at(t0)
    services.start_clocks(setup.game, by=setup.arbiter)
    services.start_clocks(charged, by=setup.arbiter)
    clock_at(t0 + 10 * S)
    downtime.beat()
    clock_at(t0 + 40 * S)
    assert downtime.beat() == 30_000
    assert deadline(setup.game) == t0 + 330 * S  # credited: the default
    assert deadline(charged) == t0 + 300 * S  # charged: the event's policy
    line = ClockLog.objects.get(action="adjust", clock__game=charged)
    assert (line.side, line.delta_ms, line.before, line.after) == (
        "white",
        0,
        line.before,
        line.before,
    )
    assert line.reason.endswith("30000 ms charged (the event's policy)")
    assert ClockLog.objects.get(action="adjust", clock__game=setup.game).delta_ms == 30_000
    message = SystemEvent.objects.get(kind="downtime").message
    assert "1 running clock(s) credited" in message
    assert f"1 charged, their events not crediting downtime (games {charged.pk})" in message
    # charged: its flag falls at t0+300 s as if the system had run
    clock_at(t0 + 300 * S)
    Heartbeat.objects.update(at=t0 + 300 * S)
    assert services.check_flags_due() == 1
    assert Game.objects.get(pk=charged.pk).termination == "flag"
    assert Game.objects.get(pk=setup.game.pk).status == "running"


def test_a_late_beat_while_moves_are_taken_credits_nothing(running, setup, clock_at, t0):
    """Under heavy load every web process's beat may come more than the threshold late
    while moves are still accepted: the system was up, no time is given back."""
    clock_at(t0 + 10 * S)
    downtime.beat()
    moves = ["32-28", "19-23", "28x19", "14x23"]
    for ply, (at, move) in enumerate(zip((11, 12.5, 14, 15.5), moves, strict=True), start=1):
        clock_at(t0 + timedelta(seconds=at))
        player = setup.white if ply % 2 else setup.black
        services.submit_move(running.pk, ply=ply, move=move, request_id=f"m{ply}", by=player)
    before = deadline(running)
    clock_at(t0 + 16 * S)  # the next beat, 6 s after the last: 0.5 s after the last move
    assert downtime.beat() is None
    assert deadline(running) == before
    assert not ClockLog.objects.filter(action="adjust").exists()
    assert not SystemEvent.objects.filter(kind="downtime").exists()
    assert Heartbeat.objects.get(pk=1).at == t0 + 16 * S
    assert not downtime.flags_on_hold()


def test_moves_until_a_crash_are_charged_and_the_time_after_the_last_is_credited(
    running, setup, clock_at, t0
):
    clock_at(t0 + 10 * S)
    downtime.beat()
    clock_at(t0 + 12 * S)
    services.submit_move(running.pk, ply=1, move="32-28", request_id="m1", by=setup.white)
    clock_at(t0 + 40 * S)  # the system stopped after that move; back 28 s later
    assert downtime.beat() == 28_000
    line = ClockLog.objects.get(action="adjust")
    assert (line.side, line.delta_ms) == ("black", 28_000)
    assert "system down from 2026-11-30T14:00:12+00:00" in line.reason
    assert "down from 14:00:12 to 14:00:40 UTC (28.0 s)" in SystemEvent.objects.get().message


def test_an_arbiters_clock_action_is_a_sign_of_life_too(running, setup, clock_at, t0):
    clock_at(t0 + 10 * S)
    downtime.beat()
    clock_at(t0 + 13 * S)
    services.pause_clocks(running, by=setup.arbiter)
    clock_at(t0 + 14 * S)
    services.resume_clocks(running, by=setup.arbiter)
    clock_at(t0 + 15 * S)
    assert downtime.beat() is None  # 5 s since the beat, 1 s since the arbiter's action
    assert not ClockLog.objects.filter(action="adjust").exists()


@pytest.mark.parametrize("setting", ["DOWNTIME_CREDIT", "HEARTBEAT"])
def test_with_the_setting_off_nothing_is_credited_and_no_flag_is_held(
    running, clock_at, t0, settings, setting
):
    setattr(settings, setting, False)
    clock_at(t0 + 10 * S)
    downtime.beat()
    clock_at(t0 + 301 * S)
    assert not downtime.flags_on_hold()  # the heartbeat is 291 s old, but nothing is held
    assert services.check_flags_due() == 1  # charged: the flag fell during the outage
    downtime.beat()
    assert not ClockLog.objects.filter(action="adjust").exists()
    assert "not credited" in SystemEvent.objects.get().message


def test_the_round_page_shows_the_system_events_to_the_arbiter(setup, client):
    from arbiter.runtime import systemlog

    systemlog.record("restart", "clock restarted at 14:02:11 (exit code -9)", process="clock")
    client.force_login(setup.arbiter)
    page = client.get(f"/rounds/{setup.game.round_id}/arbiter/").content.decode()
    assert "System events" in page
    assert "clock restarted at 14:02:11 (exit code -9)" in page


def test_a_move_in_a_process_whose_beat_failed_is_not_charged_the_outage(
    running, setup, clock_at, t0, monkeypatch
):
    clock_at(t0 + 10 * S)
    downtime.beat()
    # This process beats, but its last beat that worked was 10 s ago: the database was
    # unreachable (or the beat still waits for it).
    monkeypatch.setattr(downtime._Beats, "ok_at", time.monotonic() - 10)
    clock_at(t0 + 70 * S)  # back; the move comes before the heartbeat thread's next beat
    services.submit_move(running.pk, ply=1, move="32-28", request_id="r1", by=setup.white)
    game = Game.objects.select_related("clock").get(pk=running.pk)
    assert game.clock.remaining_white_ms == 290_000  # 10 s thought, the 60 s down not charged
    assert ClockLog.objects.get(action="adjust").delta_ms == 60_000
