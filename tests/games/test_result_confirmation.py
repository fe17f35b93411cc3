"""Issue 12: both players confirm the result at the end of a game ("2-0, agreed by both"), the
arbiter sees confirmed, unconfirmed and disputed results and accepts the agreed ones in one
action. Each confirmation and acceptance is an entry of the game's record (nothing deleted).
FMJD 10.2: the players sign the result of their game."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from arbiter.errors import Conflict, Forbidden, Invalid, NotFound
from arbiter.events.models import AuditEntry
from arbiter.games import confirmation_selectors as read
from arbiter.games import services
from arbiter.games.services.confirmation import accept_confirmed, confirm_result
from tests.accounts.builders import make_token, make_user
from tests.games.builders import make_event, make_game, make_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db):
    arbiter = make_user("arb")
    event = make_event(time_control="-", arbiter=arbiter)
    white, black = make_user("w"), make_user("b")
    game = make_game(event, white=make_player(white), black=make_player(black))
    return SimpleNamespace(arbiter=arbiter, event=event, white=white, black=black, game=game)


def finish(world, result="2-0", game=None):
    game = game or world.game
    services.set_result(game, result, by=world.arbiter)
    game.refresh_from_db()
    return game


def record(game):
    return list(AuditEntry.objects.filter(action=read.CONFIRM, new__game_id=game.pk).order_by("pk"))


def test_fmjd_10_2_confirmation_before_the_game_has_a_result_is_refused(world):
    with pytest.raises(Conflict) as refused:
        confirm_result(world.game.pk, by=world.white, result="2-0")
    assert refused.value.code == "confirmation.no_result"
    assert refused.value.status == 409
    assert record(world.game) == []


def test_fmjd_10_2_both_confirmations_make_the_result_agreed_by_both(world):
    finish(world)
    one = confirm_result(world.game.pk, by=world.white, result="2-0")
    assert one["status"] == read.UNCONFIRMED
    assert one["words"] == "2-0, confirmed by white only"
    both = confirm_result(world.game.pk, by=world.black, result="2-0")
    assert both["status"] == read.AGREED and both["words"] == "2-0, agreed by both"
    assert both["white"]["by"] == "w" and both["black"]["result"] == "2-0"
    assert [e.new["side"] for e in record(world.game)] == ["white", "black"]
    assert [e.user for e in record(world.game)] == [world.white, world.black]


def test_a_player_confirms_for_their_own_side_only(world):
    finish(world)
    with pytest.raises(Forbidden) as refused:
        confirm_result(world.game.pk, by=world.white, result="2-0", side="black")
    assert refused.value.code == "act.own_side_only"
    stranger = make_user("s")
    make_player(stranger)
    with pytest.raises(Forbidden) as refused:
        confirm_result(world.game.pk, by=stranger, result="2-0")
    assert refused.value.code == "act.only_arbiter_or_player"
    assert record(world.game) == []


def test_an_arbiter_or_a_device_confirms_for_the_side_given(world):
    finish(world)
    with pytest.raises(Invalid):
        confirm_result(world.game.pk, by=world.arbiter, result="2-0")
    state = confirm_result(world.game.pk, by=world.arbiter, result="2-0", side="black")
    assert state["black"] == {**state["black"], "by": "arb", "result": "2-0"}


def test_a_disagreement_is_shown_and_a_later_confirmation_is_a_new_entry(world):
    finish(world)
    confirm_result(world.game.pk, by=world.white, result="2-0")
    state = confirm_result(world.game.pk, by=world.black, result="1-1")
    assert state["status"] == read.DISPUTED
    assert state["words"] == "2-0 recorded; black says 1-1"
    # the player thinks again: a new entry, the first stays in the record
    state = confirm_result(world.game.pk, by=world.black, result="2-0")
    assert state["status"] == read.AGREED
    assert [e.new["result"] for e in record(world.game)] == ["2-0", "1-1", "2-0"]


def test_the_same_confirmation_again_writes_nothing(world):
    finish(world)
    confirm_result(world.game.pk, by=world.white, result="2-0")
    confirm_result(world.game.pk, by=world.white, result="2-0")
    assert len(record(world.game)) == 1


def test_a_bye_has_nothing_to_confirm_and_a_bad_result_is_refused(world):
    bye = make_game(world.event, white=world.game.white, bye=True, round_number=2)
    services.set_result(bye, "bye", by=world.arbiter)
    with pytest.raises(Conflict) as refused:
        confirm_result(bye.pk, by=world.white, result="2-0")
    assert refused.value.code == "confirmation.bye"
    finish(world)
    with pytest.raises(Invalid) as refused:
        confirm_result(world.game.pk, by=world.white, result="3-0")
    assert refused.value.details == {"field": "result"}


def _round_of_three(world):
    """Board A agreed by both, board B confirmed by White only, board C disputed."""
    games = [world.game] + [
        make_game(world.event, white=make_player(make_user()), black=make_player(make_user()))
        for _ in range(2)
    ]
    for g in games:
        finish(world, "2-0", game=g)
    for g in games:
        confirm_result(g.pk, by=g.white.user, result="2-0")
    confirm_result(games[0].pk, by=games[0].black.user, result="2-0")
    confirm_result(games[2].pk, by=games[2].black.user, result="0-2")
    return games


def test_accept_all_accepts_only_the_agreed_results_and_is_idempotent(world):
    games = _round_of_three(world)
    round_ = world.game.round
    done = accept_confirmed(round_.pk, by=world.arbiter)
    assert done["accepted"] == [games[0].board]
    assert {b["board"]: b["status"] for b in done["not_agreed"]} == {
        games[1].board: "unconfirmed",
        games[2].board: "disputed",
    }
    approvals = AuditEntry.objects.filter(action=read.APPROVE)
    assert [(a.new["game_id"], a.user) for a in approvals] == [(games[0].pk, world.arbiter)]
    again = accept_confirmed(round_.pk, by=world.arbiter)
    assert again["accepted"] == [] and again["already_accepted"] == [games[0].board]
    assert AuditEntry.objects.filter(action=read.APPROVE).count() == 1
    states = {b["game"]: b for b in read.round_confirmations(games)["boards"]}
    assert states[games[0].pk]["approved"] and states[games[0].pk]["approved_by"] == "arb"
    assert not states[games[1].pk]["approved"]


def test_a_player_cannot_accept_the_results(world):
    _round_of_three(world)
    with pytest.raises(Forbidden):
        accept_confirmed(world.game.round.pk, by=world.white)
    assert not AuditEntry.objects.filter(action=read.APPROVE).exists()


def test_a_correction_after_acceptance_needs_accepting_again(world):
    finish(world)
    confirm_result(world.game.pk, by=world.white, result="2-0")
    confirm_result(world.game.pk, by=world.black, result="2-0")
    accept_confirmed(world.game.round.pk, by=world.arbiter)
    # once accepted, a player may not confirm another result (they speak to the arbiter)
    with pytest.raises(Conflict) as refused:
        confirm_result(world.game.pk, by=world.black, result="1-1")
    assert refused.value.code == "confirmation.already_approved"
    services.set_result(world.game, "1-1", by=world.arbiter, reason="scoresheets say a draw")
    world.game.refresh_from_db()
    state = read.game_confirmation(world.game)
    assert not state["approved"] and state["status"] == read.DISPUTED


# ----- the endpoint: who acts for which side (tokens of issue 11's act endpoints)


def _post(client, game_id, body, **headers):
    return client.post(
        f"/api/games/{game_id}/result-confirmation",
        body,
        content_type="application/json",
        **headers,
    )


def test_the_endpoint_answers_409_with_a_code_before_the_result(client, world):
    token = make_token(world.white)
    got = _post(client, world.game.pk, {"result": "2-0"}, HTTP_AUTHORIZATION=f"Bearer {token}")
    assert got.status_code == 409
    assert got.json()["code"] == "confirmation.no_result"


def test_a_token_of_another_game_is_refused(client, world):
    other = make_game(world.event, white=world.game.white, black=make_player(make_user()))
    finish(world)
    device = make_token(world.arbiter, game=other)
    got = _post(
        client,
        world.game.pk,
        {"result": "2-0", "side": "white"},
        HTTP_AUTHORIZATION=f"Bearer {device}",
    )
    assert got.status_code == 403 and got.json()["code"] == "token.game_only"
    assert record(world.game) == []
    # the board's own device confirms for the side given
    own = make_token(world.arbiter, game=world.game)
    got = _post(
        client,
        world.game.pk,
        {"result": "2-0", "side": "white"},
        HTTP_AUTHORIZATION=f"Bearer {own}",
    )
    assert got.status_code == 200 and got.json()["white"]["result"] == "2-0"


def test_a_logged_in_player_confirms_and_reads_their_games_confirmations(client, world):
    finish(world)
    client.force_login(world.black)
    got = _post(client, world.game.pk, {"result": "2-0"})
    assert got.status_code == 200 and got.json()["black"]["result"] == "2-0"
    read_back = client.get(f"/api/games/{world.game.pk}/result-confirmation").json()
    assert read_back["status"] == "unconfirmed"
    bad = _post(client, world.game.pk, {"result": "2-1"})
    assert bad.status_code == 422
    client.force_login(make_user("nobody"))
    assert client.get(f"/api/games/{world.game.pk}/result-confirmation").status_code == 403


def test_the_accept_endpoint_is_for_arbiters(client, world):
    _round_of_three(world)
    url = f"/api/rounds/{world.game.round.pk}/results/accept"
    client.force_login(world.white)
    assert client.post(url).status_code == 403
    client.force_login(world.arbiter)
    got = client.post(url)
    assert got.status_code == 200 and got.json()["accepted"] == [world.game.board]


def test_the_round_page_shows_agreed_unconfirmed_and_disputed_results(client, world):
    games = _round_of_three(world)
    client.force_login(world.arbiter)
    round_id = world.game.round_id
    state = client.get(f"/rounds/{round_id}/arbiter/state.json").json()["confirmations"]
    assert {k: state["counts"][k] for k in ("agreed", "unconfirmed", "disputed", "to_accept")} == {
        "agreed": 1,
        "unconfirmed": 1,
        "disputed": 1,
        "to_accept": 1,
    }
    page = client.get(f"/rounds/{round_id}/arbiter/").content.decode()
    assert "Accept the 1 agreed result</button>" in page
    assert "2-0 recorded; black says 0-2" in page and "✗ says 0-2" in page
    assert f'data-confirm="{games[0].pk}" class="agreed"' in page


def test_the_openapi_schema_lists_the_confirmation_routes_with_their_error_answers(client):
    paths = client.get("/api/openapi.json").json()["paths"]
    post = paths["/api/games/{game_id}/result-confirmation"]["post"]
    assert {"401", "403", "404", "409", "422"} <= set(post["responses"])
    body = post["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert body.endswith("/ConfirmIn")
    accept = paths["/api/rounds/{round_id}/results/accept"]["post"]
    assert {"401", "403", "404", "409"} <= set(accept["responses"])
    assert "get" in paths["/api/games/{game_id}/result-confirmation"]


def test_a_game_of_a_draft_round_is_not_found_for_its_players(world):
    draft = make_game(
        world.event,
        white=world.game.white,
        black=world.game.black,
        round_number=2,
        round_status="draft",
    )
    with pytest.raises(NotFound):
        confirm_result(draft.pk, by=world.white, result="2-0")
