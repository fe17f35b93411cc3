"""Irregularities (FMJD art. 5): recorded by the arbiter; only the opponent decides.

- 5.4: the opponent of the player who committed it chooses: rectify (the position before the
  irregularity is restored; the arbiter may correct the clocks with the clock actions) or
  maintain (the game goes on from the position as it stands on the board, even when no legal
  move leads there: the rules engine's record keeps it as a setup flagged 5.4, in the place
  of a ply, and the draw counters restart there). The choice is the opponent's, from their
  device or entered by the arbiter. No partial rectification (5.8): it is one or the other.
- 5.7: a move by the opponent after the irregularity accepts it: `accept_by_move` maintains
  it and plays that move, in one transaction. While a choice is pending, the move path
  refuses moves and says why.
- 5.5: an accident noticed at once is not an irregularity: `restore_after_accident` logs the
  arbiter's restoring of the position, with no ruling and no change to the record.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from arbiter.errors import Conflict, Forbidden, Invalid, NotFound
from arbiter.events.permissions import board_device, is_arbiter, player_side, require_arbiter
from arbiter.games import selectors
from arbiter.games.models import Game, Irregularity, Move
from arbiter.infra import sqlrows
from clocks import clock as clockmath
from clocks.models import ClockLog
from rules import Position, RulesError

from . import acts
from .locking import lock_game, save_clock, save_game, server_now

OTHER = {"white": "black", "black": "white"}


def irregularity_dict(irr: Irregularity) -> dict:
    return {
        "id": irr.pk,
        "kind": irr.kind,
        "article": "5.4",
        "side": irr.side,
        "ply": irr.ply,
        "fen_before": irr.fen_before,
        "fen_on_board": irr.fen_on_board or None,
        "note": irr.note,
        "status": irr.status,
        "reason": irr.reason,
        "created_at": irr.created_at.isoformat(),
        "decided_at": irr.decided_at.isoformat() if irr.decided_at else None,
    }


def record_irregularity(
    game_id: int, *, kind: str, side: str, by, fen_on_board: str = "", note: str = ""
) -> dict:
    """The arbiter records an irregularity of FMJD 5.4 by `side`, with the position as it
    stands on the board (a FEN) when it differs from the record's."""
    if kind not in Irregularity.Kind.values:
        raise Invalid(
            "irregularity.bad_kind",
            kinds=Irregularity.Kind.values,
            kind=kind,
            details={"field": "kind"},
        )
    if side not in OTHER:
        raise Invalid("game.bad_side", side=side, details={"field": "side"})
    if fen_on_board:
        try:
            fen_on_board = Position.from_fen(fen_on_board).fen()
        except RulesError as exc:
            raise Invalid(
                "irregularity.bad_fen", error=exc, details={"field": "fen_on_board"}
            ) from None
    with transaction.atomic():
        game = lock_game(game_id, by=by)
        require_arbiter(by, game.round.event)
        now = server_now(game.clock)
        if game.status == Game.Status.FINISHED:
            raise Conflict("game.over", result=game.result, termination=game.termination)
        if Irregularity.objects.filter(game=game, status=Irregularity.Status.PENDING).exists():
            raise Conflict("irregularity.already_pending")
        irr = Irregularity.objects.create(
            game=game,
            kind=kind,
            side=side,
            ply=game.ply,
            fen_before=game.fen,
            fen_on_board=fen_on_board if fen_on_board != game.fen else "",
            note=note,
            by=by,
            created_at=now,
        )
        acts.mark_pending(game)
        acts.log_act(
            game,
            by=by,
            action="game.irregularity",
            now=now,
            reason=note,
            irregularity_id=irr.pk,
            kind=kind,
            side=side,
            fen_on_board=irr.fen_on_board,
        )
    return irregularity_dict(irr)


def _pending(game: Game, irregularity_id: int) -> Irregularity:
    irr = Irregularity.objects.filter(pk=irregularity_id, game=game).first()
    if irr is None:
        raise NotFound("irregularity.not_found", game_id=game.pk, irregularity_id=irregularity_id)
    if irr.status != Irregularity.Status.PENDING:
        raise Conflict("irregularity.decided", irregularity_id=irr.pk, status=irr.status)
    return irr


def _chooser(game: Game, irr: Irregularity, by) -> None:
    """Only the opponent of the player who committed it chooses (5.4): from their own
    device, or through the arbiter who enters their choice."""
    if is_arbiter(by, game.round.event) or board_device(by, game):
        return  # the tablet's button is the opponent's: its words say whose choice it is
    if player_side(by, game) != OTHER[irr.side]:
        raise Forbidden("irregularity.opponent_chooses", chooser=OTHER[irr.side])


def choose(game_id: int, irregularity_id: int, *, choice: str, by, reason: str = "") -> dict:
    """The opponent's choice: "rectify" or "maintain" (FMJD 5.4; nothing partial, 5.8)."""
    if choice not in ("rectify", "maintain"):
        raise Invalid(
            "irregularity.bad_choice",
            choice=choice,
            details={"field": "choice"},
        )
    with transaction.atomic():
        game = lock_game(game_id, by=by)
        irr = _pending(game, irregularity_id)
        _chooser(game, irr, by)
        now = server_now(game.clock)
        if choice == "maintain":
            _maintain(game, irr, now, Irregularity.Status.MAINTAINED)
        else:
            _rectify(game, irr, now)
        _decided(game, irr, by, reason, now)
        return selectors.game_state(game, now)


