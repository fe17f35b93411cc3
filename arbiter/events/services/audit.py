"""The audit trail: who changed what, when, from what to what, and why."""

from __future__ import annotations

from typing import Any

from arbiter.events.models import AuditEntry, Event, Player


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


def events_of(obj) -> list[Event]:
    """The events a change to `obj` belongs to (a player: every event they are entered in)."""
    if isinstance(obj, Event):
        return [obj]
    if isinstance(obj, Player):
        return list(Event.objects.filter(entries__player=obj).distinct())
    event = getattr(obj, "event", None)
    return [event] if isinstance(event, Event) else []


def log_record_change(obj, *, by, verb: str, old: Any = None, new: Any = None, reason: str = ""):
    """Log a change made outside the services (the admin): `verb` is add, change or delete.

    A player's change is logged in every event they are entered in (a player in no event
    has no event to log it in). Returns the entries written.
    """
    action = f"admin.{obj._meta.model_name}.{verb}"
    return [
        log(event, by=by, action=action, target=str(obj), old=old, new=new, reason=reason)
        for event in events_of(obj)
    ]
