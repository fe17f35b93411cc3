"""API endpoints of notation sheets (thin: services.sheets and sheet_selectors hold the logic)."""

from __future__ import annotations

from typing import Literal

from ninja import Router, Schema
from ninja.decorators import decorate_view

from arbiter.accounts.auth import API_AUTH, READ_AUTH
from arbiter.games import sheet_selectors
from arbiter.games.services import sheets
from arbiter.infra.gate import db_gate

router = Router(tags=["notation sheets"])


class SheetIn(Schema):
    text: str


class EditIn(Schema):
    text: str
    reason: str


class ApproveIn(Schema):
    reason: str = ""
    result_stands: Literal["sheet", "entered"] | None = None


def _created(request, sheet):
    from arbiter.api import api

    sheet.refresh_from_db()
    return api.create_response(request, sheet_selectors.sheet_dict(sheet), status=201)


@router.post("/games/{int:game_id}/sheets", auth=API_AUTH, response={201: dict})
@decorate_view(db_gate)
def submit(request, game_id: int, payload: SheetIn):
    """A player submits the notation sheet of their own game (PDN movetext or a plain list
    such as `1. 32-28 19-23 2. 28x19 14x23`); a task checks it. 201: the sheet, pending.
    403: not this game's player. 409: the record is approved already (or the round is not
    published)."""
    return _created(request, sheets.submit_sheet(game_id, payload.text, by=request.user))


@router.get("/games/{int:game_id}/sheets", auth=READ_AUTH)
def list_sheets(request, game_id: int):
    """A player's own sheets with their checks; an arbiter sees every version."""
    return sheet_selectors.player_sheets(game_id, by=request.user)


@router.get("/games/{int:game_id}/sheets/compare", auth=READ_AUTH)
def compare(request, game_id: int):
    """Arbiters: the entered record and the latest sheet of each side side by side, the first
    ply where they differ and the position before it."""
    return sheet_selectors.comparison(game_id, by=request.user)


@router.post("/games/{int:game_id}/sheets/edit", auth=API_AUTH, response={201: dict})
@decorate_view(db_gate)
def edit(request, game_id: int, payload: EditIn):
    """Arbiters: their own version of the record, with the reason (logged)."""
    return _created(
        request, sheets.edit_sheet(game_id, payload.text, by=request.user, reason=payload.reason)
    )


@router.post("/sheets/{int:sheet_id}/approve", auth=API_AUTH)
@decorate_view(db_gate)
def approve(request, sheet_id: int, payload: ApproveIn):
    """Arbiters: this version becomes the official record. 409 with `choice: result_stands`
    when its result differs from the entered one: send `result_stands` (sheet or entered)."""
    sheet = sheets.approve_sheet(
        sheet_id, by=request.user, reason=payload.reason, result_stands=payload.result_stands
    )
    sheet.refresh_from_db()
    return sheet_selectors.sheet_dict(sheet)
