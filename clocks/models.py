"""A game's clock as stored, and the log of every action on it.

The arithmetic lives in clocks.clock (pure); this model only stores a ClockState and its
deadline. It knows no game: games point to it (Game.clock).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import models

from clocks.clock import ClockState, deadline, stop
from clocks.timecontrol import TimeControl
from rules import Color

_SIDES = [(s.value, s.value.capitalize()) for s in Color]


class Clock(models.Model):
    time_control = models.CharField(
        max_length=100, help_text="PDN TimeControl tag, e.g. 4800+60 or 50/7200:25/3600."
    )
    remaining_white_ms = models.BigIntegerField(
        help_text="White's time; while White's clock runs, its value at the start of the move."
    )
    remaining_black_ms = models.BigIntegerField(
        help_text="Black's time; while Black's clock runs, its value at the start of the move."
    )
    running = models.CharField(max_length=5, choices=_SIDES, blank=True, default="")
    running_since = models.DateTimeField(null=True, blank=True)
    spent_ms = models.BigIntegerField(
        default=0, help_text="Time used on the current move before the last pause."
    )
    moves_white = models.PositiveIntegerField(default=0)
    moves_black = models.PositiveIntegerField(default=0)
    period_white = models.PositiveIntegerField(default=0, help_text="0-based period index.")
    period_black = models.PositiveIntegerField(default=0, help_text="0-based period index.")
    paused = models.BooleanField(default=False)
    started = models.BooleanField(default=False)
    # When the running side's time ends (delay included); the flag sweep queries it.
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # Network lag credited so far to each side (ms), against the event's quota per game
    # (games/services/presses.py); each credit is a "lag" line of the log.
    lag_credit_white_ms = models.PositiveIntegerField(default=0)
    lag_credit_black_ms = models.PositiveIntegerField(default=0)
    # Bumped by every apply(): how many times the state changed (the admin shows it). The
    # services need no optimistic check on it: every write holds the game's row lock.
    version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(remaining_white_ms__gte=0, remaining_black_ms__gte=0),
                name="clock_remaining_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"Clock {self.pk} ({self.time_control})"

    @classmethod
    def for_time_control(cls, tag_or_tc: str | TimeControl) -> Clock:
        """A new, unsaved clock set to the first period of the control."""
        from clocks.clock import initial_state

        tc = tag_or_tc if isinstance(tag_or_tc, TimeControl) else TimeControl.parse(tag_or_tc)
        clock = cls(time_control=tc.to_pdn(), remaining_white_ms=0, remaining_black_ms=0)
        clock.apply(initial_state(tc), tc)
        clock.version = 0
        return clock

    @property
    def tc(self) -> TimeControl:
        cached = getattr(self, "_tc_cache", None)
        if cached is None or cached[0] != self.time_control:
            cached = (self.time_control, TimeControl.parse(self.time_control))
            self._tc_cache = cached
        return cached[1]

    @property
    def state(self) -> ClockState:
        return ClockState(
            remaining_ms=(self.remaining_white_ms, self.remaining_black_ms),
            running=Color(self.running) if self.running else None,
            running_since=self.running_since,
            spent_ms=self.spent_ms,
            moves=(self.moves_white, self.moves_black),
            period=(self.period_white, self.period_black),
            paused=self.paused,
            started=self.started,
        )

    def apply(self, state: ClockState, tc: TimeControl | None = None) -> None:
        """Write `state` and its deadline into the fields and bump `version` (does not save)."""
        tc = tc if tc is not None else self.tc
        self.remaining_white_ms, self.remaining_black_ms = state.remaining_ms
        self.running = state.running.value if state.running else ""
        self.running_since = state.running_since
        self.spent_ms = state.spent_ms
        self.moves_white, self.moves_black = state.moves
        self.period_white, self.period_black = state.period
        self.paused = state.paused
        self.started = state.started
        self.deadline = deadline(state, tc)
        self.version += 1

    def stop_if_running(self, now: datetime) -> bool:
        """The game is over: stop the running side (no flag can fall afterwards). True when it
        was running; does not save."""
        if not self.running:
            return False
        self.apply(stop(self.state, self.tc, now))
        return True

    STATE_FIELDS = (
        "remaining_white_ms",
        "remaining_black_ms",
        "running",
        "running_since",
        "spent_ms",
        "moves_white",
        "moves_black",
        "period_white",
        "period_black",
        "paused",
        "started",
        "deadline",
        "version",
        "lag_credit_white_ms",
        "lag_credit_black_ms",
    )


class ClockLog(models.Model):
    class Action(models.TextChoices):
        START = "start", "Start"
        PAUSE = "pause", "Pause"
        RESUME = "resume", "Resume"
        ADJUST = "adjust", "Adjust"
        SET = "set", "Set times"
        FLAG = "flag", "Flag fall"
        STOP = "stop", "Stop"
        PRESS = "press", "Press without a move"
        LAG = "lag", "Network lag credit"

    clock = models.ForeignKey(Clock, on_delete=models.CASCADE, related_name="log")
    at = models.DateTimeField(db_index=True)
    action = models.CharField(max_length=10, choices=Action.choices)
    side = models.CharField(max_length=5, choices=_SIDES, blank=True, default="")
    delta_ms = models.BigIntegerField(null=True, blank=True)
    reason = models.TextField(blank=True, default="")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="clock_actions",
    )
    before = models.JSONField()
    after = models.JSONField()
    # A press without a move (the tablet, where the event does not require moves): its
    # request id, so that a press sent again is applied once.
    request_id = models.CharField(max_length=100, blank=True, default="", db_default="")

    class Meta:
        ordering = ["at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["clock", "request_id"],
                condition=~models.Q(request_id=""),
                name="clocklog_request_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.action} {self.side}".rstrip()

    @classmethod
    def row(
        cls,
        clock_id: int,
        action: str,
        before: ClockState,
        after: ClockState,
        *,
        at: datetime,
        side: Color | str | None = None,
        delta_ms: int | None = None,
        reason: str = "",
        user_id: int | None = None,
        request_id: str = "",
    ) -> dict[str, Any]:
        """The values of one log line (attname -> value): the one definition of a line, for
        record() and for the services that insert lines with their other writes."""
        return {
            "clock_id": clock_id,
            "at": at,
            "action": cls.Action(action).value,
            "side": Color(side).value if side else "",
            "delta_ms": delta_ms,
            "reason": reason,
            "user_id": user_id,
            "before": before.to_dict(),
            "after": after.to_dict(),
            "request_id": request_id,
        }

    @classmethod
    def record(
        cls,
        clock: Clock,
        action: str,
        before: ClockState,
        after: ClockState,
        *,
        at: datetime,
        side: Color | str | None = None,
        delta_ms: int | None = None,
        reason: str = "",
        user: Any = None,
    ) -> ClockLog:
        """Create (and save) the log line of one arbiter action."""
        user_id = user.pk if user is not None else None
        line = cls.row(clock.pk, action, before, after, at=at, side=side, delta_ms=delta_ms,
                       reason=reason, user_id=user_id)  # fmt: skip
        return cls.objects.create(**line)
