"""Time the system could not take moves is not charged to the players (issue 16).

The heartbeat is written every second by each web process (a thread started in arbiter/asgi.py):
the web processes are what takes moves, so a beat proves that a move could have been entered
at that moment (a web process that runs and reaches the database). The Celery workers and
beat say nothing about that: they may run while no web process does, or the reverse.

A beat that finds the previous one older than DOWNTIME_THRESHOLD_MS, and no move or
arbiter's clock action for as long (last_sign_of_life: under load a beat may come late
while moves are taken), knows the system was down since the last of them: before writing,
it credits every running clock with the time since then (as if the system had paused it
then and resumed it now), logs the credit in each clock's log as an adjustment with its
reason, and records a system event the arbiters see. One transaction under the heartbeat row's lock: two web processes never credit twice.

Until that credit is applied no flag is judged: the flag services ask flags_on_hold() before
recording a flag, and it says yes while the last beat is older than the threshold (a Celery
worker that ran on through the outage, or starts before the web server, waits). A web
process beats once before it serves its first request, and every 0.2 s while the database
does not answer; a move in a process whose last successful beat is older than the threshold
beats first (settle()), so a move entered as the database comes back is not charged the outage.

Settings: DOWNTIME_CREDIT (env, default on; off: nothing is credited and flags are never held),
each event's own policy (Event.downtime_credit, default on; off: its games are charged the
outage, a line in each clock's log says so) and DOWNTIME_THRESHOLD_MS (default 3000: a gap
shorter than that is a slow beat, not an outage).
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, close_old_connections, connection, transaction
from django.utils import timezone

from arbiter.runtime.models import Heartbeat

log = logging.getLogger(__name__)

#: How often a web process beats, and how soon it tries again when the database is down.
INTERVAL_S = 1.0
RETRY_S = 0.2
_MS = timedelta(milliseconds=1)


def enabled() -> bool:
    """Credit and hold flags only where the heartbeat is written (HEARTBEAT=0: never)."""
    return bool(getattr(settings, "DOWNTIME_CREDIT", True) and getattr(settings, "HEARTBEAT", True))


def threshold() -> timedelta:
    return timedelta(milliseconds=getattr(settings, "DOWNTIME_THRESHOLD_MS", 3000))


def last_beat() -> datetime | None:
    row = Heartbeat.objects.filter(pk=1).values_list("at", flat=True).first()
    return row


def flags_on_hold(now: datetime | None = None) -> bool:
    """True while the last beat is older than the threshold: the system was (or is) down and
    the running clocks have not been credited yet, so no flag is judged. No beat ever (tests,
    a system whose web server never ran): never on hold."""
    if not enabled():
        return False
    at = last_beat()
    return at is not None and (now or timezone.now()) - at > threshold()


def beat(now: datetime | None = None) -> int | None:
    """Write the heartbeat. After an outage (the last beat older than the threshold) credit the
    running clocks first; then the milliseconds credited, else None."""
    if now is None:
        # The time is read once the database answers: a beat that waited for a connection
        # through an outage must not write a time from before it.
        connection.ensure_connection()
        now = timezone.now()
    # The usual case: one statement. Never back in time: a beat that waited on another
    # process's credit would otherwise write its older `now` over the credit's.
    if Heartbeat.objects.filter(pk=1, at__gte=now - threshold(), at__lte=now).update(at=now):
        return None
    with transaction.atomic():
        row = Heartbeat.objects.select_for_update().filter(pk=1).first()
        now = max(now, timezone.now())
        if row is None:
            try:
                with transaction.atomic():
                    Heartbeat.objects.create(pk=1, at=now)
            except IntegrityError:
                pass  # another process wrote the first beat
            return None
        if now - row.at <= threshold():
            return None  # another process credited the gap and beat meanwhile
        since = last_sign_of_life(row.at, now)
        Heartbeat.objects.filter(pk=1).update(at=now)
        if now - since <= threshold():
            return None  # a late beat: moves were taken meanwhile, the system was up
        down_ms = (now - since) // _MS
        done = credit_running_clocks(since, now) if enabled() else None
        _record(since, now, down_ms, done)
    return down_ms if done is not None else None


def last_sign_of_life(since: datetime, now: datetime) -> datetime:
    """When the system last took a request, `since` being the last beat: the last move
    accepted or the last clock action of an arbiter between them, else `since`.

    A gap in the heartbeat alone is not proof of an outage: under heavy load every web
    process's beat can come more than the threshold late (its thread waiting for the
    interpreter or for the database) while moves are still taken, and crediting then would
    give the players time they used. A move or an arbiter's action on a clock is proof
    that the system was up at that moment (only a web process that reaches the database
    writes them), so the outage runs from the last of them: none in the gap, from the last
    beat (a real stop); moves until a crash, from the last move (the clocks were rightly
    charged until then); moves until just now, no outage at all. Flags (a Celery worker's)
    are no such proof. The same threshold still applies to the gap so measured. Two small
    queries (the running games' moves by game; the clock log by its indexed time), run only
    when a beat finds a gap."""
    from arbiter.games.models import Move
    from clocks.models import ClockLog

    moved = (
        Move.objects.filter(game__clock__running__gt="", played_at__gt=since, played_at__lte=now)
        .order_by("-played_at")
        .values_list("played_at", flat=True)
        .first()
    )
    acted = (
        ClockLog.objects.filter(at__gt=since, at__lte=now, user__isnull=False)
        .order_by("-at")
        .values_list("at", flat=True)
        .first()
    )
    return max(t for t in (since, moved, acted) if t is not None)


def _games(ids: list[int]) -> str:
    return ", ".join(str(g) for g in ids[:20]) + (" ..." if len(ids) > 20 else "")


def _record(since: datetime, now: datetime, down_ms: int, done: tuple | None) -> None:
    from arbiter.runtime import systemlog

    span = f"{since:%H:%M:%S} to {now:%H:%M:%S} UTC ({down_ms / 1000:.1f} s)"
    if done is None:
        message = (
            f"the system was down from {span}; not credited to the clocks (DOWNTIME_CREDIT off)"
        )
    else:
        credited, charged = done
        message = f"the system was down from {span}: {len(credited)} running clock(s) credited" + (
            f" (games {_games(credited)})" if credited else ""
        )
        if charged:
            message += (
                f"; {len(charged)} charged, their events not crediting downtime"
                f" (games {_games(charged)})"
            )
    systemlog.record("downtime", message, at=now)


def credit_running_clocks(since: datetime, now: datetime) -> tuple[list[int], list[int]]:
    """Give every running clock back its time between `since` (the last beat) and `now`, as a
    pause from `since` (or from its move's start, if later) to `now`; each credit is an
    "adjust" line of the clock's log. A clock already out of time at `since` keeps its flag
    (it fell while the system was up). A game whose event does not credit downtime (the
    arbiter's policy, Event.downtime_credit) is charged the outage, said in a line of its
    clock's log (an "adjust" of 0 ms). Returns the ids of the games credited and charged."""
    from arbiter.games.models import Game
    from arbiter.games.services.flags import on_commit_arm
    from arbiter.games.services.locking import lock_games
    from arbiter.infra import sqlrows
    from clocks import clock as clockmath
    from clocks.models import Clock, ClockLog

    policy = dict(
        Game.objects.filter(clock__running__gt="", clock__paused=False, flag_side="")
        .exclude(status=Game.Status.FINISHED)
        .values_list("pk", "round__event__downtime_credit")
    )
    ids = sorted(policy)
    games, clocks, lines, charged = [], [], [], []
    # Locked in id order, as the flag sweep does: a move in flight finishes first.
    for game in lock_games(ids):
        clock = game.clock
        if clock is None:
            continue
        state = clock.state
        if not state.running or state.paused or state.running_since is None:
            continue
        if game.status == Game.Status.FINISHED or game.flag_side:
            continue
        if clockmath.flagged(state, clock.tc, max(since, state.running_since)) is not None:
            continue
        start = max(since, state.running_since)
        if start >= now:
            continue
        down_ms = (now - start) // _MS
        if policy[game.pk]:
            # Computed as a pause at `start` and a resume now (the time already used on the
            # move stays used, as the delay and Bronstein count it); logged as an "adjust" of
            # the running side by +down_ms, by nobody (the system).
            after = clockmath.resume(clockmath.pause(state, start), now)
            clock.apply(after)
            clock.updated_at = now
            clocks.append(clock)
            games.append(game)
            delta_ms, said = down_ms, "not charged"
        else:  # the event's policy: charged, and said so with an "adjust" of 0 ms
            after, delta_ms, said = state, 0, "charged (the event's policy)"
            charged.append(game.pk)
        lines.append(
            ClockLog.row(
                clock.pk,
                ClockLog.Action.ADJUST,
                state,
                after,
                at=now,
                side=state.running,
                delta_ms=delta_ms,
                reason=(
                    f"system down from {start.isoformat()} to {now.isoformat()}: "
                    f"{down_ms} ms {said}"
                ),
            )
        )
    if clocks:
        sqlrows.update_rows(Clock, clocks, [*Clock.STATE_FIELDS, "updated_at"])
        for game in games:
            on_commit_arm(game)
    if lines:
        ClockLog.objects.bulk_create(ClockLog(**line) for line in lines)
    return [g.pk for g in games], charged


class _Beats:
    #: time.monotonic() of this process's last successful beat; None where no thread beats.
    ok_at: float | None = None


def settle() -> None:
    """Before a move, in a process that beats: when its last successful beat is older than
    the threshold (the database was unreachable, or the beat still waits for it), beat now,
    so that the outage is credited before this move is charged. A check in memory otherwise.
    Raises the database's error while it is still down."""
    ok_at = _Beats.ok_at
    if ok_at is not None and time.monotonic() - ok_at > threshold().total_seconds():
        beat()
        _Beats.ok_at = time.monotonic()


class _Heart:
    """The beating thread of one process (started once per process, after a fork too)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._pid = None

    def start(self) -> None:
        """Beat once and wait for it (a move after a restart then finds the credit applied),
        then go on beating from the thread. The beats run in the thread alone: the server
        imports the application inside its event loop, where Django refuses database calls."""
        import os

        with self._lock:
            if self._pid == os.getpid():
                return
            self._pid = os.getpid()
        _Beats.ok_at = time.monotonic()
        first = threading.Event()
        threading.Thread(target=self._run, args=(first,), name="heartbeat", daemon=True).start()
        first.wait(timeout=30)

    @staticmethod
    def _run(first: threading.Event) -> None:
        while True:
            try:
                beat()
                _Beats.ok_at = time.monotonic()
                wait = INTERVAL_S
            except Exception:  # the database is down: try again soon
                log.warning("heartbeat: the database cannot be reached", exc_info=True)
                connection.close()  # a dropped connection is not used again
                wait = RETRY_S
            close_old_connections()  # as after a request: a pooled one goes back to the pool
            first.set()
            time.sleep(wait)


_heart = _Heart()


def start_heartbeat() -> None:
    """Beat now, then every second from a thread (call once in each web process)."""
    if getattr(settings, "HEARTBEAT", True):
        _heart.start()
