"""Draw offers (FMJD 7.3.1, with the procedure of the competition rules as the default),
resignations (7.2.1) and the arbiter's rulings with a written reason (7.2.4, 7.3.3, any
result): endings a person brings about, each through the one ending service.

The draw-offer procedure (DIGEST.md, section 10): not before the offering player's
`offer_min_moves`-th move (40 by default); the player moves, offers, then presses the clock
(in the system: the offer comes while the opponent is to move, after the offerer's move); a
move by the opponent declines it; the same player may not offer again before the opponent
has offered; acceptance draws the game 1-1.
"""

from __future__ import annotations

from django.db import transaction

from arbiter.errors import Conflict, Invalid
from arbiter.events.permissions import require_arbiter
from arbiter.games import selectors
from arbiter.games.models import DrawOffer, Game
from rules.outcome import Score, Termination

from . import acts
from .ending import end_game, result_of, write_ending
from .flags import flag_if_due
from .locking import lock_game, server_now
from .results import TERMINATION_RESULTS

MIN_REASON = 5


def offer_dict(offer: DrawOffer) -> dict:
    return {
        "id": offer.pk,
        "side": offer.side,
        "ply": offer.ply,
        "status": offer.status,
        "created_at": offer.created_at.isoformat(),
        "decided_at": offer.decided_at.isoformat() if offer.decided_at else None,
    }


def _open_game(game: Game, now) -> None:
    """Conflict unless the game is being played (the clock checked on the way)."""
    flag_if_due(game, now)
    if game.status == Game.Status.FINISHED:
        raise Conflict(
            "game.over",
            result=game.result,
            termination=game.termination,
            details={"game": selectors.game_state(game, now)},
        )


def _moves_by(game: Game, side: str) -> int:
    """How many moves `side` has played (the record's ply count and who began)."""
    white_first = not game.start_fen.upper().startswith("B")
    first, second = (game.ply + 1) // 2, game.ply // 2
    mine_first = (side == "white") == white_first
    return first if mine_first else second


def offer_draw(game_id: int, *, by, side: str | None = None) -> dict:
    with transaction.atomic():
        game = lock_game(game_id, by=by)
        _, side = acts.actor(game, by, side)
        now = server_now(game.clock)
        _open_game(game, now)
        rules = acts.ending_rules(game.round.event_id)
        turn = selectors.rules_game(game).turn.value
        if turn == side:
            raise Conflict("offer.move_first", side=side)
        played = _moves_by(game, side)
        if played < rules.offer_min_moves:
            raise Conflict(
                "offer.too_early",
                side=side,
                played=played,
                min_moves=rules.offer_min_moves,
                details={"moves_played": played, "min_moves": rules.offer_min_moves},
            )
        offers = list(DrawOffer.objects.filter(game=game).order_by("-pk")[:1])
        if offers and offers[0].status == DrawOffer.Status.PENDING:
            raise Conflict("offer.pending", side=offers[0].side, ply=offers[0].ply)
        if offers and offers[0].side == side:
            raise Conflict("offer.offered_last", side=side, ply=offers[0].ply)
        offer = DrawOffer.objects.create(
            game=game,
            side=side,
            ply=game.ply,
            by=by if getattr(by, "is_authenticated", False) else None,
            created_at=now,
        )
        acts.mark_pending(game)
        acts.log_act(game, by=by, action="game.draw_offer", now=now, side=side, offer_id=offer.pk)
    return offer_dict(offer)


