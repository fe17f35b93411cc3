"""The endpoints of offers, claims, resignations, rulings and irregularities (FMJD 5-7):
thin over the services, in the API's one error form."""

from __future__ import annotations

import pytest

from arbiter.games.models import Claim
from arbiter.games.services import claims
from tests.accounts.builders import make_token, make_user
from tests.games.builders import make_event, make_game, make_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db):
    from types import SimpleNamespace

    arbiter, white, black = make_user(), make_user(), make_user()
    event = make_event(time_control="-", arbiter=arbiter)
    game = make_game(event, fen="W:WK47,36:BK3", white=make_player(white), black=make_player(black))
    return SimpleNamespace(
        game=game, arbiter=make_token(arbiter), white=make_token(white), black=make_token(black)
    )


def post(client, url, body, token):
    return client.post(
        url, body, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )


def test_a_claim_is_accepted_for_decision_then_read_with_its_explanation(client, world):
    url = f"/api/games/{world.game.pk}/claims"
    response = post(client, url, {"article": "6.4", "request_id": "r1"}, world.white)
    assert response.status_code == 202, response.content
    made = response.json()
    assert made["status"] == "pending" and made["side"] == "white"
    claims.decide_claim(made["id"])  # what the task does
    got = client.get(f"{url}/{made['id']}", HTTP_AUTHORIZATION=f"Bearer {world.black}").json()
    assert got["status"] == "refused" and got["code"] == "too_early"
    assert got["explanation"]["message"].startswith("refused: 0 of 5 moves each")


def test_bad_claims_are_refused_in_the_one_error_form(client, world):
    url = f"/api/games/{world.game.pk}/claims"
    response = post(client, url, {"article": "6.9", "request_id": "r"}, world.white)
    assert response.status_code == 422 and response.json()["error"]
    response = post(
        client, url, {"article": "6.4", "request_id": "r", "side": "black"}, world.white
    )
    assert response.status_code == 403 and "acts for white only" in response.json()["message"]
    assert Claim.objects.count() == 0


def test_resign_and_the_record_through_the_api(client, world):
    response = post(client, f"/api/games/{world.game.pk}/resign", {}, world.black)
    assert response.status_code == 200 and response.json()["result"] == "2-0"
    response = post(client, f"/api/games/{world.game.pk}/offers", {}, world.white)
    assert response.status_code == 409 and "the game is over" in response.json()["message"]
    acts = client.get(
        f"/api/games/{world.game.pk}/acts", HTTP_AUTHORIZATION=f"Bearer {world.arbiter}"
    ).json()
    assert [e["action"] for e in acts["record"]] == ["game.resign", "game.result"]


def test_a_ruling_without_a_reason_is_refused(client, world):
    body = {"result": "2-0", "termination": "refused_rules", "reason": ""}
    response = post(client, f"/api/games/{world.game.pk}/ruling", body, world.arbiter)
    assert response.status_code == 422 and "written reason" in response.json()["message"]


def test_an_irregularity_recorded_and_maintained_through_the_api(client, world):
    base = f"/api/games/{world.game.pk}/irregularities"
    body = {"kind": "irregular_move", "side": "white", "fen_on_board": "B:WK41,36:BK3"}
    response = post(client, base, body, world.arbiter)
    assert response.status_code == 201, response.content
    irr = response.json()
    response = post(client, f"{base}/{irr['id']}/choice", {"choice": "maintain"}, world.white)
    assert response.status_code == 403  # only the opponent chooses (FMJD 5.4)
    response = post(client, f"{base}/{irr['id']}/choice", {"choice": "maintain"}, world.black)
    assert response.status_code == 200, response.content
    assert response.json()["fen"] == "B:W36,K41:BK3" and response.json()["ply"] == 1
