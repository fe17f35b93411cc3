"""What the endings people bring about share: the event's rules for them, the one record of
every act (who, when, what, why), and the game's `acts_pending` mark.

The record is the event's AuditEntry log (one way to log an action): each act of a player or
an arbiter on a game is one entry, targeted at the game's board, with the game's id, the side
and the act's data under `new`. Nothing is deleted; a correction is a new entry.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from arbiter.errors import Forbidden
from arbiter.events.models import AuditEntry
from arbiter.events.permissions import is_arbiter, player_side
from arbiter.games.models import Claim, DrawOffer, EndingRules, Game, Irregularity

from .locking import save_game

DEFAULT_RULES = EndingRules()  # the FMJD procedure (unsaved: an event without a row)


def ending_rules(event_id: int) -> EndingRules:
    """The event's rules for offers, claims and rulings (the defaults when it has none)."""
    return EndingRules.objects.filter(event_id=event_id).first() or DEFAULT_RULES


def target(game: Game) -> str:
    return f"round {game.round.number} board {game.board}"


def log_act(
    game: Game, *, by, action: str, now: datetime, reason: str = "", **data: Any
) -> AuditEntry:
    """One entry of the game's record: `action` (e.g. "game.draw_offer") by `by` (None: the
    system) at `now`, with `data` and the game's id under `new`, and why."""
    return AuditEntry.objects.create(
        event_id=game.round.event_id,
        user=by if getattr(by, "is_authenticated", False) else None,
        at=now,
        action=action,
        target=target(game),
        new={"game_id": game.pk, "ply": game.ply, **data},
        reason=reason,
    )


def actor(game: Game, by, side: str | None) -> tuple[bool, str]:
    """(is an arbiter, the side acted for). A player acts for their own side only; an
    arbiter enters an act for the side given."""
    event = game.round.event
    if is_arbiter(by, event):
        if side not in ("white", "black"):
            raise_invalid_side(side)
        return True, side
    own = player_side(by, game)
    if own is None:
        raise Forbidden(f"only an arbiter of '{event}' or a player of this game may do this")
    if side not in (None, "", own):
        raise Forbidden(f"the {own} player acts for {own} only, not for {side}")
    return False, own


def raise_invalid_side(side) -> None:
    from arbiter.errors import Invalid

    raise Invalid(
        f"side must be 'white' or 'black' (the player the arbiter acts for), not {side!r}",
        details={"field": "side"},
    )


def refresh_pending(game: Game) -> None:
    """Set the game's `acts_pending` mark from what still waits, and save it if it changed."""
    pending = (
        DrawOffer.objects.filter(game=game, status=DrawOffer.Status.PENDING).exists()
        or Claim.objects.filter(game=game, status=Claim.Status.PENDING).exists()
        or Irregularity.objects.filter(game=game, status=Irregularity.Status.PENDING).exists()
    )
    if pending != game.acts_pending:
        game.acts_pending = pending
        save_game(game, ["acts_pending"])


def mark_pending(game: Game) -> None:
    if not game.acts_pending:
        game.acts_pending = True
        save_game(game, ["acts_pending"])


def lapse_pending(game: Game, now: datetime) -> None:
    """A game that ended: offers and irregularities still open lapse (claims are decided by
    their task, which finds the game over and says so)."""
    DrawOffer.objects.filter(game=game, status=DrawOffer.Status.PENDING).update(
        status=DrawOffer.Status.LAPSED, decided_at=now
    )
    Irregularity.objects.filter(game=game, status=Irregularity.Status.PENDING).update(
        status=Irregularity.Status.LAPSED, decided_at=now
    )
