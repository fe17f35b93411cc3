"""Roles, enforced in services (not only in views).

- organizer: owns an event (Event.organizer); may do everything an arbiter may.
- arbiter: assigned to an event (Event.arbiters).
- player: a user linked to a Player; acts only on their own games.
- board device: a board's tablet (a device token, accounts/devices.py); acts for the players
  of the game it is bound to, never as an arbiter.
- public: reads what is published.
Superusers may do everything.
"""

from __future__ import annotations

from arbiter.errors import Forbidden, NotFound

#: Round.Status.DRAFT (the models are not imported here: services import this module early).
DRAFT_ROUND = "draft"


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
    known = getattr(event, "arbiter_known", None)  # {user id: bool}, read with a game's lock
    if known is not None and user.pk in known:
        return known[user.pk]
    return event.arbiters.filter(pk=user.pk).exists()


def player_side(user, game) -> str | None:
    """'white' or 'black' when `user` is that player of `game`, else None."""
    if not _authenticated(user):
        return None
    # The game's players carry their login (a locked game has them loaded): no query.
    for side in ("white", "black"):
        player = getattr(game, side)
        if player is not None and player.user_id == user.pk:
            return side
    return None


def board_device(user, game) -> bool:
    """Whether `user` is a board's tablet acting on `game` (a device token, accounts/devices.py:
    the request's token was checked to be for this game or its board). A tablet acts for the
    players at its board, for the side given or the side to move, never as an arbiter: its
    login is its own, with no role in any event."""
    return _authenticated(user) and getattr(user, "device_game_id", None) == game.pk


def require_organizer(user, event) -> None:
    if not is_organizer(user, event):
        raise Forbidden("event.only_organizer", event=event)


def require_arbiter(user, event) -> None:
    if not is_arbiter(user, event):
        raise Forbidden("event.only_arbiter_or_organizer", event=event)


def can_view(user, event) -> bool:
    """Published events are public; drafts only for their organizer and arbiters."""
    return event.published or is_arbiter(user, event)


def sees_drafts(user, event) -> bool:
    """Draft (unpublished) rounds of `event`, their pairings, games, boards and exports, are
    for its organizer and arbiters only."""
    return is_arbiter(user, event)


def can_view_round(user, round_) -> bool:
    """The one rule for reading anything of a round (its pairings, its games by id, their
    pages, diagrams and clocks, the exports): a published round of a visible event, or any
    round for the event's organizer and arbiters. Callers answer 404 otherwise, so that an
    id tells nothing of what is not shown."""
    event = round_.event
    if round_.status == DRAFT_ROUND:
        return sees_drafts(user, event)
    return can_view(user, event)


def require_view_round(user, round_, not_found: NotFound) -> None:
    """Raise `not_found` unless `user` may read `round_`: the answer of an id that does not
    exist (e.g. NotFound("game.not_found", game_id=12)), so that it tells nothing more."""
    if not can_view_round(user, round_):
        raise not_found


def can_create_events(user) -> bool:
    """Superusers and users given the `events.add_event` permission (organizers)."""
    return _authenticated(user) and (user.is_superuser or user.has_perm("events.add_event"))


def require_can_create_events(user) -> None:
    if not can_create_events(user):
        raise Forbidden("event.only_organizers_create")


def can_manage_players(user) -> bool:
    """Organizers, and arbiters of at least one event, may register players."""
    if not _authenticated(user):
        return False
    return can_create_events(user) or user.arbitrated_events.exists()


def require_can_manage_players(user) -> None:
    if not can_manage_players(user):
        raise Forbidden("player.only_organizers_and_arbiters")


def is_entry_player(user, entry) -> bool:
    """True when `user` is the login of the player of `entry`."""
    if not _authenticated(user):
        return False
    player_id = getattr(getattr(user, "player", None), "pk", None)
    return player_id is not None and entry.player_id == player_id


def require_arbiter_or_entry_player(user, entry) -> None:
    """The event's arbiters and organizer, or the player of this entry (their own only)."""
    if is_entry_player(user, entry) or is_arbiter(user, entry.event):
        return
    raise Forbidden("entry.only_arbiter_or_player", player=entry.player, event=entry.event)


def require_view(user, event) -> None:
    """Unpublished events exist only for their organizer and arbiters (404, not 403)."""
    if not can_view(user, event):
        raise NotFound("event.not_found", event_id=event.pk)
