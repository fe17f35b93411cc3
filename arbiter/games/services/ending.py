"""Ending a game: result, termination, status and the clock stopped, in the caller's transaction."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from arbiter import messages
from arbiter.events.models import AuditEntry
from arbiter.events.services.results import refresh_round_status
from arbiter.games.models import Game
from arbiter.infra import sqlrows
from rules.outcome import Score, Termination

_RESULT_OF_SCORE = {
    Score.WHITE_WINS: Game.Result.WHITE_WINS,
    Score.DRAW: Game.Result.DRAW,
    Score.BLACK_WINS: Game.Result.BLACK_WINS,
}


def finish_game(game: Game, score: Score, termination: Termination, now: datetime) -> None:
    """Set the result and stop the clock; the caller saves the game (fields listed in
    FINISH_FIELDS) and its clock within the transaction that holds its lock."""
    game.result = _RESULT_OF_SCORE[Score(score)]
    game.termination = Termination(termination).value
    game.status = Game.Status.FINISHED
    game.finished_at = now
    if game.clock is not None:
        game.clock.stop_if_running(now)


FINISH_FIELDS = ["result", "termination", "status", "finished_at", "updated_at"]


def record_endings(games: list[Game]) -> None:
    """After locked games ended by rule or flag (saved, in the same transaction): one log
    line each, as for a result an arbiter enters, and their rounds finished when every board
    is. The rounds are the ones the lock read (locking.lock_games), not read again."""
    finished = [g for g in games if g.status == Game.Status.FINISHED]
    if not finished:
        return
    entries = [
        {
            "event_id": game.round.event_id,
            "user_id": None,
            "at": timezone.now(),
            "action": "game.result",
            "target": f"round {game.round.number} board {game.board}",
            "old": {"result": ""},
            "new": {"result": game.result, "termination": game.termination, "game_id": game.pk},
            "reason": messages.automatic_ending(game.termination),
        }
        for game in finished
    ]
    if len(entries) == 1:  # a move or a flag: a plain statement (the ORM's cost ~2 ms more)
        sqlrows.insert_row(AuditEntry, entries[0])
    else:
        AuditEntry.objects.bulk_create(AuditEntry(**entry) for entry in entries)
    rounds = {game.round_id: game.round for game in finished}
    for _, round_ in sorted(rounds.items()):  # in id order: two sweeps lock rounds alike
        refresh_round_status(round_)
