"""Locking one game row for the length of a transaction."""

from __future__ import annotations

from datetime import datetime

from django.db import connection
from django.utils import timezone

from arbiter.errors import NotFound
from arbiter.games.models import Game


def lock_game(game_id: int) -> Game:
    """The game, locked until the end of the current transaction (call inside atomic()).

    PostgreSQL: SELECT ... FOR UPDATE OF the game row only (never the event or round rows,
    which every game of the event shares). SQLite has no row locks: the settings open every
    transaction with BEGIN IMMEDIATE, which takes the database's write lock at once.
    The clock row is read after the lock: every write to a game's clock goes through here.
    """
    query = Game.objects.select_related("round__event", "white", "black", "clock")
    if connection.features.has_select_for_update_of:
        query = query.select_for_update(of=("self",))
    elif connection.features.has_select_for_update:
        query = query.select_for_update()
    try:
        return query.get(pk=game_id)
    except (Game.DoesNotExist, ValueError, TypeError):
        raise NotFound(f"game {game_id!r} does not exist") from None


def server_now(clock=None) -> datetime:
    """The server's time, never before the clock's last change (another machine's clock may
    be a little behind; the clock arithmetic refuses to run backwards)."""
    now = timezone.now()
    since = getattr(clock, "running_since", None)
    return max(now, since) if since else now
