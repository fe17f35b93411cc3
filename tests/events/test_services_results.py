import pytest
from django.contrib.auth.models import AnonymousUser

from arbiter.errors import Conflict, Forbidden, Invalid
from arbiter.events import services
from arbiter.events.models import AuditEntry, Round
from arbiter.events.records import event_games, player_states
from arbiter.games import services as game_services
from arbiter.games.models import Game
from tests.accounts.builders import make_user
from tests.events.builders import make_event

pytestmark = pytest.mark.django_db
R = Game.Result


@pytest.fixture
def setup(org):
    arbiter = make_user("arb")
    event = make_event(org, n_players=4, arbiters=[arbiter])
    round1 = services.pair_next_round(event, by=arbiter)
    services.publish_round(round1, by=arbiter)
    return event, arbiter, round1


def test_arbiter_enters_a_result_per_board_and_it_is_logged(setup):
    event, arbiter, round1 = setup
    game = round1.games.get(board=1)
    game_services.set_result(game, "2-0", termination="resigned", by=arbiter)
    game.refresh_from_db()
    assert (game.result, game.termination, game.status) == ("2-0", "resigned", "finished")
    assert game.finished_at is not None
    log = AuditEntry.objects.get(event=event, action="game.result")
    assert log.user == arbiter and log.target == "round 1 board 1"
    assert log.old == {"result": "", "termination": ""}
    assert log.new["result"] == "2-0"


@pytest.mark.parametrize("code", ["1-0", "2:0", "win", "½-½", "0-0"])
def test_an_unknown_result_code_is_refused_and_nothing_changes(setup, code):
    _, arbiter, round1 = setup
    game = round1.games.get(board=1)
    with pytest.raises(Invalid) as exc:
        game_services.set_result(game, code, by=arbiter)
    assert "round 1 board 1" in exc.value.message and code in exc.value.message
    game.refresh_from_db()
    assert game.result == ""


def test_bye_is_not_a_result_of_a_game_between_two_players(setup):
    _, arbiter, round1 = setup
    with pytest.raises(Invalid, match="bye"):
        game_services.set_result(round1.games.get(board=1), "bye", by=arbiter)


def test_fmjd_6_1_a_draw_by_repetition_cannot_score_a_win(setup):
    _, arbiter, round1 = setup
    with pytest.raises(Invalid, match="draw_repetition"):
        game_services.set_result(
            round1.games.get(board=1), "2-0", termination="draw_repetition", by=arbiter
        )


def test_fmjd_7_2_3_no_pieces_left_is_a_win_not_a_draw(setup):
    _, arbiter, round1 = setup
    with pytest.raises(Invalid, match="no_pieces"):
        game_services.set_result(
            round1.games.get(board=1), "1-1", termination="no_pieces", by=arbiter
        )


def test_a_correction_needs_a_reason_and_logs_who_when_old_new_and_why(setup):
    event, arbiter, round1 = setup
    game = round1.games.get(board=2)
    game_services.set_result(game, "2-0", by=arbiter)
    with pytest.raises(Invalid, match="why"):
        game_services.set_result(game, "0-2", by=arbiter)
    game.refresh_from_db()
    assert game.result == "2-0"
    game_services.set_result(game, "0-2", by=arbiter, reason="sheet showed black won")
    log = AuditEntry.objects.get(event=event, action="game.result_correction")
    assert (log.user, log.old["result"], log.new["result"], log.reason) == (
        arbiter,
        "2-0",
        "0-2",
        "sheet showed black won",
    )
    assert log.at is not None


def test_the_same_result_again_changes_and_logs_nothing(setup):
    event, arbiter, round1 = setup
    game = round1.games.get(board=1)
    game_services.set_result(game, "1-1", by=arbiter)
    game_services.set_result(game, "1-1", by=arbiter)
    assert AuditEntry.objects.filter(event=event, action__startswith="game.").count() == 1


def test_the_round_finishes_with_its_last_result_and_reopens_when_one_is_cleared(setup):
    _, arbiter, round1 = setup
    g1, g2 = round1.games.order_by("board")
    game_services.set_result(g1, "1-1", by=arbiter)
    round1.refresh_from_db()
    assert round1.status == Round.Status.PUBLISHED
    game_services.set_result(g2, "0-2", by=arbiter)
    round1.refresh_from_db()
    assert round1.status == Round.Status.FINISHED
    game_services.set_result(g2, "", by=arbiter, reason="entered on the wrong board")
    round1.refresh_from_db()
    g2.refresh_from_db()
    assert round1.status == Round.Status.PUBLISHED and g2.status == "scheduled"


def test_no_results_in_a_draft_round(org):
    event = make_event(org, n_players=4)
    round1 = services.pair_next_round(event, by=org)
    with pytest.raises(Conflict, match="not published"):
        game_services.set_result(round1.games.get(board=1), "1-1", by=org)


def test_players_and_other_events_arbiters_cannot_enter_results(setup, org):
    event, _, round1 = setup
    other = make_user("other")
    make_event(org, name="Other", arbiters=[other])
    game = round1.games.get(board=1)
    player_user = make_user("p")
    services.link_user(game.white, player_user, by=org)
    for user in (other, player_user, AnonymousUser()):
        with pytest.raises(Forbidden):
            game_services.set_result(game, "2-0", by=user)
    game.refresh_from_db()
    assert game.result == ""


def test_forfeit_of_an_absent_player_and_its_effect_on_the_next_pairing(setup):
    event, arbiter, round1 = setup
    g1, g2 = round1.games.order_by("board")
    game_services.forfeit(g1, absent="black", by=arbiter, reason="late beyond 60 minutes")
    g1.refresh_from_db()
    assert (g1.result, g1.termination) == ("+/-", "forfeit")
    game_services.set_result(g2, "2-0", by=arbiter)
    states = {
        s.id: s
        for s in player_states(
            event, list(event.entries.select_related("player")), event_games(event), 2
        )
    }
    winner, loser = states[g1.white_id], states[g1.black_id]
    # An unplayed game is no encounter and gives no colour; the forfeit winner had a free point.
    assert winner.opponents == () and loser.opponents == ()
    assert winner.colours == ("-",) and loser.colours == ("-",)
    assert winner.score == 2 and loser.score == 0
    assert winner.had_bye and not loser.had_bye
    played = states[g2.white_id]
    assert played.opponents == (g2.black_id,) and played.colours == ("W",)


def test_forfeit_needs_a_side_and_a_reason(setup):
    _, arbiter, round1 = setup
    game = round1.games.get(board=1)
    with pytest.raises(Invalid, match="absent"):
        game_services.forfeit(game, absent="nobody", by=arbiter, reason="x")
    with pytest.raises(Invalid, match="reason"):
        game_services.forfeit(game, absent="white", by=arbiter, reason=" ")


def test_a_bye_board_only_takes_bye(org):
    event = make_event(org, n_players=3)
    round1 = services.pair_next_round(event, by=org)
    services.publish_round(round1, by=org)
    bye = round1.games.get(black__isnull=True)
    with pytest.raises(Invalid, match="bye"):
        game_services.set_result(bye, "2-0", by=org, reason="x")
