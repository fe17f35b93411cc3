"""Creating and changing events: system, rounds, scoring, tie-breaks, time control, status."""

from __future__ import annotations

import datetime as dt
import random

from django.db import transaction
from django.utils.text import slugify

from arbiter.errors import Conflict, Invalid
from arbiter.events import permissions, validation
from arbiter.events.models import Entry, Event
from arbiter.events.pairing import berger_rounds
from arbiter.events.services.audit import log
from arbiter.games.models import Game
from arbiter.messages import Problem
from arbiter.validation import check_text

S = Event.System

#: Fields that `create_event` / `update_event` accept besides name, system and rounds.
EDITABLE = {
    "place",
    "federation",
    "start_date",
    "end_date",
    "points_win",
    "points_draw",
    "points_loss",
    "points_bye",
    "points_forfeit_win",
    "tiebreaks",
    "time_control",
    "flag_policy",
    "late_arrival_minutes",
    "tablet_moves_required",
    "lag_quota_ms",
    "downtime_credit",
    "pairing_seed",
    "pairing_system",
    "numbering",
    "status",
    "published",
}
#: Fixed once round 1 is paired: changing them would change the pairings already made.
LOCKED_WHEN_PAIRED = {"system", "numbering", "pairing_seed", "pairing_system"}
#: Fixed once round 1 is published: the players were told these rules before they played
#: (scores, tie-breaks, clocks, late arrival), and games already played were played under them.
LOCKED_WHEN_PUBLISHED = {
    "points_win",
    "points_draw",
    "points_loss",
    "points_bye",
    "points_forfeit_win",
    "tiebreaks",
    "time_control",
    "flag_policy",
    "late_arrival_minutes",
}
WHY_PAIRED = Problem("event.fixed_when_paired")
WHY_PUBLISHED = Problem("event.fixed_when_published")


def locked_settings(event: Event) -> dict[str, Problem]:
    """The settings of `event` that may no longer change, each with the reason (a code;
    str() gives its words)."""
    rounds = list(event.round_set.values_list("status", flat=True))
    locked: dict[str, Problem] = {}
    if any(status != "draft" for status in rounds):
        locked |= dict.fromkeys(LOCKED_WHEN_PUBLISHED, WHY_PUBLISHED)
    if rounds:
        locked |= dict.fromkeys(LOCKED_WHEN_PAIRED, WHY_PAIRED)
    return locked


def check_settings(fields: dict, *, event: Event | None = None) -> dict[str, str]:
    """Every bad value among `fields` at once: {field: the message the API would give}.

    For forms that show all their errors in one pass; create_event and update_event apply
    the same checks (and stop at the first).
    """
    errors: dict[str, str] = {}
    cleaned = {}
    for field, value in fields.items():
        try:
            cleaned[field] = _clean(field, value)
        except Invalid as exc:
            errors[field] = exc.message
    if event is not None:
        for field, why in locked_settings(event).items():
            if field in cleaned and getattr(event, field) != cleaned[field]:
                errors[field] = Conflict("event.setting_fixed", field=field, why=why).message
    probe = Event(**{f: getattr(event, f) for f in _snapshot(event)}) if event else Event()
    for field, value in cleaned.items():
        setattr(probe, field, value)
    try:
        _check_consistency(probe)
    except Invalid as exc:
        errors.setdefault(exc.details.get("field", "__all__"), exc.message)
    return errors


def _jsonable(value):
    return value.isoformat() if isinstance(value, dt.date) else value


def _unique_slug(name: str) -> str:
    base = slugify(name)[:180] or "event"
    slug, n = base, 2
    while Event.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def _clean(field: str, value):  # noqa: C901 - one branch per field of an event
    """The value to store for `field`, or Invalid saying what is wrong with it."""
    if field == "name":
        text = check_text("name", value or "", 200).strip()  # refused when too long, not cut
        if not text:
            raise Invalid("event.name_required", details={"field": "name"})
        return text
    if field == "system":
        return validation.validate_choice("system", value, S.choices)
    if field == "rounds":
        return validation.validate_rounds(value)
    if field == "tiebreaks":
        return validation.validate_tiebreaks(value)
    if field == "time_control":
        return validation.validate_time_control(value)
    if field == "late_arrival_minutes":
        return validation.validate_late_arrival(value)
    if field.startswith("points_"):
        return validation.validate_points(field, value)
    if field == "flag_policy":
        return validation.validate_choice(field, value, Event.FlagPolicy.choices)
    if field == "numbering":
        return validation.validate_choice(field, value, Event.Numbering.choices)
    if field == "pairing_system":
        return validation.validate_choice(field, value, Event.PairingSystem.choices)
    if field == "status":
        return validation.validate_choice(field, value, Event.Status.choices)
    if field == "lag_quota_ms":
        return validation.validate_lag_quota(value)
    if field in {"published", "downtime_credit", "tablet_moves_required"}:
        if not isinstance(value, bool):
            raise Invalid("event.not_boolean", field=field, details={"field": field})
        return value
    if field in {"start_date", "end_date"}:
        if value is None or isinstance(value, dt.date):
            return value
        try:
            return dt.date.fromisoformat(str(value))
        except ValueError:
            raise Invalid(
                "event.bad_date", field=field, value=value, details={"field": field}
            ) from None
    if field == "federation":
        return check_text(field, value or "", 3).strip().upper()
    if field in {"place", "pairing_seed"}:
        return check_text(field, value or "", 200 if field == "place" else 50).strip()
    raise Invalid("event.unknown_setting", field=field, details={"field": field})


