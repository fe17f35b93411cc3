"""The move-entry service (docs/design.md, "The path of a move"), on the database of the run."""

from __future__ import annotations

from datetime import timedelta

import pytest

from arbiter.errors import Conflict, Forbidden, Invalid
from arbiter.games import selectors, services
from arbiter.games.models import Game, Move
from clocks.models import ClockLog
from tests.accounts.builders import make_user

from .builders import make_event, make_game, make_player

pytestmark = pytest.mark.django_db

S = timedelta(seconds=1)


def started(setup, clock_at, t0):
    clock_at(t0)
    services.start_clocks(setup.game, by=setup.arbiter, reason="round starts")
    setup.game.refresh_from_db()
    return setup.game


def test_move_is_stored_with_both_clock_readings_after_it(setup, clock_at, t0):
    game = started(setup, clock_at, t0)
    clock_at(t0 + 10 * S)
    state = services.submit_move(game.pk, ply=1, move="32-28", request_id="r1", by=setup.white)
    clock_at(t0 + 25 * S)
    services.submit_move(game.pk, ply=2, move="19-23", request_id="r2", by=setup.black)

    first, second = Move.objects.filter(game=game).order_by("ply")
    assert (first.notation, first.white_ms, first.black_ms) == ("32-28", 290_000, 300_000)
    assert (second.notation, second.white_ms, second.black_ms) == ("19-23", 290_000, 285_000)
    assert first.played_at == t0 + 10 * S and first.by == setup.white
    assert state["ply"] == 1 and state["turn"] == "black"
    assert state["clock"]["running"] == "black"
    assert state["clock"]["deadline"] == (t0 + 310 * S).isoformat()
    game.refresh_from_db()
    # The position, the ply and the engine's state are stored: no replay on the next move.
    assert game.ply == 2 and game.fen == second.fen_after
    assert game.rules_state["fen"] == game.fen
    assert game.clock.deadline == t0 + 25 * S + 290 * S  # White to move, 290 s left


def test_stale_ply_is_a_409_with_the_current_state(setup, clock_at, t0):
    game = started(setup, clock_at, t0)
    services.submit_move(game.pk, ply=1, move="32-28", request_id="a", by=setup.arbiter)
    with pytest.raises(Conflict) as err:
        services.submit_move(game.pk, ply=1, move="33-29", request_id="b", by=setup.arbiter)
    assert "not the next ply" in err.value.message
    assert err.value.status == 409
    assert err.value.details["game"]["ply"] == 1
    assert err.value.details["game"]["moves"][0]["notation"] == "32-28"
    assert Move.objects.filter(game=game).count() == 1


def test_repeated_request_id_gets_the_first_answer_again(setup, clock_at, t0):
    game = started(setup, clock_at, t0)
    clock_at(t0 + 3 * S)
    first = services.submit_move(game.pk, ply=1, move="32-28", request_id="same", by=setup.white)
    clock_at(t0 + 8 * S)
    services.submit_move(game.pk, ply=2, move="19-23", request_id="next", by=setup.black)
    clock_at(t0 + 9 * S)
    again = services.submit_move(game.pk, ply=1, move="32-28", request_id="same", by=setup.white)
    assert again == first
    assert Move.objects.filter(game=game).count() == 2


def test_request_id_used_for_another_ply_is_a_409(setup, clock_at, t0):
    game = started(setup, clock_at, t0)
    services.submit_move(game.pk, ply=1, move="32-28", request_id="x", by=setup.arbiter)
    with pytest.raises(Conflict, match="already used for ply 1"):
        services.submit_move(game.pk, ply=2, move="19-23", request_id="x", by=setup.arbiter)


def test_request_id_reused_for_another_move_of_the_same_ply_is_a_409(setup, clock_at, t0):
    """A retry may write the move another way (FMJD 4.13 capture with its intermediate square);
    a different move under the same request_id is no retry, and is not told it stood."""
    game = make_game(setup.event, fen="W:W28,31,33:B23,24,25,14,13")
    clock_at(t0)
    services.start_clocks(game, by=setup.arbiter)
    first = services.submit_move(game.pk, ply=1, move="28x19x10", request_id="c", by=setup.arbiter)
    assert first["move"]["notation"] == "28x10"
    again = services.submit_move(game.pk, ply=1, move="28x10", request_id="c", by=setup.arbiter)
    assert again == first
    with pytest.raises(Conflict, match="already used for ply 1 \\(28x10\\), not for '28x30'"):
        services.submit_move(game.pk, ply=1, move="28x30", request_id="c", by=setup.arbiter)
    with pytest.raises(Conflict, match="not for '99-98'"):
        services.submit_move(game.pk, ply=1, move="99-98", request_id="c", by=setup.arbiter)
    assert list(Move.objects.filter(game=game).values_list("notation", flat=True)) == ["28x10"]


