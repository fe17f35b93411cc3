"""Roles, enforced in services (not only in views).

- organizer: owns an event (Event.organizer); may do everything an arbiter may.
- arbiter: assigned to an event (Event.arbiters).
- player: a user linked to a Player; acts only on their own games.
- public: reads what is published.
Superusers may do everything.
"""

from __future__ import annotations

from arbiter.errors import Forbidden


def _authenticated(user) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False))


def is_organizer(user, event) -> bool:
    if not _authenticated(user):
        return False
    return user.is_superuser or event.organizer_id == user.pk


def is_arbiter(user, event) -> bool:
    """Arbiters of the event, and its organizer."""
    if not _authenticated(user):
        return False
    if is_organizer(user, event):
        return True
    return event.arbiters.filter(pk=user.pk).exists()


def player_side(user, game) -> str | None:
    """'white' or 'black' when `user` is that player of `game`, else None."""
    if not _authenticated(user):
        return None
    player_id = getattr(getattr(user, "player", None), "pk", None)
    if player_id is None:
        return None
    if game.white_id == player_id:
        return "white"
    if game.black_id == player_id:
        return "black"
    return None


def require_organizer(user, event) -> None:
    if not is_organizer(user, event):
        raise Forbidden(f"only the organizer of '{event}' may do this")


def require_arbiter(user, event) -> None:
    if not is_arbiter(user, event):
        raise Forbidden(f"only an arbiter or the organizer of '{event}' may do this")


def can_view(user, event) -> bool:
    """Published events are public; drafts only for their organizer and arbiters."""
    return event.published or is_arbiter(user, event)
