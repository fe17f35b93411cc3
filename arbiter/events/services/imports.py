"""Importing an event's players from CSV: all or nothing (columns: arbiter/events/player_csv.py)."""

from __future__ import annotations

from django.db import transaction

from arbiter.errors import DomainError
from arbiter.events import permissions
from arbiter.events.models import Entry, Event, Player
from arbiter.events.player_csv import LineError, raise_if_errors, read_rows
from arbiter.events.services.audit import log
from arbiter.events.services.entries import add_entries
from arbiter.events.services.players import clean_player_fields


def import_players_csv(event: Event, text: str | bytes, *, by) -> list[Entry]:
    """Enter every player of the CSV in `event`, creating the players not known yet.

    A row whose fmjd_id is already a player's reuses that player. Nothing is saved unless
    every line is good; otherwise Invalid(details={"errors": [{"line", "reason"}, ...]}).
    """
    permissions.require_arbiter(by, event)
    rows, errors = read_rows(text)
    if not rows:
        raise_if_errors(errors)  # the header is wrong: the lines cannot be read
    entered = set(event.entries.values_list("player_id", flat=True))
    seen_ids: dict[str, int] = {}
    seen_names: dict[tuple, int] = {}
    planned: list[tuple[int, Player | None, dict]] = []
    for row in rows:
        try:
            fields = clean_player_fields(**row.values)
        except DomainError as exc:
            errors.append(LineError(row.line, exc.code, **exc.params))
            continue
        fmjd_id = fields["fmjd_id"]
        if fmjd_id:
            if fmjd_id in seen_ids:
                errors.append(
                    LineError(
                        row.line,
                        "import.fmjd_id_repeated",
                        fmjd_id=fmjd_id,
                        first=seen_ids[fmjd_id],
                    )
                )
                continue
            seen_ids[fmjd_id] = row.line
        key = (fields["surname"].casefold(), fields["given_name"].casefold(), fmjd_id)
        if key in seen_names:
            errors.append(
                LineError(
                    row.line,
                    "import.name_repeated",
                    name=f"{fields['surname']} {fields['given_name']}".strip(),
                    first=seen_names[key],
                )
            )
            continue
        seen_names[key] = row.line
        existing = Player.objects.filter(fmjd_id=fmjd_id).first() if fmjd_id else None
        if existing is not None and existing.pk in entered:
            errors.append(
                LineError(row.line, "import.already_entered", player=existing, fmjd_id=fmjd_id)
            )
            continue
        planned.append((row.line, existing, fields))
    if not rows and not errors:
        errors.append(LineError(2, "import.no_players"))
    raise_if_errors(errors)
    with transaction.atomic():
        new = Player.objects.bulk_create(
            [Player(**fields) for _line, existing, fields in planned if existing is None]
        )
        made = iter(new)
        players = [existing or next(made) for _line, existing, _fields in planned]
        entries = add_entries(event, players, by=by)
        log(
            event,
            by=by,
            action="players.import",
            target=f"{len(entries)} players",
            new={"players": [e.player_id for e in entries]},
        )
    return entries
