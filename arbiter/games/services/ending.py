"""The one way a game ends (docs/design.md, "How a game ends").

Whatever ends a locked game (a move or a draw rule, a flag, a late arrival, an arbiter's
result or forfeit, and later claims and rulings), `end_game` decides what the ending writes:
the result, termination, status and end time of the game, the clock stopped (and a STOP line
in its log), one audit entry saying who (None: the system) and why; then the round is
finished when its last board is. Everything happens in the caller's transaction.

Two forms, one decision:
- `end_locked_game`: end and write at once (arrival, results).
- `end_game` returns an `Ending` whose writes the caller sends with its own (a move's or a
  flag's single statement on PostgreSQL, the sweep's bulk writes): the caller saves the game's
  `fields` and the clock's state, then calls `insert_ending_rows` and, after its writes,
  `close_rounds`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from arbiter import messages
from arbiter.events.models import AuditEntry, Round
from arbiter.games.models import Game
from arbiter.infra import sqlrows
from clocks.models import ClockLog
from rules.outcome import Score, Termination

from .locking import save_clock, save_game

_RESULT_OF_SCORE = {
    Score.WHITE_WINS: Game.Result.WHITE_WINS,
    Score.DRAW: Game.Result.DRAW,
    Score.BLACK_WINS: Game.Result.BLACK_WINS,
}

#: The game's columns an ending changes.
FINISH_FIELDS = ["result", "termination", "status", "finished_at", "updated_at"]


def result_of(score: Score) -> str:
    """The game's result code of the rules engine's score."""
    return _RESULT_OF_SCORE[Score(score)]


def automatic_reason(termination: str) -> str:
    """The log's reason for a game the rules or the clock ended (nobody entered it)."""
    return messages.automatic_ending(Termination(termination))


@dataclass
class Ending:
    """What one ending writes besides the game's columns (`fields`) and the clock's state."""

    game: Game
    fields: list[str]
    clock_log: dict | None  # the clock's STOP line (None: no clock was running)
    audit: dict


def _user_id(by) -> int | None:
    return by.pk if getattr(by, "is_authenticated", False) else None


def _audit_row(game: Game, *, by, action: str, old: dict, reason: str, now: datetime) -> dict:
    return {
        "event_id": game.round.event_id,
        "user_id": _user_id(by),
        "at": now,
        "action": action,
        "target": f"round {game.round.number} board {game.board}",
        "old": old,
        "new": {"result": game.result, "termination": game.termination, "game_id": game.pk},
        "reason": reason,
    }


def end_game(
    game: Game,
    result: str,
    termination: str,
    *,
    now: datetime,
    by=None,
    reason: str = "",
    action: str = "game.result",
) -> Ending:
    """End the locked `game` in memory with `result` and `termination` (a correction of a
    finished game keeps its end time). Returns what the caller writes; see the module."""
    old = {"result": game.result, "termination": game.termination}
    game.result = result
    game.termination = termination
    if game.status != Game.Status.FINISHED or game.finished_at is None:
        game.finished_at = now
    game.status = Game.Status.FINISHED
    clock_log = None
    clock = game.clock
    if clock is not None:
        before = clock.state
        if clock.stop_if_running(now):  # no flag can fall on a finished game
            clock_log = ClockLog.row(
                clock.pk,
                ClockLog.Action.STOP,
                before,
                clock.state,
                at=now,
                reason=f"game over ({result}): {reason}" if reason else f"game over ({result})",
                user_id=_user_id(by),
            )
    audit = _audit_row(game, by=by, action=action, old=old, reason=reason, now=now)
    return Ending(game, list(FINISH_FIELDS), clock_log, audit)


def reopen_game(game: Game, *, by, reason: str, now: datetime) -> Ending:
    """An arbiter clears the result of the locked `game` (a correction): it is open again,
    scheduled or running as its moves say; the clock stays as it is."""
    old = {"result": game.result, "termination": game.termination}
    game.result, game.termination = Game.Result.PENDING, ""
    game.status = Game.Status.RUNNING if game.ply else Game.Status.SCHEDULED
    game.finished_at = None
    audit = _audit_row(
        game, by=by, action="game.result_correction", old=old, reason=reason, now=now
    )
    return Ending(game, list(FINISH_FIELDS), None, audit)


def insert_ending_rows(endings: list[Ending], *, clock_logs: Sequence[dict] = ()) -> None:
    """Insert the endings' STOP lines (after `clock_logs`, the caller's own lines at the same
    instant, e.g. the flag's) and audit entries. For one game, plain statements that join
    the caller's sqlrows.together(); for many (the sweep), one bulk insert per table."""
    logs = [*clock_logs, *(e.clock_log for e in endings if e.clock_log)]
    audits = [e.audit for e in endings]
    if len(endings) <= 1 and len(logs) <= 2:  # a move or a flag: prepared, fixed statements
        if logs:
            sqlrows.insert_rows(ClockLog, logs)  # one statement: the lines keep their order
        if audits:
            sqlrows.insert_row(AuditEntry, audits[0])
        return
    ClockLog.objects.bulk_create(ClockLog(**row) for row in logs)
    AuditEntry.objects.bulk_create(AuditEntry(**row) for row in audits)


def close_rounds(endings: list[Ending]) -> None:
    """After the endings' games are saved: their rounds finished when every board is (and
    published again when a result is cleared). The rounds are the ones the lock read."""
    rounds = {e.game.round_id: e.game.round for e in endings}
    for _, round_ in sorted(rounds.items()):  # in id order: two sweeps lock rounds alike
        refresh_round_status(round_)


def write_ending(ending: Ending) -> None:
    """Write one ending at once: the game, the clock, the STOP line, the audit entry, the round."""
    game = ending.game
    with sqlrows.together():
        if ending.clock_log is not None:
            save_clock(game.clock)
        save_game(game, ending.fields)
        insert_ending_rows([ending])
    close_rounds([ending])


def end_locked_game(game: Game, result: str, termination: str, **kw) -> Ending:
    """`end_game` and its writes at once, for a caller that writes nothing else."""
    ending = end_game(game, result, termination, now=kw.pop("now", None) or timezone.now(), **kw)
    write_ending(ending)
    return ending


def refresh_round_status(round_: Round) -> Round:
    """A published round is finished when every board has a result (and back, on a correction).

    Call it in the transaction that changed a result, after locking that game. The round row
    is locked before the boards are counted: two last boards ending at once would otherwise
    each count the other as open (its result not yet committed) and leave the round published.
    The second waits for the first to commit, then counts again and sees both results.
    """
    if round_.status == Round.Status.DRAFT:
        return round_
    round_.status = (
        Round.objects.select_for_update().values_list("status", flat=True).get(pk=round_.pk)
    )
    if round_.status == Round.Status.DRAFT:
        return round_
    open_boards = round_.games.filter(result="").exists()
    status = Round.Status.PUBLISHED if open_boards else Round.Status.FINISHED
    if status != round_.status:
        round_.status = status
        round_.save(update_fields=["status"])
    return round_
