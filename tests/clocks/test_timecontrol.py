"""Time controls and the PDN TimeControl tag (PGN 9.6.1 syntax as taken over by PDN 3.0)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clocks.timecontrol import (
    PRESETS,
    IncrementKind,
    Period,
    TimeControl,
    TimeControlError,
    UnknownTimeControl,
    UnsupportedTimeControl,
)

F, B, D, N = (
    IncrementKind.FISCHER,
    IncrementKind.BRONSTEIN,
    IncrementKind.DELAY,
    IncrementKind.NONE,
)


@pytest.mark.parametrize(
    ("tag", "periods"),
    [
        ("4800+60", (Period(None, 4_800_000, 60_000, F),)),
        ("3600", (Period(None, 3_600_000),)),
        ("40/9000", (Period(40, 9_000_000),)),
        ("50/7200:25/3600", (Period(50, 7_200_000), Period(25, 3_600_000))),
        ("50/7200:3600", (Period(50, 7_200_000), Period(None, 3_600_000))),
        (
            "45/5400+30:1800+30",
            (Period(45, 5_400_000, 30_000, F), Period(None, 1_800_000, 30_000, F)),
        ),
        ("1800b5", (Period(None, 1_800_000, 5_000, B),)),
        ("1800d5", (Period(None, 1_800_000, 5_000, D),)),
        ("-", ()),
    ],
)
def test_pdn_tag_reads_to_periods_and_writes_back_the_same_string(tag, periods):
    tc = TimeControl.parse(tag)
    assert tc.periods == periods
    assert tc.to_pdn() == tag


def test_pdn_tag_surrounding_spaces_are_ignored_and_zero_increment_is_no_increment():
    assert TimeControl.parse(" 300+0 ").to_pdn() == "300"
    assert TimeControl.parse("300+0").periods[0].kind is N


@pytest.mark.parametrize(
    ("tag", "part"),
    [
        ("50/", "50/"),
        ("abc", "abc"),
        ("50/7200:x", "x"),
        ("4800+", "4800+"),
        ("0/3600", "0/3600"),
        ("3600:50/7200", "3600"),
        ("50/7200:-", "-"),
        ("4800+60s", "4800+60s"),
    ],
)
def test_bad_pdn_tag_raises_a_valueerror_naming_the_bad_part(tag, part):
    with pytest.raises(TimeControlError) as info:
        TimeControl.parse(tag)
    assert isinstance(info.value, ValueError)
    assert info.value.part == part
    assert repr(part) in str(info.value)


def test_unknown_and_sandclock_tags_are_refused_with_their_own_errors():
    with pytest.raises(UnknownTimeControl):
        TimeControl.parse("?")
    with pytest.raises(UnsupportedTimeControl, match="sandclock"):
        TimeControl.parse("*180")
    with pytest.raises(TimeControlError, match="empty"):
        TimeControl.parse("")


def test_untimed_control_has_no_periods():
    tc = TimeControl.parse("-")
    assert not tc.timed
    with pytest.raises(TimeControlError):
        tc.period(0)


def test_milliseconds_that_are_not_whole_seconds_cannot_be_written_as_a_tag():
    tc = TimeControl((Period(None, 1_500),))
    with pytest.raises(TimeControlError, match="whole seconds"):
        tc.to_pdn()


def test_period_refuses_an_increment_without_a_kind_and_negative_values():
    with pytest.raises(TimeControlError):
        Period(None, 1000, 5000, N)
    with pytest.raises(TimeControlError):
        Period(None, -1)
    with pytest.raises(TimeControlError):
        Period(0, 1000)
    with pytest.raises(TimeControlError, match="rest of the game"):
        TimeControl((Period(None, 1000), Period(10, 1000)))


def test_fmjd_10_last_period_with_moves_repeats_every_25_moves():
    # "2 h for 50 moves then 1 h per 25 moves": periods 0 (1-50), 1 (51-75), 2 (76-100), ...
    tc = PRESETS["fmjd_classical"]
    assert tc.repeats_last
    assert [tc.moves_before(i) for i in range(5)] == [0, 50, 75, 100, 125]
    assert tc.period(7) == Period(25, 3_600_000)
    assert tc.period_for_move_count(49) == 0
    assert tc.period_for_move_count(50) == 1
    assert tc.period_for_move_count(74) == 1
    assert tc.period_for_move_count(75) == 2
    # After 100 moves: 2 h + 1 h (at 50) + 1 h (at 75) + 1 h (at 100) = 5 h.
    assert tc.time_added_through(100) == 5 * 3_600_000


def test_fmjd_10_sudden_death_after_a_move_period_does_not_repeat():
    tc = TimeControl.parse("50/7200:3600")
    assert not tc.repeats_last
    assert tc.moves_before(2) is None
    assert tc.period_for_move_count(500) == 1
    assert tc.time_added_through(500) == 3 * 3_600_000


def test_presets_write_the_expected_tags():
    assert {name: tc.to_pdn() for name, tc in PRESETS.items()} == {
        "fmjd_classical": "50/7200:25/3600",
        "fischer_80_1": "4800+60",
        "classical_90_45_30_30": "45/5400+30:1800+30",
        "rapid_20_5": "1200+5",
        "semi_rapid_20_20": "1200+20",
        "blitz_5_3": "300+3",
        "sudden_death_60": "3600",
    }


def test_events_default_tag_must_be_written_moves_first():
    # PGN puts the number of moves first (moves/seconds). "7200/50" would read as 7200 moves
    # in 50 s, which is not the FMJD rate: the FMJD classical tag is "50/7200:25/3600".
    assert TimeControl.parse("7200/50:3600/25").periods[0] == Period(7200, 50_000)
    assert TimeControl.parse("50/7200:25/3600") == PRESETS["fmjd_classical"]


_kinds = st.sampled_from([N, F, B, D])


@st.composite
def _periods(draw, last):
    moves = None if last and draw(st.booleans()) else draw(st.integers(1, 200))
    kind = draw(_kinds)
    inc = 0 if kind is N else draw(st.integers(1, 600)) * 1000
    return Period(moves, draw(st.integers(0, 36_000)) * 1000, inc, kind)


@st.composite
def time_controls(draw):
    n = draw(st.integers(1, 4))
    return TimeControl(tuple(draw(_periods(last=(i == n - 1))) for i in range(n)))


@given(time_controls())
def test_pdn_tag_round_trip_for_any_control(tc):
    tag = tc.to_pdn()
    assert TimeControl.parse(tag) == tc
    assert TimeControl.parse(tag).to_pdn() == tag