def accept_draw(game_id: int, *, by, side: str | None = None) -> dict:
    """The opponent accepts the pending offer: the game is drawn (FMJD 7.3.1)."""
    with transaction.atomic():
        game = lock_game(game_id, by=by)
        _, side = acts.actor(game, by, side)
        now = server_now(game.clock)
        _open_game(game, now)
        offer = DrawOffer.objects.filter(game=game, status=DrawOffer.Status.PENDING).first()
        if offer is None:
            raise Conflict("offer.none_pending")
        if offer.side == side:
            raise Conflict("offer.own_offer", side=side)
        offer.status, offer.decided_at = DrawOffer.Status.ACCEPTED, now
        offer.save(update_fields=["status", "decided_at"])
        acts.log_act(game, by=by, action="game.draw_accept", now=now, side=side, offer_id=offer.pk)
        write_ending(
            end_game(
                game,
                result_of(Score.DRAW),
                Termination.AGREED_DRAW,
                now=now,
                by=by,
                reason=f"draw offered by {offer.side} at ply {offer.ply}, accepted by {side} "
                "(FMJD 7.3.1)",
            )
        )
        acts.lapse_pending(game, now)
        acts.refresh_pending(game)
        return selectors.game_state(game, now)


def decline_by_move(game: Game, mover: str, now) -> None:
    """On a locked game, before `mover`'s move is stored: the opponent's pending offer is
    declined by it (FMJD 7.3.1 procedure)."""
    for offer in DrawOffer.objects.filter(game=game, status=DrawOffer.Status.PENDING):
        if offer.side != mover:
            offer.status, offer.decided_at = DrawOffer.Status.DECLINED, now
            offer.save(update_fields=["status", "decided_at"])
            acts.log_act(
                game, by=None, action="game.draw_decline", now=now, side=mover, offer_id=offer.pk
            )


def resign(game_id: int, *, by, side: str | None = None, reason: str = "") -> dict:
    """`side` resigns (FMJD 7.2.1): from the player's device, or entered by the arbiter."""
    with transaction.atomic():
        game = lock_game(game_id, by=by)
        _, side = acts.actor(game, by, side)
        now = server_now(game.clock)
        _open_game(game, now)
        score = Score.BLACK_WINS if side == "white" else Score.WHITE_WINS
        acts.log_act(game, by=by, action="game.resign", now=now, reason=reason, side=side)
        write_ending(
            end_game(
                game,
                result_of(score),
                Termination.RESIGNED,
                now=now,
                by=by,
                reason=f"{side} resigned (FMJD 7.2.1)" + (f": {reason}" if reason else ""),
            )
        )
        acts.lapse_pending(game, now)
        acts.refresh_pending(game)
        return selectors.game_state(game, now)


#: Rulings need the arbiter's written reason: refusal to comply (7.2.4), neither side can win
#: (7.3.3), or any result the arbiter decides.
RULINGS = (Termination.REFUSED_RULES, Termination.NO_WIN_POSSIBLE, Termination.ARBITER)


def rule(game_id: int, *, result: str, termination: str, reason: str, by) -> dict:
    """An arbiter's ruling that ends the game, with a written reason (nothing is ended
    without one)."""
    if termination not in RULINGS:
        raise Invalid(
            "ruling.bad_termination",
            terminations=[t.value for t in RULINGS],
            termination=termination,
            details={"field": "termination"},
        )
    if not isinstance(reason, str) or len(reason.strip()) < MIN_REASON:
        raise Invalid("ruling.reason_required", details={"field": "reason"})
    if result not in TERMINATION_RESULTS[termination] or result not in (
        Game.Result.WHITE_WINS,
        Game.Result.DRAW,
        Game.Result.BLACK_WINS,
    ):
        raise Invalid(
            "ruling.bad_result", termination=termination, result=result, details={"field": "result"}
        )
    with transaction.atomic():
        game = lock_game(game_id, by=by)
        require_arbiter(by, game.round.event)
        now = server_now(game.clock)
        _open_game(game, now)
        acts.log_act(
            game,
            by=by,
            action="game.ruling",
            now=now,
            reason=reason.strip(),
            result=result,
            termination=termination,
        )
        write_ending(end_game(game, result, termination, now=now, by=by, reason=reason.strip()))
        acts.lapse_pending(game, now)
        acts.refresh_pending(game)
        return selectors.game_state(game, now)
