"""A press of the clock: the one way a press is charged, whether it carries a move (the move
entry, moves.py) or, where the event does not require moves on the tablet, comes alone (the
moves are filled in later from the notation sheets, FMJD 10.2).

Network lag (as lidraughts and lichess do): the tablet measures the thinking time itself and
sends it with the press; the server credits the difference from its own figure (the time
since the clock started for this move, which includes the press's transit) up to the event's
quota per player and game (`Event.lag_quota_ms`, 5000 ms by default). A credit is never
negative, never more than what is left of the quota, never more than the server's own figure,
and each one is a "lag" line of the clock's log. The opponent's clock starts at the press as
the tablet saw it (the players sit at the same board: the opponent's thinking began then),
so the time of the game stays the time that passed, and a lying tablet moves at most the
quota from one side to the other. The server's clock stays the authority for flags: a press
that arrives after the deadline is too late, whatever its credit.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from arbiter.errors import Conflict, Forbidden, Invalid
from arbiter.games import selectors
from arbiter.games.models import Game
from arbiter.infra import sqlrows
from arbiter.runtime.downtime import settle as settle_downtime
from clocks import clock as clockmath
from clocks.models import ClockLog

from . import pending
from .flags import on_commit_arm
from .locking import lock_game, save_clock, save_game, server_now

#: A thinking time the tablet may report (two days, as a clock shows at most).
MAX_THINKING_MS = 2 * 24 * 3600 * 1000
MAX_REQUEST_ID = 100


def check_thinking(thinking_ms) -> None:
    if thinking_ms is None:
        return
    if (
        not isinstance(thinking_ms, int)
        or isinstance(thinking_ms, bool)
        or not 0 <= thinking_ms <= MAX_THINKING_MS
    ):
        raise Invalid(
            "press.bad_thinking",
            value=thinking_ms,
            max=MAX_THINKING_MS,
            details={"field": "thinking_ms"},
        )


def charge(game: Game, now, *, thinking_ms: int | None, by) -> list[dict]:
    """Press the running side's clock of the locked `game` at the server's `now` (in memory),
    crediting network lag from `thinking_ms` (the tablet's figure, or None). The clock log's
    lag line, if any, is returned for the caller to write with its other rows. Raises
    clockmath.FlagFallen when the side's time had run out (the caller records the flag)."""
    clock = game.clock
    before, tc = clock.state, clock.tc
    side = before.running
    if side is None:
        raise clockmath.ClockError("clock.not_running")
    credited_field = f"lag_credit_{side.value}_ms"
    credited = getattr(clock, credited_field)
    server_ms = clockmath.elapsed_ms(before, now)
    quota_left = max(0, game.round.event.lag_quota_ms - credited)
    credit = clockmath.lag_credit(server_ms, thinking_ms, quota_left)
    after = clockmath.press(before, tc, now, credit)
    clock.apply(after)
    if not credit:
        return []
    setattr(clock, credited_field, credited + credit)
    return [
        ClockLog.row(
            clock.pk,
            ClockLog.Action.LAG,
            before,
            after,
            at=now,
            side=side,
            delta_ms=credit,
            reason=(
                f"network lag: the server counted {server_ms} ms, the tablet {thinking_ms} ms; "
                f"{credited + credit} of {game.round.event.lag_quota_ms} ms credited this game"
            ),
            user_id=by.pk if getattr(by, "is_authenticated", False) else None,
        )
    ]


# --- a press without a move ------------------------------------------------------------------


def _press_number(state) -> int:
    return sum(state.moves) + 1


def _check_input(press, request_id, thinking_ms) -> None:
    if not isinstance(press, int) or isinstance(press, bool) or press < 1:
        raise Invalid("move.bad_ply", ply=press)
    if not isinstance(request_id, str) or not request_id or len(request_id) > MAX_REQUEST_ID:
        raise Invalid("move.bad_request_id", max_length=MAX_REQUEST_ID)
    check_thinking(thinking_ms)


def submit_press(
    game_id: int, *, press: int, request_id: str, thinking_ms: int | None = None, by
) -> dict:
    """A press alone (the event does not require moves on the tablet): the running side's
    clock is charged and the opponent's starts; `press` is the number of this press in the
    game (the moves both sides made, plus one), as `ply` is for a move: a stale one is 409.
    A repeated `request_id` is applied once: its retry gets the game's state and the press.
    """
    _check_input(press, request_id, thinking_ms)
    settle_downtime()
    try:
        with transaction.atomic():
            answer = _press_locked(
                game_id, press=press, request_id=request_id, thinking_ms=thinking_ms, by=by
            )
    except IntegrityError:
        # (clock, request_id) is unique: the same press raced itself; the first one stands.
        game = selectors.game_for_read(game_id)
        return _replayed(game, request_id, press)
    if isinstance(answer, Conflict):
        raise answer  # the flag recorded on the way has committed
    return answer


def _press_locked(game_id: int, *, press: int, request_id: str, thinking_ms, by):
    from .moves import _check_clock, _ended_before_the_move, _mover

    game = lock_game(game_id, by=by)
    arbiter, side = _mover(game, by)
    if game.clock_id is not None:
        prior = ClockLog.objects.filter(clock_id=game.clock_id, request_id=request_id).first()
        if prior is not None:
            return _replay(game, prior, press)
    now = server_now(game.clock)
    refused = _ended_before_the_move(game, now)
    if refused is not None:
        return refused.error
    if game.status == Game.Status.FINISHED:
        raise Conflict(
            "move.game_over",
            result=game.result,
            termination=game.termination,
            details={"game": selectors.game_state(game, now)},
        )
    if game.round.event.tablet_moves_required:
        raise Conflict("press.moves_required", details={"game": selectors.game_state(game, now)})
    _check_clock(game, now)
    state = game.clock.state if game.clock is not None else None
    if state is None or state.running is None:
        raise Conflict("press.clock_not_running", details={"game": selectors.game_state(game, now)})
    if press != _press_number(state):
        raise Conflict(
            "press.not_next",
            press=press,
            next_press=_press_number(state),
            details={"game": selectors.game_state(game, now)},
        )
    running = state.running.value
    side = running if side is None or arbiter else side
    if side != running:
        raise Forbidden("press.not_your_clock", running=running, side=side)
    if game.acts_pending:
        refusal = pending.before_move(game, running, now)
        if refusal is not None:
            return refusal
    before = game.clock.state
    try:
        rows = charge(game, now, thinking_ms=thinking_ms, by=by)
    except clockmath.FlagFallen:
        from .flags import flag_if_due

        flag_if_due(game, now)
        return Conflict(
            "move.time_ran_out",
            side=game.flag_side or running,
            details={"game": selectors.game_state(game, now)},
        )
    fields = []
    if game.status == Game.Status.SCHEDULED:
        game.status, game.started_at = Game.Status.RUNNING, game.started_at or now
        fields += ["status", "started_at"]
    user_id = by.pk if getattr(by, "is_authenticated", False) else None
    rows.insert(
        0,
        ClockLog.row(
            game.clock.pk,
            ClockLog.Action.PRESS,
            before,
            game.clock.state,
            at=now,
            side=running,
            reason=f"press {press} without a move (the move is filled in from the sheets)",
            user_id=user_id,
            request_id=request_id,
        ),
    )
    with sqlrows.together():
        save_clock(game.clock)
        save_game(game, fields)
        for row in rows:
            sqlrows.insert_row(ClockLog, row)
    on_commit_arm(game)
    return _answer(game, now, press, running, rows)


def _answer(game: Game, now, press: int, side: str, rows: list[dict]) -> dict:
    credit = sum(r["delta_ms"] or 0 for r in rows if r["action"] == ClockLog.Action.LAG)
    return {
        **selectors.game_state(game, now),
        "press": {"number": press, "side": side, "lag_credit_ms": credit},
    }


def _replay(game: Game, prior: ClockLog, press: int) -> dict:
    prior_press = sum(prior.before.get("moves", (0, 0))) + 1
    if prior_press != press:
        raise Conflict(
            "press.request_id_other_press",
            prior_press=prior_press,
            press=press,
            details={"game": selectors.game_state(game)},
        )
    return {
        **selectors.game_state(game),
        "press": {"number": press, "side": prior.side, "replayed": True},
    }


def _replayed(game: Game, request_id: str, press: int) -> dict:
    prior = ClockLog.objects.filter(clock_id=game.clock_id, request_id=request_id).first()
    if prior is None:
        raise Conflict("move.ply_stored_meanwhile", ply=press)
    return _replay(game, prior, press)
