"""The system's own events, as the arbiters see them: a process the supervisor restarted, the
time the system was down and credited to the clocks (arbiter.runtime.downtime).

`record` is the one way to write one; `recent` reads them for the arbiter's pages.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from arbiter.runtime.models import SystemEvent

#: The arbiter's pages show what happened within this time.
SHOWN_FOR = timedelta(hours=12)


def record(
    kind: str, message: str, *, process: str = "", at: datetime | None = None
) -> SystemEvent:
    return SystemEvent.objects.create(
        at=at or timezone.now(), kind=SystemEvent.Kind(kind), process=process, message=message
    )


def recent(*, now: datetime | None = None, limit: int = 10) -> list[SystemEvent]:
    """The latest events, newest first, of the last SHOWN_FOR."""
    since = (now or timezone.now()) - SHOWN_FOR
    return list(SystemEvent.objects.filter(at__gte=since)[:limit])
