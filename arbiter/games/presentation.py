"""Reads for the arbiter's board and round pages and the players' clock page."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q
from django.utils import timezone

from arbiter.errors import NotFound
from arbiter.events.models import Event, Round
from clocks.timecontrol import TimeControl, TimeControlError

from . import confirmation_selectors, selectors
from .models import Game, Move


def game_for_page(game_id: int) -> Game:
    game = (
        Game.objects.select_related("round__event", "white", "black", "clock")
        .filter(pk=game_id)
        .first()
    )
    if game is None:
        raise NotFound("game.not_found", game_id=game_id)
    return game


def time_control(event: Event) -> dict:
    """The event's time control for a page: its PDN tag, in words, and what each clock shows
    before it starts (the first period's time; None when untimed)."""
    try:
        tc = TimeControl.parse(event.time_control)
    except TimeControlError:
        return {"pdn": event.time_control, "words": event.time_control, "start_ms": None}
    start_ms = tc.periods[0].time_ms if tc.timed else None
    return {"pdn": tc.to_pdn(), "words": tc.describe(), "start_ms": start_ms}


def round_for_page(round_id: int) -> Round:
    round_ = Round.objects.select_related("event").filter(pk=round_id).first()
    if round_ is None:
        raise NotFound("round.not_found", round_id=round_id)
    return round_


def last_moves(games: list[Game]) -> dict[int, dict]:
    """{game id: {ply, notation}} of each game's last move (one query, last rows only)."""
    wanted = Q()
    for game in games:
        if game.ply:
            wanted |= Q(game_id=game.pk, ply=game.ply)
    if not wanted:
        return {}
    rows = Move.objects.filter(wanted).values("game_id", "ply", "notation")
    return {r["game_id"]: {"ply": r["ply"], "notation": r["notation"]} for r in rows}


def last_move_notation(game: Game) -> str | None:
    move = Move.objects.filter(game=game).order_by("-ply").values("notation").first()
    return move["notation"] if move else None


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def round_state(round_: Round, now: datetime | None = None) -> dict:
    """Every board of the round with its clock at `now` (the server's time), for the round page."""
    from .selectors import clock_state

    now = now or timezone.now()
    games = list(
        Game.objects.filter(round=round_)
        .select_related("white", "black", "clock", "round__event")
        .order_by("board")
    )
    moves = last_moves(games)
    start = selectors.round_start(round_)
    minutes = round_.event.late_arrival_minutes
    limit = selectors.ArrivalLimit(start, minutes) if start else None
    return {
        "round": round_.pk,
        "number": round_.number,
        "server_time": now.isoformat(),
        "round_start": _iso(start),
        "arrival_deadline": _iso(limit.deadline) if limit else None,
        "late_arrival_minutes": minutes,
        "games": [
            {
                "id": g.pk,
                "board": g.board,
                "white": str(g.white) if g.white else None,
                "black": str(g.black) if g.black else None,
                "status": g.status,
                "result": g.result,
                "termination": g.termination,
                "ply": g.ply,
                "last_move": moves.get(g.pk),
                "white_arrived_at": _iso(g.white_arrived_at),
                "black_arrived_at": _iso(g.black_arrived_at),
                "flag": g.flag_side or None,
                "acts_pending": g.acts_pending,  # an offer, claim or irregularity waits
                "clock": clock_state(g, now),
            }
            for g in games
        ],
        # the players' confirmations of the results, and the arbiter's acceptance (issue 12)
        "confirmations": confirmation_selectors.round_confirmations(games),
    }
