"""Clock arithmetic, worked by hand: every increment kind, the passage between periods (FMJD 10,
Annex 3: "unused time carried over"), pause/resume, arbiter adjustments and the flag."""

from datetime import UTC, datetime, timedelta

import pytest

from clocks.clock import (
    ClockError,
    ClockState,
    FlagFallen,
    adjust,
    deadline,
    flagged,
    initial_state,
    pause,
    press,
    remaining,
    resume,
    set_times,
    start,
    stop,
)
from clocks.timecontrol import PRESETS, TimeControl, TimeControlError
from rules import Color

T0 = datetime(2026, 5, 1, 10, 0, tzinfo=UTC)
W, B = Color.WHITE, Color.BLACK


def at(ms: int) -> datetime:
    return T0 + timedelta(milliseconds=ms)


def started(tag: str) -> tuple[TimeControl, ClockState]:
    tc = TimeControl.parse(tag)
    return tc, start(initial_state(tc), tc, T0)


def play(state, tc, think_ms, t):
    """Each entry of `think_ms` is one move; returns the state and the time reached."""
    for ms in think_ms:
        t += ms
        state = press(state, tc, at(t))
    return state, t


# --- start ------------------------------------------------------------------------------------


def test_fmjd_annex3_referee_starts_whites_clock():
    tc = PRESETS["fischer_80_1"]
    state = initial_state(tc)
    assert state.remaining_ms == (4_800_000, 4_800_000) and state.running is None
    assert deadline(state, tc) is None
    state = start(state, tc, T0)
    assert state.running is W and state.started
    assert deadline(state, tc) == at(4_800_000)
    with pytest.raises(ClockError, match="already"):
        start(state, tc, T0)


def test_untimed_control_has_no_clock():
    with pytest.raises(TimeControlError):
        initial_state(TimeControl.parse("-"))


def test_press_needs_a_running_unpaused_clock_and_an_aware_now():
    tc = PRESETS["blitz_5_3"]
    with pytest.raises(ClockError, match="start the clocks"):
        press(initial_state(tc), tc, T0)
    state = start(initial_state(tc), tc, T0)
    with pytest.raises(ClockError, match="aware"):
        press(state, tc, datetime(2026, 5, 1, 10, 0, 5))
    with pytest.raises(ClockError, match="before"):
        press(state, tc, at(-1))
    with pytest.raises(ClockError, match="paused"):
        press(pause(state, at(10)), tc, at(20))


# --- Fischer ------------------------------------------------------------------------------------


def test_fischer_increment_is_added_after_the_move():
    tc, state = started("4800+60")
    state = press(state, tc, at(35_000))
    # White thought 35 s: 4,800,000 - 35,000 + 60,000 = 4,825,000.
    assert state.remaining_ms == (4_825_000, 4_800_000)
    assert state.running is B and state.moves == (1, 0)
    # Black thinks 100 s: 4,800,000 - 100,000 + 60,000 = 4,760,000.
    state = press(state, tc, at(135_000))
    assert state.remaining_ms == (4_825_000, 4_760_000)


def test_fischer_clock_shows_time_counting_down_during_the_move():
    tc, state = started("300+3")
    # White at 12.345 s into the move: 300,000 - 12,345 = 287,655; Black untouched.
    assert remaining(state, tc, at(12_345)) == (287_655, 300_000)


# --- Bronstein ----------------------------------------------------------------------------------


def test_bronstein_gives_back_the_time_used_up_to_the_delay():
    tc, state = started("1800b5")
    # White uses 3 s (< 5 s): 1,800,000 - 3,000 + min(3,000, 5,000) = 1,800,000.
    state = press(state, tc, at(3_000))
    assert state.remaining_ms[0] == 1_800_000
    # Black uses 8 s (> 5 s): 1,800,000 - 8,000 + min(8,000, 5,000) = 1,797,000.
    state = press(state, tc, at(11_000))
    assert state.remaining_ms[1] == 1_797_000


