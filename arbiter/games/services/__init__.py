"""Writes on games: move entry, the one flag-fall service, the one ending service, results,
clock actions (HackSoft services).

Every write locks the game row first (PostgreSQL: SELECT ... FOR UPDATE; SQLite: an IMMEDIATE
transaction), re-reads it, and checks the clock lazily, so that a flag is never missed by a
read or a write that comes after the deadline.
"""

from .clock_actions import (
    adjust_clock,
    game_clock_action,
    pause_clocks,
    resume_clocks,
    round_clock_action,
    set_clock_times,
    start_clocks,
)
from .ending import refresh_round_status
from .flags import (
    any_flag_due,
    arm_flag_check,
    arm_upcoming,
    check_flag,
    check_flags_due,
    flag_deadline,
    flag_if_overdue,
)
from .moves import submit_move
from .results import forfeit, set_result

__all__ = [
    "any_flag_due",
    "adjust_clock",
    "arm_flag_check",
    "arm_upcoming",
    "check_flag",
    "check_flags_due",
    "flag_deadline",
    "flag_if_overdue",
    "forfeit",
    "game_clock_action",
    "pause_clocks",
    "refresh_round_status",
    "resume_clocks",
    "round_clock_action",
    "set_clock_times",
    "set_result",
    "start_clocks",
    "submit_move",
]
