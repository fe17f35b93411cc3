"""Periodic task: late-arrival forfeits (beat runs it every 10 s; see CELERY_BEAT_SCHEDULE)."""

from celery import shared_task

from . import arrival


@shared_task(ignore_result=True)
def sweep_late_arrivals() -> int:
    """Forfeit the games whose players are later than their event allows; how many."""
    return len(arrival.forfeit_late_arrivals())
