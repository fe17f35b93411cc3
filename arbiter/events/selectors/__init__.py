"""Reads of the tournament's data (pages, API and exports call these, never the ORM)."""

from arbiter.events.selectors.crosstable import crosstable
from arbiter.events.selectors.events import (
    audit_log,
    get_event,
    get_round,
    visible_events,
    visible_rounds,
)
from arbiter.events.selectors.pairings import BoardLine, PlayerLine, points_before, round_pairings
from arbiter.events.selectors.player_card import player_card
from arbiter.events.selectors.standings import StandingLine, standings, tiebreak_columns

__all__ = [
    "BoardLine",
    "PlayerLine",
    "StandingLine",
    "audit_log",
    "crosstable",
    "get_event",
    "get_round",
    "player_card",
    "points_before",
    "round_pairings",
    "standings",
    "tiebreak_columns",
    "visible_events",
    "visible_rounds",
]
