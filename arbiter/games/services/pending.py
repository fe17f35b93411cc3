"""What a move meets when an offer, a claim or an irregularity is pending, and the draw rules
that wait for a claim (the event's `claim_articles`): the move path's only contact with the
endings people bring about. It runs only when the game's `acts_pending` mark is set, or when
a draw rule applies, so an ordinary move pays nothing for it."""

from __future__ import annotations

from datetime import datetime

from arbiter.errors import Conflict
from arbiter.games import selectors
from arbiter.games.models import Claim, EndingRules, Game, Irregularity

from . import acts, claims, offers


def before_move(game: Game, mover: str, now: datetime) -> Conflict | None:
    """On a locked game with something pending, before `mover`'s move: the event's rule for
    a pending claim (decided first, or the move refused), a pending irregularity (the move
    waits for the opponent's choice; 5.7's acceptance by a move goes through
    irregularities.accept_by_move), and the opponent's draw offer declined by the move."""
    irr = Irregularity.objects.filter(game=game, status=Irregularity.Status.PENDING).first()
    if irr is not None:
        return Conflict(
            "move.irregularity_pending",
            kind=irr.get_kind_display().lower(),
            side=irr.side,
            chooser="black" if irr.side == "white" else "white",
            details={"irregularity": irr.pk, "game": selectors.game_state(game, now)},
        )
    if Claim.objects.filter(game=game, status=Claim.Status.PENDING).exists():
        rules = acts.ending_rules(game.round.event_id)
        if rules.move_during_claim == EndingRules.MoveDuringClaim.REFUSE:
            return Conflict(
                "move.claim_pending",
                details={"game": selectors.game_state(game, now)},
            )
        decided = claims.decide_pending(game, now)
        acts.refresh_pending(game)
        if game.status == Game.Status.FINISHED:
            last = decided[-1] if decided else None
            words = last.explanation.get("message", "") if last else ""
            return Conflict(
                "move.claim_ended_game",
                result=game.result,
                termination=game.termination,
                words=words,
                details={"game": selectors.game_state(game, now)},
            )
    offers.decline_by_move(game, mover, now)
    acts.refresh_pending(game)
    return None


def draw_waits_for_claim(
    game: Game, article: str, plies: int, limit_plies: int | None, now
) -> bool:
    """A draw rule (6.1-6.4) that applies on this move: True when the event has it wait for
    a claim or a ruling; the arbiter is alerted (one entry of the record) on the ply it
    first applies."""
    rules = acts.ending_rules(game.round.event_id)
    if article not in (rules.claim_articles or []):
        return False
    if article == "6.1" or plies == limit_plies:
        acts.log_act(
            game,
            by=None,
            action="game.draw_rule_applies",
            now=now,
            reason=f"FMJD {article} applies: the game waits for a claim or the arbiter's ruling",
            article=article,
        )
    return True
