"""Importing an event's players from CSV: all or nothing (columns: arbiter/events/player_csv.py).

One pass checks every line (read_rows, then each line's fields and its repeats within the
file, in memory), one query per KNOWN_CHUNK FMJD ids finds the players already registered,
and the new players, the entries and their audit lines are written in one statement each
(sqlrows.bulk_insert): 5000 players took about 8 s with a query per line and bulk_create
(benchmarks/player_import.py). The file itself is bounded (player_csv.MAX_ROWS, MAX_CHARS).
"""

from __future__ import annotations

from django.db import transaction

from arbiter.errors import DomainError
from arbiter.events import permissions
from arbiter.events.models import Entry, Event, Player
from arbiter.events.player_csv import LineError, Row, raise_if_errors, read_rows
from arbiter.events.services.audit import log
from arbiter.events.services.entries import add_entries
from arbiter.events.services.players import clean_player_fields
from arbiter.infra import sqlrows

#: FMJD ids looked up per query (within SQLite's 999 parameters as Django counts them).
KNOWN_CHUNK = 900


def import_players_csv(event: Event, text: str | bytes, *, by) -> list[Entry]:
    """Enter every player of the CSV in `event`, creating the players not known yet.

    A row whose fmjd_id is already a player's reuses that player. Nothing is saved unless
    every line is good; otherwise Invalid(details={"errors": [{"line", "column", "code",
    "params", "reason"}, ...]}), every bad line listed.
    """
    permissions.require_arbiter(by, event)
    rows, errors = read_rows(text)
    if not rows:
        raise_if_errors(errors)  # the header is wrong: the lines cannot be read
    planned = _checked(rows, errors)
    known = _known_players([fields["fmjd_id"] for _line, fields in planned])
    entered = set(event.entries.values_list("player_id", flat=True))
    for line, fields in planned:
        existing = known.get(fields["fmjd_id"])
        if existing is not None and existing.pk in entered:
            errors.append(
                LineError(
                    line,
                    "import.already_entered",
                    column="fmjd_id",
                    player=existing,
                    fmjd_id=fields["fmjd_id"],
                )
            )
    if not rows and not errors:
        errors.append(LineError(2, "import.no_players"))
    raise_if_errors(errors)
    with transaction.atomic():
        players = _players(planned, known)
        entries = add_entries(event, players, by=by)
        log(
            event,
            by=by,
            action="players.import",
            target=f"{len(entries)} players",
            new={"players": [e.player_id for e in entries]},
        )
    return entries


def _checked(rows: list[Row], errors: list[LineError]) -> list[tuple[int, dict]]:
    """Each good row's line and cleaned fields; each bad row's LineError added to `errors`
    (its fields, or an FMJD id or a name already on an earlier line)."""
    seen_ids: dict[str, int] = {}
    seen_names: dict[tuple, int] = {}
    planned: list[tuple[int, dict]] = []
    for row in rows:
        try:
            fields = clean_player_fields(**row.values)
        except DomainError as exc:
            column = (exc.details or {}).get("field")
            errors.append(LineError(row.line, exc.code, column=column, **exc.params))
            continue
        fmjd_id = fields["fmjd_id"]
        if fmjd_id:
            if fmjd_id in seen_ids:
                errors.append(
                    LineError(
                        row.line,
                        "import.fmjd_id_repeated",
                        column="fmjd_id",
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
        planned.append((row.line, fields))
    return planned


def _known_players(fmjd_ids: list[str]) -> dict[str, Player]:
    """The registered players with these FMJD ids, by id (one query per KNOWN_CHUNK ids)."""
    wanted = sorted({i for i in fmjd_ids if i})
    known: dict[str, Player] = {}
    for start in range(0, len(wanted), KNOWN_CHUNK):
        chunk = wanted[start : start + KNOWN_CHUNK]
        known.update((p.fmjd_id, p) for p in Player.objects.filter(fmjd_id__in=chunk))
    return known


def _players(planned: list[tuple[int, dict]], known: dict[str, Player]) -> list[Player]:
    """The player of each planned line, in order: the known one, or a new one (written in
    one statement)."""
    new = iter(
        sqlrows.bulk_insert(
            Player,
            [fields for _line, fields in planned if fields["fmjd_id"] not in known],
            returning=True,
        )
    )
    return [known.get(fields["fmjd_id"]) or next(new) for _line, fields in planned]
