"""The audit trail: who changed what, when, from what to what, and why."""

from __future__ import annotations

from typing import Any

from arbiter.events.models import AuditEntry, Event


def _user_or_none(user):
    return user if getattr(user, "is_authenticated", False) else None


def log(
    event: Event,
    *,
    by,
    action: str,
    target: str = "",
    old: Any = None,
    new: Any = None,
    reason: str = "",
) -> AuditEntry:
    return AuditEntry.objects.create(
        event=event,
        user=_user_or_none(by),
        action=action,
        target=target[:200],
        old=old,
        new=new,
        reason=reason,
    )