def test_fmjd_3_illegal_move_is_a_422_with_the_reason_and_the_legal_moves(setup, clock_at, t0):
    game = started(setup, clock_at, t0)
    with pytest.raises(Invalid) as err:
        services.submit_move(game.pk, ply=1, move="32-23", request_id="r", by=setup.white)
    assert err.value.status == 422
    assert "FMJD 3.4" in err.value.details["reason"] and "32-23" in err.value.message
    assert sorted(err.value.details["legal_moves"]) == sorted(
        ["31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"]
    )
    game.refresh_from_db()
    assert game.ply == 0 and not Move.objects.filter(game=game).exists()


def test_fmjd_4_13_capture_is_compulsory_a_quiet_move_is_a_422(db, arbiter_user):
    game = make_game(make_event(arbiter=arbiter_user), fen="W:W28:B22,1")
    services.start_clocks(game, by=arbiter_user)
    with pytest.raises(Invalid) as err:
        services.submit_move(game.pk, ply=1, move="28-23", request_id="r", by=arbiter_user)
    assert err.value.details["legal_moves"] == ["28x17"]


def test_ambiguous_short_capture_is_a_422_listing_the_full_paths(db, arbiter_user):
    # FMJD 4.x, notation 8: two routes of king 20 to 35 capture different pieces.
    game = make_game(make_event(arbiter=arbiter_user), fen="W:WK20,10:B30,17,32,11,48,33")
    services.start_clocks(game, by=arbiter_user)
    with pytest.raises(Invalid) as err:
        services.submit_move(game.pk, ply=1, move="20x35", request_id="r", by=arbiter_user)
    assert sorted(err.value.details["candidates"]) == ["20x38x16x2x35", "20x38x21x8x35"]
    state = services.submit_move(
        game.pk, ply=1, move="20x38x21x8x35", request_id="r2", by=arbiter_user
    )
    assert state["move"]["notation"] == "20x38x21x8x35"


@pytest.mark.parametrize("who", ["stranger", "black_player", "anonymous", "other_arbiter"])
def test_only_an_arbiter_or_the_player_to_move_may_move(setup, clock_at, t0, who):
    from django.contrib.auth.models import AnonymousUser

    game = started(setup, clock_at, t0)
    other_event_arbiter = make_user()
    make_event(arbiter=other_event_arbiter)
    by = {
        "stranger": make_user(),
        "black_player": setup.black,
        "anonymous": AnonymousUser(),
        "other_arbiter": other_event_arbiter,
    }[who]
    with pytest.raises(Forbidden):
        services.submit_move(game.pk, ply=1, move="32-28", request_id="r", by=by)
    assert not Move.objects.filter(game=game).exists()


def test_the_organizer_and_an_arbiter_may_move_for_either_side(setup, clock_at, t0):
    game = started(setup, clock_at, t0)
    organizer = make_user()
    setup.event.organizer = organizer
    setup.event.save()
    services.submit_move(game.pk, ply=1, move="32-28", request_id="1", by=organizer)
    services.submit_move(game.pk, ply=2, move="19-23", request_id="2", by=setup.arbiter)
    assert Move.objects.filter(game=game).count() == 2


def test_move_after_the_flag_is_refused_and_the_flag_recorded(setup, clock_at, t0):
    game = started(setup, clock_at, t0)
    clock_at(t0 + 300 * S + timedelta(milliseconds=1))
    with pytest.raises(Conflict, match="time ran out"):
        services.submit_move(game.pk, ply=1, move="32-28", request_id="late", by=setup.white)
    game.refresh_from_db()
    # FMJD (Annex 3): a player who exceeds the time limit loses; policy "automatic".
    assert (game.status, game.result, game.termination) == ("finished", "0-2", "flag")
    assert (game.flag_side, game.flag_at) == ("white", t0 + 300 * S)
    assert game.clock.remaining_white_ms == 0 and game.clock.deadline is None
    assert not Move.objects.filter(game=game).exists()
    assert ClockLog.objects.filter(clock=game.clock, action="flag").count() == 1


