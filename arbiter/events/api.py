"""API endpoints for events, players, rounds, pairings and standings (results: games/api.py).

Thin: each endpoint reads its input, calls one service or selector, and shapes the answer.
Reads of published events are public; writes take a Bearer token or a session (API_AUTH),
pass the request gate (arbiter/infra/gate.py) and the services check the roles.
"""

from __future__ import annotations

from typing import Literal

from django.contrib.auth import get_user_model
from django.db import transaction
from django.http import HttpResponse
from ninja import Query, Router
from ninja.decorators import decorate_view
from ninja.responses import Status

from arbiter.accounts.auth import API_AUTH, READ_AUTH
from arbiter.errors import NotFound
from arbiter.events import exports, permissions, selectors, services, validation
from arbiter.events.models import Entry, Event, Player
from arbiter.events.schemas import (
    AbsenceIn,
    ArbitersIn,
    AuditOut,
    ByeIn,
    EntryIn,
    EntryOut,
    EventIn,
    EventOut,
    EventPatch,
    ImportIn,
    PairingIn,
    PlayerIn,
    ReasonIn,
    RoundOut,
    ScheduleIn,
    StandingsOut,
    WarningsOut,
)
from arbiter.events.tiebreaks import TIEBREAKS
from arbiter.infra.gate import db_gate
from arbiter.validation import Id, Reason

router = Router(tags=["events"])


def _user(request):
    return getattr(request, "user", None)


def _event_for_write(event_id: int, request) -> Event:
    return selectors.get_event(event_id, _user(request))


def _entry(entry_id: int, request) -> Entry:
    entry = Entry.objects.select_related("event", "player").filter(pk=entry_id).first()
    if entry is None:
        raise NotFound("entry.not_found", entry_id=entry_id)
    selectors.get_event(entry.event_id, _user(request))
    return entry


def event_dict(event: Event, user=None) -> dict:
    data = {
        f: getattr(event, f)
        for f in EventOut.model_fields
        if f not in {"organizer", "rounds_paired"}
    }
    data["organizer"] = event.organizer.username if event.organizer_id else None
    data["rounds_paired"] = [
        {
            "id": r.id,
            "number": r.number,
            "status": r.status,
            "scheduled_start": r.scheduled_start,
            "paired_at": r.paired_at,
            "published_at": r.published_at,
        }
        for r in selectors.visible_rounds(event, user)
    ]
    return data


def entry_dict(entry: Entry) -> dict:
    return {
        "id": entry.pk,
        "event_id": entry.event_id,
        "player": exports.player_dict(entry.player),
        "pairing_number": entry.pairing_number,
        "status": entry.status,
        "withdrawn_after_round": entry.withdrawn_after_round,
        "absent_rounds": list(entry.absent_rounds or []),
        "requested_byes": list(entry.requested_byes or []),
    }


def round_dict(round_, *, alphabetical: bool = False) -> dict:
    data = exports.pairings_data(round_)
    out = {
        "id": round_.pk,
        "event_id": round_.event_id,
        "number": round_.number,
        "status": round_.status,
        "scheduled_start": round_.scheduled_start,
        "paired_at": round_.paired_at,
        "published_at": round_.published_at,
        "warnings": list(round_.warnings or []),
        "stats": dict(round_.stats or {}),
        "boards": data["boards"],
        "not_paired": data["not_paired"],
    }
    if alphabetical:
        out["alphabetical"] = [
            {
                "player": exports.player_dict(ln.player),
                "points": ln.points,
                "board": ln.board,
                "colour": ln.colour,
                "opponent": exports.player_dict(ln.opponent),
                "result": ln.result,
                "reason": ln.reason,
            }
            for ln in selectors.round_pairings(round_, order="alpha")
        ]
    return out


