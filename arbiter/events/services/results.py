"""Results of games, entered by the arbiters board by board; every correction is logged."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from arbiter.errors import Conflict, Invalid
from arbiter.events import permissions
from arbiter.events.models import Round
from arbiter.events.records import FORFEITS, RESULT_CODES
from arbiter.events.services.audit import log
from arbiter.games.models import Game
from arbiter.messages import Problem
from rules.outcome import Termination

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
        game = (
            Game.objects.select_for_update(of=("self",))
            .select_related("round__event", "clock")
            .get(pk=game.pk)
        )
        round_ = game.round
        termination = _validate(game, result, (termination or "").strip())
        if round_.status == Round.Status.DRAFT:
            raise Conflict("result.round_not_published", round_number=round_.number)
        if game.result == result and game.termination == termination:
            return game
        correction = bool(game.result)
        if correction and not str(reason or "").strip():
            raise Invalid(
                "result.correction_needs_reason",
                round_number=round_.number,
                board=game.board,
                result=game.result,
                details={"field": "reason"},
            )
        old = {"result": game.result, "termination": game.termination}
        game.result, game.termination = result, termination
        if result:
            game.status = Game.Status.FINISHED
            game.finished_at = game.finished_at if correction else timezone.now()
        else:
            game.status = Game.Status.SCHEDULED if not game.ply else Game.Status.RUNNING
            game.finished_at = None
        game.save(update_fields=["result", "termination", "status", "finished_at", "updated_at"])
        if result:
            _stop_clock(game)
        log(
            event,
            by=by,
            action="game.result_correction" if correction else "game.result",
            target=f"round {round_.number} board {game.board}",
            old=old,
            new={"result": result, "termination": termination, "game_id": game.pk},
            reason=str(reason or "").strip(),
        )
        refresh_round_status(round_)
    return game


def _stop_clock(game: Game) -> None:
    """A result ends the game: its clock stops, so no flag can fall on it afterwards."""
    if game.clock is not None and game.clock.stop_if_running(timezone.now()):
        game.clock.save()


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


def forfeit(game: Game, *, absent: str, by, reason: str) -> Game:
    """The absent side(s) lose without playing (late arrival beyond the event's limit, absence)."""
    results = {"white": R.BLACK_FORFEIT_WIN, "black": R.WHITE_FORFEIT_WIN, "both": R.DOUBLE_FORFEIT}
    if absent not in results:
        raise Invalid("forfeit.bad_absent", absent=absent, details={"field": "absent"})
    if not str(reason or "").strip():
        raise Invalid("forfeit.reason_required", details={"field": "reason"})
    return set_result(game, results[absent], by=by, reason=reason, termination=T.FORFEIT)
