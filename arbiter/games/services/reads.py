"""Reading a game for a client, with the lazy flag check (DESIGN.md, Deadlines)."""

from __future__ import annotations

from django.utils import timezone

from arbiter.errors import NotFound
from arbiter.events.permissions import require_arbiter, require_view_round
from arbiter.games import selectors
from arbiter.games.models import Game

from .flags import check_flag


def read_game(game_id: int, *, by, now=None) -> dict:
    """The state of a game for `by`: published events for all, drafts for their arbiters.

    A clock past its deadline gets its flag recorded first (one locked write), so that no
    reader ever sees a running clock at zero.
    """
    game = _game(game_id)
    # A game of a draft round or event does not exist for the public (404, not 403).
    require_view_round(by, game.round, f"game {game_id}")
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


def _game(game_id: int) -> Game:
    try:
        return selectors.game_for_read(game_id)
    except Game.DoesNotExist:
        raise NotFound(f"game {game_id!r} does not exist") from None