def test_bronstein_never_ends_above_the_value_at_the_start_of_the_move():
    tc, state = started("1800b5")
    for think in (0, 1, 4_999, 5_000, 5_001, 60_000):
        before = state.side_remaining(state.running)
        side = state.running
        state = press(state, tc, state.running_since + timedelta(milliseconds=think))
        assert state.side_remaining(side) <= before
        # Equal exactly when the move took no longer than the 5 s delay.
        assert (state.side_remaining(side) == before) == (think <= 5_000)


def test_bronstein_clock_counts_down_from_the_first_millisecond():
    tc, state = started("1800b5")
    # 2 s into the move the clock shows 1,800,000 - 2,000 = 1,798,000 (given back after it).
    assert remaining(state, tc, at(2_000)) == (1_798_000, 1_800_000)
    assert deadline(state, tc) == at(1_800_000)


# --- simple delay -------------------------------------------------------------------------------


def test_delay_is_not_charged_within_the_delay():
    tc, state = started("1800d5")
    # During the 5 s delay the clock does not move.
    assert remaining(state, tc, at(4_999)) == (1_800_000, 1_800_000)
    # White moves after 4 s: nothing is charged, nothing is added: still 1,800,000.
    state = press(state, tc, at(4_000))
    assert state.remaining_ms == (1_800_000, 1_800_000)
    # Black moves after 12 s: 1,800,000 - (12,000 - 5,000) = 1,793,000.
    state = press(state, tc, at(16_000))
    assert state.remaining_ms == (1_800_000, 1_793_000)


def test_delay_does_not_accumulate():
    tc, state = started("60d5")
    # Ten quick moves each (1 s < 5 s delay) bank nothing: both clocks stay at 60,000.
    state, t = play(state, tc, [1_000] * 20, 0)
    assert state.remaining_ms == (60_000, 60_000)
    # White's deadline = 60,000 + 5,000 (its delay) after it started: at t + 65,000.
    assert deadline(state, tc) == at(t + 65_000)


def test_delay_deadline_includes_the_delay_and_the_flag_falls_there():
    tc, state = started("60d5")
    assert deadline(state, tc) == at(65_000)
    assert flagged(state, tc, at(64_999)) is None
    assert remaining(state, tc, at(64_999)) == (1, 60_000)
    assert flagged(state, tc, at(65_000)) is W


# --- periods and carry-over ---------------------------------------------------------------------


def test_fmjd_10_carry_over_at_move_50_adds_one_hour():
    tc, state = started("50/7200:25/3600")
    # Each side thinks 100 s per move for 49 moves: 7,200,000 - 49 * 100,000 = 2,300,000.
    state, t = play(state, tc, [100_000] * 98, 0)
    assert state.remaining_ms == (2_300_000, 2_300_000) and state.period == (0, 0)
    # White's 50th move in 100 s: 2,300,000 - 100,000 = 2,200,000 unused, carried over,
    # + 3,600,000 for moves 51-75 = 5,800,000.
    state, t = play(state, tc, [100_000], t)
    assert state.remaining_ms == (5_800_000, 2_300_000)
    assert state.moves == (50, 49) and state.period == (1, 0)


def test_fmjd_10_last_period_repeats_one_hour_per_25_moves():
    tc, state = started("50/7200:25/3600")
    # 10 s per move for everyone; White's clock after n moves (n >= 50):
    # 7,200,000 - n * 10,000 + 3,600,000 per completed block (at 50, 75, 100 ...).
    state, t = play(state, tc, [10_000] * (2 * 74), 0)
    # 74 moves each: 7,200,000 - 740,000 + 3,600,000 (at 50) = 10,060,000.
    assert state.remaining_ms == (10_060_000, 10_060_000) and state.period == (1, 1)
    state, t = play(state, tc, [10_000], t)
    # White's 75th: 10,060,000 - 10,000 + 3,600,000 = 13,650,000 (2nd repetition of 1 h).
    assert state.remaining_ms[0] == 13_650_000 and state.period[0] == 2
    state, t = play(state, tc, [10_000] * (2 * 25 + 1), t)
    # Both at 100 moves: 7,200,000 - 1,000,000 + 3 * 3,600,000 = 17,000,000.
    assert state.moves == (100, 100)
    assert state.remaining_ms == (17_000_000, 17_000_000) and state.period == (3, 3)


