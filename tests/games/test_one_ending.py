"""Every way a game ends goes through the one ending service (games/services/ending.py): one
audit entry, one STOP line in the clock's log, the clock stopped and the round finished."""

from __future__ import annotations

from datetime import timedelta

import pytest

from arbiter.errors import Conflict
from arbiter.events.models import AuditEntry, Round
from arbiter.games import selectors, services
from arbiter.games.models import Game
from arbiter.games.services import arrival
from clocks.models import ClockLog

from .builders import make_event, make_game

pytestmark = pytest.mark.django_db

MIN = timedelta(minutes=1)


def _move_no_pieces(game, arbiter, t0):  # FMJD 7.2.3: the last man is taken
    services.submit_move(game.pk, ply=1, move="28x17", request_id="r1", by=arbiter)


def _draw_rule(game, arbiter, t0):  # FMJD 6.4: two kings against one, 5 moves each
    state = services.submit_move(game.pk, ply=1, move=_any_move(game), request_id="r1", by=arbiter)
    for ply in range(2, 11):
        assert state["status"] == "running"
        move = state["legal_moves"][0]  # the count, not the moves, ends the game
        state = services.submit_move(game.pk, ply=ply, move=move, request_id=f"r{ply}", by=arbiter)
    assert state["termination"] == "draw_5_moves"


def _any_move(game):
    return selectors.game_state(Game.objects.get(pk=game.pk))["legal_moves"][0]


def _flag_task(game, arbiter, t0):  # FMJD Annex 3: time exceeded (the ETA task's call)
    assert services.check_flag(game.pk, ply=0, now=t0 + 121 * MIN)


def _flag_sweep(game, arbiter, t0):
    assert services.check_flags_due(t0 + 121 * MIN) == 1


def _flag_on_move(game, arbiter, t0, clock_at):
    clock_at(t0 + 121 * MIN)
    with pytest.raises(Conflict):
        services.submit_move(game.pk, ply=1, move="28x17", request_id="r1", by=arbiter)


def _late_arrival_sweep(game, arbiter, t0):  # FMJD 10.5: nobody at the board after 60 min
    assert arrival.forfeit_late_arrivals(t0 + 61 * MIN) == [game.pk]


def _late_arrival_on_move(game, arbiter, t0, clock_at):
    clock_at(t0 + 61 * MIN)
    with pytest.raises(Conflict):
        services.submit_move(game.pk, ply=1, move="28x17", request_id="r1", by=arbiter)


def _arbiter_result(game, arbiter, t0):
    services.set_result(game, "1-1", by=arbiter, termination="agreed_draw")


def _forfeit(game, arbiter, t0):
    services.forfeit(game, absent="white", by=arbiter, reason="not at the board")


ENDINGS = {
    "move": _move_no_pieces,
    "draw_rule": _draw_rule,
    "flag_task": _flag_task,
    "flag_sweep": _flag_sweep,
    "flag_on_move": _flag_on_move,
    "late_arrival_sweep": _late_arrival_sweep,
    "late_arrival_on_move": _late_arrival_on_move,
    "arbiter_result": _arbiter_result,
    "forfeit": _forfeit,
}


@pytest.mark.parametrize("how", ENDINGS)
def test_every_ending_writes_one_audit_entry_one_stop_line_and_finishes_the_round(
    how, arbiter_user, clock_at, t0
):
    event = make_event(time_control="7200", arbiter=arbiter_user)
    game = make_game(event, fen="W:WK46,K50:BK5" if how == "draw_rule" else "W:W28:B22")
    Round.objects.filter(pk=game.round_id).update(status=Round.Status.PUBLISHED)
    clock_at(t0)
    services.start_clocks(game, by=arbiter_user)
    game.refresh_from_db()
    audit_before = AuditEntry.objects.filter(event=event).count()

    end = ENDINGS[how]
    if "clock_at" in end.__code__.co_varnames:
        end(game, arbiter_user, t0, clock_at)
    else:
        end(game, arbiter_user, t0)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result and game.termination
    assert AuditEntry.objects.filter(event=event).count() == audit_before + 1
    stops = ClockLog.objects.filter(clock=game.clock_id, action=ClockLog.Action.STOP)
    assert stops.count() == 1
    assert stops.get().before["running"] and stops.get().after["running"] is None
    assert not game.clock.running and game.clock.deadline is None
    assert Round.objects.get(pk=game.round_id).status == Round.Status.FINISHED


def test_a_correction_of_an_ended_game_logs_it_but_stops_no_clock_again(arbiter_user, clock_at, t0):
    event = make_event(time_control="7200", arbiter=arbiter_user)
    game = make_game(event)
    Round.objects.filter(pk=game.round_id).update(status=Round.Status.PUBLISHED)
    clock_at(t0)
    services.start_clocks(game, by=arbiter_user)
    services.set_result(game, "1-1", by=arbiter_user)
    clock_at(t0 + MIN)
    services.set_result(game, "2-0", by=arbiter_user, reason="the sheet says White won")

    game.refresh_from_db()
    assert (game.result, game.finished_at) == ("2-0", t0)  # the game ended when it ended
    assert ClockLog.objects.filter(clock=game.clock_id, action="stop").count() == 1
    actions = list(AuditEntry.objects.filter(event=event).values_list("action", flat=True))
    assert sorted(actions) == ["game.result", "game.result_correction"]
