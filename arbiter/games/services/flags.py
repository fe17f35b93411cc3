"""The one flag-fall service, and the arming of the Celery task that calls it at the deadline.

Three callers, all idempotent (docs/design.md, Deadlines): the ETA task for the current ply,
the sweep of clocks whose deadline has passed (every second), and a lazy check on every read or
write of the game. Each re-reads the game under lock; a stale call finds a newer ply, a
finished game or a flag already recorded, and does nothing. Tasks are never revoked.
A deadline more than ARM_HORIZON away gets its task from the beat task arm_flags once it
comes within the horizon, not from the move that set it.

FMJD (Annex 3, shared/rules/DIGEST.md section 10): a player who exceeds the time limit loses.
The event's `flag_policy` says what happens at once: "automatic" ends the game (loss for the
flagged side, termination FLAG); "claim" records the flag and leaves the game open until it is
claimed (claims are a later issue: nothing here ends such a game).
"""

from __future__ import annotations

import logging
import os
import queue
import threading
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from arbiter.errors import NotFound
from arbiter.events.models import Event
from arbiter.games import selectors
from arbiter.games.models import Game
from arbiter.infra import sqlrows
from clocks import clock as clockmath
from clocks.models import Clock, ClockLog
from rules import Color
from rules.outcome import Score, Termination

from .ending import Ending, automatic_reason, close_rounds, end_game, insert_ending_rows, result_of
from .locking import lock_game, lock_games, save_clock, save_game, server_now

log = logging.getLogger(__name__)

#: With Redis as the broker an ETA beyond the visibility timeout is delivered twice: a task
#: never sleeps longer than this, and re-arms itself when woken before the deadline.
MAX_ETA = timedelta(minutes=5)
#: A move or clock action whose deadline is further away than this queues no task:
#: arm_upcoming() queues it when the deadline comes this close. Moves made with more than two
#: minutes left (all of a classical game's but the last, most of a blitz game's) then cost the
#: broker nothing: publishing a task was a quarter of a move's cost under load
#: (benchmarks/move_entry.py).
ARM_HORIZON = timedelta(minutes=2)
#: How often beat runs arm_upcoming (settings.CELERY_BEAT_SCHEDULE, "arm-flags").
ARM_EVERY = timedelta(seconds=30)


def apply_flag(game: Game, side: Color, now: datetime) -> tuple[list[str], dict, Ending | None]:
    """Record `side`'s flag on the locked `game` in memory (its clock ran out at or before
    `now`): returns the game fields to save, the clock's FLAG line (a row for
    sqlrows.insert_rows) and, under the "automatic" policy, the game's ending; all unsaved."""
    clock = game.clock
    state = clock.state
    fell_at = min(clockmath.deadline(state, clock.tc) or now, now)
    game.flag_side = side.value
    game.flag_at = fell_at
    game.updated_at = now
    fields = ["flag_side", "flag_at", "updated_at"]
    if (
        game.round.event.flag_policy == Event.FlagPolicy.CLAIM
        and state.running
        and not state.paused
    ):
        # The clock stops at the flag, showing 0 for the flagged side, until the flag is
        # claimed (a later issue) or an arbiter gives time back and resumes.
        clock.apply(clockmath.pause(state, fell_at))
    clock.updated_at = now
    line = ClockLog.row(
        clock.pk,
        ClockLog.Action.FLAG,
        state,
        clock.state,
        at=now,
        side=side,
        reason=f"time exceeded at {fell_at.isoformat()}",
    )
    ending = None
    if game.round.event.flag_policy != Event.FlagPolicy.CLAIM:
        score = Score.BLACK_WINS if side is Color.WHITE else Score.WHITE_WINS
        termination = Termination.FLAG
        ending = end_game(
            game, result_of(score), termination, now=now, reason=automatic_reason(termination)
        )
        fields += ending.fields
    return list(dict.fromkeys(fields)), line, ending


def record_flag(game: Game, side: Color, now: datetime) -> None:
    """Record and save `side`'s flag on the locked `game`. Its writes are one statement
    on PostgreSQL: with the ORM's insert of the log line and a reload of the round, a flag
    cost 12.5 ms there, now 6.5-8.4 ms (in-process)."""
    fields, line, ending = apply_flag(game, side, now)
    endings = [ending] if ending is not None else []
    with sqlrows.together():
        save_clock(game.clock)
        save_game(game, fields)
        insert_ending_rows(endings, clock_logs=[line])
    close_rounds(endings)


def flag_if_due(game: Game, now: datetime) -> bool:
    """On a locked game: record the flag when the running clock is out. True if it fell now."""
    clock = game.clock
    if clock is None or game.status == Game.Status.FINISHED or game.flag_side:
        return False
    side = clockmath.flagged(clock.state, clock.tc, now)
    if side is None:
        return False
    record_flag(game, side, now)
    return True


