"""API endpoints for games: state, moves, clock actions, arrival, results (docs/api.md).
Thin: services and selectors hold the logic; domain errors become HTTP statuses in
arbiter/api.py."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from django.utils import timezone
from ninja import Field, Router, Schema
from ninja.decorators import decorate_view
from ninja.responses import Status

from arbiter.accounts.auth import API_AUTH, READ_AUTH
from arbiter.games import selectors, services
from arbiter.games.services import arrival, claims, irregularities, offers
from arbiter.infra.gate import db_gate
from arbiter.validation import Id, Reason, Text

router = Router(tags=["games"])

#: A game never gets near this many plies; bounded so that no ply overflows its column.
MAX_PLY = 10_000
#: A clock shows at most two days; an adjustment moves it by at most one (integer ms).
MAX_CLOCK_MS = 2 * 24 * 3600 * 1000
MAX_ADJUST_MS = 24 * 3600 * 1000


class MoveIn(Schema):
    ply: int = Field(..., ge=1, le=MAX_PLY)
    move: Text(200, min_length=1)  # Move.notation
    request_id: Text(100, min_length=1)  # Move.request_id
    thinking_ms: int | None = Field(
        None, ge=0, le=MAX_CLOCK_MS, description="the board's tablet: its own measure (lag credit)"
    )


class GameClockIn(Schema):
    action: Literal["start", "pause", "resume", "adjust", "set"]
    side: Literal["white", "black"] | None = None
    delta_ms: int | None = Field(None, ge=-MAX_ADJUST_MS, le=MAX_ADJUST_MS)
    white_ms: int | None = Field(None, ge=0, le=MAX_CLOCK_MS)
    black_ms: int | None = Field(None, ge=0, le=MAX_CLOCK_MS)
    reason: Reason = ""


class RoundClockIn(Schema):
    action: Literal["start", "pause", "resume"]
    reason: Reason = ""


@router.get("/games/{int:game_id}", auth=READ_AUTH)
@decorate_view(db_gate)
def get_game(request, game_id: Id):
    """The game's state at the server's time (a flag that fell is recorded on the way)."""
    now = timezone.now()
    game = services.flag_if_overdue(selectors.readable_game(game_id, by=request.user), now)
    return selectors.game_state(game, now)


@router.post("/games/{int:game_id}/moves", auth=API_AUTH, response={201: dict})
@decorate_view(db_gate)
def post_move(request, game_id: Id, payload: MoveIn):
    """Play a move (PDN, e.g. `32-28`, `20x38x21x8x35`) as ply `ply`. 201: the game's state
    after it, with the move as stored under `move` (GET /games/{id} lists every move).
    409: stale ply, game over, clock stopped or time out, with the current state under `game`.
    422: not legal, with the reason and the legal moves. A repeated `request_id` gets the first
    answer again."""
    state = services.submit_move(
        game_id,
        ply=payload.ply,
        move=payload.move,
        request_id=payload.request_id,
        by=request.user,
        thinking_ms=payload.thinking_ms,
    )
    from arbiter.api import api  # the project's API, which includes this router

    # Rendered as is: validating the state against `dict` made pydantic copy it (every move).
    return api.create_response(request, state, status=201)


@router.post("/games/{int:game_id}/clock", auth=API_AUTH)
@decorate_view(db_gate)
def post_game_clock(request, game_id: Id, payload: GameClockIn):
    return services.game_clock_action(game_id, **payload.dict(), by=request.user)


@router.get("/games/{int:game_id}/clock/log", auth=READ_AUTH)
@decorate_view(db_gate)
def get_clock_log(request, game_id: Id):
    """The clock's log, oldest first (arbiters only): each start, pause, resume, adjustment,
    setting of the times and flag, when, by whom, why, and both times just after it."""
    return selectors.read_clock_log(game_id, by=request.user)


@router.post("/rounds/{int:round_id}/clock", auth=API_AUTH)
@decorate_view(db_gate)
def post_round_clock(request, round_id: Id, payload: RoundClockIn):
    return services.round_clock_action(
        round_id, payload.action, reason=payload.reason, by=request.user
    )


# -- arrival at the board (FMJD 10.5) ----------------------------------------------------


class ArrivalIn(Schema):
    side: Literal["white", "black"]


class ArrivalOut(Schema):
    game: int
    side: str | None
    white_arrived_at: datetime | None
    black_arrived_at: datetime | None
    round_start: datetime | None
    deadline: datetime | None
    late_arrival_minutes: int
    result: str
    status: str


def _answer(game, side: str | None) -> dict:
    state = selectors.arrival_state(game)
    return {
        "game": game.pk,
        "side": side,
        "result": game.result,
        "status": game.status,
        **{k: state[k] for k in ArrivalOut.model_fields if k in state},
    }


@router.get("/games/{game_id}/arrival", response=ArrivalOut, auth=READ_AUTH)
def get_arrival(request, game_id: Id):
    """Who has arrived, the round's start and the arrival limit (FMJD 10.5)."""
    return _answer(selectors.readable_game(game_id, by=request.user), None)


