"""Clock actions of an arbiter, for one game or a whole round: each one logged with its reason.

FMJD Annex 3 (shared/rules/DIGEST.md section 10): the referee starts White's clock, replaces a
faulty clock and corrects the times. Every action is a ClockLog line (who, when, why, the
clock before and after); a change of the deadline re-arms the flag task after commit.
"""

from __future__ import annotations

from django.db import transaction

from arbiter.errors import Conflict, Invalid, NotFound
from arbiter.events.models import Round
from arbiter.events.permissions import require_arbiter
from arbiter.games import selectors
from arbiter.games.models import Game
from clocks import clock as clockmath
from clocks.models import Clock, ClockLog
from clocks.timecontrol import TimeControlError
from rules import Color

from .flags import flag_if_due, on_commit_arm
from .locking import lock_game, save_clock, save_game, server_now

GAME_ACTIONS = ("start", "pause", "resume", "adjust", "set")
ROUND_ACTIONS = ("start", "pause", "resume")


def _game_id(game_or_id) -> int:
    return game_or_id.pk if isinstance(game_or_id, Game) else game_or_id


def _ensure_clock(game: Game) -> Clock:
    """The game's clock, created from the event's time control on first use."""
    if game.clock is not None:
        return game.clock
    tag = game.round.event.time_control
    try:
        clock = Clock.for_time_control(tag)
    except (TimeControlError, ValueError) as exc:
        raise Invalid("clock_action.bad_time_control", tag=tag, error=exc) from None
    clock.save()
    game.clock = clock
    game.save(update_fields=["clock", "updated_at"])
    return clock


def _apply(game: Game, action: str, *, by, reason: str, side=None, delta_ms=None, **kw) -> dict:
    """On the locked `game`: apply one clock action, log it, re-arm the flag task.

    The caller has checked the role and run the lazy flag check (whose record must commit
    even when the action is then refused).
    """
    clock = _ensure_clock(game) if action == "start" else game.clock
    if clock is None:
        raise Conflict("clock_action.no_clock", game=game.pk)
    now = server_now(clock)
    if game.status == Game.Status.FINISHED:
        raise Conflict(
            "clock_action.game_over",
            result=game.result,
            termination=game.termination,
            details={"game": selectors.game_state(game, now)},
        )
    before, tc = clock.state, clock.tc
    try:
        if action == "start":
            # FMJD Annex 3: the referee starts White's clock (the side to move, for a game
            # that starts from a set position).
            turn = selectors.rules_game(game).position.turn
            after = clockmath.start(before, tc, now, turn)
        elif action == "pause":
            after = clockmath.pause(before, now)
        elif action == "resume":
            after = clockmath.resume(before, now)
        elif action == "adjust":
            after = clockmath.adjust(before, Color(side), delta_ms, tc, now)
        elif action == "set":
            after = clockmath.set_times(before, kw["white_ms"], kw["black_ms"], tc, now)
        else:
            raise Invalid("clock_action.unknown", action=action, actions=list(GAME_ACTIONS))
    except clockmath.ClockError as exc:
        raise Conflict(
            "clock_action.refused",
            action=action,
            game=game.pk,
            error=exc,
            details={"game": selectors.game_state(game, now)},
        ) from None
    clock.apply(after, tc)
    save_clock(clock)
    fields = ["updated_at"]
    if action == "start" and game.status == Game.Status.SCHEDULED:
        game.status = Game.Status.RUNNING
        game.started_at = game.started_at or now
        fields += ["status", "started_at"]
    if game.flag_side and clockmath.flagged(after, tc, now) is None:
        # Under the "claim" policy an arbiter gave the flagged side time back: the flag is
        # no longer pending (the ClockLog keeps both the flag and this action).
        game.flag_side, game.flag_at = "", None
        fields += ["flag_side", "flag_at"]
    save_game(game, fields)
    ClockLog.record(
        clock,
        action,
        before,
        after,
        at=now,
        side=side,
        delta_ms=delta_ms,
        reason=reason,
        user=by if getattr(by, "is_authenticated", False) else None,
    )
    on_commit_arm(game)
    return selectors.game_state(game, now)


def _game_action(game_or_id, action: str, *, by, **kw) -> dict:
    with transaction.atomic():
        game = lock_game(_game_id(game_or_id), by=by)
        require_arbiter(by, game.round.event)
        now = server_now(game.clock)
        if not (flag_if_due(game, now) and game.status == Game.Status.FINISHED):
            return _apply(game, action, by=by, **kw)
        refused = Conflict(
            "clock_action.flag_fell",
            flag_side=game.flag_side,
            at=game.flag_at.isoformat(),
            details={"game": selectors.game_state(game, now)},
        )
    raise refused


