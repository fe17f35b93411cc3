"""API endpoints: who has arrived at a board, and an arbiter marking a player present."""

from datetime import datetime
from typing import Literal

from ninja import Router, Schema
from ninja.security import SessionAuth

from arbiter.accounts.auth import API_AUTH, OptionalAuth, TokenAuth

from . import arrival

router = Router(tags=["games"])


class ArrivalIn(Schema):
    side: Literal["white", "black"]


class ArrivalOut(Schema):
    game: int
    side: str | None
    white_arrived_at: datetime | None
    black_arrived_at: datetime | None
    round_start: datetime | None
    deadline: datetime | None
    late_arrival_minutes: int
    result: str
    status: str


def _answer(game, side: str | None) -> dict:
    state = arrival.arrival_state(game)
    return {
        "game": game.pk,
        "side": side,
        "result": game.result,
        "status": game.status,
        **{k: state[k] for k in ArrivalOut.model_fields if k in state},
    }


@router.get(
    "/games/{game_id}/arrival",
    response=ArrivalOut,
    auth=[TokenAuth(), SessionAuth(), OptionalAuth()],
)
def get_arrival(request, game_id: int):
    """Who has arrived, the round's start and the arrival limit (FMJD 10.5)."""
    return _answer(arrival.game_for_arrival(game_id, by=request.user), None)


@router.post("/games/{game_id}/arrival", response=ArrivalOut, auth=API_AUTH)
def mark_arrival(request, game_id: int, payload: ArrivalIn):
    """Mark White or Black present (arbiters). 409 once the player has lost by forfeit."""
    return _answer(arrival.mark_arrived(game_id, payload.side, by=request.user), payload.side)
