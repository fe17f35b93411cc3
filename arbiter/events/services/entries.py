"""Entries: players in an event, late entries, withdrawals, absences and requested byes."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max

from arbiter.errors import Conflict, Invalid
from arbiter.events import permissions
from arbiter.events.models import AuditEntry, Entry, Event, Player, Round
from arbiter.events.services.audit import log
from arbiter.events.services.events import sync_round_robin_rounds
from arbiter.events.services.players import create_player, update_player
from arbiter.infra import sqlrows
from arbiter.messages import Problem

S = Event.System


def _last_paired(event: Event) -> int:
    return event.round_set.aggregate(n=Max("number"))["n"] or 0


def _sync_rounds(event: Event) -> None:
    """Keep a round robin's number of rounds in step with its entries (before round 1)."""
    before = event.rounds
    sync_round_robin_rounds(event, event.entries.count())
    if event.rounds != before:
        event.save(update_fields=["rounds"])


def _lock_event(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


def add_entry(event: Event, player: Player, *, by) -> Entry:
    """Enter `player` in `event` with the next pairing number.

    Late entries join a running Swiss from the next unpaired round (they score nothing for
    the rounds before). A round robin's table is fixed once round 1 is paired.
    """
    return add_entries(event, [player], by=by)[0]


def add_entries(event: Event, players: list[Player], *, by) -> list[Entry]:
    """Enter `players` in `event`, in this order, with the next pairing numbers (add_entry's
    rules). The checks run once and the entries and their audit lines are written in two
    statements (sqlrows.bulk_insert): an import of 500 players took ten queries each (15 s),
    and 5000 through bulk_create() still took a second."""
    permissions.require_arbiter(by, event)
    players = list(players)
    with transaction.atomic():
        event = _lock_event(event)
        if event.status == Event.Status.FINISHED:
            raise Conflict("entry.event_finished", event=event)
        paired = _last_paired(event)
        if paired and event.system != S.SWISS:
            raise Conflict("entry.round_robin_fixed", event=event)
        entered = set(event.entries.values_list("player_id", flat=True))
        seen: set[int] = set()
        for player in players:
            if player.pk in entered or player.pk in seen:
                raise Conflict("entry.already_entered", player=player, event=event)
            seen.add(player.pk)
        first = (event.entries.aggregate(n=Max("pairing_number"))["n"] or 0) + 1
        entries = sqlrows.bulk_insert(
            Entry,
            [
                {"event": event, "player": player, "pairing_number": first + i}
                for i, player in enumerate(players)
            ],
            returning=True,
        )
        _sync_rounds(event)
        user_id = by.pk if getattr(by, "is_authenticated", False) else None
        sqlrows.bulk_insert(
            AuditEntry,
            [
                {
                    "event_id": event.pk,
                    "user_id": user_id,
                    "action": "entry.add",
                    "target": str(entry.player)[:200],
                    "new": {
                        "player_id": entry.player_id,
                        "pairing_number": entry.pairing_number,
                        "late": bool(paired),
                        "first_round": paired + 1,
                    },
                }
                for entry in entries
            ],
        )
    return entries


def withdraw_entry(entry: Entry, *, by, reason: str = "") -> Entry | None:
    """Withdraw a player (arbiters). Not paired in any later round.

    Before round 1 is paired the entry is simply removed (returns None). Games already
    paired stay: the arbiter enters their result or forfeit.
    """
    event = entry.event
    permissions.require_arbiter(by, event)
    with transaction.atomic():
        event = _lock_event(event)
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        if entry.status == Entry.Status.WITHDRAWN:
            raise Conflict("entry.already_withdrawn", player=entry.player, event=event)
        paired = _last_paired(event)
        if not paired:
            log(
                event,
                by=by,
                action="entry.remove",
                target=str(entry.player),
                old={"player_id": entry.player_id, "pairing_number": entry.pairing_number},
                reason=reason,
            )
            entry.delete()
            _sync_rounds(event)
            return None
        entry.status = Entry.Status.WITHDRAWN
        entry.withdrawn_after_round = paired
        entry.save(update_fields=["status", "withdrawn_after_round"])
        log(
            event,
            by=by,
            action="entry.withdraw",
            target=str(entry.player),
            old={"status": Entry.Status.ACTIVE},
            new={"status": Entry.Status.WITHDRAWN, "after_round": paired},
            reason=reason,
        )
    return entry


def _future_rounds(event: Event, rounds, *, what: str) -> list[int]:
    """Round numbers that are not paired yet and exist in the event, else Invalid/Conflict."""
    try:
        numbers = sorted({int(r) for r in rounds})
    except (TypeError, ValueError):
        raise Invalid("entry.rounds_missing", what=what, details={"field": "rounds"}) from None
    bad = [r for r in numbers if not 1 <= r <= event.rounds]
    if bad:
        raise Invalid(
            "entry.rounds_do_not_exist",
            what=what,
            rounds=list(bad),
            last=event.rounds,
            details={"field": "rounds"},
        )
    paired = set(
        Round.objects.filter(event=event, number__in=numbers).values_list("number", flat=True)
    )
    if paired:
        raise Conflict(
            "entry.rounds_already_paired",
            what=what,
            paired=sorted(paired),
            details={"rounds": sorted(paired)},
        )
    return numbers


def set_absent(entry: Entry, rounds, *, by, reason: str = "") -> Entry:
    """Announce the rounds (not paired yet) in which the player will not play.

    The player's own login or an arbiter. Replaces the announced future absences. In a
    Swiss the player is not paired in those rounds; in a round robin the game is paired and
    recorded as a forfeit.
    """

    def change(event: Event, old: list[int]) -> list[int]:
        numbers = _future_rounds(event, rounds, what=Problem("field.absent_rounds"))
        paired = _last_paired(event)
        return sorted({r for r in old if r <= paired} | set(numbers))

    return _change_rounds(
        entry, "absent_rounds", change, by=by, action="entry.absent", reason=reason
    )


def request_bye(
    entry: Entry, round_number: int, *, by, cancel: bool = False, reason: str = ""
) -> Entry:
    """Ask not to be paired in a Swiss round (scores no points: not a pairing-allocated bye).

    The player's own login or an arbiter; only for rounds not paired yet. `cancel=True`
    takes the request back.
    """

    def change(event: Event, old: list[int]) -> list[int]:
        if event.system != S.SWISS:
            raise Conflict("entry.round_robin_no_bye", event=event)
        (number,) = _future_rounds(event, [round_number], what=Problem("field.requested_bye"))
        return sorted(set(old) - {number} if cancel else set(old) | {number})

    return _change_rounds(
        entry, "requested_byes", change, by=by, action="entry.bye_request", reason=reason
    )


def _change_rounds(entry: Entry, field: str, change, *, by, action: str, reason: str) -> Entry:
    """Replace an entry's list of rounds (`field`) by `change(event, old)`, under locks of
    the event and the entry, and log old and new (the entry's player or an arbiter)."""
    permissions.require_arbiter_or_entry_player(by, entry)
    with transaction.atomic():
        event = _lock_event(entry.event)
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        old = list(getattr(entry, field) or [])
        setattr(entry, field, change(event, old))
        entry.save(update_fields=[field])
        log(
            event,
            by=by,
            action=action,
            target=str(entry.player),
            old=old,
            new=getattr(entry, field),
            reason=reason,
        )
    return entry


def enter_player(event: Event, *, by, **fields) -> Entry:
    """A new player (a late entry, or one typed in instead of imported), entered in `event`:
    the player and the entry are made together or not at all (the event's arbiters)."""
    permissions.require_arbiter(by, event)
    with transaction.atomic():
        player = create_player(by=by, **fields)
        return add_entry(event, player, by=by)


def correct_player(entry: Entry, *, by, **fields) -> Entry:
    """Correct the details of an entered player (a rating typo): the event's arbiters.

    The player is shared by every event they are in; the change is logged in each.
    """
    permissions.require_arbiter(by, entry.event)
    update_player(entry.player, by=by, **fields)
    return entry
