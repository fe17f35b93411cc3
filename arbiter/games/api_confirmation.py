"""API endpoints of the players' confirmations of a result and the arbiter's acceptance
(thin: services/confirmation.py and confirmation_selectors.py hold the logic)."""

from __future__ import annotations

from typing import Literal

from ninja import Field, Router, Schema
from ninja.decorators import decorate_view

from arbiter.accounts.auth import API_AUTH
from arbiter.games import confirmation_selectors, selectors
from arbiter.games.services import confirmation
from arbiter.infra.gate import db_gate
from arbiter.validation import Id

router = Router(tags=["result confirmation"])


class ConfirmIn(Schema):
    result: Literal["2-0", "1-1", "0-2", "+/-", "-/+", "-/-"] = Field(
        ..., description="The result the player confirms (the recorded one, or what they say)."
    )
    side: Literal["white", "black"] | None = Field(
        None,
        description="The player confirmed for: an arbiter or a board's device gives it; a "
        "player confirms for their own side only.",
    )


class SideConfirmationOut(Schema):
    result: str
    at: str
    by: str | None


class ConfirmationOut(Schema):
    game: int
    board: int
    result: str = Field(..., description='The recorded result ("" while the game is played).')
    status: str = Field(..., description="pending, unconfirmed, agreed, disputed or bye")
    words: str = Field(..., description='In words, e.g. "2-0, agreed by both".')
    white: SideConfirmationOut | None
    black: SideConfirmationOut | None
    approved: bool = Field(..., description="The arbiter has accepted the recorded result.")
    approved_at: str | None
    approved_by: str | None


class AcceptedOut(Schema):
    round: int
    accepted: list[int] = Field(..., description="Boards accepted now.")
    already_accepted: list[int]
    not_agreed: list[dict] = Field(..., description="{board, status} of the boards left.")


@router.get("/games/{int:game_id}/result-confirmation", response=ConfirmationOut, auth=API_AUTH)
@decorate_view(db_gate)
def get_confirmation(request, game_id: Id):
    """The players' confirmations of the result (the game's players and the arbiters)."""
    game = selectors.readable_game(game_id, by=request.user)
    return confirmation_selectors.read_confirmation(game, by=request.user)


@router.post("/games/{int:game_id}/result-confirmation", response=ConfirmationOut, auth=API_AUTH)
@decorate_view(db_gate)
def post_confirmation(request, game_id: Id, payload: ConfirmIn):
    """A player confirms the result of their finished game (or, giving another result,
    disagrees: the arbiter sees it). 409 `confirmation.no_result` before the game has a
    result, `confirmation.bye` on a bye, `confirmation.already_approved` for another result
    once the arbiter accepted it. The same confirmation again changes nothing."""
    return confirmation.confirm_result(
        game_id, by=request.user, result=payload.result, side=payload.side
    )


@router.post("/rounds/{int:round_id}/results/accept", response=AcceptedOut, auth=API_AUTH)
@decorate_view(db_gate)
def accept_results(request, round_id: Id):
    """Accept every result of the round both players confirmed (arbiters); the others are
    listed and left. A second call accepts nothing again."""
    return confirmation.accept_confirmed(round_id, by=request.user)
