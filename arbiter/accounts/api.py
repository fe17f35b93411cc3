"""API tokens through the API: issue (the secret is in this answer only), list, revoke.

A token is issued to a logged-in user (session or an unscoped token) or for a username and
password, which count against the login limits (throttle.py) like the login page.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from django.contrib.auth import authenticate
from ninja import Router, Schema
from ninja.decorators import decorate_view
from ninja.responses import Status
from pydantic import Field

from arbiter.errors import Forbidden, NotFound, TooManyAttempts, Unauthorized
from arbiter.infra.clientaddr import client_address
from arbiter.infra.gate import db_gate
from arbiter.validation import Id, Text

from . import throttle, tokens
from .auth import API_AUTH, SessionLogin, TokenAuth
from .models import ApiToken

router = Router(tags=["tokens"])


class TokenIn(Schema):
    name: Text(100) = ""
    event_id: Id | None = Field(None, description="scope: this event only")
    game_id: Id | None = Field(None, description="scope: this game only (a board's device)")
    access: Literal["read", "write"] = "write"
    expires_in_days: int | None = Field(
        tokens.DEFAULT_DAYS, ge=1, le=tokens.MAX_DAYS, description="null: never expires"
    )
    username: Text(150) | None = Field(None, description="with password, instead of a login")
    password: Text(4096) | None = None


class TokenOut(Schema):
    id: int
    name: str
    prefix: str
    user: str
    event_id: int | None
    game_id: int | None
    access: str
    device: bool = Field(False, description="a board's tablet (POST /api/tablet/bind)")
    board: int | None = Field(None, description="a tablet that follows this board of event_id")
    created_at: dt.datetime
    expires_at: dt.datetime | None
    last_used_at: dt.datetime | None
    revoked_at: dt.datetime | None


class IssuedOut(TokenOut):
    token: str = Field(..., description="the secret: shown in this answer only")


def token_dict(token: ApiToken) -> dict:
    return {
        "id": token.pk,
        "name": token.name,
        "prefix": token.prefix,
        "user": token.user.username,
        "event_id": token.event_id,
        "game_id": token.game_id,
        "access": token.access,
        "device": token.device,
        "board": token.board,
        "created_at": token.created_at,
        "expires_at": token.expires_at,
        "last_used_at": token.last_used_at,
        "revoked_at": token.revoked_at,
    }


def _password_user(request, username: str, password: str):
    address = client_address(request)
    refused = throttle.refusal(username, address)
    if refused is not None:
        problem = refused.problem
        raise TooManyAttempts(
            problem.code, **problem.params, details={"retry_after": refused.seconds}
        )
    user = authenticate(request, username=username, password=password)
    if user is None:
        throttle.record_failure(username, address)
        raise Unauthorized("login.wrong_credentials")
    throttle.record_success(username)
    return user


class _Anyone:
    def __call__(self, request):
        return True


@router.post(
    "/tokens",
    response={201: IssuedOut},
    auth=[TokenAuth(), SessionLogin(), _Anyone()],
)
@decorate_view(db_gate)
def issue_token(request, payload: TokenIn):
    """Issue a token (its secret is in this answer only), for the logged-in user or for
    `username` and `password` (limited: 5 failures per 15 min per account, 20 per address)."""
    if payload.username is not None:
        user = _password_user(request, payload.username, payload.password or "")
    elif request.user.is_authenticated:
        user = request.user
        scope = getattr(request, "token_scope", None)
        if scope is not None and not scope.unscoped:
            raise Forbidden("token.scoped_cannot_issue")
    else:
        raise Unauthorized("login.needed")
    event = game = None
    if payload.game_id is not None:
        from arbiter.games.models import Game

        game = Game.objects.select_related("round__event").filter(pk=payload.game_id).first()
        if game is None:
            raise NotFound("game.not_found", game_id=payload.game_id)
    elif payload.event_id is not None:
        from arbiter.events.models import Event

        event = Event.objects.filter(pk=payload.event_id).first()
        if event is None:
            raise NotFound("event.not_found", event_id=payload.event_id)
    token, secret = tokens.issue(
        user,
        name=payload.name,
        event=event,
        game=game,
        access=payload.access,
        expires_in_days=payload.expires_in_days,
    )
    return Status(201, {**token_dict(token), "token": secret})


@router.get("/tokens", response=list[TokenOut], auth=API_AUTH)
def list_tokens(request):
    """Your tokens, and those for events you organize (never their secrets)."""
    _unscoped(request)
    return [token_dict(t) for t in tokens.manageable_by(request.user)[:500]]


@router.delete("/tokens/{token_id}", response={204: None}, auth=API_AUTH)
@decorate_view(db_gate)
def revoke_token(request, token_id: Id):
    """Revoke a token (its owner, or the organizer of the event it is for)."""
    _unscoped(request)
    tokens.revoke(token_id, by=request.user)
    return Status(204, None)


def _unscoped(request) -> None:
    scope = getattr(request, "token_scope", None)
    if scope is not None and not scope.unscoped:
        raise Forbidden("token.scoped_cannot_manage")
