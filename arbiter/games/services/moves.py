"""Move entry (docs/design.md, "The path of a move")."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from arbiter import messages
from arbiter.errors import Conflict, Forbidden, Invalid
from arbiter.events.permissions import board_device, is_arbiter, player_side
from arbiter.games import selectors
from arbiter.games.models import Game, Move
from arbiter.games.services import arrival
from arbiter.infra import sqlrows
from arbiter.runtime.downtime import settle as settle_downtime
from clocks import clock as clockmath
from clocks.models import ClockLog
from clocks.timecontrol import TimeControl, TimeControlError
from rules import AmbiguousMove, IllegalMove, Position

from . import pending, presses
from .ending import automatic_reason, close_rounds, end_game, insert_ending_rows, result_of
from .flags import flag_if_due, on_commit_arm
from .locking import lock_game, save_clock, save_game, server_now

MAX_REQUEST_ID = 100
MAX_MOVE_TEXT = 200


def _timed(tag: str) -> bool:
    """A game of an event with a time control waits for its clock; "-" or "?" need none."""
    try:
        return TimeControl.parse(tag).timed
    except TimeControlError:
        return False


def _check_input(ply, move, request_id) -> None:
    if not isinstance(ply, int) or isinstance(ply, bool) or ply < 1:
        raise Invalid("move.bad_ply", ply=ply)
    if not isinstance(move, str) or not move.strip() or len(move) > MAX_MOVE_TEXT:
        raise Invalid("move.bad_move_text", move=move)
    if not isinstance(request_id, str) or not request_id or len(request_id) > MAX_REQUEST_ID:
        raise Invalid("move.bad_request_id", max_length=MAX_REQUEST_ID)


def _replay(game: Game, prior: Move, ply: int, move: str) -> dict:
    """The first answer to a request_id, for a retry of it (the same ply and move)."""
    if prior.ply != ply:
        raise Conflict(
            "move.request_id_other_ply",
            prior_ply=prior.ply,
            prior_notation=prior.notation,
            ply=ply,
            details={"game": selectors.game_state(game)},
        )
    if not _same_move(game, prior, move):
        # Not a retry: answering with the first move would tell the client its move stood.
        raise Conflict(
            "move.request_id_other_move",
            prior_ply=prior.ply,
            prior_notation=prior.notation,
            move=move,
            details={"game": selectors.game_state(game)},
        )
    return selectors.state_as_answered(prior)


def _same_move(game: Game, prior: Move, move: str) -> bool:
    """Whether `move` names the stored move `prior` (as written, or another way of writing
    it, e.g. a capture given with its intermediate squares)."""
    if move == prior.notation:
        return True
    before = (
        Move.objects.filter(game=game, ply=prior.ply - 1).values_list("fen_after", flat=True)
    ).first() or game.start_fen
    position = Position.from_fen(before)
    try:
        return position.move_text(position.parse_move(move)) == prior.notation
    except (AmbiguousMove, IllegalMove):
        return False


def _waits_for_claim(game: Game, record, now) -> bool:
    state = next(s for s in record.draw_rules() if s.applies)
    limit = 2 * state.limit if state.plies is not None else None
    return pending.draw_waits_for_claim(game, state.article, state.plies or 0, limit, now)


class _Refused:
    """A refusal decided inside the transaction that must commit first (the flag recorded)."""

    def __init__(self, error):
        self.error = error


def submit_move(
    game_id: int, *, ply: int, move: str, request_id: str, by, thinking_ms: int | None = None
) -> dict:
    """Play `move` as ply number `ply` of the game; return the game's state after it, with
    the move as stored under "move" (not the whole list of moves: GET has it).

    - Forbidden (403): `by` is neither an arbiter of the event nor a player of the game, or is
      the player who is not to move.
    - Conflict (409, details={"game": state}): `ply` is not the next ply, the game is over, the
      clock is not running, or the mover's time had run out (the flag is then recorded).
    - Invalid (422, details={"reason", "legal_moves"} and for an ambiguous capture
      {"candidates"}): the move is not legal in the stored position.
    - A repeated `request_id` gets the first answer again, whatever happened since.
    - `thinking_ms`: the mover's thinking time as the board's tablet measured it; the network
      lag it shows is credited up to the event's quota (presses.py).
    """
    _check_input(ply, move, request_id)
    presses.check_thinking(thinking_ms)
    settle_downtime()  # after an outage: the clocks are credited before this move is charged
    try:
        with transaction.atomic():
            answer = _submit_locked(
                game_id,
                ply=ply,
                move=move.strip(),
                request_id=request_id,
                by=by,
                thinking_ms=thinking_ms,
            )
    except IntegrityError:
        # The unique constraints (game, ply) and (game, request_id): nothing is stored twice.
        game = selectors.game_for_read(game_id)
        prior = Move.objects.filter(game=game, request_id=request_id).first()
        if prior is not None:
            raise Conflict(
                "move.request_id_other_ply",
                prior_ply=prior.ply,
                prior_notation=prior.notation,
                ply=ply,
                details={"game": selectors.game_state(game)},
            ) from None
        raise Conflict(
            "move.ply_stored_meanwhile",
            ply=ply,
            details={"game": selectors.game_state(game)},
        ) from None
    if isinstance(answer, _Refused):
        raise answer.error
    return answer


def _submit_locked(
    game_id: int, *, ply: int, move: str, request_id: str, by, thinking_ms=None
) -> dict | _Refused:
    """The path of one move under the game's lock (docs/design.md), step by step."""
    game = lock_game(game_id, by=by)
    arbiter, side = _mover(game, by)
    if ply <= game.ply:
        # A retry of an accepted move comes with its (now stale) ply. A request_id reused
        # for a new ply is caught by the unique constraint when the move is stored.
        prior = Move.objects.filter(game=game, request_id=request_id).first()
        if prior is not None:
            return _replay(game, prior, ply, move)
    now = server_now(game.clock)
    refused = _ended_before_the_move(game, now)
    if refused is not None:
        return refused
    rules_game = selectors.rules_game(game)
    turn = rules_game.position.turn.value
    _check_playable(game, ply, now, turn=turn, arbiter=arbiter, side=side)
    if game.acts_pending:  # an offer, a claim or an irregularity waits (services/pending.py)
        refusal = pending.before_move(game, turn, now)
        if refusal is not None:
            return _Refused(refusal)
    parsed, notation = _parse(rules_game.position, move, ply)
    refused = _charge_clock(game, now, turn, thinking_ms=thinking_ms, by=by)
    if isinstance(refused, _Refused):
        return refused
    lag_rows = refused
    fields, endings = _play(game, rules_game, parsed, ply, turn, now)
    answer = _store(
        game,
        rules_game,
        fields,
        endings,
        ply=ply,
        notation=notation,
        now=now,
        request_id=request_id,
        by=by,
        lag_rows=lag_rows,
    )
    on_commit_arm(game)
    return answer