@router.post("/games/{game_id}/arrival", response=ArrivalOut, auth=API_AUTH)
@decorate_view(db_gate)
def mark_arrival(request, game_id: Id, payload: ArrivalIn):
    """Mark White or Black present (arbiters). 409 once the player has lost by forfeit."""
    return _answer(arrival.mark_arrived(game_id, payload.side, by=request.user), payload.side)


# -- results, forfeits and their corrections -----------------------------------------------


class ResultIn(Schema):
    result: Text(4) = Field(
        ..., description='"2-0" "1-1" "0-2" "+/-" "-/+" "-/-" "bye" or "" (clear)'
    )
    termination: Text(20) = ""
    reason: Reason = ""


class ForfeitIn(Schema):
    absent: Literal["white", "black", "both"]
    reason: Reason


class GameResultOut(Schema):
    id: int
    round: int
    board: int
    white_id: int | None
    black_id: int | None
    result: str
    termination: str
    status: str


def _result_answer(game) -> dict:
    return {
        "id": game.pk,
        "round": game.round.number,
        "board": game.board,
        "white_id": game.white_id,
        "black_id": game.black_id,
        "result": game.result,
        "termination": game.termination,
        "status": game.status,
    }


@router.put("/games/{game_id}/result", response=GameResultOut, auth=API_AUTH)
@decorate_view(db_gate)
def set_result(request, game_id: Id, payload: ResultIn):
    """Enter, correct (with a reason) or clear ("") the result of a board (arbiters)."""
    game = services.set_result(
        selectors.game_for_result(game_id, request.user),
        payload.result,
        by=request.user,
        reason=payload.reason,
        termination=payload.termination,
    )
    return _result_answer(game)


@router.post("/games/{game_id}/forfeit", response=GameResultOut, auth=API_AUTH)
@decorate_view(db_gate)
def forfeit(request, game_id: Id, payload: ForfeitIn):
    """The absent side(s) lose without playing (arbiters; a reason is required)."""
    game = services.forfeit(
        selectors.game_for_result(game_id, request.user),
        absent=payload.absent,
        by=request.user,
        reason=payload.reason,
    )
    return _result_answer(game)


# -- offers, claims, resignations, rulings, irregularities (FMJD 5-7) ----------------------


class SideIn(Schema):
    side: Literal["white", "black"] | None = Field(
        None, description="The player acted for (an arbiter entering it); a player: their own."
    )


class ResignIn(SideIn):
    reason: str = ""


class ClaimIn(SideIn):
    article: Literal["6.1", "6.2", "6.3", "6.4", "flag"]
    request_id: str
    flag_side: Literal["white", "black"] | None = None


class RulingIn(Schema):
    result: Literal["2-0", "1-1", "0-2"]
    termination: Literal["refused_rules", "no_win_possible", "arbiter"]
    reason: str


class IrregularityIn(Schema):
    kind: str
    side: Literal["white", "black"] = Field(..., description="Who committed it.")
    fen_on_board: str = ""
    note: str = ""


class ChoiceIn(Schema):
    choice: Literal["rectify", "maintain"]
    reason: str = ""


class AcceptByMoveIn(Schema):
    move: str
    request_id: str


class AccidentIn(Schema):
    reason: str


@router.get("/games/{int:game_id}/acts", auth=API_AUTH)
@decorate_view(db_gate)
def get_acts(request, game_id: int):
    """Every act on the game with who, when, what and why (arbiters), and what is pending."""
    return selectors.read_acts(game_id, by=request.user)


