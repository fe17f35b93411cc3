"""The games API (docs/api.md): state, moves, clock actions, through HTTP and auth."""

from __future__ import annotations

import pytest
from django.utils import timezone

from arbiter.games.models import Game, Move
from tests.accounts.builders import make_token, make_user
from tests.games.builders import make_event, make_game, make_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db):
    from types import SimpleNamespace

    arbiter, white, black = make_user(), make_user(), make_user()
    event = make_event(time_control="300", arbiter=arbiter)
    game = make_game(event, white=make_player(white), black=make_player(black))
    return SimpleNamespace(
        event=event,
        game=game,
        arbiter=make_token(arbiter),
        white=make_token(white),
        black=make_token(black),
        white_user=white,
    )


def post(client, url, body, token=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(url, body, content_type="application/json", **headers)


def start(client, world):
    response = post(client, f"/api/games/{world.game.pk}/clock", {"action": "start"}, world.arbiter)
    assert response.status_code == 200, response.content
    return response.json()


def test_get_game_returns_the_state_with_the_servers_time(client, world):
    start(client, world)
    before = timezone.now()
    response = client.get(f"/api/games/{world.game.pk}")
    assert response.status_code == 200
    state = response.json()
    assert {
        "id",
        "round",
        "board",
        "white",
        "black",
        "status",
        "result",
        "termination",
        "ply",
        "fen",
        "turn",
        "legal_moves",
        "moves",
        "clock",
        "draw_state",
    } <= set(state)
    assert state["white"] == {"id": world.game.white_id, "name": str(world.game.white)}
    assert state["turn"] == "white" and len(state["legal_moves"]) == 9
    clock = state["clock"]
    assert clock["running"] == "white" and clock["time_control"] == "300"
    assert timezone.datetime.fromisoformat(clock["server_time"]) >= before
    assert 0 < clock["white_ms"] <= 300_000 and clock["black_ms"] == 300_000


def test_a_draft_event_is_hidden_from_the_public(client, db):
    game = make_game(make_event(published=False))
    # Issue 16: as absent as a game that does not exist (an id tells nothing).
    assert client.get(f"/api/games/{game.pk}").status_code == 404
    assert client.get("/api/games/999999").status_code == 404


def test_post_move_201_then_409_on_the_same_ply(client, world):
    start(client, world)
    url = f"/api/games/{world.game.pk}/moves"
    ok = post(client, url, {"ply": 1, "move": "32-28", "request_id": "a"}, world.white)
    assert ok.status_code == 201, ok.content
    assert ok.json()["move"]["notation"] == "32-28" and "moves" not in ok.json()
    stale = post(client, url, {"ply": 1, "move": "33-28", "request_id": "b"}, world.white)
    assert stale.status_code == 409
    body = stale.json()
    assert body["error"] == "conflict" and body["game"]["ply"] == 1
    assert body["code"] == "move.not_next_ply"
    assert body["params"] == {"ply": 1, "game_ply": 1, "next_ply": 2}
    assert (
        body["message"]
        == "ply 1 is not the next ply: the game is at ply 1, so the next move is ply 2"
    )
    again = post(client, url, {"ply": 1, "move": "32-28", "request_id": "a"}, world.white)
    assert again.status_code == 201 and again.json() == ok.json()


def test_post_illegal_move_is_a_422_with_the_legal_moves(client, world):
    start(client, world)
    response = post(
        client,
        f"/api/games/{world.game.pk}/moves",
        {"ply": 1, "move": "32-23", "request_id": "a"},
        world.white,
    )
    assert response.status_code == 422
    body = response.json()
    assert body["error"] == "invalid" and "32-28" in body["legal_moves"] and body["reason"]
    # FMJD 3.4: a man moves one square; the reason comes as a code with its parameters.
    assert body["code"] == "move.illegal_at_ply"
    assert body["params"] == {
        "move": "32-23",
        "ply": 1,
        "reason": {"code": "move.man_one_square", "params": {}},
    }
    assert body["reason"] == "a man moves one square diagonally forwards (FMJD 3.4)"
    assert body["message"] == f"move '32-23' at ply 1 is not legal: {body['reason']}"


def test_fmjd_4_13_a_capture_refused_by_the_majority_rule_names_both_counts(client, world):
    world.game.start_fen = world.game.fen = "W:W48:B24,K31,34,K42,43"
    world.game.save()
    start(client, world)
    response = post(
        client,
        f"/api/games/{world.game.pk}/moves",
        {"ply": 1, "move": "48x30", "request_id": "a"},
        world.white,
    )
    assert response.status_code == 422
    reason = response.json()["params"]["reason"]
    assert reason == {"code": "move.majority", "params": {"required": 3, "taken": 2}}
    assert "requires taking 3 pieces; this capture takes 2" in response.json()["message"]


def test_a_malformed_move_request_says_what_is_wrong_in_the_apis_error_form(client, world):
    """Bodies that never reach the service (not JSON, a field missing or of the wrong type)
    are answered like the service's own errors: error, message naming the field."""
    start(client, world)
    url = f"/api/games/{world.game.pk}/moves"
    broken = post(client, url, '{"ply": 1, "move": ', world.white)
    assert broken.status_code == 400
    assert broken.json() == {
        "error": "bad_request",
        "code": "request.not_json",
        "params": {},
        "message": "the request body is not valid JSON",
    }
    missing = post(client, url, {"ply": 1, "move": "32-28"}, world.white)
    assert missing.status_code == 422
    assert missing.json()["error"] == "invalid"
    assert missing.json()["message"].startswith("request_id: ")
    assert missing.json()["fields"] == [{"field": "request_id", "message": "Field required"}]
    assert missing.json()["code"] == "request.invalid_fields"
    assert missing.json()["params"] == {"fields": ["request_id"]}
    wrong = post(client, url, {"ply": "first", "move": "32-28", "request_id": "a"}, world.white)
    assert wrong.status_code == 422 and wrong.json()["fields"][0]["field"] == "ply"
    world.game.refresh_from_db()
    assert world.game.ply == 0  # nothing was played


def test_post_move_by_the_wrong_player_is_a_403_and_without_login_a_401(client, world):
    start(client, world)
    url = f"/api/games/{world.game.pk}/moves"
    body = {"ply": 1, "move": "32-28", "request_id": "a"}
    assert post(client, url, body, world.black).status_code == 403
    assert post(client, url, body, make_token(make_user())).status_code == 403
    anonymous = post(client, url, body)
    assert anonymous.status_code == 401 and anonymous.json()["error"] == "unauthorized"
    assert "Authorization: Bearer" in anonymous.json()["message"]
    assert not Move.objects.exists()


def test_post_move_with_a_session_login(client, world):
    start(client, world)
    client.force_login(world.white_user)
    response = post(
        client, f"/api/games/{world.game.pk}/moves", {"ply": 1, "move": "32-28", "request_id": "s"}
    )
    assert response.status_code == 201, response.content


def test_clock_adjust_through_the_api(client, world):
    start(client, world)
    url = f"/api/games/{world.game.pk}/clock"
    bad = post(client, url, {"action": "adjust", "side": "white", "reason": "x"}, world.arbiter)
    assert bad.status_code == 422 and "delta_ms" in bad.json()["message"]
    ok = post(
        client,
        url,
        {"action": "adjust", "side": "black", "delta_ms": 60_000, "reason": "noise"},
        world.arbiter,
    )
    assert ok.status_code == 200 and ok.json()["clock"]["black_ms"] == 360_000
    assert post(client, url, {"action": "pause"}, world.white).status_code == 403
    assert post(client, url, {"action": "explode"}, world.arbiter).status_code == 422


def test_round_clock_starts_every_game(client, world):
    other = make_game(world.event)
    response = post(
        client, f"/api/rounds/{world.game.round_id}/clock", {"action": "start"}, world.arbiter
    )
    assert response.status_code == 200
    assert sorted(response.json()["changed"]) == sorted([world.game.pk, other.pk])
    assert Game.objects.filter(status="running").count() == 2


def test_reading_a_game_after_its_deadline_shows_the_flag(client, world, monkeypatch):
    from datetime import timedelta

    start(client, world)
    later = timezone.now() + timedelta(seconds=301)
    monkeypatch.setattr(timezone, "now", lambda: later)
    state = client.get(f"/api/games/{world.game.pk}").json()
    assert (state["status"], state["result"], state["termination"]) == ("finished", "0-2", "flag")
    assert state["flag"]["side"] == "white"
    refused = post(
        client,
        f"/api/games/{world.game.pk}/moves",
        {"ply": 1, "move": "32-28", "request_id": "late"},
        world.white,
    )
    assert refused.status_code == 409


def test_the_clock_log_lists_each_action_with_who_why_and_both_times(client, world):
    url = f"/api/games/{world.game.pk}/clock"
    start(client, world)
    for body in (
        {"action": "pause", "reason": "player ill"},
        {"action": "adjust", "side": "black", "delta_ms": 60_000, "reason": "clock fault"},
        {"action": "set", "white_ms": 100_000, "black_ms": 200_000, "reason": "new clock"},
    ):
        assert post(client, url, body, world.arbiter).status_code == 200, body

    def log(token):
        return client.get(f"{url}/log", HTTP_AUTHORIZATION=f"Bearer {token}")

    response = log(world.arbiter)
    assert response.status_code == 200, response.content
    entries = response.json()["entries"]
    assert [e["action"] for e in entries] == ["start", "pause", "adjust", "set"]
    assert entries[0]["white_ms"] == entries[0]["black_ms"] == 300_000
    assert entries[1]["reason"] == "player ill" and entries[1]["black_ms"] == 300_000
    assert entries[1]["white_ms"] <= 300_000  # White's clock ran until the pause
    assert (entries[2]["side"], entries[2]["delta_ms"], entries[2]["black_ms"]) == (
        "black",
        60_000,
        360_000,
    )
    assert (entries[3]["white_ms"], entries[3]["black_ms"]) == (100_000, 200_000)
    arbiter = Game.objects.get(pk=world.game.pk).round.event.arbiters.get()
    assert {e["by"] for e in entries} == {arbiter.username}
    assert log(world.white).status_code == 403  # a player: the log is the arbiters'