def check_flag(game_id: int, *, ply: int | None = None, now: datetime | None = None) -> bool:
    """The one flag-fall service: True when this call recorded a flag.

    `ply`: the ply the caller armed for; a later ply means the clock was pressed since, so the
    call does nothing (the newer ply armed its own check).
    """
    # Most calls find nothing to do (a newer ply, a flag already recorded, an early wake-up):
    # they are answered by one plain read. Taking the lock costs a durable commit.
    row = _flag_row(game_id)
    if row is None:
        return False
    row_ply, status, flag_side, deadline = row
    if (
        (ply is not None and row_ply != ply)
        or status == Game.Status.FINISHED
        or flag_side
        or deadline is None
        or deadline > (now or timezone.now())
    ):
        return False
    try:
        with transaction.atomic():
            game = lock_game(game_id)
            if ply is not None and game.ply != ply:
                return False
            now = now or server_now(game.clock)
            return flag_if_due(game, now)
    except NotFound:
        return False


def flag_if_overdue(game: Game, now: datetime) -> Game:
    """The lazy check of a read: a clock past its deadline gets its flag recorded first (one
    locked write), so that no reader ever sees a running clock at zero. Returns the game as
    it is now (read again when a flag was recorded)."""
    if not selectors.flag_overdue(game, now):
        return game
    check_flag(game.pk, now=now)
    return selectors.game_for_read(game.pk)


_ROW_SQL = (
    f"SELECT g.ply, g.status, g.flag_side, c.deadline FROM {Game._meta.db_table} g"
    f" LEFT JOIN {Clock._meta.db_table} c ON c.id = g.clock_id WHERE g.id = %s"
)


