"""The state of a game's two clocks, and pure functions that move it on.

Nothing here reads the time: `now` is an argument, an aware datetime (UTC); every duration is an
integer of milliseconds; elapsed time is floored to the millisecond. The server's clock is the
authority: `press` refuses a move made after the mover's deadline (FlagFallen).

State (`ClockState`)
--------------------
- remaining_ms (white, black): for the side NOT running, what its clock shows. For the running
  side, what it showed when its current move began; the time used on the move is charged only
  when the move is completed (`press`), paused (`spent_ms`) or the clocks stopped. This keeps the
  Bronstein cap (start-of-move value) and the simple delay exact across pauses.
- running: the side whose clock runs (or would run, while paused); None before `start` and after
  `stop`.
- running_since: when the current running stretch began; None while paused or stopped.
- spent_ms: time already used on the current move in earlier stretches (before a pause).
- moves (white, black): completed moves per side; period (white, black): 0-based period index per
  side (past the end of the control it keeps counting: the last period repeats, see timecontrol).
- paused, started.

Decisions (documented here, tested in tests/clocks)
---------------------------------------------------
- Flag at exactly zero: a side whose clock shows 0 ms has run out of time. `flagged(now)` is true
  from the deadline itself (now >= deadline), and `press` at exactly the deadline raises
  FlagFallen(over_by_ms=0). (FMJD competition rules: a player who exceeds the time limit loses;
  an electronic clock shows the flag when it reaches 0:00.)
- The increment of a move is that of the period the move was played in; after it, if the move
  completes the period, the next period's time is added (FMJD: unused time carried over).
- Simple delay (DELAY): the first `increment_ms` of each move are not charged; nothing is added,
  and an unused delay is lost (it does not accumulate). The deadline includes the delay.
- Bronstein: the clock runs from the first millisecond; after the move min(time used, increment)
  is given back, so the clock never ends above its value at the start of the move.
- adjust: an arbiter's correction of one side by +/- delta_ms. It may take a clock down to
  exactly 0 ms (the arbiter sets the flag: the side has no time left) but never below what it
  has already used on the current move: such a request raises ClockError and changes nothing.
- set_times: a faulty clock is replaced; the times given are what the clocks show from now on.
- pause/resume: time does not run while paused; on resume the deadline moves later by exactly the
  paused time.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from clocks import errors
from clocks.timecontrol import IncrementKind, TimeControl, TimeControlError
from rules.position import Color  # the one side type, shared with the rules

__all__ = [
    "ClockError",
    "ClockState",
    "FlagFallen",
    "adjust",
    "deadline",
    "elapsed_ms",
    "flagged",
    "initial_state",
    "pause",
    "press",
    "remaining",
    "resume",
    "set_times",
    "start",
    "stop",
]

_MS = timedelta(milliseconds=1)


class ClockError(ValueError):
    """A clock operation that does not fit the clock's state; nothing was changed. `code`
    and `params` say why (clocks/errors.py)."""

    def __init__(self, code: str, /, **params: Any):
        self.code = code
        self.params = params
        super().__init__(errors.text(code, params))


class FlagFallen(Exception):  # not FlagFallenError: the name the contract gives
    """The side's time had run out before `now` (the flag fell); the move is refused."""

    def __init__(self, side: Color, over_by_ms: int, deadline: datetime):
        self.side = side
        self.over_by_ms = over_by_ms
        self.deadline = deadline
        self.code = "clock.flag_fallen"
        self.params = {
            "side": side.value,
            "deadline": deadline.isoformat(),
            "over_by_ms": over_by_ms,
        }
        super().__init__(errors.text(self.code, self.params))


def _pair(value: Any, what: str) -> tuple[int, int]:
    pair = tuple(value)
    if len(pair) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in pair):
        raise ClockError("clock.bad_pair", what=what, value=value)
    return pair  # type: ignore[return-value]


def _check_now(now: datetime) -> None:
    if not isinstance(now, datetime) or now.tzinfo is None or now.utcoffset() is None:
        raise ClockError("clock.bad_now", now=now)


