"""Reading a game for a client, with the lazy flag check (DESIGN.md, Deadlines)."""

from __future__ import annotations

from django.utils import timezone

from arbiter.errors import Forbidden, NotFound
from arbiter.events.permissions import can_view, require_arbiter
from arbiter.games import selectors
from arbiter.games.models import Game

from .flags import check_flag


def read_game(game_id: int, *, by, now=None) -> dict:
    """The state of a game for `by`: published events for all, drafts for their arbiters.

    A clock past its deadline gets its flag recorded first (one locked write), so that no
    reader ever sees a running clock at zero.
    """
    game = _game(game_id)
    if not can_view(by, game.round.event):
        raise Forbidden(f"the event of game {game_id} is not published")
    now = now or timezone.now()
    if selectors.flag_overdue(game, now):
        check_flag(game.pk, now=now)
        game = selectors.game_for_read(game_id)
    return selectors.game_state(game, now)


def read_clock_log(game_id: int, *, by) -> dict:
    """The clock's log of a game (every start, pause, adjustment and flag, with who and why);
    arbiters of the event only."""
    game = _game(game_id)
    require_arbiter(by, game.round.event)
    return {"game": game.pk, "entries": selectors.clock_log(game)}


def read_acts(game_id: int, *, by) -> dict:
    """The record of every act on a game (offers, claims, resignations, irregularities and
    choices, rulings), oldest first, and what is pending; arbiters of the event only."""
    game = _game(game_id)
    require_arbiter(by, game.round.event)
    return selectors.game_acts(game)


def _game(game_id: int) -> Game:
    try:
        return selectors.game_for_read(game_id)
    except Game.DoesNotExist:
        raise NotFound(f"game {game_id!r} does not exist") from None
