"""Checks of an event's settings, each raising `Invalid` that says which field and why."""

from __future__ import annotations

import re

from arbiter.errors import Invalid
from arbiter.events.tiebreaks import TIEBREAKS

# One period of a PDN TimeControl tag: "7200/50" (time for a number of moves, or moves/time),
# "4800+60" (with an increment), "*180" (sandclock), "?" (unknown), "-" (none).
_PERIOD = r"(?:\d+/\d+(?:\+\d+)?|\*?\d+(?:\+\d+)?)"
_TIME_CONTROL = re.compile(rf"^(?:\?|-|{_PERIOD}(?::{_PERIOD})*)$")

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
    text = str(value or "").strip()
    if not _TIME_CONTROL.match(text):
        raise Invalid(
            f"time_control: '{value}' is not a PDN TimeControl tag "
            "(e.g. '7200/50:3600/25', '4800+60', '5400/45:1800+30')",
            details={"field": "time_control"},
        )
    return text


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