@dataclass(frozen=True, slots=True)
class ClockState:
    remaining_ms: tuple[int, int]
    running: Color | None = None
    running_since: datetime | None = None
    spent_ms: int = 0
    moves: tuple[int, int] = (0, 0)
    period: tuple[int, int] = (0, 0)
    paused: bool = False
    started: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "remaining_ms", _pair(self.remaining_ms, "remaining_ms"))
        object.__setattr__(self, "moves", _pair(self.moves, "moves"))
        object.__setattr__(self, "period", _pair(self.period, "period"))
        if self.running is not None:
            object.__setattr__(self, "running", Color(self.running))
        if min(self.remaining_ms) < 0 or min(self.moves) < 0 or min(self.period) < 0:
            raise ClockError("clock.negative_value", state=repr(self))
        if self.spent_ms < 0:
            raise ClockError("clock.bad_spent", spent_ms=self.spent_ms)
        if self.running_since is not None:
            _check_now(self.running_since)
            if self.running is None or self.paused:
                raise ClockError("clock.running_since_not_running")
        elif self.running is not None and not self.paused:
            raise ClockError("clock.running_without_since")

    def side_remaining(self, side: Color) -> int:
        return self.remaining_ms[Color(side).index]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (for ClockLog.before/after)."""
        return {
            "remaining_ms": list(self.remaining_ms),
            "running": self.running.value if self.running else None,
            "running_since": self.running_since.isoformat() if self.running_since else None,
            "spent_ms": self.spent_ms,
            "moves": list(self.moves),
            "period": list(self.period),
            "paused": self.paused,
            "started": self.started,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ClockState:
        since = data.get("running_since")
        return cls(
            remaining_ms=tuple(data["remaining_ms"]),
            running=Color(data["running"]) if data.get("running") else None,
            running_since=datetime.fromisoformat(since) if since else None,
            spent_ms=data.get("spent_ms", 0),
            moves=tuple(data.get("moves", (0, 0))),
            period=tuple(data.get("period", (0, 0))),
            paused=data.get("paused", False),
            started=data.get("started", False),
        )


def _with_side(pair: tuple[int, int], side: Color, value: int) -> tuple[int, int]:
    return (value, pair[1]) if side is Color.WHITE else (pair[0], value)


def _ms_between(earlier: datetime, later: datetime) -> int:
    if later < earlier:
        raise ClockError("clock.time_backwards", now=later.isoformat(), since=earlier.isoformat())
    return (later - earlier) // _MS


def _delay_of(state: ClockState, tc: TimeControl, side: Color) -> int:
    period = tc.period(state.period[side.index])
    return period.increment_ms if period.kind is IncrementKind.DELAY else 0


def _charged(used_ms: int, delay_ms: int) -> int:
    """Time taken off the clock for `used_ms` of thinking (the delay is free)."""
    return max(0, used_ms - delay_ms)


def _require_timed(tc: TimeControl) -> None:
    if not tc.timed:
        raise TimeControlError("time_control.untimed_no_clock")


# --- reading ---------------------------------------------------------------------------------


def elapsed_ms(state: ClockState, now: datetime) -> int:
    """Time the running side has used on its current move at `now` (0 when nothing runs)."""
    if state.running is None:
        return 0
    if state.paused or state.running_since is None:
        return state.spent_ms
    _check_now(now)
    return state.spent_ms + _ms_between(state.running_since, now)


def remaining(state: ClockState, tc: TimeControl, now: datetime) -> tuple[int, int]:
    """What the two clocks show at `now` (white, black); never negative."""
    if state.running is None:
        return state.remaining_ms
    side = state.running
    used = _charged(elapsed_ms(state, now), _delay_of(state, tc, side))
    shown = max(0, state.side_remaining(side) - used)
    return _with_side(state.remaining_ms, side, shown)


def deadline(state: ClockState, tc: TimeControl) -> datetime | None:
    """When the running side's time ends (its delay included); None when no clock counts."""
    if state.running is None or state.paused or state.running_since is None:
        return None
    side = state.running
    budget = state.side_remaining(side) + _delay_of(state, tc, side) - state.spent_ms
    return state.running_since + timedelta(milliseconds=budget)


def flagged(state: ClockState, tc: TimeControl, now: datetime) -> Color | None:
    """The side whose time has run out at `now` (0 ms shown counts as out), or None.

    The running side is checked first; a clock that is not running is out when it shows 0.
    """
    if state.running is not None:
        side = state.running
        limit = deadline(state, tc)
        if limit is not None:
            _check_now(now)
            if now >= limit:
                return side
        elif _charged(state.spent_ms, _delay_of(state, tc, side)) >= state.side_remaining(side):
            return side
    if not state.started:
        return None
    for side in (Color.WHITE, Color.BLACK):
        if side is not state.running and state.side_remaining(side) == 0:
            return side
    return None


# --- moving the clock on --------------------------------------------------------------------


def initial_state(tc: TimeControl) -> ClockState:
    """Both clocks set to the first period's time, stopped."""
    _require_timed(tc)
    first = tc.periods[0].time_ms
    return ClockState(remaining_ms=(first, first))


def start(
    state: ClockState, tc: TimeControl, now: datetime, side: Color = Color.WHITE
) -> ClockState:
    """The referee starts `side`'s clock (White's at the start of the game, FMJD Annex 3)."""
    _require_timed(tc)
    _check_now(now)
    if state.started:
        raise ClockError("clock.already_started")
    return replace(
        state, running=Color(side), running_since=now, spent_ms=0, paused=False, started=True
    )


def lag_credit(server_ms: int, client_ms: int | None, quota_left_ms: int) -> int:
    """The network lag to credit on a press: the server's figure for the move (`server_ms`)
    less the thinking time the tablet measured itself (`client_ms`), never negative, never
    more than what is left of the quota, never more than the server's own figure."""
    if client_ms is None or server_ms <= 0 or quota_left_ms <= 0:
        return 0
    return max(0, min(server_ms - max(0, client_ms), quota_left_ms, server_ms))