def _check_consistency(event: Event) -> None:
    if event.system == S.SWISS and not event.rounds:
        raise Invalid("event.rounds_required", details={"field": "rounds"})
    if event.numbering == Event.Numbering.LOT and not event.pairing_seed:
        raise Invalid(
            "event.seed_required",
            details={"field": "pairing_seed"},
        )
    if event.start_date and event.end_date and event.end_date < event.start_date:
        raise Invalid("event.end_before_start", details={"field": "end_date"})


def create_event(
    *,
    by,
    name: str,
    system: str = S.SWISS,
    rounds: int | None = None,
    time_control: str = "50/7200:25/3600",
    tiebreaks: list[str] | None = None,
    **fields,
) -> Event:
    """A new event owned by `by` (an organizer). Round robins get their rounds at start."""
    permissions.require_can_create_events(by)
    unknown = set(fields) - EDITABLE
    if unknown:
        raise Invalid("event.unknown_settings", unknown=sorted(unknown))
    status = fields.get("status", Event.Status.DRAFT)
    if status not in {Event.Status.DRAFT, Event.Status.REGISTRATION}:
        raise Invalid(
            "event.bad_new_status",
            details={"field": "status"},
        )
    event = Event(
        name=_clean("name", name),
        system=_clean("system", system),
        time_control=_clean("time_control", time_control),
        tiebreaks=_clean("tiebreaks", list(tiebreaks or [])),
        organizer=by,
    )
    if rounds is not None:
        event.rounds = _clean("rounds", rounds)
    elif event.system == S.SWISS:
        raise Invalid("event.rounds_required", details={"field": "rounds"})
    for field, value in fields.items():
        setattr(event, field, _clean(field, value))
    _check_consistency(event)
    event.slug = _unique_slug(event.name)
    with transaction.atomic():
        event.save()
        log(event, by=by, action="event.create", target=event.slug, new=_snapshot(event))
    return event


def _snapshot(event: Event) -> dict:
    keys = {"name", "system", "rounds"} | EDITABLE
    return {k: _jsonable(getattr(event, k)) for k in sorted(keys)}


def update_event(event: Event, *, by, reason: str = "", **fields) -> Event:
    """Change an event's settings (its organizer only). Status 'running' goes via start_event."""
    permissions.require_organizer(by, event)
    allowed = EDITABLE | {"name", "system", "rounds"}
    unknown = set(fields) - allowed
    if unknown:
        raise Invalid("event.unknown_settings", unknown=sorted(unknown))
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        paired = event.round_set.count()
        cleaned = {f: _clean(f, v) for f, v in fields.items()}
        changed = {f: v for f, v in cleaned.items() if getattr(event, f) != v}
        locked = locked_settings(event)
        refused = sorted(set(changed) & set(locked))
        if refused:
            raise Conflict(
                "event.settings_fixed",
                fixed=[Problem("event.setting_fixed", field=f, why=locked[f]) for f in refused],
                details={"fields": refused},
            )
        if "rounds" in changed and changed["rounds"] < paired:
            raise Conflict("event.rounds_already_paired", paired=paired)
        if "status" in changed:
            _check_status_change(event, changed["status"], paired)
        old = {f: _jsonable(getattr(event, f)) for f in changed}
        for f, v in changed.items():
            setattr(event, f, v)
        if not paired:
            sync_round_robin_rounds(event, event.entries.count())
        _check_consistency(event)
        if changed.get("status") == Event.Status.RUNNING and not paired:
            _start(event)  # numbers are given once, before round 1
        event.save()
        if changed:
            log(
                event,
                by=by,
                action="event.update",
                target=event.slug,
                old=old,
                new={f: _jsonable(v) for f, v in changed.items()},
                reason=reason,
            )
    return event


