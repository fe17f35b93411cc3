"""Arrival at the board, and the loss by forfeit of a player who arrives too late.

FMJD 10.5 leaves the clock and the session to the competition rules; what is known of them
(shared/rules/DIGEST.md, section 10): each event sets a delay between 0 and 60 minutes
(`Event.late_arrival_minutes`, 60 by default), and a player later than that loses the game.

- The round's start is when the arbiter started the round's clocks (the earliest
  `Game.started_at` of the round), or else `Round.scheduled_start`.
- A player arrives when an arbiter marks them present (`mark_arrived`) or when they make a
  move (`note_arrival_by_move`, for the move-entry service).
- Past `start + delay`, a player with no arrival, or an arrival recorded after that limit,
  has lost: "+/-" (black absent), "-/+" (white absent) or "-/-" (both), termination
  "forfeit". The sweep (`forfeit_late_arrivals`, every 10 s from beat) and lazy checks on
  `mark_arrived` and on a move apply it, through the one ending service (ending.py); each
  looks again under the game's lock, so repeats are harmless.
- The reads (round start, arrival limit and state) are in games/selectors.py.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Min
from django.utils import timezone

from arbiter.errors import Conflict, Invalid, NotFound
from arbiter.events.models import AuditEntry, Round
from arbiter.events.permissions import require_arbiter
from arbiter.games.models import Game
from arbiter.games.selectors import ArrivalLimit, arrival_limit, round_start
from rules.outcome import Termination

from .ending import end_locked_game
from .locking import lock_game

SIDES = ("white", "black")


def _late(arrived_at: datetime | None, deadline: datetime) -> bool:
    # FMJD 10.5 (competition rules): "later than the delay" loses; arriving exactly at the
    # limit is in time.
    return arrived_at is None or arrived_at > deadline


def forfeit_result(white_late: bool, black_late: bool) -> str:
    if white_late and black_late:
        return Game.Result.DOUBLE_FORFEIT
    return Game.Result.BLACK_FORFEIT_WIN if white_late else Game.Result.WHITE_FORFEIT_WIN


def _late_sides(game: Game, deadline: datetime, now: datetime) -> tuple[bool, bool]:
    """(white late, black late) at `now` for a game with an arrival `deadline`."""
    if now <= deadline:
        return False, False
    return _late(game.white_arrived_at, deadline), _late(game.black_arrived_at, deadline)


def _forfeit_locked(game: Game, limit: ArrivalLimit, now: datetime) -> bool:
    """Forfeit the locked `game` when a player is late at `now`; True when this call did it.
    A game already ended (by a second sweep, a result, a move) or an arrival recorded in
    between makes this a no-op."""
    if game.result or game.status == Game.Status.FINISHED:
        return False
    white_late, black_late = _late_sides(game, limit.deadline, now)
    if not (white_late or black_late):
        return False
    late = [s for s, is_late in (("White", white_late), ("Black", black_late)) if is_late]
    end_locked_game(
        game,
        forfeit_result(white_late, black_late),
        Termination.FORFEIT.value,
        now=now,
        action="late_arrival_forfeit",
        reason=(
            f"{' and '.join(late)} not at the board {limit.minutes} min after the round's "
            f"start at {limit.round_start:%Y-%m-%d %H:%M:%S} UTC (FMJD 10.5, late arrival)"
        ),
    )
    return True


def _forfeit_if_late(game: Game, limit: ArrivalLimit, now: datetime) -> bool:
    """Forfeit `game` (as read, unlocked) when a player is late at `now`: looked at first as
    read (most sweeps find nobody late and lock nothing), then again under the game's lock."""
    if not any(_late_sides(game, limit.deadline, now)):
        return False
    with transaction.atomic():
        try:
            locked = lock_game(game.pk)
        except NotFound:
            return False
        return _forfeit_locked(locked, limit, now)


def _candidates():
    """Unfinished games with two players in published rounds: the ones a forfeit can end."""
    return (
        Game.objects.filter(
            result=Game.Result.PENDING,
            white__isnull=False,
            black__isnull=False,
            round__status=Round.Status.PUBLISHED,
        )
        .exclude(status=Game.Status.FINISHED)
        .select_related("round__event")
    )


