"""Time controls: an ordered list of periods, read from and written to the PDN `TimeControl` tag.

FMJD 10.1 / 10.3: either a number of moves in a given time, or a time for the whole game. The
FMJD competition rules (Annex 3, see shared/rules/DIGEST.md section 10) add: "2 h for 50 moves,
then 1 h per 25 moves, unused time carried over", Fischer 1 h 20 + 1 min per move, rapid and
blitz rates with Fischer seconds.

Model
-----
A `Period` is (moves, time, increment, kind). `moves=None` means "the rest of the game"
(sudden death). The clock of a side starts with the first period's time; when that side
completes the moves of its period, the next period's time is ADDED to what is left (unused time
carries over).

Repetition: the LAST period of a control repeats when it has a number of moves. "2 h for 50 moves
then 1 h per 25 moves" is `(Period(50, 2 h), Period(25, 1 h))`: after move 50 one hour is added,
after move 75 another, after move 100 another, and so on. A period that is not last never
repeats; a last period without a number of moves (sudden death) has nothing to repeat.

PDN tag (the PGN 9.6.1 TimeControl syntax, which PDN 3.0 takes over)
--------------------------------------------------------------------
Fields are separated by ":"; each field is one period, times and increments in seconds:

    ?             unknown                 -> UnknownTimeControl (no clock can run on it)
    -             no time control         -> TimeControl(()) (untimed)
    40/9000       40 moves in 9000 s
    3600          the rest of the game in 3600 s (sudden death)
    4800+60       4800 s, Fischer increment of 60 s per move
    *180          sandclock (hourglass)   -> UnsupportedTimeControl
Our extensions (not in PGN): the increment may follow a move count ("45/5400+30"), and two
other increment kinds are written with a letter instead of "+":
    1800b5        Bronstein delay of 5 s  (at most the time used is given back)
    1800d5        simple delay of 5 s     (the clock starts counting after 5 s)
A repeating period is written as a final field with a move count: "50/7200:25/3600" (2 h for
50 moves, then 1 h per 25 moves for ever). "50/7200:3600" is 2 h for 50 moves then 1 h for
the rest of the game.

The tag written by `to_pdn()` is canonical: `TimeControl.parse(tc.to_pdn()) == tc`, and
parsing a canonical tag and writing it back gives the same string.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from clocks import errors

__all__ = [
    "IncrementKind",
    "Period",
    "PRESETS",
    "TimeControl",
    "TimeControlError",
    "UnknownTimeControl",
    "UnsupportedTimeControl",
]


class TimeControlError(ValueError):
    """A time control tag or period that cannot be used: `code` and `params` say why (see
    clocks/errors.py), `part` and `tag` where; the message names the bad part."""

    def __init__(self, code: str, /, *, part: str | None = None, tag: str | None = None, **params):
        self.code = code
        where_params = {"part": part, "tag": tag}
        self.params = {**{k: v for k, v in where_params.items() if v is not None}, **params}
        self.part = part
        self.tag = tag
        message = errors.text(code, self.params)
        where = ""
        if part is not None and tag is not None:
            where = f" in {part!r} of TimeControl tag {tag!r}"
        elif part is not None:
            where = f" in {part!r}"
        super().__init__(f"{message}{where}")


class UnknownTimeControl(TimeControlError):
    """The tag is "?": the time control is not known, so no clock can run on it."""


class UnsupportedTimeControl(TimeControlError):
    """Valid PGN that this clock does not run (the "*" sandclock)."""


class IncrementKind(StrEnum):
    NONE = "none"
    FISCHER = "fischer"  # the increment is added after each move
    BRONSTEIN = "bronstein"  # after the move, min(time used, increment) is given back
    DELAY = "delay"  # simple delay: the clock starts counting only after the delay


_KIND_SEPARATOR = {
    IncrementKind.FISCHER: "+",
    IncrementKind.BRONSTEIN: "b",
    IncrementKind.DELAY: "d",
}
_SEPARATOR_KIND = {sep: kind for kind, sep in _KIND_SEPARATOR.items()}
_KIND_WORDS = {
    IncrementKind.FISCHER: "per move",
    IncrementKind.BRONSTEIN: "Bronstein delay",
    IncrementKind.DELAY: "delay",
}


@dataclass(frozen=True, slots=True)
class Period:
    """`moves` moves (None: the rest of the game) in `time_ms`, with an increment of `kind`."""

    moves: int | None
    time_ms: int
    increment_ms: int = 0
    kind: IncrementKind = IncrementKind.NONE

    def __post_init__(self) -> None:
        if self.moves is not None and (not isinstance(self.moves, int) or self.moves <= 0):
            raise TimeControlError("time_control.bad_moves", moves=self.moves)
        if not isinstance(self.time_ms, int) or self.time_ms < 0:
            raise TimeControlError("time_control.bad_time", time_ms=self.time_ms)
        if not isinstance(self.increment_ms, int) or self.increment_ms < 0:
            raise TimeControlError("time_control.bad_increment", increment_ms=self.increment_ms)
        kind = IncrementKind(self.kind)
        object.__setattr__(self, "kind", kind)
        if kind is IncrementKind.NONE and self.increment_ms:
            raise TimeControlError("time_control.increment_without_kind")
        if kind is not IncrementKind.NONE and not self.increment_ms:
            # Normalise: a zero increment of any kind is no increment.
            object.__setattr__(self, "kind", IncrementKind.NONE)

    def to_pdn(self) -> str:
        for value, what in ((self.time_ms, "time"), (self.increment_ms, "increment")):
            if value % 1000:
                raise TimeControlError(
                    "time_control.not_whole_seconds", part=str(self), what=what, ms=value
                )
        text = str(self.time_ms // 1000)
        if self.moves is not None:
            text = f"{self.moves}/{text}"
        if self.kind is not IncrementKind.NONE:
            text += f"{_KIND_SEPARATOR[self.kind]}{self.increment_ms // 1000}"
        return text


_PERIOD_RE = re.compile(r"^(?:(?P<moves>\d+)/)?(?P<time>\d+)(?:(?P<sep>[+bd])(?P<inc>\d+))?$")


def _parse_period(part: str, tag: str) -> Period:
    if part.startswith("*"):
        raise UnsupportedTimeControl("time_control.sandclock", part=part, tag=tag)
    if part in ("?", "-"):
        raise TimeControlError("time_control.whole_tag_only", part=part, tag=tag)
    match = _PERIOD_RE.match(part)
    if not match:
        raise TimeControlError("time_control.bad_period", part=part, tag=tag)
    moves = int(match["moves"]) if match["moves"] is not None else None
    if moves == 0:
        raise TimeControlError("time_control.zero_moves", part=part, tag=tag)
    kind = _SEPARATOR_KIND[match["sep"]] if match["sep"] else IncrementKind.NONE
    increment_ms = int(match["inc"]) * 1000 if match["inc"] else 0
    return Period(moves, int(match["time"]) * 1000, increment_ms, kind)


@dataclass(frozen=True, slots=True)
class TimeControl:
    periods: tuple[Period, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "periods", tuple(self.periods))
        for i, period in enumerate(self.periods[:-1]):
            if period.moves is None:
                raise TimeControlError("time_control.rest_not_last", part=str(period), number=i + 1)

    # --- reading and writing the tag -------------------------------------------------------
    @classmethod
    def parse(cls, tag: str) -> TimeControl:
        """Read a PDN/PGN TimeControl tag; raises a TimeControlError naming the bad part."""
        if cls is TimeControl and isinstance(tag, str):
            return _parse_tag(tag)  # a clock reads its tag on every move
        return cls._parse(tag)

    @classmethod
    def _parse(cls, tag: str) -> TimeControl:
        if not isinstance(tag, str):
            raise TimeControlError("time_control.not_text", type=type(tag).__name__)
        text = tag.strip()
        if text == "":
            raise TimeControlError("time_control.empty", tag=tag)
        if text == "?":
            raise UnknownTimeControl("time_control.unknown", part="?", tag=tag)
        if text == "-":
            return cls(())
        parts = text.split(":")
        periods = []
        for i, part in enumerate(parts):
            period = _parse_period(part.strip(), tag)
            if period.moves is None and i < len(parts) - 1:
                raise TimeControlError("time_control.rest_period_not_last", part=part, tag=tag)
            periods.append(period)
        return cls(tuple(periods))

    def to_pdn(self) -> str:
        if not self.periods:
            return "-"
        return ":".join(p.to_pdn() for p in self.periods)

    def __str__(self) -> str:
        return self.to_pdn()

    def describe(self) -> str:
        """In words, for pages: '120 min for 50 moves, then 60 min per 25 moves'."""
        if not self.periods:
            return "no time control"
        words = []
        for i, period in enumerate(self.periods):
            if period.moves is None:
                text = f"{_words(period.time_ms)} for the rest of the game"
            elif i == len(self.periods) - 1 and i > 0:
                text = f"{_words(period.time_ms)} per {period.moves} moves"
            else:
                text = f"{_words(period.time_ms)} for {period.moves} moves"
            if period.kind is not IncrementKind.NONE:
                text += f" + {_words(period.increment_ms)} {_KIND_WORDS[period.kind]}"
            words.append(text)
        return ", then ".join(words)

    # --- periods -----------------------------------------------------------------------------
    @property
    def timed(self) -> bool:
        return bool(self.periods)

    @property
    def repeats_last(self) -> bool:
        """True when the last period has a number of moves, and so repeats (see module doc)."""
        return bool(self.periods) and self.periods[-1].moves is not None

    def period(self, index: int) -> Period:
        """The period in force at `index` (0-based); past the end, the last (repeating) one."""
        if not self.periods:
            raise TimeControlError("time_control.untimed_no_periods")
        if index < 0:
            raise TimeControlError("time_control.bad_period_index", index=index)
        return self.periods[min(index, len(self.periods) - 1)]

    def moves_before(self, index: int) -> int | None:
        """Moves a side has made when it enters period `index` (None: never entered)."""
        total = 0
        for i in range(index):
            moves = self.period(i).moves
            if moves is None:
                return None
            total += moves
        return total

    def period_for_move_count(self, moves_made: int) -> int:
        """The period index a side is in after `moves_made` completed moves."""
        index = 0
        done = 0
        while True:
            moves = self.period(index).moves
            if moves is None or moves_made < done + moves:
                return index
            done += moves
            index += 1

    def time_added_through(self, moves_made: int) -> int:
        """Period time a side has received after `moves_made` moves (the first period's included)."""
        index = self.period_for_move_count(moves_made)
        return sum(self.period(i).time_ms for i in range(index + 1))


def _words(ms: int) -> str:
    seconds = ms // 1000
    return f"{seconds // 60} min" if seconds % 60 == 0 and seconds >= 60 else f"{seconds} s"


def _minutes(m: int) -> int:
    return m * 60_000


def _seconds(s: int) -> int:
    return s * 1000


PRESETS: dict[str, TimeControl] = {
    # FMJD preferred rate: 2 h for 50 moves, then 1 h per 25 moves (repeating), carried over.
    "fmjd_classical": TimeControl((Period(50, _minutes(120)), Period(25, _minutes(60)))),
    # FMJD accepted: Fischer 1 h 20 + 1 min per move.
    "fischer_80_1": TimeControl((Period(None, _minutes(80), _seconds(60), IncrementKind.FISCHER),)),
    # 90 min for 45 moves, then 30 min for the rest, + 30 s per move FROM MOVE 1 (the usual
    # FIDE-style reading of "90 min/45 moves + 30 min + 30 s per move": the increment applies
    # in both periods).
    "classical_90_45_30_30": TimeControl(
        (
            Period(45, _minutes(90), _seconds(30), IncrementKind.FISCHER),
            Period(None, _minutes(30), _seconds(30), IncrementKind.FISCHER),
        )
    ),
    "rapid_20_5": TimeControl((Period(None, _minutes(20), _seconds(5), IncrementKind.FISCHER),)),
    "semi_rapid_20_20": TimeControl(
        (Period(None, _minutes(20), _seconds(20), IncrementKind.FISCHER),)
    ),
    "blitz_5_3": TimeControl((Period(None, _minutes(5), _seconds(3), IncrementKind.FISCHER),)),
    "sudden_death_60": TimeControl((Period(None, _minutes(60)),)),
}


@lru_cache(maxsize=256)
def _parse_tag(tag: str) -> TimeControl:
    """TimeControl.parse, remembered: time controls are immutable, and errors are not cached."""
    return TimeControl._parse(tag)
