"""Reads on games, all of them (HackSoft selectors): a game as a reader may see it, its state
JSON as the API and the pages show it (docs/api.md), its clock's log, and its players'
arrival. The lazy flag check a read makes (docs/design.md, Deadlines) is a write: the API
calls services.flag_if_overdue() between readable_game() and game_state()."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import connection
from django.db.models import Min
from django.utils import timezone

from arbiter.errors import Forbidden, NotFound
from arbiter.events.models import Round
from arbiter.events.permissions import require_arbiter, require_view_round
from arbiter.events.selectors import get_round
from arbiter.games.models import Game, Move
from arbiter.infra import sqlrows
from clocks import clock as clockmath
from rules import Game as RulesGame


def rules_game(game: Game) -> RulesGame:
    """The engine's game record, restored from the stored state (no replay of the moves)."""
    if game.rules_state:
        return RulesGame.from_state(game.rules_state)
    return RulesGame(game.start_fen)


_MOVES_SQL = (
    f"SELECT ply, notation, fen_after, white_ms, black_ms, played_at FROM {Move._meta.db_table}"
    " WHERE game_id = %s ORDER BY ply"
)


def move_record(ply, notation, fen_after, white_ms, black_ms, played_at: datetime) -> dict:
    """One move as the state's "moves" list and a move's answer show it."""
    return {
        "ply": ply,
        "notation": notation,
        "fen_after": fen_after,
        "white_ms": white_ms,
        "black_ms": black_ms,
        "played_at": played_at.isoformat(),
    }


def move_list(game_id: int) -> list[dict]:
    """The moves of a game in order (one plain query: it runs on every read)."""
    with connection.cursor() as cursor:
        cursor.execute(_MOVES_SQL, [game_id])
        rows = cursor.fetchall()
    return [move_record(*row[:5], sqlrows.convert(Move, "played_at", row[5])) for row in rows]


def _player(player) -> dict | None:
    if player is None:
        return None
    return {"id": player.pk, "name": str(player)}


def clock_state(game: Game, now: datetime) -> dict | None:
    clock = game.clock
    if clock is None:
        return None
    state, tc = clock.state, clock.tc
    white_ms, black_ms = clockmath.remaining(state, tc, max(now, clock.running_since or now))
    return {
        "time_control": clock.time_control,
        "white_ms": white_ms,
        "black_ms": black_ms,
        "running": state.running.value if state.running and not state.paused else None,
        "paused": state.paused,
        "started": state.started,
        "deadline": clock.deadline.isoformat() if clock.deadline else None,
        "server_time": now.isoformat(),
        # The running side's time on this move so far at server_time (the tablet measures
        # its own thinking time from it when it did not see the press that started it).
        "thinking_ms": clockmath.elapsed_ms(state, max(now, clock.running_since or now)),
        "moves": {"white": state.moves[0], "black": state.moves[1]},
        "period": {"white": state.period[0], "black": state.period[1]},
    }


def game_state(
    game: Game,
    now: datetime | None = None,
    *,
    record: RulesGame | None = None,
    with_moves: bool = True,
) -> dict:
    """The state of `game` at `now` (the server's time), as GET /api/games/{id} returns it."""
    now = now or timezone.now()
    record = record if record is not None else rules_game(game)
    position = record.position
    finished = game.status == Game.Status.FINISHED
    legal = [] if finished else [position.move_text(m) for m in position.legal_moves()]
    state = {
        "id": game.pk,
        "round": game.round_id,
        "board": game.board,
        "white": _player(game.white),
        "black": _player(game.black),
        "status": game.status,
        "result": game.result,
        "termination": game.termination,
        "flag": (
            {"side": game.flag_side, "at": game.flag_at.isoformat() if game.flag_at else None}
            if game.flag_side
            else None
        ),
        "ply": game.ply,
        "fen": game.fen,
        "turn": position.turn.value,
        "legal_moves": legal,
        "clock": clock_state(game, now),
        "draw_state": record.draw_state(),
        # FMJD 6.1-6.4, each: where its counter stands, whether it applies (rules.claims)
        "draw_rules": [rule.to_dict() for rule in record.draw_rules()],
        "acts_pending": game.acts_pending,
    }
    if with_moves:
        state["moves"] = move_list(game.pk)
    return state


def state_as_answered(move: Move) -> dict:
    """The answer given when `move` was accepted (for a retry of its request_id)."""
    record = move_record(
        move.ply, move.notation, move.fen_after, move.white_ms, move.black_ms, move.played_at
    )
    return {**move.response, "move": record}


def game_for_read(game_id: int) -> Game:
    return Game.objects.select_related("round__event", "white", "black", "clock").get(pk=game_id)


def _game(game_id: int) -> Game:
    try:
        return game_for_read(game_id)
    except Game.DoesNotExist:
        raise NotFound("game.not_found", game_id=game_id) from None


def readable_game(game_id: int, *, by) -> Game:
    """The game for `by` when they may read its round (permissions.can_view_round: published
    rounds of visible events for all, drafts for their arbiters). A game of a draft round or
    event does not exist for the public (404, not 403: its sequential id tells nothing)."""
    game = _game(game_id)
    require_view_round(by, game.round, NotFound("game.not_found", game_id=game_id))
    return game


