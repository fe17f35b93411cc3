"""Issue 16, security: API tokens stored hashed, shown once, scoped (event, game/device,
read or write), expiring, with their last use, listed and revoked by their owner and the
organizer; a missing, wrong, expired or revoked token gets 401 in the API's form."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from arbiter.accounts import tokens
from arbiter.accounts.models import ApiToken
from arbiter.events import services
from arbiter.games import services as game_services
from arbiter.games.models import Move
from tests.accounts.builders import make_user
from tests.events.builders import make_event

pytestmark = pytest.mark.django_db


def auth(secret) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


@pytest.fixture
def world():
    org = make_user("org", organizer=True, password="pw-org")
    event = make_event(org, n_players=4, published=True, rounds=5)
    other = make_event(org, name="Other Open", n_players=4, published=True, rounds=5)
    round1 = services.pair_next_round(event, by=org)
    services.publish_round(round1, by=org)
    games = list(round1.games.exclude(black=None).order_by("board"))
    for game in games:
        game_services.start_clocks(game, by=org, reason="round start")
    return org, event, other, games


def move(client, game, secret, ply=1, notation="32-28", request_id="r1"):
    return client.post(
        f"/api/games/{game.pk}/moves",
        {"ply": ply, "move": notation, "request_id": request_id},
        content_type="application/json",
        **auth(secret),
    )


def test_only_the_secrets_sha256_is_stored_and_the_secret_works(world, client):
    org, event, other, games = world
    token, secret = tokens.issue(org, name="relay")
    row = ApiToken.objects.values().get(pk=token.pk)
    assert row["key_hash"] == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in {str(v) for v in row.values()}
    assert secret.startswith(row["prefix"]) and len(row["prefix"]) < 12
    assert move(client, games[0], secret).status_code == 201


CODES = {
    "missing": "request.not_logged_in",
    "wrong": "token.invalid",
    "expired": "token.expired",
    "revoked": "token.revoked",
}


@pytest.mark.parametrize("kind", ["missing", "wrong", "expired", "revoked"])
def test_a_bad_token_on_a_write_is_401_in_the_api_form_not_a_csrf_403(world, kind):
    org, event, other, games = world
    token, secret = tokens.issue(org)
    if kind == "expired":
        ApiToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() - timedelta(1))
    if kind == "revoked":
        tokens.revoke(token.pk, by=org)
    headers = {} if kind == "missing" else auth("dra_nope" if kind == "wrong" else secret)
    client = Client(enforce_csrf_checks=True)
    for method, url, body in [
        ("post", f"/api/games/{games[0].pk}/moves", {"ply": 1, "move": "32-28", "request_id": "x"}),
        ("patch", f"/api/events/{event.pk}", {"rounds": 9}),
        ("post", f"/api/rounds/{games[0].round_id}/clock", {"action": "start"}),
    ]:
        r = getattr(client, method)(url, body, content_type="application/json", **headers)
        assert r.status_code == 401, (kind, url, r.status_code, r.content)
        out = r.json()
        assert out["error"] == "unauthorized" and "CSRF" not in out["message"]
        assert out["code"] == CODES[kind], out
        if kind in {"expired", "revoked"}:
            assert kind in out["message"]
    assert not Move.objects.exists()


def test_a_wrong_token_on_a_read_is_401_too(world, client):
    org, event, other, games = world
    assert client.get(f"/api/games/{games[0].pk}", **auth("dra_nope")).status_code == 401
    assert client.get(f"/api/games/{games[0].pk}").status_code == 200  # anonymous: public


def test_the_last_use_is_recorded(world, client):
    org, event, other, games = world
    token, secret = tokens.issue(org)
    assert token.last_used_at is None
    before = timezone.now()
    client.get(f"/api/events/{event.pk}", **auth(secret))
    token.refresh_from_db()
    assert token.last_used_at is not None and token.last_used_at >= before


def test_a_read_token_cannot_write(world, client):
    org, event, other, games = world
    _, secret = tokens.issue(org, access="read")
    assert client.get(f"/api/games/{games[0].pk}", **auth(secret)).status_code == 200
    r = move(client, games[0], secret)
    assert r.status_code == 403 and "read-only" in r.json()["message"]
    assert r.json()["code"] == "token.read_only"


def test_a_device_token_acts_on_its_game_only(world, client):
    org, event, other, games = world
    _, secret = tokens.issue(org, game=games[0], name="board 1 tablet")
    assert move(client, games[0], secret).status_code == 201
    r = move(client, games[1], secret)
    assert r.status_code == 403 and f"game {games[0].pk} only" in r.json()["message"]
    assert r.json()["params"] == {"game_id": games[0].pk}
    r = client.patch(
        f"/api/events/{event.pk}", {"rounds": 9}, content_type="application/json", **auth(secret)
    )
    assert r.status_code == 403
    assert client.get("/api/events", **auth(secret)).status_code == 200  # public lists stay open


def test_an_event_token_acts_on_its_event_only(world, client):
    org, event, other, games = world
    _, secret = tokens.issue(org, event=event)
    assert move(client, games[0], secret).status_code == 201
    ok = client.patch(
        f"/api/events/{event.pk}",
        {"place": "Utrecht"},
        content_type="application/json",
        **auth(secret),
    )
    assert ok.status_code == 200
    r = client.patch(
        f"/api/events/{other.pk}",
        {"place": "Utrecht"},
        content_type="application/json",
        **auth(secret),
    )
    assert r.status_code == 403 and f"event {event.pk} only" in r.json()["message"]


def test_only_an_arbiter_or_a_player_may_scope_a_token_to_a_game(world):
    from arbiter.errors import Forbidden

    org, event, other, games = world
    stranger = make_user("stranger")
    with pytest.raises(Forbidden):
        tokens.issue(stranger, game=games[0])
    with pytest.raises(Forbidden):
        tokens.issue(stranger, event=event)


def test_issue_list_and_revoke_through_the_api(world, client):
    org, event, other, games = world
    arbiter = make_user("arb")
    services.set_arbiters(event, [arbiter], by=org)
    _, arbiter_secret = tokens.issue(arbiter)
    r = client.post(
        "/api/tokens",
        {"name": "tablet 1", "game_id": games[0].pk, "expires_in_days": 2},
        content_type="application/json",
        **auth(arbiter_secret),
    )
    assert r.status_code == 201, r.content
    issued = r.json()
    device_secret = issued["token"]
    assert issued["game_id"] == games[0].pk and issued["access"] == "write"
    assert move(client, games[0], device_secret).status_code == 201
    # Listed without the secret, by its owner and by the event's organizer.
    _, org_secret = tokens.issue(org)
    for secret in (arbiter_secret, org_secret):
        listed = client.get("/api/tokens", **auth(secret)).json()
        row = next(t for t in listed if t["id"] == issued["id"])
        assert "token" not in row and row["last_used_at"] is not None
        assert device_secret not in str(listed)
    # Someone else cannot see or revoke it.
    _, stranger_secret = tokens.issue(make_user("stranger"))
    assert issued["id"] not in [
        t["id"] for t in client.get("/api/tokens", **auth(stranger_secret)).json()
    ]
    assert client.delete(f"/api/tokens/{issued['id']}", **auth(stranger_secret)).status_code == 404
    # The organizer revokes it: the device is refused at once.
    assert client.delete(f"/api/tokens/{issued['id']}", **auth(org_secret)).status_code == 204
    r = move(client, games[0], device_secret, ply=2, notation="19-23", request_id="r2")
    assert r.status_code == 401 and "revoked" in r.json()["message"]


def test_a_scoped_token_cannot_issue_or_manage_tokens(world, client):
    org, event, other, games = world
    _, secret = tokens.issue(org, event=event)
    r = client.post("/api/tokens", {"name": "x"}, content_type="application/json", **auth(secret))
    assert r.status_code == 403
    assert client.get("/api/tokens", **auth(secret)).status_code == 403


def test_a_token_for_a_username_and_password_is_shown_once(world, client):
    org, event, other, games = world
    r = client.post(
        "/api/tokens",
        {"username": "org", "password": "pw-org", "name": "script"},
        content_type="application/json",
    )
    assert r.status_code == 201, r.content
    secret = r.json()["token"]
    assert client.get("/api/tokens", **auth(secret)).status_code == 200
    assert secret not in client.get("/api/tokens", **auth(secret)).content.decode()


@pytest.mark.django_db(transaction=True)
def test_plain_tokens_made_before_hashing_keep_working_once_migrated():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.migrate([("accounts", "0001_initial")])
    executor.loader.build_graph()
    old_apps = executor.loader.project_state([("accounts", "0001_initial")]).apps
    user = old_apps.get_model("auth", "User").objects.create(username="relay-owner")
    old_apps.get_model("accounts", "ApiToken").objects.create(user=user, key="plain-key-123")
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    found, scope = tokens.resolve("plain-key-123")
    assert found.username == "relay-owner" and scope.unscoped
    assert ApiToken.objects.get().key_hash == hashlib.sha256(b"plain-key-123").hexdigest()


def test_the_tokens_page_issues_shows_the_secret_once_and_revokes(client):
    user = make_user("anna")
    client.force_login(user)
    r = client.post("/accounts/tokens/", {"name": "relay", "access": "write", "expires_in_days": 7})
    assert r.status_code == 200
    token = ApiToken.objects.get(user=user)
    secret = r.context["secret"]
    assert secret.startswith(token.prefix) and secret in r.content.decode()
    again = client.get("/accounts/tokens/").content.decode()
    assert secret not in again and token.prefix in again and "relay" in again
    r = client.post(f"/accounts/tokens/{token.pk}/revoke/")
    assert r.status_code == 302
    token.refresh_from_db()
    assert token.revoked_at is not None
    with pytest.raises(tokens.TokenRefused, match="revoked"):
        tokens.resolve(secret)
    stranger = make_user("stranger")
    other, _ = tokens.issue(stranger)
    client.post(f"/accounts/tokens/{other.pk}/revoke/")
    other.refresh_from_db()
    assert other.revoked_at is None  # not hers to revoke


def test_the_tokens_page_needs_a_login(client):
    r = client.get("/accounts/tokens/")
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]