def _require_reason(reason: str, action: str) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise Invalid("clock_action.reason_required", action=action)
    return reason.strip()


def start_clocks(game_or_id, *, by, reason: str = "") -> dict:
    """Start the clock of a game (White's, or the side to move): the game is then running."""
    return _game_action(game_or_id, "start", by=by, reason=reason)


def pause_clocks(game_or_id, *, by, reason: str = "") -> dict:
    return _game_action(game_or_id, "pause", by=by, reason=reason)


def resume_clocks(game_or_id, *, by, reason: str = "") -> dict:
    return _game_action(game_or_id, "resume", by=by, reason=reason)


def adjust_clock(game_or_id, side: str, delta_ms: int, *, by, reason: str) -> dict:
    """Add (or take away, negative) `delta_ms` to `side`'s clock; its deadline moves as much."""
    if side not in ("white", "black"):
        raise Invalid("game.bad_side", side=side)
    if not isinstance(delta_ms, int) or isinstance(delta_ms, bool) or delta_ms == 0:
        raise Invalid("clock_action.bad_delta", delta_ms=delta_ms)
    return _game_action(
        game_or_id,
        "adjust",
        side=side,
        delta_ms=delta_ms,
        by=by,
        reason=_require_reason(reason, "adjust"),
    )


def set_clock_times(game_or_id, white_ms: int, black_ms: int, *, by, reason: str) -> dict:
    """Set what both clocks show (a faulty clock replaced, the times corrected)."""
    for name, value in (("white_ms", white_ms), ("black_ms", black_ms)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise Invalid("clock_action.bad_time", name=name, value=value)
    return _game_action(
        game_or_id,
        "set",
        white_ms=white_ms,
        black_ms=black_ms,
        by=by,
        reason=_require_reason(reason, "set the times of"),
    )


def round_clock_action(round_id: int, action: str, *, by, reason: str = "") -> dict:
    """Start, pause or resume the clocks of every game of a round still to be played.

    All games change in one transaction, each locked in id order (no deadlock with moves,
    which lock one game). Games that cannot take the action (a bye, a finished game, a clock
    already started/paused/running) are listed with the reason and left as they are.
    """
    if action not in ROUND_ACTIONS:
        raise Invalid(
            "clock_action.unknown_round_action", action=action, actions=list(ROUND_ACTIONS)
        )
    try:
        rnd = Round.objects.select_related("event").get(pk=round_id)
    except (Round.DoesNotExist, ValueError, TypeError):
        raise NotFound("round.not_found", round_id=round_id) from None
    require_arbiter(by, rnd.event)
    changed, skipped = [], []
    with transaction.atomic():
        game_ids = list(
            Game.objects.filter(round=rnd, white__isnull=False, black__isnull=False)
            .exclude(status=Game.Status.FINISHED)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        for game_id in game_ids:
            game = lock_game(game_id)
            flag_if_due(game, server_now(game.clock))
            try:
                with transaction.atomic():
                    _apply(game, action, by=by, reason=reason)
                changed.append(game_id)
            except Conflict as exc:
                skipped.append({"game": game_id, "code": exc.code, "reason": exc.message})
    return {"round": rnd.pk, "action": action, "changed": changed, "skipped": skipped}


def game_clock_action(
    game_id: int,
    *,
    action: str,
    by,
    reason: str = "",
    side: str | None = None,
    delta_ms: int | None = None,
    white_ms: int | None = None,
    black_ms: int | None = None,
) -> dict:
    """One clock action on one game, as the API names it (POST /api/games/{id}/clock)."""
    if action in ("start", "pause", "resume"):
        action_fn = {"start": start_clocks, "pause": pause_clocks, "resume": resume_clocks}
        return action_fn[action](game_id, by=by, reason=reason)
    if action == "adjust":
        if side is None or delta_ms is None:
            raise Invalid("clock_action.adjust_needs_side_and_delta")
        return adjust_clock(game_id, side, delta_ms, by=by, reason=reason)
    if action == "set":
        if white_ms is None or black_ms is None:
            raise Invalid("clock_action.set_needs_both")
        return set_clock_times(game_id, white_ms, black_ms, by=by, reason=reason)
    raise Invalid("clock_action.unknown", action=action, actions=list(GAME_ACTIONS))
