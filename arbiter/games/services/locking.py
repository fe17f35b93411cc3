"""Locking one game row for the length of a transaction, with what a move needs beside it."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from arbiter.errors import NotFound
from arbiter.events.models import Event, Player, Round
from arbiter.games.models import Game
from arbiter.infra import sqlrows
from clocks.models import Clock

# One statement per lock: every move goes through here, so the game, its event's settings and
# the players' names come in one round trip (the ORM's select_related of five tables cost
# ~10x more to build than to run). The game's columns come first, then these extras.
_EXTRAS = (
    ("r.number", Round, "number"),
    ("r.status", Round, "status"),
    ("r.scheduled_start", Round, "scheduled_start"),
    ("e.id", Event, "id"),
    ("e.name", Event, "name"),
    ("e.organizer_id", Event, "organizer"),
    ("e.flag_policy", Event, "flag_policy"),
    ("e.time_control", Event, "time_control"),
    ("e.published", Event, "published"),
    ("e.late_arrival_minutes", Event, "late_arrival_minutes"),
    ("e.tablet_moves_required", Event, "tablet_moves_required"),
    ("e.lag_quota_ms", Event, "lag_quota_ms"),
    # The round's first clock start, only while a player of this game has not arrived (the
    # late-arrival check, services/arrival.py, needs it then): no statement of its own on
    # a player's first moves, nothing computed once both are there.
    (
        "CASE WHEN g.white_arrived_at IS NULL OR g.black_arrived_at IS NULL THEN"
        f" (SELECT MIN(o.started_at) FROM {Game._meta.db_table} o"
        "  WHERE o.round_id = g.round_id AND o.started_at IS NOT NULL) END",
        Game,
        "started_at",
    ),
    ("wp.surname", Player, "surname"),
    ("wp.given_name", Player, "given_name"),
    ("wp.user_id", Player, "user"),
    ("bp.surname", Player, "surname"),
    ("bp.given_name", Player, "given_name"),
    ("bp.user_id", Player, "user"),
)
_LOCK_SQL = f"""
SELECT {sqlrows.columns(Game, "g")}, {", ".join(sql for sql, _, _ in _EXTRAS)},
       EXISTS (SELECT 1 FROM {Event.arbiters.through._meta.db_table} ea
               WHERE ea.event_id = e.id AND ea.user_id = %s)
