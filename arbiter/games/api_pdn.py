"""The official records as PDN 3.0 through the API (arbiter/games/pdn_export.py)."""

from __future__ import annotations

from ninja import Router

from arbiter.accounts.auth import READ_AUTH
from arbiter.games import pdn_export
from arbiter.games.pdn_views import pdn_response

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