def _flag_row(game_id) -> tuple | None:
    """(ply, status, flag_side, deadline) of a game, unlocked; None if there is no such game."""
    try:
        game_id = int(game_id)
    except (TypeError, ValueError):
        return None
    with sqlrows.cursor() as cursor:
        cursor.execute(_ROW_SQL, [game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    return row[0], row[1], row[2], sqlrows.convert(Clock, "deadline", row[3])


# The sweep runs every second and after every flag: plain SQL on the indexed deadline.
_DUE_SQL = (
    f"SELECT g.id FROM {Game._meta.db_table} g JOIN {Clock._meta.db_table} c ON c.id = g.clock_id"
    " WHERE c.deadline <= %s AND g.status <> %s AND g.flag_side = '' ORDER BY c.deadline LIMIT %s"
)
_ANY_DUE_SQL = f"SELECT 1 FROM {Clock._meta.db_table} WHERE deadline <= %s LIMIT 1"


def _db_time(moment: datetime):
    return connection.ops.adapt_datetimefield_value(moment)


def any_flag_due(now: datetime | None = None) -> bool:
    """Whether any running clock is past its deadline (one indexed lookup)."""
    with connection.cursor() as cursor:
        cursor.execute(_ANY_DUE_SQL, [_db_time(now or timezone.now())])
        return cursor.fetchone() is not None


def check_flags_due(now: datetime | None = None, *, limit: int = 500) -> int:
    """The sweep: flag every game whose running clock's deadline has passed, in one
    transaction (a burst of flags at the same instant costs a few statements, not a few per
    game). Games locked by a move in progress are skipped: that move checks its own clock.
    Returns the number of flags recorded.
    """
    now = now or timezone.now()
    with connection.cursor() as cursor:
        cursor.execute(_DUE_SQL, [_db_time(now), Game.Status.FINISHED, limit])
        due = [row[0] for row in cursor.fetchall()]
    if not due:
        return 0
    with transaction.atomic():
        games, lines, endings, fields = [], [], [], {"updated_at"}
        for game in lock_games(due, skip_locked=True):
            clock = game.clock
            if clock is None or game.status == Game.Status.FINISHED or game.flag_side:
                continue
            side = clockmath.flagged(clock.state, clock.tc, max(now, clock.running_since or now))
            if side is None:
                continue
            changed, line, ending = apply_flag(game, side, now)
            fields.update(changed)
            games.append(game)
            lines.append(line)
            if ending is not None:
                endings.append(ending)
        if games:
            sqlrows.update_rows(
                Clock, [g.clock for g in games], [*Clock.STATE_FIELDS, "updated_at"]
            )
            sqlrows.update_rows(Game, games, sorted(fields))
            insert_ending_rows(endings, clock_logs=lines)
            close_rounds(endings)
    return len(games)


def flag_deadline(game_id: int, ply: int) -> datetime | None:
    """The deadline of the running clock of `game_id` if the game is still at `ply`."""
    row = _flag_row(game_id)
    if row is None or row[0] != ply or row[1] == Game.Status.FINISHED or row[2]:
        return None
    return row[3]


def arm_flag_check(game_id: int, ply: int, deadline: datetime | None) -> None:
    """Queue the flag task for `deadline` (call from transaction.on_commit)."""
    arm_flag_checks([(game_id, ply, deadline)])


def arm_flag_checks(checks: list[tuple[int, int, datetime | None]]) -> None:
    """Queue the flag tasks of (game id, ply, deadline) triples, sent to Redis together.

    A failure to reach the broker never fails the move: the sweep catches the flag anyway.
    """
    checks = [c for c in checks if c[2] is not None]
    if not checks or settings.CELERY_TASK_ALWAYS_EAGER:
        # Eager mode would run the task at once and re-arm for ever: the sweep and the lazy
        # checks cover flags where tasks run inline.
        return
    from arbiter.games.tasks import check_flag as check_flag_task

    cap = timezone.now() + MAX_ETA
    try:
        # One producer and one Redis pipeline for them all: each apply_async on its own took
        # a producer from the pool and a new Redis client (~0.6 ms of CPU per task here).
        with check_flag_task.app.producer_or_acquire() as producer, producer.batch():
            for game_id, ply, deadline in checks:
                check_flag_task.apply_async(
                    (game_id, ply), eta=min(deadline, cap), queue="clock", producer=producer
                )
    except Exception:  # any broker failure (logged); the sweep is the fallback
        log.exception("could not queue the flag checks %s", checks)


class _Publisher:
    """Queues flag tasks from a background thread, so that no request waits on the broker.

    The tasks that piled up while it was sending go out together in the next send: under
    load, fewer round trips to Redis for the same moves.
    A task lost here (the process dies first) is a flag the sweep catches within a second.
    """

    #: At most this many tasks per send.
    BATCH = 200

    def __init__(self):
        self._lock = threading.Lock()
        self._queue: queue.SimpleQueue | None = None
        self._pid = None

    def put(self, game_id: int, ply: int, deadline: datetime) -> None:
        with self._lock:
            if self._queue is None or self._pid != os.getpid():  # first use, or forked
                self._queue, self._pid = queue.SimpleQueue(), os.getpid()
                threading.Thread(
                    target=self._run, args=(self._queue,), name="flag-task-publisher", daemon=True
                ).start()
        self._queue.put((game_id, ply, deadline))

    @classmethod
    def _run(cls, jobs: queue.SimpleQueue) -> None:
        while True:
            checks = [jobs.get()]
            while len(checks) < cls.BATCH:
                try:
                    checks.append(jobs.get_nowait())
                except queue.Empty:
                    break
            arm_flag_checks(checks)


_publisher = _Publisher()


def on_commit_arm(game: Game) -> None:
    """After the transaction commits, arm the flag task for the game's current deadline, if
    it is within ARM_HORIZON (a later one is armed by arm_upcoming)."""
    clock = game.clock
    if clock is None or clock.deadline is None or game.status == Game.Status.FINISHED:
        return
    if clock.deadline - timezone.now() > ARM_HORIZON:
        return
    game_id, ply, deadline = game.pk, game.ply, clock.deadline
    transaction.on_commit(lambda: arm_soon(game_id, ply, deadline))


def arm_soon(game_id: int, ply: int, deadline: datetime) -> None:
    """arm_flag_check() from the publisher thread (the caller does not wait for Redis)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    _publisher.put(game_id, ply, deadline)


_UPCOMING_SQL = (
    f"SELECT g.id, g.ply, c.deadline FROM {Game._meta.db_table} g"
    f" JOIN {Clock._meta.db_table} c ON c.id = g.clock_id"
    " WHERE c.deadline > %s AND c.deadline <= %s AND g.status <> %s AND g.flag_side = ''"
)


def arm_upcoming(now: datetime | None = None) -> int:
    """Every ARM_EVERY (beat): queue the flag task of each deadline that came within
    ARM_HORIZON since the run before. The window spans two runs, so one late or missed run
    loses nothing; a deadline armed twice is flagged once (the task is idempotent).
    Returns the number of tasks queued."""
    now = now or timezone.now()
    start = max(now, now + ARM_HORIZON - 2 * ARM_EVERY)
    with connection.cursor() as cursor:
        cursor.execute(
            _UPCOMING_SQL,
            [_db_time(start), _db_time(now + ARM_HORIZON), Game.Status.FINISHED],
        )
        rows = cursor.fetchall()
    arm_flag_checks([(g, ply, sqlrows.convert(Clock, "deadline", d)) for g, ply, d in rows])
    return len(rows)