def test_move_exactly_at_the_deadline_is_too_late(setup, clock_at, t0):
    game = started(setup, clock_at, t0)
    clock_at(t0 + 300 * S)
    with pytest.raises(Conflict):
        services.submit_move(game.pk, ply=1, move="32-28", request_id="r", by=setup.white)
    assert Game.objects.get(pk=game.pk).termination == "flag"


def test_claim_policy_records_the_flag_and_leaves_the_game_open(db, arbiter_user, clock_at, t0):
    event = make_event(time_control="60", flag_policy="claim", arbiter=arbiter_user)
    white = make_user()
    game = make_game(event, white=make_player(white))
    clock_at(t0)
    services.start_clocks(game, by=arbiter_user)
    clock_at(t0 + 61 * S)
    with pytest.raises(Conflict, match="time ran out"):
        services.submit_move(game.pk, ply=1, move="32-28", request_id="r", by=white)
    game.refresh_from_db()
    assert (game.status, game.result, game.flag_side) == ("running", "", "white")
    assert game.flag_at == t0 + 60 * S
    # The game waits for a claim (a later issue); moves stay refused meanwhile.
    with pytest.raises(Conflict, match="flag fell"):
        services.submit_move(game.pk, ply=1, move="32-28", request_id="r2", by=white)
    # An arbiter may give time back and resume: the pending flag is lifted (and logged).
    services.adjust_clock(game, "white", 30_000, by=arbiter_user, reason="faulty clock")
    services.resume_clocks(game, by=arbiter_user)
    state = services.submit_move(game.pk, ply=1, move="32-28", request_id="r3", by=white)
    assert state["flag"] is None and state["move"]["white_ms"] == 30_000
    actions = list(ClockLog.objects.filter(clock=game.clock).values_list("action", flat=True))
    assert actions == ["start", "flag", "adjust", "resume"]


def test_fmjd_7_2_3_game_ends_when_the_opponent_has_no_pieces(db, arbiter_user):
    game = make_game(make_event(arbiter=arbiter_user), fen="W:W28:B22")
    services.start_clocks(game, by=arbiter_user)
    state = services.submit_move(game.pk, ply=1, move="28x17", request_id="r", by=arbiter_user)
    assert (state["status"], state["result"], state["termination"]) == (
        "finished",
        "2-0",
        "no_pieces",
    )
    game.refresh_from_db()
    assert game.finished_at is not None and game.clock.deadline is None
    assert not game.clock.running


def test_fmjd_7_2_2_game_ends_when_the_opponent_is_blocked(db, arbiter_user):
    game = make_game(make_event(arbiter=arbiter_user), fen="W:W11,37,21:B6")
    services.start_clocks(game, by=arbiter_user)
    state = services.submit_move(game.pk, ply=1, move="21-17", request_id="r", by=arbiter_user)
    assert (state["result"], state["termination"]) == ("2-0", "blocked")
    assert state["legal_moves"] == []


def test_fmjd_6_4_draw_applies_automatically_after_five_moves_each(db, arbiter_user):
    # Two kings against one: the game is a draw after 5 moves each ("considérée égale").
    game = make_game(make_event(arbiter=arbiter_user), fen="W:WK46,K50:BK5")
    services.start_clocks(game, by=arbiter_user)
    state = selectors.game_state(selectors.readable_game(game.pk, by=arbiter_user))
    for ply in range(1, 11):
        assert state["status"] == "running", ply
        # Any quiet king move will do: the count, not the moves, ends the game.
        move = state["legal_moves"][0]
        state = services.submit_move(
            game.pk, ply=ply, move=move, request_id=f"r{ply}", by=arbiter_user
        )
    assert (state["status"], state["result"], state["termination"]) == (
        "finished",
        "1-1",
        "draw_5_moves",
    )
    with pytest.raises(Conflict, match="game is over"):
        services.submit_move(game.pk, ply=11, move="50-44", request_id="r11", by=arbiter_user)


def test_moves_wait_for_the_clock_to_start(setup):
    with pytest.raises(Conflict, match="not been started"):
        services.submit_move(setup.game.pk, ply=1, move="32-28", request_id="r", by=setup.arbiter)


@pytest.mark.parametrize(
    ("ply", "move", "request_id", "word"),
    [(0, "32-28", "r", "ply"), (1, "", "r", "move"), (1, "32-28", "", "request_id")],
)
def test_bad_input_is_a_422_saying_which_field(setup, ply, move, request_id, word):
    with pytest.raises(Invalid, match=word):
        services.submit_move(
            setup.game.pk, ply=ply, move=move, request_id=request_id, by=setup.arbiter
        )
