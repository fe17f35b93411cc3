"""The players confirm the result at the end of a game ("2-0, agreed by both"), and the
arbiter accepts the agreed results of a round in one action.

The result itself is entered as before (a move, a flag, a resignation, an arbiter: the one
ending service); a confirmation does not change it. Each confirmation and each acceptance is
one entry of the game's record (services/acts.py: who, when, which result), so nothing is
deleted: a player who confirms another result writes a new entry, which the arbiter sees as
a disagreement; an acceptance is an entry `game.result_approval`, valid until the result
changes (confirmation_selectors.py reads them). FMJD 10.2: the players sign the result on
their notation sheets; here they confirm it on the board's tablet or their page.
"""

from __future__ import annotations

from django.db import transaction

from arbiter.errors import Conflict, Invalid, NotFound
from arbiter.events.models import Round
from arbiter.events.permissions import require_arbiter, require_view_round
from arbiter.games import confirmation_selectors as read
from arbiter.games.models import Game

from . import acts
from .locking import lock_game, lock_games, server_now


def confirm_result(game_id: int, *, by, result: str, side: str | None = None) -> dict:
    """`side`'s player (a player: their own side; an arbiter or a board's device: the side
    given) confirms `result` of the finished game. 409 before the game has a result, on a
    bye, or for a result other than the one the arbiter has accepted. Confirming what one
    confirmed last changes nothing. Returns the game's confirmations."""
    if result not in read.CONFIRMABLE:
        raise Invalid(
            "confirmation.bad_result",
            result=result,
            codes=list(read.CONFIRMABLE),
            details={"field": "result"},
        )
    with transaction.atomic():
        game = lock_game(game_id, by=by)
        # a game of a draft round is not there for its players yet (404, as every read)
        require_view_round(by, game.round, NotFound("game.not_found", game_id=game.pk))
        _, side = acts.actor(game, by, side)
        if game.black_id is None:
            raise Conflict("confirmation.bye", board=game.board)
        if not game.result:
            raise Conflict(
                "confirmation.no_result",
                board=game.board,
                status=game.status,
                details={"status": game.status},
            )
        state = read.game_confirmation(game)
        mine = state[side]
        if mine is not None and mine["result"] == result:
            return state
        if state["approved"] and result != game.result:
            raise Conflict(
                "confirmation.already_approved",
                result=game.result,
                board=game.board,
                details={"confirmation": state},
            )
        now = server_now(game.clock)
        acts.log_act(
            game,
            by=by,
            action=read.CONFIRM,
            now=now,
            side=side,
            result=result,
            recorded=game.result,
        )
        return read.game_confirmation(game)


def accept_confirmed(round_id: int, *, by) -> dict:
    """Accept every result of the round both players confirmed (arbiters): one acceptance
    entry per board, each by `by`. Boards not agreed by both, or accepted already, are left
    as they are and listed, so that a second call accepts nothing again."""
    round_ = Round.objects.select_related("event").filter(pk=round_id).first()
    if round_ is None:
        raise NotFound("round.not_found", round_id=round_id)
    require_arbiter(by, round_.event)
    with transaction.atomic():
        ids = list(
            Game.objects.filter(round=round_).exclude(result="").values_list("pk", flat=True)
        )
        games = lock_games(ids, by=by)
        entries = read.entries_by_game(games)
        accepted, already, left = [], [], []
        for game in games:
            state = read.summarize(game, entries.get(game.pk, []))
            if state["approved"]:
                already.append(state["board"])
            elif state["status"] == read.AGREED:
                now = server_now(game.clock)
                acts.log_act(game, by=by, action=read.APPROVE, now=now, result=game.result)
                accepted.append(state["board"])
            elif state["status"] != read.BYE:
                left.append({"board": state["board"], "status": state["status"]})
    return {
        "round": round_.pk,
        "accepted": accepted,
        "already_accepted": already,
        "not_agreed": left,
    }
