"""The stored clock: state round trip, deadline column, optimistic version, log lines."""

from datetime import UTC, datetime, timedelta

import pytest

from clocks.clock import pause, press, start
from clocks.models import Clock, ClockLog
from rules import Color

T0 = datetime(2026, 5, 1, 10, 0, tzinfo=UTC)

pytestmark = pytest.mark.django_db


def test_new_clock_holds_the_first_period_and_no_deadline():
    clock = Clock.for_time_control("50/7200:25/3600")
    clock.save()
    clock.refresh_from_db()
    assert (clock.remaining_white_ms, clock.remaining_black_ms) == (7_200_000, 7_200_000)
    assert clock.deadline is None
    assert clock.state.running is None


def test_apply_writes_state_and_deadline_and_the_row_reads_back_the_same_state():
    clock = Clock.for_time_control("4800+60")
    clock.save()
    state = start(clock.state, clock.tc, T0)
    state = press(state, clock.tc, T0 + timedelta(seconds=35))
    clock.apply(state, clock.tc)
    clock.save()
    clock.refresh_from_db()
    assert clock.state == state
    # Black runs from T0+35 s with 4,800,000 ms: deadline T0 + 35 s + 80 min.
    assert clock.deadline == T0 + timedelta(seconds=35, minutes=80)
    assert Clock.objects.filter(deadline__lte=T0 + timedelta(hours=2)).count() == 1


def test_clocklog_records_before_and_after_as_json():
    clock = Clock.for_time_control("1200+5")
    clock.save()
    before = start(clock.state, clock.tc, T0)
    after = pause(before, T0 + timedelta(seconds=10))
    log = ClockLog.record(
        clock, "pause", before, after, at=T0 + timedelta(seconds=10), reason="toilet light"
    )
    log.refresh_from_db()
    assert log.before["running_since"] == T0.isoformat()
    assert log.after["paused"] is True and log.after["spent_ms"] == 10_000
    assert type(after).from_dict(log.after) == after
    assert clock.log.get().side == ""


def test_pause_stored_clears_the_deadline():
    clock = Clock.for_time_control("1200+5")
    state = start(clock.state, clock.tc, T0, Color.WHITE)
    clock.apply(pause(state, T0 + timedelta(seconds=1)))
    assert clock.deadline is None and clock.paused


def test_admin_lists_clocks_with_their_log_read_only(admin_client):
    clock = Clock.for_time_control("300+3")
    clock.save()
    before = clock.state
    after = start(before, clock.tc, T0)
    ClockLog.record(clock, "start", before, after, at=T0, reason="round 1 start")
    assert admin_client.get("/admin/clocks/clock/").status_code == 200
    page = admin_client.get(f"/admin/clocks/clock/{clock.pk}/change/")
    assert page.status_code == 200 and b"round 1 start" in page.content
    assert admin_client.get("/admin/clocks/clocklog/add/").status_code == 403