def test_sudden_death_last_period_adds_its_time_once():
    tc, state = started("50/7200:3600")
    state, t = play(state, tc, [10_000] * 200, 0)
    # 100 moves each: 7,200,000 - 1,000,000 + 3,600,000 (once, at 50) = 9,800,000.
    assert state.remaining_ms == (9_800_000, 9_800_000) and state.period == (1, 1)


def test_90_45_30_30_increment_from_move_1_and_30_minutes_after_move_45():
    tc = PRESETS["classical_90_45_30_30"]
    state = start(initial_state(tc), tc, T0)
    # 60 s per move: after White's 44th move: 5,400,000 + 44 * (30,000 - 60,000) = 4,080,000.
    state, t = play(state, tc, [60_000] * 87, 0)
    assert state.remaining_ms[0] == 4_080_000 and state.moves == (44, 43)
    state, t = play(state, tc, [60_000, 60_000], t)
    # White's 45th: 4,080,000 - 60,000 + 30,000 + 1,800,000 = 5,850,000.
    assert state.remaining_ms[0] == 5_850_000 and state.period[0] == 1
    state, t = play(state, tc, [60_000, 60_000], t)
    # 46th: + 30 s increment still: 5,850,000 - 60,000 + 30,000 = 5,820,000.
    assert state.remaining_ms[0] == 5_820_000


# --- the flag -----------------------------------------------------------------------------------


def test_flag_at_exactly_the_deadline_falls_and_the_move_is_refused():
    tc, state = started("300")
    assert flagged(state, tc, at(299_999)) is None
    assert remaining(state, tc, at(299_999)) == (1, 300_000)
    # At exactly 300,000 ms White's clock shows 0: the flag has fallen (0 counts as out).
    assert flagged(state, tc, at(300_000)) is W
    with pytest.raises(FlagFallen) as info:
        press(state, tc, at(300_000))
    assert info.value.side is W and info.value.over_by_ms == 0
    with pytest.raises(FlagFallen) as info:
        press(state, tc, at(301_500))
    assert info.value.over_by_ms == 1_500 and info.value.deadline == at(300_000)
    # The last moment a move counts: 1 ms before the deadline.
    assert press(state, tc, at(299_999)).remaining_ms == (1, 300_000)


def test_remaining_is_never_shown_below_zero():
    tc, state = started("300")
    assert remaining(state, tc, at(10_000_000)) == (0, 300_000)


def test_stop_charges_the_running_side_and_freezes_the_clocks():
    tc, state = started("300+3")
    stopped = stop(state, tc, at(20_000))
    assert stopped.remaining_ms == (280_000, 300_000)
    assert stopped.running is None and deadline(stopped, tc) is None
    assert remaining(stopped, tc, at(999_000)) == (280_000, 300_000)
    # A flag that had fallen stays visible after the stop.
    assert flagged(stop(state, tc, at(400_000)), tc, at(400_000)) is W


# --- pause and resume ---------------------------------------------------------------------------


def test_pause_resume_shifts_the_deadline_by_the_paused_time():
    tc, state = started("300+3")
    assert deadline(state, tc) == at(300_000)
    state = pause(state, at(20_000))
    assert deadline(state, tc) is None
    # Paused for 10 minutes: the clock keeps showing 300,000 - 20,000 = 280,000.
    assert remaining(state, tc, at(620_000)) == (280_000, 300_000)
    assert flagged(state, tc, at(10_000_000)) is None
    state = resume(state, at(620_000))
    # Deadline moved from 300,000 to 300,000 + 600,000 = 900,000.
    assert deadline(state, tc) == at(900_000)
    # White moves at 630,000: used 20,000 + 10,000 = 30,000: 300,000 - 30,000 + 3,000.
    state = press(state, tc, at(630_000))
    assert state.remaining_ms == (273_000, 300_000)


