"""Ending a game: result, termination, status and the clock stopped, in the caller's transaction."""

from __future__ import annotations

from datetime import datetime

from arbiter.games.models import Game
from clocks import clock as clockmath
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
    clock = game.clock
    if clock is not None and clock.running:
        clock.apply(clockmath.stop(clock.state, clock.tc, now))


FINISH_FIELDS = ["result", "termination", "status", "finished_at", "updated_at"]
