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
        raise Invalid("tiebreaks: give a list of tie-break codes", details={"field": "tiebreaks"})
    unknown = [c for c in value if c not in TIEBREAKS]
    if unknown:
        raise Invalid(
            f"tiebreaks: unknown code(s) {', '.join(unknown)}; known: {', '.join(TIEBREAKS)}",
            details={"field": "tiebreaks", "unknown": unknown},
        )
    dupes = sorted({c for c in value if list(value).count(c) > 1})
    if dupes:
        raise Invalid(
            f"tiebreaks: {', '.join(dupes)} listed twice; give each tie-break once, in order",
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
            f"time_control: {exc} (e.g. '50/7200:25/3600', '4800+60', '45/5400+30:1800+30')",
            details={"field": "time_control"},
        ) from exc
    for period in control.periods:
        if period.moves and period.time_ms < period.moves * MIN_MS_PER_MOVE:
            raise Invalid(
                f"time_control: '{period.to_pdn()}' gives {period.moves} moves in "
                f"{period.time_ms // 1000} s; PDN writes the number of moves first "
                f"(did you mean '{period.time_ms // 1000}/{period.moves}'?)",
                details={"field": "time_control"},
            )
    return control.to_pdn()


def validate_late_arrival(value) -> int:
    # FMJD: the delay after which a late player loses is between 0 and 60 minutes.
    if not isinstance(value, int) or not 0 <= value <= LATE_ARRIVAL_MAX_MINUTES:
        raise Invalid(
            f"late_arrival_minutes: {value!r} is outside 0..{LATE_ARRIVAL_MAX_MINUTES} (FMJD)",
            details={"field": "late_arrival_minutes"},
        )
    return value


def validate_rounds(value) -> int:
    if not isinstance(value, int) or not 1 <= value <= 99:
        raise Invalid(
            f"rounds: {value!r} is not a number of rounds (1..99)", details={"field": "rounds"}
        )
    return value


def validate_points(field: str, value) -> int:
    if not isinstance(value, int) or not 0 <= value <= 100:
        raise Invalid(
            f"{field}: {value!r} is not a number of points (0..100)", details={"field": field}
        )
    return value


def validate_choice(field: str, value, choices) -> str:
    allowed = [c for c, _ in choices]
    if value not in allowed:
        raise Invalid(
            f"{field}: '{value}' is not one of {', '.join(allowed)}", details={"field": field}
        )
    return value
