"""The codes of the clock's errors, and this library's own English for them.

Errors carry a stable `code` and their `params` (the part of the tag, the side, the
milliseconds): a program reads those, and the arbiter words them for its users
(arbiter/messages.py). `str(error)` is the English of the table below, for programs that use
the clock on its own.
"""

from __future__ import annotations

from typing import Any

#: code -> the library's English template (str.format with the error's params).
TEXTS: dict[str, str] = {
    # A time control that cannot be read or used (TimeControlError).
    "time_control.bad_moves": "number of moves must be a positive integer, not {moves!r}",
    "time_control.bad_time": "time must be a non-negative integer of ms, not {time_ms!r}",
    "time_control.bad_increment": (
        "increment must be a non-negative integer of ms, not {increment_ms!r}"
    ),
    "time_control.increment_without_kind": (
        "an increment needs a kind (fischer, bronstein or delay)"
    ),
    "time_control.not_whole_seconds": "the PDN tag counts whole seconds; {what} {ms} ms is not one",
    "time_control.sandclock": "the sandclock (hourglass) is not supported",
    "time_control.whole_tag_only": "{part!r} must be the whole tag, not one period",
    "time_control.bad_period": (
        "expected SECONDS, MOVES/SECONDS, optionally followed by +INC, bINC or dINC"
    ),
    "time_control.zero_moves": "the number of moves must be at least 1",
    "time_control.rest_not_last": "period {number} is for the rest of the game but periods follow it",
    "time_control.rest_period_not_last": "a period for the rest of the game must be the last one",
    "time_control.not_text": "a TimeControl tag is a string, not {type}",
    "time_control.empty": "the TimeControl tag is empty",
    "time_control.unknown": "the time control is unknown ('?')",
    "time_control.untimed_no_periods": "an untimed game ('-') has no periods",
    "time_control.bad_period_index": "period index must be >= 0, not {index}",
    "time_control.untimed_no_clock": "an untimed game ('-') has no clock",
    # A clock operation that does not fit the clock's state (ClockError).
    "clock.bad_pair": "{what} must be a pair of integers (white, black), not {value!r}",
    "clock.bad_now": "now must be an aware datetime (UTC), not {now!r}",
    "clock.negative_value": "negative clock value in {state}",
    "clock.bad_spent": "spent_ms must be >= 0, not {spent_ms}",
    "clock.running_since_not_running": "running_since is set only while a clock runs",
    "clock.running_without_since": "a running clock needs running_since",
    "clock.time_backwards": "now {now} is before {since}",
    "clock.already_started": "the clocks have already been started",
    "clock.not_running": "no clock is running: start the clocks first",
    "clock.paused": "the clocks are paused: resume them before a move",
    "clock.nothing_to_pause": "no clock is running: nothing to pause",
    "clock.already_paused": "the clocks are already paused",
    "clock.not_paused": "the clocks are not paused",
    "clock.bad_delta": "delta_ms must be an integer of milliseconds, not {delta_ms!r}",
    "clock.below_zero": (
        "cannot take {taken} ms from {side}: its clock shows {shows} ms (the lowest it may go is 0)"
    ),
    "clock.bad_time": "{name} must be an integer of milliseconds >= 0, not {value!r}",
    "clock.running_needs_now": "a clock is running: give `now`, or pause the clocks first",
    # FlagFallen: a move came after the mover's deadline.
    "clock.flag_fallen": "{side}'s flag fell at {deadline} ({over_by_ms} ms before the move)",
}

#: Every code the clocks give (the arbiter words each one).
CODES = frozenset(TEXTS)


def text(code: str, params: dict[str, Any]) -> str:
    """This library's English for `code` with `params`."""
    return TEXTS[code].format(**params)