@router.post("/games/{int:game_id}/offers", auth=API_AUTH, response={201: dict})
@decorate_view(db_gate)
def post_offer(request, game_id: int, payload: SideIn):
    """Offer a draw after one's move (FMJD 7.3.1; the event's procedure applies)."""
    return Status(201, offers.offer_draw(game_id, by=request.user, side=payload.side))


@router.post("/games/{int:game_id}/offers/accept", auth=API_AUTH)
@decorate_view(db_gate)
def post_offer_accept(request, game_id: int, payload: SideIn):
    """The opponent accepts the pending offer: drawn 1-1 (FMJD 7.3.1)."""
    return offers.accept_draw(game_id, by=request.user, side=payload.side)


@router.post("/games/{int:game_id}/resign", auth=API_AUTH)
@decorate_view(db_gate)
def post_resign(request, game_id: int, payload: ResignIn):
    """Resign (FMJD 7.2.1): the player, or the arbiter for the side given."""
    return offers.resign(game_id, by=request.user, side=payload.side, reason=payload.reason)


@router.post("/games/{int:game_id}/ruling", auth=API_AUTH)
@decorate_view(db_gate)
def post_ruling(request, game_id: int, payload: RulingIn):
    """The arbiter ends the game with a written reason (FMJD 7.2.4, 7.3.3, any result)."""
    return offers.rule(
        game_id,
        result=payload.result,
        termination=payload.termination,
        reason=payload.reason,
        by=request.user,
    )


@router.post("/games/{int:game_id}/claims", auth=API_AUTH, response={202: dict})
@decorate_view(db_gate)
def post_claim(request, game_id: int, payload: ClaimIn):
    """Claim a draw (FMJD 6.1-6.4) or the opponent's flag. 202: stored, decided by a task;
    GET /games/{id}/claims/{claim_id} gives the decision. A repeated request_id answers with
    the claim it made."""
    return Status(
        202,
        claims.make_claim(
            game_id,
            article=payload.article,
            request_id=payload.request_id,
            by=request.user,
            side=payload.side,
            flag_side=payload.flag_side,
        ),
    )


@router.get("/games/{int:game_id}/claims/{int:claim_id}", auth=API_AUTH)
@decorate_view(db_gate)
def get_claim(request, game_id: int, claim_id: int):
    """A claim: pending, or granted / refused with its explanation."""
    return claims.read_claim(game_id, claim_id, by=request.user)


@router.post("/games/{int:game_id}/irregularities", auth=API_AUTH, response={201: dict})
@decorate_view(db_gate)
def post_irregularity(request, game_id: int, payload: IrregularityIn):
    """The arbiter records an irregularity of FMJD 5.4 (with the board's position as a FEN
    when it differs from the record's); the opponent then chooses."""
    return Status(
        201, irregularities.record_irregularity(game_id, **payload.dict(), by=request.user)
    )


@router.post("/games/{int:game_id}/irregularities/{int:irregularity_id}/choice", auth=API_AUTH)
@decorate_view(db_gate)
def post_irregularity_choice(request, game_id: int, irregularity_id: int, payload: ChoiceIn):
    """The opponent's choice (FMJD 5.4): rectify or maintain; entered by them or the arbiter."""
    return irregularities.choose(
        game_id, irregularity_id, choice=payload.choice, by=request.user, reason=payload.reason
    )


@router.post("/games/{int:game_id}/irregularities/{int:irregularity_id}/accept", auth=API_AUTH)
@decorate_view(db_gate)
def post_irregularity_accept(request, game_id: int, irregularity_id: int, payload: AcceptByMoveIn):
    """The opponent's move after the irregularity (FMJD 5.7): maintained, and the move played."""
    return irregularities.accept_by_move(
        game_id, irregularity_id, move=payload.move, request_id=payload.request_id, by=request.user
    )


@router.post("/games/{int:game_id}/accident", auth=API_AUTH)
@decorate_view(db_gate)
def post_accident(request, game_id: int, payload: AccidentIn):
    """An accident noticed at once (FMJD 5.5): the position put back, logged, no ruling."""
    return irregularities.restore_after_accident(game_id, by=request.user, reason=payload.reason)


@router.post("/games/{int:game_id}/annul", auth=API_AUTH)
@decorate_view(db_gate)
def post_annul(request, game_id: int, payload: AccidentIn):
    """The board was wrongly placed (FMJD 5.1): the game restarts, clocks reset (arbiters)."""
    return irregularities.annul_and_restart(game_id, by=request.user, reason=payload.reason)
