"""Results of games entered by the arbiters board by board, forfeits, and their corrections;
every one goes through the one ending service (ending.py) and is logged."""

from __future__ import annotations

from django.db import transaction

from arbiter.errors import Conflict, Invalid
from arbiter.events import permissions
from arbiter.events.models import Round
from arbiter.events.records import FORFEITS, RESULT_CODES
from arbiter.games.models import Game
from arbiter.messages import Problem
from rules.outcome import Termination

from .ending import end_game, reopen_game, write_ending
from .locking import lock_game, server_now

R = Game.Result
T = Termination

#: Which results each way of ending a game allows (FMJD 7.2 wins, 7.3 and 6 draws).
TERMINATION_RESULTS: dict[str, frozenset[str]] = {
    T.NO_PIECES: frozenset({R.WHITE_WINS, R.BLACK_WINS}),  # FMJD 7.2.3
    T.BLOCKED: frozenset({R.WHITE_WINS, R.BLACK_WINS}),  # FMJD 7.2.2
    T.RESIGNED: frozenset({R.WHITE_WINS, R.BLACK_WINS}),  # FMJD 7.2.1
    T.REFUSED_RULES: frozenset({R.WHITE_WINS, R.BLACK_WINS}),  # FMJD 7.2.4
    T.FLAG: frozenset({R.WHITE_WINS, R.BLACK_WINS}),  # FMJD 10: exceeding the time loses
    T.AGREED_DRAW: frozenset({R.DRAW}),  # FMJD 7.3.1
    T.DRAW_REPETITION: frozenset({R.DRAW}),  # FMJD 6.1
    T.DRAW_25_MOVES: frozenset({R.DRAW}),  # FMJD 6.2
    T.DRAW_16_MOVES: frozenset({R.DRAW}),  # FMJD 6.3
    T.DRAW_5_MOVES: frozenset({R.DRAW}),  # FMJD 6.4
    T.NO_WIN_POSSIBLE: frozenset({R.DRAW}),  # FMJD 7.3.3
    T.FORFEIT: FORFEITS,
    T.ARBITER: frozenset({R.WHITE_WINS, R.DRAW, R.BLACK_WINS} | FORFEITS),
    T.BYE: frozenset({R.BYE}),
}


def _validate(game: Game, result: str, termination: str) -> str:
    """The termination to store, or Invalid saying what is wrong and where."""
    where = Problem("game.where", round_number=game.round.number, board=game.board)
    if result not in RESULT_CODES:
        codes = ", ".join(repr(c) for c in sorted(RESULT_CODES))
        raise Invalid(
            "result.unknown",
            where=where,
            result=result,
            codes=codes,
            details={"field": "result"},
        )
    if game.black_id is None:
        if result != R.BYE:
            raise Invalid("result.bye_only", where=where)
        return T.BYE
    if result == R.BYE:
        raise Invalid("result.bye_needs_no_opponent", where=where)
    if termination and termination not in {t.value for t in T}:
        raise Invalid(
            "result.unknown_termination",
            where=where,
            termination=termination,
            values=[t.value for t in T],
            details={"field": "termination"},
        )
    if not result:
        if termination:
            raise Invalid("result.termination_without_result", where=where)
        return ""
    if not termination:
        return T.FORFEIT if result in FORFEITS else ""
    if result not in TERMINATION_RESULTS[termination]:
        raise Invalid(
            "result.termination_mismatch",
            where=where,
            termination=termination,
            result=result,
            details={"field": "termination"},
        )
    return termination


def set_result(game: Game, result: str, *, by, reason: str = "", termination: str = "") -> Game:
    """Record (or correct) the result of one board; arbiters of the event only.

    A correction (the board already had a result) needs a reason; the log keeps who, when,
    the old and the new result and why. The round is finished when every board has a result.
    """
    event = game.round.event
    permissions.require_arbiter(by, event)
    result = (result or "").strip()
    with transaction.atomic():
        game = lock_game(game.pk, by=by)
        round_ = game.round
        termination = _validate(game, result, (termination or "").strip())
        if round_.status == Round.Status.DRAFT:
            raise Conflict("result.round_not_published", round_number=round_.number)
        if game.result == result and game.termination == termination:
            return game
        correction = bool(game.result)
        reason = str(reason or "").strip()
        if correction and not reason:
            raise Invalid(
                "result.correction_needs_reason",
                round_number=round_.number,
                board=game.board,
                result=game.result,
                details={"field": "reason"},
            )
        now = server_now(game.clock)
        if result:
            action = "game.result_correction" if correction else "game.result"
            ending = end_game(
                game, result, termination, now=now, by=by, reason=reason, action=action
            )
        else:
            ending = reopen_game(game, by=by, reason=reason, now=now)
        write_ending(ending)
    return game


def forfeit(game: Game, *, absent: str, by, reason: str) -> Game:
    """The absent side(s) lose without playing (late arrival beyond the event's limit, absence)."""
    results = {"white": R.BLACK_FORFEIT_WIN, "black": R.WHITE_FORFEIT_WIN, "both": R.DOUBLE_FORFEIT}
    if absent not in results:
        raise Invalid("forfeit.bad_absent", absent=absent, details={"field": "absent"})
    if not str(reason or "").strip():
        raise Invalid("forfeit.reason_required", details={"field": "reason"})
    return set_result(game, results[absent], by=by, reason=reason, termination=T.FORFEIT)
