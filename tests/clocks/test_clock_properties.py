"""Properties of the clock arithmetic over random controls and move sequences (hypothesis)."""

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from clocks.clock import (
    FlagFallen,
    deadline,
    flagged,
    initial_state,
    pause,
    press,
    remaining,
    resume,
    start,
)
from clocks.timecontrol import IncrementKind, Period, TimeControl
from rules import Color

T0 = datetime(2026, 5, 1, 10, 0, tzinfo=UTC)
KINDS = list(IncrementKind)


@st.composite
def controls(draw):
    n = draw(st.integers(1, 3))
    periods = []
    for i in range(n):
        last = i == n - 1
        moves = None if last and draw(st.booleans()) else draw(st.integers(1, 6))
        kind = draw(st.sampled_from(KINDS))
        inc = 0 if kind is IncrementKind.NONE else draw(st.integers(1, 10_000))
        periods.append(Period(moves, draw(st.integers(1, 120_000)), inc, kind))
    return TimeControl(tuple(periods))


thinks = st.lists(st.integers(0, 40_000), min_size=1, max_size=40)


@given(controls(), thinks)
def test_time_used_plus_remaining_equals_initial_plus_period_times_plus_increments(tc, think):
    """For each side: remaining = time received (periods) + increments given - time charged."""
    state = start(initial_state(tc), tc, T0)
    now = T0
    received = [tc.periods[0].time_ms] * 2
    given_back = [0, 0]
    charged = [0, 0]
    for ms in think:
        side = state.running
        i = side.index
        period = tc.period(state.period[i])
        now += timedelta(milliseconds=ms)
        try:
            new = press(state, tc, now)
        except FlagFallen as fall:
            # The server refused the move: the time was gone by now.
            assert fall.side is side and now >= deadline(state, tc)
            assert flagged(state, tc, now) is side
            assert remaining(state, tc, now)[i] == 0
            break
        delay = period.increment_ms if period.kind is IncrementKind.DELAY else 0
        charged[i] += max(0, ms - delay)
        if period.kind is IncrementKind.FISCHER:
            given_back[i] += period.increment_ms
        elif period.kind is IncrementKind.BRONSTEIN:
            given_back[i] += min(ms, period.increment_ms)
        if new.period[i] != state.period[i]:
            received[i] += tc.period(new.period[i]).time_ms
        state = new
        assert state.period[i] == tc.period_for_move_count(state.moves[i])
        for j in (0, 1):
            assert state.remaining_ms[j] == received[j] + given_back[j] - charged[j]
            assert state.remaining_ms[j] >= 0


@given(controls(), thinks, st.integers(0, 10**7))
def test_shown_time_is_never_negative_and_reaches_zero_exactly_at_the_deadline(tc, think, probe):
    state = start(initial_state(tc), tc, T0)
    now = T0
    for ms in think:
        try:
            state = press(state, tc, now + timedelta(milliseconds=ms))
        except FlagFallen:
            break
        now += timedelta(milliseconds=ms)
    limit = deadline(state, tc)
    later = now + timedelta(milliseconds=probe)
    shown = remaining(state, tc, later)
    assert min(shown) >= 0
    i = state.running.index
    assert (shown[i] == 0) == (later >= limit) == (flagged(state, tc, later) is state.running)


@given(controls(), st.integers(0, 200_000), st.integers(0, 10**8), st.integers(0, 200_000))
def test_a_pause_changes_nothing_but_the_wall_time(tc, before_ms, paused_ms, after_ms):
    """Pausing for any time, then resuming, ends the move exactly as if no pause had happened."""
    state = start(initial_state(tc), tc, T0)
    straight_at = T0 + timedelta(milliseconds=before_ms + after_ms)
    paused = pause(state, T0 + timedelta(milliseconds=before_ms))
    resumed = resume(paused, T0 + timedelta(milliseconds=before_ms + paused_ms))
    assert deadline(resumed, tc) == deadline(state, tc) + timedelta(milliseconds=paused_ms)
    moved_at = straight_at + timedelta(milliseconds=paused_ms)
    assert remaining(resumed, tc, moved_at) == remaining(state, tc, straight_at)
    try:
        straight = press(state, tc, straight_at)
    except FlagFallen:
        straight = None
    try:
        with_pause = press(resumed, tc, moved_at)
    except FlagFallen:
        with_pause = None
    assert (straight is None) == (with_pause is None)
    if straight is not None:
        assert straight.remaining_ms == with_pause.remaining_ms
        assert with_pause.running is Color.BLACK