def _mover(game: Game, by) -> tuple[bool, str | None]:
    """(whether `by` is an arbiter of the event, the side `by` plays in this game or None)."""
    event = game.round.event
    arbiter = is_arbiter(by, event)
    side = player_side(by, game)
    if not arbiter and side is None:
        if board_device(by, game):
            # The board's tablet: the side to move moves (it has no arbiter's rights: the
            # flag only lifts the check of whose turn it is).
            return True, None
        raise Forbidden("move.only_arbiter_or_player", event=event)
    return arbiter, side


def _ended_before_the_move(game: Game, now) -> _Refused | None:
    """The lazy checks: a flag that fell or a late arrival ends the game before the move is
    looked at; the refusal commits with that ending."""
    if flag_if_due(game, now):
        # The clock is the authority: the mover's time had run out before the move arrived.
        return _Refused(
            Conflict(
                "move.time_ran_out_flag_recorded",
                flag_side=game.flag_side,
                at=game.flag_at.isoformat(),
                details={"game": selectors.game_state(game, now)},
            )
        )
    late = arrival.forfeit_locked_if_late(game, now)
    if late is not None:
        # FMJD 10.5 (competition rules): a player later than the event's delay has lost.
        return _Refused(
            Conflict(
                "move.lost_by_late_arrival",
                result=game.result,
                minutes=late.minutes,
                details={"game": selectors.game_state(game, now)},
            )
        )
    return None


def _check_playable(game: Game, ply: int, now, *, turn: str, arbiter: bool, side) -> None:
    """Conflict or Forbidden unless a move may be played now: the game open, `ply` the next
    ply, the mover's turn, no flag pending, the clock started and running."""
    if game.status == Game.Status.FINISHED:
        raise Conflict(
            "move.game_over",
            result=game.result,
            termination=game.termination,
            details={"game": selectors.game_state(game, now)},
        )
    if ply != game.ply + 1:
        raise Conflict(
            "move.not_next_ply",
            ply=ply,
            next_ply=game.ply + 1,
            game_ply=game.ply,
            details={"game": selectors.game_state(game, now)},
        )
    if not arbiter and side != turn:
        raise Forbidden("move.not_your_turn", turn=turn, side=side)
    if game.flag_side:
        raise Conflict(
            "move.flag_fell",
            flag_side=game.flag_side,
            at=game.flag_at.isoformat(),
            details={"game": selectors.game_state(game, now)},
        )
    _check_clock(game, now)