FROM {Game._meta.db_table} g
JOIN {Round._meta.db_table} r ON r.id = g.round_id
JOIN {Event._meta.db_table} e ON e.id = r.event_id
LEFT JOIN {Player._meta.db_table} wp ON wp.id = g.white_id
LEFT JOIN {Player._meta.db_table} bp ON bp.id = g.black_id
WHERE g.id IN ({{ids}})
"""
# Read after the lock, in a statement of its own: on PostgreSQL a row joined to a locked one
# may be the version from before the lock was granted, while a statement that runs after the
# lock statement sees the latest. Both go out in one round trip (sqlrows.batched).
_CLOCK_SQL = (
    f"SELECT {sqlrows.columns(Clock, 'c')} FROM {Clock._meta.db_table} c"
    f" JOIN {Game._meta.db_table} g ON g.clock_id = c.id WHERE g.id IN ({{ids}})"
)


def _attached(model, conn, **fields):
    """An instance of a row read elsewhere, holding only `fields`: every other field is
    deferred, so reading it loads it from the database instead of giving the default."""
    names = [f.attname for f in model._meta.concrete_fields if f.attname in fields]
    return model.from_db(conn.alias, names, [fields[name] for name in names])


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
        raise NotFound("game.not_found", game_id=game_id) from None
    games = lock_games([game_id], by=by)
    if not games:
        raise NotFound("game.not_found", game_id=game_id)
    return games[0]


def lock_games(
    game_ids: list[int], *, skip_locked: bool = False, limit: int | None = None, by=None
) -> list[Game]:
    """Several games locked at once, in id order (see lock_game). `skip_locked`: on
    PostgreSQL, leave out the games another transaction holds instead of waiting. `limit`:
    lock at most that many (the first in id order; with `skip_locked`, the first free ones,
    so that two callers given the same ids lock different games)."""
    by_id = by.pk if getattr(by, "is_authenticated", False) else None
    ids = sorted({int(i) for i in game_ids})
    if not ids:
        return []
    sql = _LOCK_SQL.format(ids=", ".join(["%s"] * len(ids))) + " ORDER BY g.id"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    conn = sqlrows.db()
    features = conn.features
    if features.has_select_for_update_of:
        sql += " FOR UPDATE OF g"
        if skip_locked and features.has_select_for_update_skip_locked:
            sql += " SKIP LOCKED"
    elif features.has_select_for_update:
        sql += " FOR UPDATE"
    clock_sql = _CLOCK_SQL.format(ids=", ".join(["%s"] * len(ids)))
    # A single game's lock is prepared once per connection; a lock of many (the sweep) not.
    prepare = len(ids) == 1
    with (
        sqlrows.batched(),
        sqlrows.cursor(prepare=prepare) as locked,
        sqlrows.cursor(prepare=prepare) as clocks,
    ):
        locked.execute(sql, [by_id, *ids])
        clocks.execute(clock_sql, ids)
        rows = locked.fetchall()
        clock_of = {c.pk: c for c in (sqlrows.instance(Clock, r, conn) for r in clocks.fetchall())}
    n = len(Game._meta.concrete_fields)
    games = []
    rounds: dict[int, Round] = {}
    for row in rows:
        game = sqlrows.instance(Game, row[:n], conn)
        values = zip(_EXTRAS, row[n:-1], strict=True)
        extras = [sqlrows.convert(model, field, v, conn) for (_, model, field), v in values]
        _attach_related(game, extras, bool(row[-1]), rounds, by_id, conn)
        if game.clock_id is not None:
            game.clock = clock_of[game.clock_id]
        games.append(game)
    return games


def _attach_related(game: Game, extras: list, by_arbiter: bool, rounds: dict, by_id, conn) -> None:
    (number, status, start, event_id, name, organizer_id, flag_policy, time_control,
     published, late_minutes, moves_required, lag_quota, first_start,
     *players) = extras  # fmt: skip
    if game.white_arrived_at is None or game.black_arrived_at is None:
        # The subquery read the snapshot of the lock's statement: a start committed while it
        # waited for the lock is missing there, but the locked row itself is the latest.
        starts = [t for t in (first_start, game.started_at) if t is not None]
        game.round_first_start = min(starts, default=None)
    rnd = rounds.get(game.round_id)
    if rnd is None:  # games of one round share their round and event objects
        event = _attached(
            Event,
            conn,
            id=event_id,
            name=name,
            organizer_id=organizer_id,
            flag_policy=flag_policy,
            time_control=time_control,
            published=published,
            late_arrival_minutes=late_minutes,
            tablet_moves_required=moves_required,
            lag_quota_ms=lag_quota,
        )
        rnd = _attached(
            Round,
            conn,
            id=game.round_id,
            event_id=event_id,
            number=number,
            status=status,
            scheduled_start=start,
        )
        if by_id is not None:
            event.arbiter_known = {by_id: by_arbiter}
        rnd.event = event
        rounds[game.round_id] = rnd
    game.round = rnd
    for i, side in enumerate(("white", "black")):
        player_id = getattr(game, f"{side}_id")
        if player_id is not None:
            surname, given_name, user_id = players[3 * i : 3 * i + 3]
            player = _attached(
                Player, conn, id=player_id, surname=surname, given_name=given_name, user_id=user_id
            )
            setattr(game, side, player)


def save_clock(clock: Clock) -> None:
    """Write the clock's state (only the state columns)."""
    clock.updated_at = timezone.now()
    sqlrows.update_rows(Clock, [clock], [*Clock.STATE_FIELDS, "updated_at"])


def save_game(game: Game, fields: list[str]) -> None:
    """Write `fields` of the locked game (and its updated_at)."""
    game.updated_at = timezone.now()
    sqlrows.update_rows(Game, [game], list(dict.fromkeys([*fields, "updated_at"])))


def server_now(clock=None) -> datetime:
    """The server's time, never before the clock's last change (another machine's clock may
    be a little behind; the clock arithmetic refuses to run backwards)."""
    now = timezone.now()
    since = getattr(clock, "running_since", None)
    return max(now, since) if since else now