def forfeit_late_arrivals(now: datetime | None = None) -> list[int]:
    """The sweep: forfeit every game with a player late at `now`; the ids it forfeited."""
    now = now or timezone.now()
    games = list(_candidates())
    if not games:
        return []
    first_starts = dict(
        Game.objects.filter(round_id__in={g.round_id for g in games}, started_at__isnull=False)
        .values("round_id")
        .annotate(first=Min("started_at"))
        .values_list("round_id", "first")
    )
    forfeited = []
    for game in games:
        start = first_starts.get(game.round_id) or game.round.scheduled_start
        if start is None:
            continue
        if _forfeit_if_late(game, ArrivalLimit(start, game.round.event.late_arrival_minutes), now):
            forfeited.append(game.pk)
    return forfeited


def forfeit_if_late(game_id: int, now: datetime | None = None) -> bool:
    """The lazy check for one game (on arrival, or before a move is charged)."""
    now = now or timezone.now()
    game = _candidates().filter(pk=game_id).first()
    if game is None:
        return False
    limit = arrival_limit(game)
    return limit is not None and _forfeit_if_late(game, limit, now)


def forfeit_locked_if_late(game: Game, now: datetime) -> ArrivalLimit | None:
    """The lazy check for the move-entry service, on its locked `game`: the arrival limit
    when this call forfeited the game, else None.

    Cheap once both players have arrived. The locked game carries the round's status,
    scheduled start and first clock start and the event's delay (services.locking), so this
    reads nothing from the database.
    """
    if game.white_arrived_at is not None and game.black_arrived_at is not None:
        return None
    if game.white_id is None or game.black_id is None or game.result:
        return None
    if game.status == Game.Status.FINISHED:
        return None
    round_ = game.round
    if round_.status != Round.Status.PUBLISHED:
        return None
    if hasattr(game, "round_first_start"):  # read with the lock (services.locking)
        start = game.round_first_start or round_.scheduled_start
    else:
        start = round_start(round_)
    if start is None:
        return None
    limit = ArrivalLimit(start, round_.event.late_arrival_minutes)
    return limit if _forfeit_locked(game, limit, now) else None


def _check_side(game: Game, side: str) -> None:
    if side not in SIDES:
        raise Invalid(
            "game.bad_side",
            side=side,
            details={"field": "side", "allowed": list(SIDES)},
        )
    if getattr(game, f"{side}_id") is None:
        raise Invalid("arrival.bye_side", board=game.board, side=side, details={"field": "side"})


def mark_arrived(game_id: int, side: str, *, by, now: datetime | None = None) -> Game:
    """An arbiter marks a player present. Idempotent: the first arrival time is kept.

    Past the limit the player has already lost (FMJD 10.5): the forfeit is applied and a
    Conflict (409) says so; nothing else changes.
    """
    now = now or timezone.now()
    game = Game.objects.select_related("round__event").filter(pk=game_id).first()
    if game is None:
        raise NotFound("game.not_found", game_id=game_id)
    require_arbiter(by, game.round.event)
    _check_side(game, side)
    forfeit_if_late(game.pk, now)  # commits on its own: the forfeit is due whatever we say
    field = f"{side}_arrived_at"
    with transaction.atomic():
        game = Game.objects.select_for_update().select_related("round__event").get(pk=game.pk)
        if game.status == Game.Status.FINISHED or game.result:
            raise Conflict(
                "arrival.game_over",
                board=game.board,
                result=game.get_result_display(),
                termination=game.termination or "result entered",
                side=side,
                details={
                    "result": game.result,
                    "termination": game.termination,
                    "white_arrived_at": game.white_arrived_at,
                    "black_arrived_at": game.black_arrived_at,
                },
            )
        if getattr(game, field) is not None:
            return game
        Game.objects.filter(pk=game.pk, **{f"{field}__isnull": True}).update(
            **{field: now, "updated_at": now}
        )
        AuditEntry.objects.create(
            event=game.round.event,
            user=by,
            action="arrival",
            target=f"round {game.round.number} board {game.board}",
            new={"side": side, "arrived_at": now.isoformat()},
        )
    game.refresh_from_db()
    return game


def note_arrival_by_move(game: Game, side: str, now: datetime) -> list[str]:
    """A move is an arrival: for the move-entry service, on its locked game.

    Sets `now` when no arrival was recorded and returns the field to save with the move;
    a late arrival is then forfeited by the sweep.
    """
    field = f"{side}_arrived_at"
    if getattr(game, field) is not None:
        return []
    setattr(game, field, now)
    return [field]
