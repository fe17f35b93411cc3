"""API endpoints for games: moves, clocks, claims."""

from ninja import Router

router = Router(tags=["games"])
