"""Which events and rounds a user may see."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from arbiter.errors import NotFound
from arbiter.events import permissions
from arbiter.events.models import AuditEntry, Event, Round


def visible_events(user) -> QuerySet[Event]:
    """Published events, plus those `user` organizes or arbitrates (all for superusers)."""
    qs = Event.objects.all()
    if getattr(user, "is_authenticated", False):
        if user.is_superuser:
            return qs
        return qs.filter(Q(published=True) | Q(organizer=user) | Q(arbiters=user)).distinct()
    return qs.filter(published=True)


def get_event(event_id, user) -> Event:
    """The event when `user` may see it; NotFound otherwise (drafts do not leak)."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None or not permissions.can_view(user, event):
        raise NotFound("event.not_found", event_id=event_id)
    return event


def visible_rounds(event: Event, user) -> QuerySet[Round]:
    """The event's rounds that `user` may read (permissions.can_view_round, as a query)."""
    qs = event.round_set.order_by("number")
    if permissions.sees_drafts(user, event):
        return qs
    return qs.exclude(status=Round.Status.DRAFT)


def get_round(round_id, user) -> Round:
    """The round when `user` may read it (permissions.can_view_round); NotFound otherwise."""
    round_ = Round.objects.select_related("event").filter(pk=round_id).first()
    if round_ is None:
        raise NotFound("round.not_found", round_id=round_id)
    # A draft round, or a round of a draft event, does not exist for the public (404).
    permissions.require_view_round(user, round_, NotFound("round.not_found", round_id=round_id))
    return round_


def audit_log(event: Event, user) -> QuerySet[AuditEntry]:
    """The event's audit trail, newest first (its arbiters and organizer only)."""
    permissions.require_arbiter(user, event)
    return event.audit_entries.select_related("user").order_by("-at", "-pk")