def accept_by_move(game_id: int, irregularity_id: int, *, move: str, request_id: str, by) -> dict:
    """FMJD 5.7: the opponent moved after the irregularity: it is maintained, and the move
    is played from the position on the board (the move-entry service checks it)."""
    from .moves import submit_move

    with transaction.atomic():
        game = lock_game(game_id, by=by)
        irr = _pending(game, irregularity_id)
        _chooser(game, irr, by)
        now = server_now(game.clock)
        _maintain(game, irr, now, Irregularity.Status.ACCEPTED)
        _decided(game, irr, by, "a move by the opponent accepts it (FMJD 5.7)", now)
        return submit_move(game_id, ply=game.ply + 1, move=move, request_id=request_id, by=by)


def restore_after_accident(game_id: int, *, by, reason: str) -> dict:
    """FMJD 5.5: pieces displaced by an accident noticed at once are put back; not an
    irregularity, no ruling: logged, and the record stays as it is."""
    if not isinstance(reason, str) or not reason.strip():
        raise Invalid("irregularity.accident_reason_required", details={"field": "reason"})
    with transaction.atomic():
        game = lock_game(game_id, by=by)
        require_arbiter(by, game.round.event)
        now = server_now(game.clock)
        acts.log_act(
            game,
            by=by,
            action="game.accident_restored",
            now=now,
            reason=reason.strip(),
            fen=game.fen,
        )
        return selectors.game_state(game, now)


def _set_position(game: Game, fen: str, note: str, now: datetime, article: str = "5.4") -> None:
    """Set the position in the game's record (a setup in the place of a ply, FMJD 5.4), store
    it as a row of the move list, and switch the running clock when the side to move
    changes (the irregular act was a move over the board)."""
    record = selectors.rules_game(game)
    before_turn = record.turn
    setup = record.set_position(fen, article=article, note=note)
    game.ply += 1
    game.fen = record.position.fen()
    game.rules_state = record.to_state()
    clock = game.clock
    if clock is not None and record.turn != before_turn and clock.started and not clock.paused:
        state = clock.state
        if state.running is not None:
            clock.apply(clockmath.press(state, clock.tc, now))
            save_clock(clock)
    white_ms = black_ms = None
    if clock is not None and clock.started:
        white_ms, black_ms = clockmath.remaining(clock.state, clock.tc, now)
    save_game(game, ["fen", "ply", "rules_state"])
    sqlrows.insert_row(
        Move,
        {
            "game": game.pk,
            "ply": game.ply,
            "notation": setup.text,
            "fen_after": game.fen,
            "white_ms": white_ms,
            "black_ms": black_ms,
            "played_at": now,
            "request_id": "",
            "by": None,
            "response": {"setup": setup.to_dict()},
        },
    )


def annul_and_restart(game_id: int, *, by, reason: str) -> dict:
    """FMJD 5.1: the board was wrongly placed (2.4): the game is annulled and restarts from its
    start position with the clocks reset (stopped at the first period's time; the arbiter
    starts them). Nothing is deleted: the record keeps the moves played, then the start
    position set again, flagged 5.1 (the draw counters restart there)."""
    if not isinstance(reason, str) or not reason.strip():
        raise Invalid("irregularity.annul_reason_required", details={"field": "reason"})
    with transaction.atomic():
        game = lock_game(game_id, by=by)
        require_arbiter(by, game.round.event)
        now = server_now(game.clock)
        if game.status == Game.Status.FINISHED:
            raise Conflict("game.over", result=game.result, termination=game.termination)
        if game.ply:
            _set_position(
                game, game.start_fen, f"board wrongly placed: {reason.strip()}", now, "5.1"
            )
        clock = game.clock
        if clock is not None:
            before = clock.state
            clock.apply(clockmath.initial_state(clock.tc))
            save_clock(clock)
            ClockLog.record(
                clock,
                ClockLog.Action.SET,
                before,
                clock.state,
                at=now,
                reason=f"game annulled and restarted (FMJD 5.1): {reason.strip()}",
                user=by if getattr(by, "is_authenticated", False) else None,
            )
        acts.log_act(
            game,
            by=by,
            action="game.annulled_restart",
            now=now,
            reason=reason.strip(),
            article="5.1",
        )
        return selectors.game_state(game, now)


def _maintain(game: Game, irr: Irregularity, now: datetime, status: str) -> None:
    if irr.fen_on_board and irr.fen_on_board != game.fen:
        note = f"{irr.get_kind_display()} by {irr.side}, " + (
            "maintained by the opponent"
            if status == Irregularity.Status.MAINTAINED
            else "accepted by the opponent's move (FMJD 5.7)"
        )
        _set_position(game, irr.fen_on_board, note, now)
    irr.status = status


def _rectify(game: Game, irr: Irregularity, now: datetime) -> None:
    """The position before the irregularity is restored: when moves were entered since it
    was recorded, a new entry sets that position again (nothing is deleted)."""
    if game.fen != irr.fen_before:
        _set_position(
            game, irr.fen_before, f"{irr.get_kind_display()} by {irr.side}, rectified", now
        )
    irr.status = Irregularity.Status.RECTIFIED


def _decided(game: Game, irr: Irregularity, by, reason: str, now: datetime) -> None:
    irr.reason = reason
    irr.chosen_by = by if getattr(by, "is_authenticated", False) else None
    irr.decided_at = now
    irr.save(update_fields=["status", "reason", "chosen_by", "decided_at"])
    acts.log_act(
        game,
        by=by,
        action="game.irregularity_choice",
        now=now,
        reason=reason,
        irregularity_id=irr.pk,
        choice=irr.status,
        chooser=OTHER[irr.side],
    )
    acts.refresh_pending(game)
