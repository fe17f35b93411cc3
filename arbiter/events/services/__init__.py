"""Writes to the tournament's data. Every function takes `by` (the acting user), checks the
roles (arbiter/events/permissions.py), raises arbiter.errors.* on bad input (changing
nothing) and logs what it changed to AuditEntry."""

from arbiter.events.services.entries import (
    add_entry,
    correct_player,
    enter_player,
    request_bye,
    set_absent,
    withdraw_entry,
)
from arbiter.events.services.events import (
    check_settings,
    create_event,
    invite_arbiter,
    locked_settings,
    numbering_order,
    set_arbiters,
    start_event,
    update_event,
)
from arbiter.events.services.imports import import_players_csv
from arbiter.events.services.players import (
    create_player,
    create_player_login,
    link_user,
    update_player,
)
from arbiter.events.services.rounds import (
    pair_next_round,
    publish_round,
    schedule_round,
    set_pairing,
    unpair_round,
)

__all__ = [
    "add_entry",
    "check_settings",
    "correct_player",
    "create_event",
    "enter_player",
    "invite_arbiter",
    "locked_settings",
    "numbering_order",
    "create_player",
    "import_players_csv",
    "link_user",
    "create_player_login",
    "pair_next_round",
    "publish_round",
    "request_bye",
    "schedule_round",
    "set_absent",
    "set_arbiters",
    "set_pairing",
    "start_event",
    "unpair_round",
    "update_event",
    "update_player",
    "withdraw_entry",
]