def test_pause_keeps_the_bronstein_cap_and_the_delay_of_the_move():
    tc, state = started("1800d5")
    # 3 s, pause, 1 min, resume, 4 s: 7 s used, 5 s free: 1,800,000 - 2,000 = 1,798,000.
    state = resume(pause(state, at(3_000)), at(63_000))
    assert press(state, tc, at(67_000)).remaining_ms[0] == 1_798_000
    tc, state = started("1800b5")
    state = resume(pause(state, at(3_000)), at(63_000))
    # Bronstein: 4 s used in all: 1,800,000 - 4,000 + 4,000 = 1,800,000 (the cap).
    assert press(state, tc, at(64_000)).remaining_ms[0] == 1_800_000


def test_pause_and_resume_refuse_the_wrong_state():
    tc = PRESETS["rapid_20_5"]
    with pytest.raises(ClockError, match="nothing to pause"):
        pause(initial_state(tc), T0)
    state = start(initial_state(tc), tc, T0)
    with pytest.raises(ClockError, match="not paused"):
        resume(state, T0)
    with pytest.raises(ClockError, match="already paused"):
        pause(pause(state, T0), T0)


# --- arbiter actions ----------------------------------------------------------------------------


def test_adjust_moves_the_deadline_by_the_delta():
    tc, state = started("300+3")
    assert deadline(adjust(state, W, 120_000), tc) == at(420_000)
    assert deadline(adjust(state, W, -60_000), tc) == at(240_000)
    # Adjusting the side that is not running changes its time, not the deadline.
    other = adjust(state, B, -60_000)
    assert other.remaining_ms == (300_000, 240_000) and deadline(other, tc) == at(300_000)


def test_adjust_may_take_a_clock_to_zero_but_not_below():
    tc, state = started("300+3")
    black_out = adjust(state, B, -300_000)
    assert black_out.remaining_ms[1] == 0
    assert flagged(black_out, tc, at(1)) is B
    with pytest.raises(ClockError, match="lowest it may go is 0"):
        adjust(state, B, -300_001)
    # The running side has used 100 s: it shows 200,000; 200,000 may go, 200,001 may not.
    assert flagged(adjust(state, W, -200_000, tc, at(100_000)), tc, at(100_000)) is W
    with pytest.raises(ClockError, match="shows 200000 ms"):
        adjust(state, W, -200_001, tc, at(100_000))


def test_set_times_replaces_a_faulty_clock():
    tc, state = started("300+3")
    state = press(state, tc, at(10_000))  # Black runs from 10 s
    fixed = set_times(state, 250_000, 200_000, tc, at(40_000))
    # What the clocks show at 40 s is what the arbiter set; Black counts down from there.
    assert remaining(fixed, tc, at(40_000)) == (250_000, 200_000)
    assert deadline(fixed, tc) == at(240_000)
    with pytest.raises(ClockError, match="give `now`"):
        set_times(state, 1, 1)
    with pytest.raises(ClockError, match="black_ms"):
        set_times(pause(state, at(20_000)), 1, -1)


def test_set_times_with_a_delay_shows_the_set_value():
    tc, state = started("1800d5")
    fixed = set_times(state, 1_000_000, 1_000_000, tc, at(9_000))
    assert remaining(fixed, tc, at(9_000)) == (1_000_000, 1_000_000)
    assert remaining(fixed, tc, at(10_000)) == (999_000, 1_000_000)


def test_state_round_trips_through_json_dict():
    tc, state = started("50/7200:25/3600")
    state = pause(press(state, tc, at(5_000)), at(7_000))
    assert ClockState.from_dict(state.to_dict()) == state
    with pytest.raises(ClockError):
        ClockState(remaining_ms=(-1, 0))
