"""The board's tablet through the API (docs/api.md): binding codes for the arbiters, the
code exchanged for a device token, the tablet's current game, and a press without a move.
Thin: accounts/devices.py and games/services/presses.py hold the logic."""

from __future__ import annotations

from datetime import datetime

from ninja import Field, Router, Schema
from ninja.decorators import decorate_view
from ninja.responses import Status

from arbiter.accounts import devices
from arbiter.accounts.auth import API_AUTH, TokenAuth
from arbiter.errors import Forbidden, NotFound
from arbiter.games import selectors
from arbiter.games.models import Game
from arbiter.games.services import presses
from arbiter.infra.clientaddr import client_address
from arbiter.infra.gate import db_gate
from arbiter.validation import Id, Text

router = Router(tags=["tablet"])


class BindingIn(Schema):
    follow_board: bool = Field(
        False, description="the tablet stays with the board for its next games, round after round"
    )


class BindingOut(Schema):
    game_id: int
    board: int
    follow_board: bool
    short_code: str = Field(..., description="to type at /tablet/ (shown once)")
    link: str = Field(..., description="to open on the tablet (one-time code, shown once)")
    expires_at: datetime


class CodeIn(Schema):
    code: Text(100, min_length=1)


class DeviceOut(Schema):
    token: str = Field(..., description="the device token's secret: shown in this answer only")
    token_id: int
    game_id: int
    event_id: int
    board: int
    follow_board: bool
    expires_at: datetime | None


class PressIn(Schema):
    press: int = Field(..., ge=1, le=20_000, description="the number of this press in the game")
    request_id: Text(100, min_length=1)
    thinking_ms: int | None = Field(None, ge=0, le=presses.MAX_THINKING_MS)


@router.post("/games/{int:game_id}/tablet-codes", auth=API_AUTH, response={201: BindingOut})
@decorate_view(db_gate)
def new_binding(request, game_id: Id, payload: BindingIn):
    """One-time codes that bind a tablet to this game's board (arbiters): a short code to
    type at /tablet/ and a link; they last 10 minutes and are used once."""
    game = Game.objects.select_related("round__event").filter(pk=game_id).first()
    if game is None:
        raise NotFound("game.not_found", game_id=game_id)
    binding = devices.new_binding(game, by=request.user, follow_board=payload.follow_board)
    return Status(
        201,
        {
            "game_id": game.pk,
            "board": game.board,
            "follow_board": payload.follow_board,
            "short_code": binding.short_display,
            "link": request.build_absolute_uri(f"/tablet/?code={binding.link}"),
            "expires_at": binding.code.expires_at,
        },
    )


class _Anyone:
    def __call__(self, request):
        return True


@router.post("/tablet/bind", auth=_Anyone(), response={201: DeviceOut})
@decorate_view(db_gate)
def bind(request, payload: CodeIn):
    """The tablet gives its one-time code (short or from the link) and gets its device token.
    A wrong code counts as a failed login of the address (429 past the limit)."""
    token, secret = devices.redeem(payload.code, address=client_address(request))
    return Status(
        201,
        {
            "token": secret,
            "token_id": token.pk,
            "game_id": token.game_id,
            "event_id": token.game.round.event_id,
            "board": token.game.board,
            "follow_board": token.board is not None,
            "expires_at": token.expires_at,
        },
    )


@router.get("/tablet", auth=[TokenAuth()])
def current(request):
    """The game a tablet shows now: its game, or the board's game of the latest published
    round for a tablet that follows its board."""
    scope = getattr(request, "token_scope", None)
    if scope is None or not scope.device:
        raise Forbidden("tablet.only_device")
    return {"game_id": devices.current_game_id(scope), "board_follows": scope.board is not None}


@router.get("/games/{int:game_id}/pending", auth=API_AUTH)
@decorate_view(db_gate)
def pending(request, game_id: Id):
    """The game's draw offers, claims and irregularities with their status (its players, its
    tablet, the arbiters): what the tablet's buttons act on."""
    return selectors.read_pending(game_id, by=request.user)


@router.post("/games/{int:game_id}/press", auth=API_AUTH)
@decorate_view(db_gate)
def press(request, game_id: Id, payload: PressIn):
    """A press without a move, where the event does not require moves on the tablet: the
    running side's clock stops and the opponent's starts (409 where moves are required)."""
    return presses.submit_press(
        game_id,
        press=payload.press,
        request_id=payload.request_id,
        thinking_ms=payload.thinking_ms,
        by=request.user,
    )