def press(state: ClockState, tc: TimeControl, now: datetime, credit_ms: int = 0) -> ClockState:
    """The running side completes a move at `now` and starts its opponent's clock;
    `credit_ms` of the move's time (network lag, see lag_credit) is not charged.

    With a credit the opponent's clock starts `credit_ms` before `now`: at the press as the
    board's tablet saw it, when the opponent, at the same board, saw it too. The time of the
    game stays the time that passed; only its split between the two sides follows the board.

    Raises FlagFallen if the mover's time had run out (now >= deadline): the server is the
    authority, a move made at or after the deadline does not count (a lag credit does not
    lift a flag that the server saw fall).
    """
    _check_now(now)
    if state.running is None:
        raise ClockError("clock.not_running")
    if state.paused:
        raise ClockError("clock.paused")
    side = state.running
    limit = deadline(state, tc)
    assert limit is not None  # running and not paused
    if now >= limit:
        raise FlagFallen(side, (now - limit) // _MS, limit)
    i = side.index
    used = max(0, elapsed_ms(state, now) - max(0, credit_ms))
    period_index = state.period[i]
    period = tc.period(period_index)
    before = state.remaining_ms[i]
    after = before - _charged(used, _delay_of(state, tc, side))
    if period.kind is IncrementKind.FISCHER:
        after += period.increment_ms
    elif period.kind is IncrementKind.BRONSTEIN:
        after += min(used, period.increment_ms)  # never above `before`
    moves = state.moves[i] + 1
    end_of_period = tc.moves_before(period_index + 1)
    if end_of_period is not None and moves >= end_of_period:
        # The period is complete: the next one's time is added (unused time carries over).
        period_index += 1
        after += tc.period(period_index).time_ms
    return replace(
        state,
        remaining_ms=_with_side(state.remaining_ms, side, after),
        moves=_with_side(state.moves, side, moves),
        period=_with_side(state.period, side, period_index),
        running=side.opponent,
        running_since=now - timedelta(milliseconds=max(0, credit_ms)) if credit_ms else now,
        spent_ms=0,
    )


def stop(state: ClockState, tc: TimeControl, now: datetime) -> ClockState:
    """Stop both clocks at the end of the game, charging the running side (shown value, >= 0)."""
    if state.running is None:
        return state
    shown = remaining(state, tc, now)
    return replace(
        state, remaining_ms=shown, running=None, running_since=None, spent_ms=0, paused=False
    )


def pause(state: ClockState, now: datetime) -> ClockState:
    """The arbiter stops the clocks; the time used on the current move is kept."""
    _check_now(now)
    if state.running is None:
        raise ClockError("clock.nothing_to_pause")
    if state.paused:
        raise ClockError("clock.already_paused")
    return replace(state, spent_ms=elapsed_ms(state, now), running_since=None, paused=True)


def resume(state: ClockState, now: datetime) -> ClockState:
    """Restart the paused clock; its deadline moves later by the time it was paused."""
    _check_now(now)
    if not state.paused:
        raise ClockError("clock.not_paused")
    return replace(state, running_since=now, paused=False)


def adjust(
    state: ClockState,
    side: Color,
    delta_ms: int,
    tc: TimeControl | None = None,
    now: datetime | None = None,
) -> ClockState:
    """Add `delta_ms` (negative: take away) to `side`'s clock; its deadline moves by as much.

    The clock may go down to exactly 0 (the arbiter declares the time spent: the flag falls)
    but not below. For the running side the floor is the time already used on the current
    move, counted at `now` when given (and the delay of `tc` when given), else as of the
    last pause.
    """
    side = Color(side)
    if not isinstance(delta_ms, int) or isinstance(delta_ms, bool):
        raise ClockError("clock.bad_delta", delta_ms=delta_ms)
    used = 0
    if state.running is side:
        delay = _delay_of(state, tc, side) if tc is not None else 0
        used = _charged(elapsed_ms(state, now) if now is not None else state.spent_ms, delay)
    new = state.side_remaining(side) + delta_ms
    if new - used < 0:
        raise ClockError(
            "clock.below_zero",
            taken=-delta_ms,
            side=side.value,
            shows=state.side_remaining(side) - used,
        )
    return replace(state, remaining_ms=_with_side(state.remaining_ms, side, new))


def set_times(
    state: ClockState,
    white_ms: int,
    black_ms: int,
    tc: TimeControl | None = None,
    now: datetime | None = None,
) -> ClockState:
    """Set what both clocks show (a faulty clock is replaced and the times corrected).

    While a clock runs (not paused) `now` is needed: the running side's clock shows the new
    value at `now` and counts down from there.
    """
    for name, value in (("white_ms", white_ms), ("black_ms", black_ms)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ClockError("clock.bad_time", name=name, value=value)
    values = (white_ms, black_ms)
    if state.running is not None:
        if not state.paused and now is None:
            raise ClockError("clock.running_needs_now")
        side = state.running
        delay = _delay_of(state, tc, side) if tc is not None else 0
        used = _charged(elapsed_ms(state, now) if now is not None else state.spent_ms, delay)
        values = _with_side(values, side, values[side.index] + used)
    return replace(state, remaining_ms=values)
