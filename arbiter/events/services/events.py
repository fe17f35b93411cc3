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
    "pairing_seed",
    "numbering",
    "status",
    "published",
}
#: Fixed once round 1 is paired: changing them would change the pairings already made.
LOCKED_WHEN_PAIRED = {"system", "numbering", "pairing_seed"}


def _jsonable(value):
    return value.isoformat() if isinstance(value, dt.date) else value


def _unique_slug(name: str) -> str:
    base = slugify(name)[:180] or "event"
    slug, n = base, 2
    while Event.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def _clean(field: str, value):
    """The value to store for `field`, or Invalid saying what is wrong with it."""
    if field == "name":
        text = check_text("name", value or "", 200).strip()  # refused when too long, not cut
        if not text:
            raise Invalid("name: an event needs a name", details={"field": "name"})
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
    if field == "status":
        return validation.validate_choice(field, value, Event.Status.choices)
    if field == "published":
        if not isinstance(value, bool):
            raise Invalid("published: give true or false", details={"field": field})
        return value
    if field in {"start_date", "end_date"}:
        if value is None or isinstance(value, dt.date):
            return value
        try:
            return dt.date.fromisoformat(str(value))
        except ValueError:
            raise Invalid(
                f"{field}: '{value}' is not a date (YYYY-MM-DD)", details={"field": field}
            ) from None
    if field == "federation":
        return check_text(field, value or "", 3).strip().upper()
    if field in {"place", "pairing_seed"}:
        return check_text(field, value or "", 200 if field == "place" else 50).strip()
    raise Invalid(f"{field}: not a setting of an event", details={"field": field})


def _check_consistency(event: Event) -> None:
    if event.system == S.SWISS and not event.rounds:
        raise Invalid(
            "rounds: a Swiss event needs its number of rounds", details={"field": "rounds"}
        )
    if event.numbering == Event.Numbering.LOT and not event.pairing_seed:
        raise Invalid(
            "pairing_seed: numbering by lot needs the drawn lot (a seed)",
            details={"field": "pairing_seed"},
        )
    if event.start_date and event.end_date and event.end_date < event.start_date:
        raise Invalid("end_date: before start_date", details={"field": "end_date"})


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
        raise Invalid(f"{', '.join(sorted(unknown))}: not a setting of an event")
    status = fields.get("status", Event.Status.DRAFT)
    if status not in {Event.Status.DRAFT, Event.Status.REGISTRATION}:
        raise Invalid(
            "status: a new event is a draft or open for registration; it runs when round 1 is paired",
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
        raise Invalid(
            "rounds: a Swiss event needs its number of rounds", details={"field": "rounds"}
        )
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
        raise Invalid(f"{', '.join(sorted(unknown))}: not a setting of an event")
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        paired = event.round_set.count()
        cleaned = {f: _clean(f, v) for f, v in fields.items()}
        changed = {f: v for f, v in cleaned.items() if getattr(event, f) != v}
        locked = sorted(set(changed) & LOCKED_WHEN_PAIRED)
        if locked and paired:
            raise Conflict(f"{', '.join(locked)}: fixed once round 1 is paired")
        if "rounds" in changed and changed["rounds"] < paired:
            raise Conflict(f"rounds: {paired} rounds are already paired")
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
        raise Conflict(f"status: '{event}' has paired rounds; it cannot go back to {new}")
    if new == St.FINISHED:
        unfinished = Game.objects.filter(round__event=event, result="").count()
        if unfinished:
            raise Conflict(f"status: {unfinished} game(s) have no result yet")


def set_arbiters(event: Event, users, *, by) -> Event:
    """The event's arbiters are exactly `users` (its organizer only)."""
    permissions.require_organizer(by, event)
    users = list(users)
    old = sorted(u.username for u in event.arbiters.all())
    with transaction.atomic():
        event.arbiters.set(users)
        log(
            event,
            by=by,
            action="event.arbiters",
            target=event.slug,
            old=old,
            new=sorted(u.username for u in users),
        )
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
            raise Conflict(f"'{event}' has started: its pairing numbers are fixed")
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
    entries = list(event.entries.select_related("player"))
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
    renumber(entries)
    sync_round_robin_rounds(event, len(entries))
    event.status = Event.Status.RUNNING


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