def _check_clock(game: Game, now) -> None:
    clock = game.clock
    if clock is None and _timed(game.round.event.time_control):
        raise Conflict(
            "move.clocks_not_started",
            details={"game": selectors.game_state(game, now)},
        )
    if clock is not None:
        if not clock.started:
            raise Conflict(
                "move.clocks_not_started",
                details={"game": selectors.game_state(game, now)},
            )
        if clock.paused:
            raise Conflict(
                "move.clocks_paused",
                details={"game": selectors.game_state(game, now)},
            )


def _parse(position: Position, move: str, ply: int) -> tuple[object, str]:
    """The move and its notation as stored. FMJD 3-4 (legal moves, majority capture): the
    engine is the judge."""
    try:
        parsed = position.parse_move(move)
    except AmbiguousMove as exc:
        raise Invalid(
            "move.ambiguous_at_ply",
            move=move,
            ply=ply,
            reason=exc,
            details={
                "reason": messages.words(exc),
                "candidates": list(exc.candidates),
                "legal_moves": list(exc.legal),
            },
        ) from None
    except IllegalMove as exc:
        raise Invalid(
            "move.illegal_at_ply",
            move=move,
            ply=ply,
            reason=exc,
            details={"reason": messages.words(exc), "legal_moves": list(exc.legal)},
        ) from None
    return parsed, position.move_text(parsed)


def _charge_clock(game: Game, now, turn: str, *, thinking_ms=None, by=None) -> _Refused | list:
    """Press the mover's clock at the server's `now` (in memory, presses.charge: the one way
    a press is charged); the clock log's lag line to write, if any."""
    clock = game.clock
    if clock is None:
        return []
    try:
        rows = presses.charge(game, now, thinking_ms=thinking_ms, by=by)
    except clockmath.FlagFallen:
        # flag_if_due() said no, press() says yes: the same instant; the clock rules.
        flag_if_due(game, now)
        return _Refused(
            Conflict(
                "move.time_ran_out",
                side=game.flag_side or turn,
                details={"game": selectors.game_state(game, now)},
            )
        )
    return rows


def _play(game: Game, rules_game, parsed, ply: int, turn: str, now) -> tuple[list[str], list]:
    """Play the move on the game in memory; (the game's fields to save, its ending if any)."""
    rules_game.push(parsed)
    game.fen = rules_game.position.fen()
    game.ply = ply
    game.rules_state = rules_game.to_state()
    fields = ["fen", "ply", "rules_state", "updated_at"]
    fields += arrival.note_arrival_by_move(game, turn, now)  # a move is an arrival
    if game.status == Game.Status.SCHEDULED:
        game.status = Game.Status.RUNNING
        game.started_at = game.started_at or now
        fields += ["status", "started_at"]
    outcome = rules_game.outcome()
    if outcome is not None and outcome.winner is None and _waits_for_claim(game, rules_game, now):
        outcome = None  # the event has this draw rule wait for a claim or a ruling
    if outcome is None:
        return fields, []
    # FMJD 7.2.2 / 7.2.3 (blocked, no pieces) and 6.1-6.4 (draws the arbiter must declare:
    # "la fin de partie sera considérée égale"): the game ends with this move.
    ending = end_game(
        game,
        result_of(outcome.score),
        outcome.termination,
        now=now,
        reason=automatic_reason(outcome.termination),
    )
    return fields + ending.fields, [ending]


def _store(
    game, rules_game, fields, endings, *, ply, notation, now, request_id, by, lag_rows=()
) -> dict:
    """Write the clock, the game, the Move row and the ending's rows (plain writes whose
    counts nobody reads: one statement on PostgreSQL), then the round; the answer."""
    clock = game.clock
    white_ms = black_ms = None
    if clock is not None:
        white_ms, black_ms = clockmath.remaining(clock.state, clock.tc, now)
    answer = selectors.game_state(game, now, record=rules_game, with_moves=False)
    record = selectors.move_record(ply, notation, game.fen, white_ms, black_ms, now)
    with sqlrows.together():
        if clock is not None:
            save_clock(clock)
        save_game(game, fields)
        sqlrows.insert_row(
            Move,
            {
                "game": game.pk,
                "ply": ply,
                "notation": notation,
                "fen_after": game.fen,
                "white_ms": white_ms,
                "black_ms": black_ms,
                "played_at": now,
                "request_id": request_id,
                "by": by.pk if getattr(by, "is_authenticated", False) else None,
                "response": answer,
            },
        )
        insert_ending_rows(endings)
        for row in lag_rows:
            sqlrows.insert_row(ClockLog, row)
    close_rounds(endings)
    return {**answer, "move": record}
