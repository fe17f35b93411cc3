"""Checks of an event's settings, each raising `Invalid` that says which field and why."""

from __future__ import annotations

from arbiter.errors import Invalid
from arbiter.events.tiebreaks import TIEBREAKS
from arbiter.messages import Problem
from arbiter.validation import check_text
from clocks.timecontrol import TimeControl, TimeControlError

#: Less than this per move in a period with a move count is taken for the seconds-first slip
#: ("7200/50" for "50/7200"): PDN, like PGN, writes the number of moves first.
MIN_MS_PER_MOVE = 1000

#: FMJD (competition rules, late arrival): each event sets 0 to 60 minutes, 60 by default.
LATE_ARRIVAL_MAX_MINUTES = 60

#: Bounds of a time control a clock can run (its times are integer ms in 64-bit columns):
#: a period of at most a day, an increment of at most an hour, at most 1000 moves a period.
MAX_PERIOD_SECONDS = 24 * 3600
MAX_INCREMENT_SECONDS = 3600
MAX_PERIOD_MOVES = 1000
MAX_PERIODS = 10
TIME_CONTROL_MAX_LENGTH = 100  # Event.time_control


def validate_tiebreaks(value) -> list[str]:
    if not isinstance(value, list | tuple) or not all(isinstance(c, str) for c in value):
        raise Invalid("tiebreaks.not_a_list", details={"field": "tiebreaks"})
    unknown = [c for c in value if c not in TIEBREAKS]
    if unknown:
        raise Invalid(
            "tiebreaks.unknown",
            unknown=list(unknown),
            known=list(TIEBREAKS),
            details={"field": "tiebreaks", "unknown": unknown},
        )
    dupes = sorted({c for c in value if list(value).count(c) > 1})
    if dupes:
        raise Invalid(
            "tiebreaks.duplicates",
            dupes=list(dupes),
            details={"field": "tiebreaks"},
        )
    return list(value)


def validate_time_control(value) -> str:
    """A PDN TimeControl tag that the clocks can run, in its canonical form."""
    text = check_text("time_control", str(value or "").strip(), TIME_CONTROL_MAX_LENGTH)
    try:
        control = TimeControl.parse(text)
    except TimeControlError as exc:
        raise Invalid(
            "event.bad_time_control",
            error=exc,
            details={"field": "time_control"},
        ) from exc
    if len(control.periods) > MAX_PERIODS:
        raise Invalid(
            "event.too_many_periods",
            periods=len(control.periods),
            max=MAX_PERIODS,
            details={"field": "time_control"},
        )
    for period in control.periods:
        if period.moves and period.time_ms < period.moves * MIN_MS_PER_MOVE:
            raise Invalid(
                "event.time_control_swapped",
                period=period.to_pdn(),
                seconds=period.time_ms // 1000,
                moves=period.moves,
                details={"field": "time_control"},
            )
        _check_period_bounds(period)
    return control.to_pdn()


def _check_period_bounds(period) -> None:
    problems = []
    if period.time_ms > MAX_PERIOD_SECONDS * 1000:
        problems.append(
            Problem("event.period_too_long", seconds=period.time_ms // 1000, max=MAX_PERIOD_SECONDS)
        )
    if period.increment_ms > MAX_INCREMENT_SECONDS * 1000:
        problems.append(
            Problem(
                "event.increment_too_long",
                seconds=period.increment_ms // 1000,
                max=MAX_INCREMENT_SECONDS,
            )
        )
    if period.moves and period.moves > MAX_PERIOD_MOVES:
        problems.append(
            Problem("event.period_too_many_moves", moves=period.moves, max=MAX_PERIOD_MOVES)
        )
    if problems:
        raise Invalid(
            "event.period_out_of_bounds",
            period=period.to_pdn(),
            problems=problems,
            details={"field": "time_control"},
        )


def validate_late_arrival(value) -> int:
    # FMJD: the delay after which a late player loses is between 0 and 60 minutes.
    if not isinstance(value, int) or not 0 <= value <= LATE_ARRIVAL_MAX_MINUTES:
        raise Invalid(
            "event.bad_late_arrival",
            value=value,
            max=LATE_ARRIVAL_MAX_MINUTES,
            details={"field": "late_arrival_minutes"},
        )
    return value


#: The most network lag a tablet may have credited per player and game (one minute).
LAG_QUOTA_MAX_MS = 60_000


def validate_lag_quota(value) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= LAG_QUOTA_MAX_MS:
        raise Invalid(
            "event.bad_lag_quota",
            value=value,
            max=LAG_QUOTA_MAX_MS,
            details={"field": "lag_quota_ms"},
        )
    return value


def validate_rounds(value) -> int:
    if not isinstance(value, int) or not 1 <= value <= 99:
        raise Invalid("event.bad_rounds", value=value, details={"field": "rounds"})
    return value


def validate_points(field: str, value) -> int:
    if not isinstance(value, int) or not 0 <= value <= 100:
        raise Invalid("event.bad_points", field=field, value=value, details={"field": field})
    return value


def validate_choice(field: str, value, choices) -> str:
    allowed = [c for c, _ in choices]
    if value not in allowed:
        raise Invalid(
            "event.bad_choice",
            field=field,
            value=value,
            allowed=list(allowed),
            details={"field": field},
        )
    return value


def validate_after_round(event, value: int | None) -> int | None:
    """`after_round` of standings and exports: a round of the event (0: before round 1).

    Bounded by the event's rounds, so that no request computes standings for rounds that
    cannot exist (a million rounds took a minute and gigabytes)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= event.rounds:
        raise Invalid(
            "after_round.out_of_range",
            value=value,
            event=event,
            rounds=event.rounds,
            details={"field": "after_round", "rounds": event.rounds},
        )
    return value
