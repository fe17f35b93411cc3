"""API endpoints for events, players, rounds, pairings, results and standings."""

from ninja import Router

router = Router(tags=["events"])
