"""Checks of an event's settings, each raising `Invalid` that says which field and why."""

from __future__ import annotations

from arbiter.errors import Invalid
from arbiter.events.tiebreaks import TIEBREAKS
from clocks.timecontrol import TimeControl, TimeControlError

#: Less than this per move in a period with a move count is taken for the seconds-first slip
#: ("7200/50" for "50/7200"): PDN, like PGN, writes the number of moves first.
MIN_MS_PER_MOVE = 1000

#: FMJD (competition rules, late arrival): each event sets 0 to 60 minutes, 60 by default.
LATE_ARRIVAL_MAX_MINUTES = 60


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
    text = str(value or "").strip()
    try:
        control = TimeControl.parse(text)
    except TimeControlError as exc:
        raise Invalid(
            "event.bad_time_control",
            error=exc,
            details={"field": "time_control"},
        ) from exc
    for period in control.periods:
        if period.moves and period.time_ms < period.moves * MIN_MS_PER_MOVE:
            raise Invalid(
                "event.time_control_swapped",
                period=period.to_pdn(),
                seconds=period.time_ms // 1000,
                moves=period.moves,
                details={"field": "time_control"},
            )
    return control.to_pdn()


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
