"""Celery tasks for games: thin, they take ids and call the services (flags, claims)."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from arbiter.games import services
from arbiter.games.services import arrival, claims


@shared_task(name="arbiter.games.tasks.check_flag", ignore_result=True)
def check_flag(game_id: int, ply: int) -> bool:
    """At the deadline of `ply` (queue "clock"): record the flag if the time ran out.

    The ETA is capped (services.flags.MAX_ETA), so a task may wake before the deadline: it
    then arms the next one for the same ply. A stale task (a newer ply, a finished game)
    does nothing.
    """
    if services.check_flag(game_id, ply=ply):
        # Flags due at the same instant (a round started at once): the others in one go.
        if services.any_flag_due():
            services.check_flags_due()
        return True
    due = services.flag_deadline(game_id, ply)
    if due is not None and due > timezone.now():
        services.arm_flag_check(game_id, ply, due)
    return False


@shared_task(name="arbiter.games.tasks.sweep_flags", ignore_result=True)
def sweep_flags() -> int:
    """Every second (beat): every running clock past its deadline, whatever became of its task."""
    return services.check_flags_due()


@shared_task(name="arbiter.games.tasks.arm_flags", ignore_result=True)
def arm_flags() -> int:
    """Every 30 s (beat): the flag tasks of deadlines now within services.flags.ARM_HORIZON
    (moves arm only deadlines that close themselves)."""
    return services.arm_upcoming()


@shared_task(name="arbiter.games.tasks.sweep_late_arrivals", ignore_result=True)
def sweep_late_arrivals() -> int:
    """Every 10 s (beat): forfeit the games whose players are later than their event allows
    (FMJD 10.5, competition rules); how many."""
    return len(arrival.forfeit_late_arrivals())


@shared_task(name="arbiter.games.tasks.decide_claim", ignore_result=True)
def decide_claim(claim_id: int) -> bool:
    """Queued after the claim's transaction commits (queue "clock"): decide it under the
    game's lock; a claim decided already (by a move, the sweep, a retry) is left alone."""
    return claims.decide_claim(claim_id)


@shared_task(name="arbiter.games.tasks.sweep_claims", ignore_result=True)
def sweep_claims() -> int:
    """Every second (beat): claims still pending after claims.SWEEP_AFTER (a lost task)."""
    return claims.sweep_claims()


@shared_task(name="arbiter.games.tasks.check_notation_sheet", ignore_result=True)
def check_notation_sheet(sheet_id: int) -> str:
    """Check a submitted notation sheet with the rules engine and compare it with the entered
    record and the other sheets (services.sheets.check_sheet); its status after."""
    from arbiter.games.services import sheets

    return sheets.check_sheet(sheet_id).status


@shared_task(name="arbiter.games.tasks.read_pdn_import", ignore_result=True)
def read_pdn_import(import_id: int) -> str:
    """Read and match the games of an uploaded PDN file (services.pdn_import.read_import),
    saving its progress as it goes; its status after."""
    from arbiter.games.services import pdn_import

    return pdn_import.read_import(import_id).status
