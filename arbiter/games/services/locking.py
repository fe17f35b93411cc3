"""Locking one game row for the length of a transaction, with what a move needs beside it."""

from __future__ import annotations

from datetime import UTC, datetime

from django.db import connection
from django.utils import timezone

from arbiter.errors import NotFound
from arbiter.events.models import Event, Player, Round
from arbiter.games.models import Game
from clocks.models import Clock

# One statement per lock: every move goes through here, so the game, its event's settings and
# the players' names come in one round trip (the ORM's select_related of five tables cost
# ~10x more to build than to run). Columns of the joined rows carry an x_ prefix.
_LOCK_SQL = f"""
SELECT g.*,
       r.number AS x_round_number, r.status AS x_round_status,
       r.scheduled_start AS x_round_scheduled_start,
       e.late_arrival_minutes AS x_event_late_arrival_minutes,
       e.id AS x_event_id, e.name AS x_event_name, e.organizer_id AS x_event_organizer_id,
       e.flag_policy AS x_event_flag_policy, e.time_control AS x_event_time_control,
       e.published AS x_event_published,
       wp.surname AS x_white_surname, wp.given_name AS x_white_given_name,
       wp.user_id AS x_white_user_id,
       bp.surname AS x_black_surname, bp.given_name AS x_black_given_name,
       bp.user_id AS x_black_user_id,
       EXISTS (SELECT 1 FROM {Event.arbiters.through._meta.db_table} ea
               WHERE ea.event_id = e.id AND ea.user_id = %s) AS x_by_arbiter
FROM {Game._meta.db_table} g
JOIN {Round._meta.db_table} r ON r.id = g.round_id
JOIN {Event._meta.db_table} e ON e.id = r.event_id
LEFT JOIN {Player._meta.db_table} wp ON wp.id = g.white_id
LEFT JOIN {Player._meta.db_table} bp ON bp.id = g.black_id
WHERE g.id IN ({{ids}})
"""
_CLOCK_SQL = f"SELECT * FROM {Clock._meta.db_table} WHERE id IN ({{ids}})"


def _aware(value):
    """A datetime read as an extra column of a raw query: SQLite gives naive UTC text."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value is not None and value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value


def _attached(model, **fields):
    """An instance of a row read elsewhere, holding only `fields`: every other field is
    deferred, so reading it loads it from the database instead of giving the default."""
    names = [f.attname for f in model._meta.concrete_fields if f.attname in fields]
    return model.from_db(connection.alias, names, [fields[name] for name in names])


def lock_game(game_id: int, *, by=None) -> Game:
    """The game, locked until the end of the current transaction (call inside atomic()),
    with its round, event, players and clock loaded, and whether the user `by` is an arbiter
    of the event (for permissions.is_arbiter, without a query of its own).

    PostgreSQL: SELECT ... FOR UPDATE OF the game row only (never the event or round rows,
    which every game of the event shares). SQLite has no row locks: the settings open every
    transaction with BEGIN IMMEDIATE, which takes the database's write lock at once.
    The clock row is read after the lock: every write to a game's clock goes through here.
    """
    try:
        game_id = int(game_id)
    except (TypeError, ValueError):
        raise NotFound(f"game {game_id!r} does not exist") from None
    games = lock_games([game_id], by=by)
    if not games:
        raise NotFound(f"game {game_id!r} does not exist")
    return games[0]


def lock_games(game_ids: list[int], *, skip_locked: bool = False, by=None) -> list[Game]:
    """Several games locked at once, in id order (see lock_game). `skip_locked`: on
    PostgreSQL, leave out the games another transaction holds instead of waiting."""
    by_id = by.pk if getattr(by, "is_authenticated", False) else None
    ids = sorted({int(i) for i in game_ids})
    if not ids:
        return []
    sql = _LOCK_SQL.format(ids=", ".join(["%s"] * len(ids))) + " ORDER BY g.id"
    if connection.features.has_select_for_update_of:
        sql += " FOR UPDATE OF g"
        if skip_locked and connection.features.has_select_for_update_skip_locked:
            sql += " SKIP LOCKED"
    elif connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    games = list(Game.objects.raw(sql, [by_id, *ids]))
    clock_ids = [g.clock_id for g in games if g.clock_id is not None]
    clocks = {}
    if clock_ids:
        clock_sql = _CLOCK_SQL.format(ids=", ".join(["%s"] * len(clock_ids)))
        clocks = {c.pk: c for c in Clock.objects.raw(clock_sql, clock_ids)}
    rounds: dict[int, Round] = {}
    for game in games:
        _attach_related(game, clocks, rounds, by_id)
    return games


def _attach_related(game: Game, clocks: dict, rounds: dict, by_id: int | None) -> None:
    rnd = rounds.get(game.round_id)
    if rnd is None:  # games of one round share their round and event objects
        event = _attached(
            Event,
            id=game.x_event_id,
            name=game.x_event_name,
            organizer_id=game.x_event_organizer_id,
            flag_policy=game.x_event_flag_policy,
            time_control=game.x_event_time_control,
            published=bool(game.x_event_published),
            late_arrival_minutes=game.x_event_late_arrival_minutes,
        )
        rnd = _attached(
            Round,
            id=game.round_id,
            event_id=event.id,
            number=game.x_round_number,
            status=game.x_round_status,
            scheduled_start=_aware(game.x_round_scheduled_start),
        )
        if by_id is not None:
            event.arbiter_known = {by_id: bool(game.x_by_arbiter)}
        rnd.event = event
        rounds[game.round_id] = rnd
    game.round = rnd
    for side in ("white", "black"):
        player_id = getattr(game, f"{side}_id")
        if player_id is not None:
            player = _attached(
                Player,
                id=player_id,
                surname=getattr(game, f"x_{side}_surname"),
                given_name=getattr(game, f"x_{side}_given_name"),
                user_id=getattr(game, f"x_{side}_user_id"),
            )
            setattr(game, side, player)
    if game.clock_id is not None:
        game.clock = clocks[game.clock_id]


def save_clock(clock: Clock) -> None:
    """Write the clock's state (only the state columns)."""
    clock.updated_at = timezone.now()
    update_rows(Clock, [clock], [*Clock.STATE_FIELDS, "updated_at"])


def save_game(game: Game, fields: list[str]) -> None:
    """Write `fields` of the locked game (and its updated_at)."""
    game.updated_at = timezone.now()
    update_rows(Game, [game], list(dict.fromkeys([*fields, "updated_at"])))


def update_rows(model, objects: list, fields: list[str]) -> None:
    """UPDATE each object's `fields` with one prepared statement run for all rows.

    (bulk_update() builds one CASE per field and row: for 200 flags at once it took seconds.)
    """
    columns = [model._meta.get_field(name) for name in fields]
    quote = connection.ops.quote_name
    sql = (
        f"UPDATE {quote(model._meta.db_table)} SET "
        + ", ".join(f"{quote(c.column)} = %s" for c in columns)
        + f" WHERE {quote(model._meta.pk.column)} = %s"
    )
    rows = [
        [c.get_db_prep_save(getattr(obj, c.attname), connection) for c in columns] + [obj.pk]
        for obj in objects
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


def server_now(clock=None) -> datetime:
    """The server's time, never before the clock's last change (another machine's clock may
    be a little behind; the clock arithmetic refuses to run backwards)."""
    now = timezone.now()
    since = getattr(clock, "running_since", None)
    return max(now, since) if since else now