def read_clock_log(game_id: int, *, by) -> dict:
    """The clock's log of a game (every start, pause, adjustment, flag and stop, with who and
    why); arbiters of the event only."""
    game = _game(game_id)
    require_arbiter(by, game.round.event)
    return {"game": game.pk, "entries": clock_log(game)}


def read_acts(game_id: int, *, by) -> dict:
    """The record of every act on a game (offers, claims, resignations, irregularities and
    choices, rulings), oldest first, and what is pending; arbiters of the event only."""
    game = _game(game_id)
    require_arbiter(by, game.round.event)
    return game_acts(game)


def read_pending(game_id: int, *, by) -> dict:
    """What the players at the board act on: the draw offers, claims and irregularities of
    the game (their status, not the record's reasons); the game's players, its tablet and the
    arbiters."""
    from arbiter.events.permissions import board_device, is_arbiter, player_side

    game = _game(game_id)
    if not (board_device(by, game) or player_side(by, game) or is_arbiter(by, game.round.event)):
        raise Forbidden("act.only_arbiter_or_player", event=game.round.event)
    acts = game_acts(game)
    return {k: acts[k] for k in ("game", "offers", "claims", "irregularities")}


def flag_overdue(game: Game, now: datetime) -> bool:
    """True when the running clock is past its deadline and no flag is recorded yet."""
    clock = game.clock
    return bool(
        clock is not None
        and clock.deadline is not None
        and clock.deadline <= now
        and game.status != Game.Status.FINISHED
        and not game.flag_side
    )


def clock_log(game: Game) -> list[dict]:
    """Every line of the game's clock log, oldest first: what was done, by whom (None: the
    system, e.g. a flag), why, and both times just after it."""
    clock = game.clock
    if clock is None:
        return []
    tc = clock.tc
    entries = []
    for line in clock.log.select_related("user").order_by("at", "pk"):
        after = clockmath.ClockState.from_dict(line.after)
        white_ms, black_ms = clockmath.remaining(
            after, tc, max(line.at, after.running_since or line.at)
        )
        entries.append(
            {
                "at": line.at.isoformat(),
                "action": line.action,
                "side": line.side or None,
                "delta_ms": line.delta_ms,
                "reason": line.reason,
                "by": line.user.username if line.user else None,
                "white_ms": white_ms,
                "black_ms": black_ms,
            }
        )
    return entries


def game_for_result(game_id: int, user) -> Game:
    """The game whose result `user` would enter: NotFound when it or its round is not
    visible to them (a draft round only for its arbiters)."""
    game = Game.objects.select_related("round__event").filter(pk=game_id).first()
    if game is None:
        raise NotFound("game.not_found", game_id=game_id)
    get_round(game.round_id, user)
    return game


# -- arrival at the board (FMJD 10.5; the forfeits: services/arrival.py) ----------------


@dataclass(frozen=True)
class ArrivalLimit:
    """When the players of one game had to be at the board."""

    round_start: datetime
    minutes: int

    @property
    def deadline(self) -> datetime:
        return self.round_start + timedelta(minutes=self.minutes)


def round_start(round_: Round) -> datetime | None:
    """When the round began: its clocks' first start, else its scheduled start."""
    started = round_.games.filter(started_at__isnull=False).aggregate(first=Min("started_at"))
    return started["first"] or round_.scheduled_start


def arrival_limit(game: Game, *, start: datetime | None = None) -> ArrivalLimit | None:
    """The arrival limit of `game`, or None while its round has no start."""
    start = start or round_start(game.round)
    if start is None:
        return None
    return ArrivalLimit(start, game.round.event.late_arrival_minutes)


def arrival_state(game: Game, now: datetime | None = None) -> dict:
    """For pages and the API: who has arrived, and until when they may."""
    now = now or timezone.now()
    limit = arrival_limit(game)
    return {
        "white_arrived_at": game.white_arrived_at,
        "black_arrived_at": game.black_arrived_at,
        "round_start": limit.round_start if limit else None,
        "late_arrival_minutes": game.round.event.late_arrival_minutes,
        "deadline": limit.deadline if limit else None,
        "server_time": now,
    }


def game_acts(game: Game) -> dict:
    """The record of every act on the game (offers, claims, resignations, irregularities and
    the choices after them, rulings, results), oldest first, with who, when, what and why,
    and what is still pending."""
    from arbiter.events.models import AuditEntry
    from arbiter.games.models import Claim, DrawOffer, Irregularity
    from arbiter.games.services.claims import claim_dict
    from arbiter.games.services.irregularities import irregularity_dict
    from arbiter.games.services.offers import offer_dict

    entries = AuditEntry.objects.filter(
        event_id=game.round.event_id, target=f"round {game.round.number} board {game.board}"
    ).select_related("user")
    return {
        "game": game.pk,
        "record": [
            {
                "at": e.at.isoformat(),
                "action": e.action,
                "by": e.user.username if e.user else None,
                "what": e.new,
                "before": e.old,
                "why": e.reason,
            }
            for e in entries.order_by("at", "pk")
        ],
        "offers": [offer_dict(o) for o in DrawOffer.objects.filter(game=game)],
        "claims": [claim_dict(c) for c in Claim.objects.filter(game=game)],
        "irregularities": [irregularity_dict(i) for i in Irregularity.objects.filter(game=game)],
    }