def _check_status_change(event: Event, new: str, paired: int) -> None:
    St = Event.Status
    if new in {St.DRAFT, St.REGISTRATION} and paired:
        raise Conflict("event.status_cannot_go_back", new=new, event=event)
    if new == St.FINISHED:
        unfinished = Game.objects.filter(round__event=event, result="").count()
        if unfinished:
            raise Conflict("event.games_without_result", unfinished=unfinished)


#: set_arbiters without a chief keeps the chief arbiter when they stay an arbiter.
KEEP = object()


def set_arbiters(event: Event, users, *, by, chief=KEEP) -> Event:
    """The event's arbiters are exactly `users` (its organizer only); `chief`, one of them
    (added when missing), is the chief arbiter, the others are deputies. Without `chief`
    the chief stays if among `users`; None names no chief."""
    permissions.require_organizer(by, event)
    users = list(users)
    if chief is KEEP:
        chief = next((u for u in users if u.pk == event.chief_arbiter_id), None)
    if chief is not None and chief not in users:
        users.append(chief)
    old = {
        "arbiters": sorted(u.username for u in event.arbiters.all()),
        "chief": event.chief_arbiter.username if event.chief_arbiter_id else None,
    }
    with transaction.atomic():
        event.arbiters.set(users)
        event.chief_arbiter = chief
        event.save(update_fields=["chief_arbiter"])
        log(
            event,
            by=by,
            action="event.arbiters",
            target=event.slug,
            old=old,
            new={
                "arbiters": sorted(u.username for u in users),
                "chief": chief.username if chief else None,
            },
        )
    return event


def invite_arbiter(
    event: Event, *, by, username: str, password: str, email: str = "", full_name: str = ""
) -> Event:
    """Create a login for a new arbiter and name them a deputy arbiter of `event` (its
    organizer only). The password must pass the site's password rules."""
    from .logins import new_login, username_taken

    permissions.require_organizer(by, event)
    user = new_login(username=username, password=password, email=email, full_name=full_name)
    username = user.username
    if username_taken(username):
        raise Conflict("arbiter.username_taken", username=username, details={"field": "username"})
    with transaction.atomic():
        user.save()
        event.arbiters.add(user)
        log(event, by=by, action="event.arbiter_invited", target=username, new={"user": username})
    return event


def start_event(event: Event, *, by) -> Event:
    """Give the pairing numbers (event.numbering) and mark the event running.

    Called by pair_next_round for round 1; arbiters may call it earlier to publish the
    starting list. Once a round is paired the numbers are fixed.
    """
    permissions.require_arbiter(by, event)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if event.round_set.exists():
            raise Conflict("event.numbers_fixed", event=event)
        _start(event)
        event.save()
        log(
            event,
            by=by,
            action="event.start",
            target=event.slug,
            new={
                "numbering": event.numbering,
                "numbers": {
                    e.pairing_number: e.player_id for e in event.entries.order_by("pairing_number")
                },
            },
        )
    return event


def _start(event: Event) -> None:
    """Renumber the entries as the event says and set status running (inside a transaction)."""
    entries = numbering_order(event, list(event.entries.select_related("player")))
    renumber(entries)
    sync_round_robin_rounds(event, len(entries))
    event.status = Event.Status.RUNNING


def numbering_order(event: Event, entries: list[Entry]) -> list[Entry]:
    """`entries` in the order that gives their pairing numbers when round 1 is paired
    (event.numbering); before that, the numbers shown are provisional."""
    entries = list(entries)
    if event.numbering == Event.Numbering.RATING:
        # Highest rating first, unrated last, then by name.
        entries.sort(
            key=lambda e: (
                -(e.player.rating or 0),
                e.player.rating is None,
                e.player.surname.casefold(),
                e.player.given_name.casefold(),
            )
        )
    elif event.numbering == Event.Numbering.LOT:
        entries.sort(key=lambda e: e.pairing_number)
        random.Random(event.pairing_seed).shuffle(entries)
    else:
        entries.sort(key=lambda e: e.pairing_number)
    return entries


def sync_round_robin_rounds(event: Event, players: int) -> None:
    """A round robin has as many rounds as its Berger table (twice for a double one)."""
    if event.system != S.SWISS and players >= 2:
        cycle = len(berger_rounds(players))
        event.rounds = cycle * (2 if event.system == S.DOUBLE_ROUND_ROBIN else 1)


def renumber(entries: list[Entry]) -> None:
    """Give `entries` the pairing numbers 1..n in list order (unique per event)."""
    if not entries:
        return
    # Two passes so that the unique (event, pairing_number) never sees a duplicate.
    offset = max(e.pairing_number for e in entries) + len(entries) + 1
    for i, e in enumerate(entries):
        e.pairing_number = offset + i
    Entry.objects.bulk_update(entries, ["pairing_number"])
    for i, e in enumerate(entries, start=1):
        e.pairing_number = i
    Entry.objects.bulk_update(entries, ["pairing_number"])