def _csv_response(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# --- events -------------------------------------------------------------------------------


@router.get("/events", response=list[EventOut], auth=READ_AUTH)
def list_events(request):
    user = _user(request)
    return [event_dict(e, user) for e in selectors.visible_events(user)]


@router.post("/events", response={201: EventOut}, auth=API_AUTH)
@decorate_view(db_gate)
def create_event(request, payload: EventIn):
    event = services.create_event(by=request.user, **payload.dict())
    return Status(201, event_dict(event, request.user))


@router.get("/events/{event_id}", response=EventOut, auth=READ_AUTH)
def get_event(request, event_id: Id):
    return event_dict(selectors.get_event(event_id, _user(request)), _user(request))


@router.patch("/events/{event_id}", response=EventOut, auth=API_AUTH)
@decorate_view(db_gate)
def update_event(request, event_id: Id, payload: EventPatch):
    event = _event_for_write(event_id, request)
    fields = payload.dict(exclude_unset=True)
    reason = fields.pop("reason", "")
    event = services.update_event(event, by=request.user, reason=reason, **fields)
    return event_dict(event, request.user)


# --- players and entries ------------------------------------------------------------------


@router.get("/events/{event_id}/entries", response=list[EntryOut], auth=READ_AUTH)
def list_entries(request, event_id: Id):
    event = selectors.get_event(event_id, _user(request))
    return [
        entry_dict(e) for e in event.entries.select_related("player").order_by("pairing_number")
    ]


@router.post("/events/{event_id}/players", response={201: EntryOut}, auth=API_AUTH)
@decorate_view(db_gate)
def add_player(request, event_id: Id, payload: PlayerIn):
    """Register a new player and enter them in the event."""
    event = _event_for_write(event_id, request)
    with transaction.atomic():
        player = services.create_player(by=request.user, **payload.dict())
        entry = services.add_entry(event, player, by=request.user)
    return Status(201, entry_dict(entry))


@router.post("/events/{event_id}/entries", response={201: EntryOut}, auth=API_AUTH)
@decorate_view(db_gate)
def add_entry(request, event_id: Id, payload: EntryIn):
    """Enter a registered player (late entries allowed in a running Swiss)."""
    event = _event_for_write(event_id, request)
    player = Player.objects.filter(pk=payload.player_id).first()
    if player is None:
        raise NotFound("player.not_found", player_id=payload.player_id)
    return Status(201, entry_dict(services.add_entry(event, player, by=request.user)))


@router.post("/events/{event_id}/entries/import", response={201: list[EntryOut]}, auth=API_AUTH)
@decorate_view(db_gate)
def import_entries(request, event_id: Id, payload: ImportIn):
    """Import players from CSV, all or nothing; 422 lists every bad line."""
    event = _event_for_write(event_id, request)
    entries = services.import_players_csv(event, payload.csv, by=request.user)
    return Status(201, [entry_dict(e) for e in entries])


@router.post("/entries/{entry_id}/withdraw", response={200: EntryOut, 204: None}, auth=API_AUTH)
@decorate_view(db_gate)
def withdraw(request, entry_id: Id, payload: ReasonIn):
    entry = services.withdraw_entry(
        _entry(entry_id, request), by=request.user, reason=payload.reason
    )
    return Status(204, None) if entry is None else entry_dict(entry)


@router.put("/entries/{entry_id}/absences", response=EntryOut, auth=API_AUTH)
@decorate_view(db_gate)
def set_absences(request, entry_id: Id, payload: AbsenceIn):
    entry = services.set_absent(
        _entry(entry_id, request), payload.rounds, by=request.user, reason=payload.reason
    )
    return entry_dict(entry)


@router.post("/entries/{entry_id}/byes", response=EntryOut, auth=API_AUTH)
@decorate_view(db_gate)
def request_bye(request, entry_id: Id, payload: ByeIn):
    entry = services.request_bye(
        _entry(entry_id, request),
        payload.round,
        by=request.user,
        cancel=payload.cancel,
        reason=payload.reason,
    )
    return entry_dict(entry)


@router.get("/players/{player_id}", auth=READ_AUTH)
def player_card(request, player_id: Id):
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise NotFound("player.not_found", player_id=player_id)
    card = selectors.player_card(player, user=_user(request))
    return {
        "player": exports.player_dict(player),
        "entries": [
            {
                "event_id": e["event"].pk,
                "event": e["event"].name,
                "pairing_number": e["pairing_number"],
                "status": e["status"],
                "points": e["points"],
                "rank": e["rank"],
                "shared_rank": e["shared_rank"],
            }
            for e in card["entries"]
        ],
        "games": [
            {
                "event_id": g["event"].pk,
                "round": g["round"],
                "board": g["board"],
                "game_id": g["game_id"],
                "colour": g["colour"],
                "opponent": exports.player_dict(g["opponent"]),
                "result": g["result"],
                "points": g["points"],
            }
            for g in card["games"]
        ],
    }


# --- rounds and pairings ------------------------------------------------------------------


@router.get("/events/{event_id}/rounds", response=list[RoundOut], auth=READ_AUTH)
def list_rounds(request, event_id: Id):
    event = selectors.get_event(event_id, _user(request))
    return [round_dict(r) for r in selectors.visible_rounds(event, _user(request))]


@router.post("/events/{event_id}/rounds", response={201: RoundOut}, auth=API_AUTH)
@decorate_view(db_gate)
def pair_next_round(request, event_id: Id):
    """Pair the next round (a draft); 409 while the previous round is unfinished."""
    round_ = services.pair_next_round(_event_for_write(event_id, request), by=request.user)
    return Status(201, round_dict(round_))


@router.post("/rounds/{round_id}/publish", response=RoundOut, auth=API_AUTH)
@decorate_view(db_gate)
def publish_round(request, round_id: Id):
    round_ = services.publish_round(selectors.get_round(round_id, _user(request)), by=request.user)
    return round_dict(round_)


@router.put("/rounds/{round_id}/schedule", response=RoundOut, auth=API_AUTH)
@decorate_view(db_gate)
def schedule_round(request, round_id: Id, payload: ScheduleIn):
    """Set when the round starts, with its time zone (answered in UTC); null clears it."""
    round_ = services.schedule_round(
        selectors.get_round(round_id, _user(request)),
        payload.scheduled_start,
        by=request.user,
        reason=payload.reason,
    )
    return round_dict(round_)


@router.delete("/rounds/{round_id}", response={204: None}, auth=API_AUTH)
@decorate_view(db_gate)
def unpair_round(request, round_id: Id, reason: Reason = ""):
    services.unpair_round(
        selectors.get_round(round_id, _user(request)), by=request.user, reason=reason
    )
    return Status(204, None)


@router.get("/rounds/{round_id}/pairings", response=RoundOut, auth=READ_AUTH)
def round_pairings(request, round_id: Id):
    """The round's boards, players not paired, and the alphabetical list."""
    return round_dict(selectors.get_round(round_id, _user(request)), alphabetical=True)


@router.put("/rounds/{round_id}/pairings", response=WarningsOut, auth=API_AUTH)
@decorate_view(db_gate)
def set_pairing(request, round_id: Id, payload: PairingIn):
    """Set a pairing by hand; the answer lists the pairing rules it breaks."""
    round_ = selectors.get_round(round_id, _user(request))
    warnings = services.set_pairing(round_, payload.boards, by=request.user, reason=payload.reason)
    round_.refresh_from_db()
    return {"warnings": warnings, "round": round_dict(round_)}


@router.get("/rounds/{round_id}/pairings.csv", auth=READ_AUTH)
def pairings_csv(request, round_id: Id, order: Literal["board", "alpha"] = "board"):
    round_ = selectors.get_round(round_id, _user(request))
    text = exports.pairings_csv(round_, order="alpha" if order == "alpha" else "board")
    return _csv_response(text, f"{round_.event.slug}-round-{round_.number}.csv")


@router.get("/rounds/{round_id}/pairings.json", auth=READ_AUTH)
def pairings_json(request, round_id: Id):
    return exports.pairings_data(selectors.get_round(round_id, _user(request)))


# --- standings and exports ----------------------------------------------------------------


#: `after_round` of standings and exports: 0..the event's rounds (checked per event).
AfterRound = Query(None, ge=0, le=99, description="a round of the event (0..its rounds)")


def _event_after(request, event_id: Id, after_round: int | None) -> Event:
    event = selectors.get_event(event_id, _user(request))
    validation.validate_after_round(event, after_round)
    return event


@router.get("/events/{event_id}/standings", response=StandingsOut, auth=READ_AUTH)
def standings(request, event_id: Id, after_round: int | None = AfterRound, explain: bool = False):
    """The ranking with the event's tie-breaks; `explain=true` adds how each was computed."""
    event = _event_after(request, event_id, after_round)
    data = exports.standings_data(event, after_round=after_round)
    lines = selectors.standings(event, after_round=after_round) if explain else []
    for row, line in zip(data["rows"], lines, strict=False):
        row["explain"] = line.explain
    return {
        "event_id": event.pk,
        "after_round": after_round,
        "tiebreaks": data["tiebreaks"],
        "tiebreak_names": {c: TIEBREAKS.get(c, c) for c in data["tiebreaks"]},
        "rows": data["rows"],
    }


@router.get("/events/{event_id}/standings.csv", auth=READ_AUTH)
def standings_csv(request, event_id: Id, after_round: int | None = AfterRound):
    event = _event_after(request, event_id, after_round)
    suffix = f"-after-{after_round}" if after_round else ""
    return _csv_response(
        exports.standings_csv(event, after_round=after_round), f"{event.slug}-standings{suffix}.csv"
    )


@router.get("/events/{event_id}/standings.json", auth=READ_AUTH)
def standings_json(request, event_id: Id, after_round: int | None = AfterRound):
    event = _event_after(request, event_id, after_round)
    return exports.standings_data(event, after_round=after_round)


@router.get("/events/{event_id}/crosstable", auth=READ_AUTH)
def crosstable(request, event_id: Id):
    event = selectors.get_event(event_id, _user(request))
    return selectors.crosstable(event)


@router.get("/events/{event_id}/export.trf", auth=READ_AUTH)
def trf(request, event_id: Id, after_round: int | None = AfterRound):
    """The event's state (after a round, default all) as a FIDE TRF file."""
    event = _event_after(request, event_id, after_round)
    text = exports.trf(
        event, after_round=after_round, drafts=permissions.sees_drafts(_user(request), event)
    )
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}.trf"'
    return response


@router.get("/events/{event_id}/audit", response=list[AuditOut], auth=API_AUTH)
def audit(request, event_id: Id, limit: int = Query(200, ge=1, le=1000)):
    event = selectors.get_event(event_id, request.user)
    return [
        {
            "at": a.at,
            "user": a.user.username if a.user_id else None,
            "action": a.action,
            "target": a.target,
            "old": a.old,
            "new": a.new,
            "reason": a.reason,
        }
        for a in selectors.audit_log(event, request.user)[: max(1, min(limit, 1000))]
    ]


@router.put("/events/{event_id}/arbiters", response=EventOut, auth=API_AUTH)
@decorate_view(db_gate)
def set_arbiters(request, event_id: Id, payload: ArbitersIn):
    """The event's arbiters, by username (its organizer only)."""
    event = _event_for_write(event_id, request)
    usernames = payload.usernames
    users = list(get_user_model().objects.filter(username__in=usernames))
    missing = sorted(set(usernames) - {u.username for u in users})
    if missing:
        raise NotFound("user.not_found", missing=list(missing))
    return event_dict(services.set_arbiters(event, users, by=request.user), request.user)
