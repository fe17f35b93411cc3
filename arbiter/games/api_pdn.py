"""PDN through the API: the official records out (pdn_export.py), files of games in
(services/pdn_import.py)."""

from __future__ import annotations

from ninja import Router, Schema
from ninja.decorators import decorate_view

from arbiter.accounts.auth import API_AUTH, READ_AUTH
from arbiter.games import pdn_export
from arbiter.games.pdn_views import pdn_response
from arbiter.games.services import pdn_import
from arbiter.infra.gate import db_gate

router = Router(tags=["PDN"])


@router.get("/games/{int:game_id}/pdn", auth=READ_AUTH)
def game_pdn(request, game_id: int):
    """The game's official record in PDN 3.0 (published rounds; arbiters: every round)."""
    return pdn_response(*pdn_export.game_pdn(game_id, by=request.user))


@router.get("/rounds/{int:round_id}/pdn", auth=READ_AUTH)
def round_pdn(request, round_id: int):
    """Every game of the round in PDN 3.0, board by board."""
    return pdn_response(*pdn_export.round_pdn(round_id, by=request.user))


@router.get("/events/{int:event_id}/pdn", auth=READ_AUTH)
def event_pdn(request, event_id: int):
    """Every game of the event's published rounds in PDN 3.0, round by round."""
    return pdn_response(*pdn_export.event_pdn(event_id, by=request.user))


# -- import ----------------------------------------------------------------------------


class ImportIn(Schema):
    pdn: str
    file_name: str = ""


class ApplyIn(Schema):
    confirm: list[int] = []


@router.post("/events/{int:event_id}/pdn-imports", auth=API_AUTH, response={201: dict})
@decorate_view(db_gate)
def upload_pdn(request, event_id: int, payload: ImportIn):
    """Arbiters: a PDN file of many games for the event; a task reads and matches it (poll
    GET /pdn-imports/{id} for `done` of `total`)."""
    from arbiter.api import api

    job = pdn_import.upload(event_id, payload.pdn, file_name=payload.file_name, by=request.user)
    return api.create_response(request, pdn_import.import_state(job), status=201)


@router.get("/pdn-imports/{int:import_id}", auth=READ_AUTH)
def import_state(request, import_id: int):
    """Arbiters: the import's progress, then its report (matched, unmatched, conflicts,
    errors naming game, line and move)."""
    return pdn_import.import_state(pdn_import.readable_import(import_id, by=request.user))


@router.post("/pdn-imports/{int:import_id}/apply", auth=API_AUTH)
@decorate_view(db_gate)
def apply_pdn(request, import_id: int, payload: ApplyIn):
    """Arbiters: write the matched games; those that would overwrite what is entered only
    when their game numbers (in the file) are in `confirm`."""
    return pdn_import.apply_import(import_id, by=request.user, confirm=payload.confirm)
