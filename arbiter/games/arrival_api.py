"""API endpoint: an arbiter marks a player present at the board."""

from datetime import datetime
from typing import Literal

from ninja import Router, Schema

from arbiter.accounts.auth import API_AUTH

from . import arrival

router = Router(tags=["games"])


class ArrivalIn(Schema):
    side: Literal["white", "black"]


class ArrivalOut(Schema):
    game: int
    side: str
    white_arrived_at: datetime | None
    black_arrived_at: datetime | None
    round_start: datetime | None
    deadline: datetime | None
    late_arrival_minutes: int
    result: str
    status: str


@router.post("/games/{game_id}/arrival", response=ArrivalOut, auth=API_AUTH)
def mark_arrival(request, game_id: int, payload: ArrivalIn):
    """Mark White or Black present (arbiters). 409 once the player has lost by forfeit."""
    game = arrival.mark_arrived(game_id, payload.side, by=request.user)
    state = arrival.arrival_state(game)
    return {
        "game": game.pk,
        "side": payload.side,
        "result": game.result,
        "status": game.status,
        **{k: state[k] for k in ArrivalOut.model_fields if k in state},
    }
