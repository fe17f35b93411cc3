"""Every write of the events API, tried as a player and as an arbiter of another event:
403 each time, and nothing changes. Plus the round start time through the API."""

import pytest
from django.test import Client

from arbiter.events import services
from arbiter.events.models import AuditEntry, Entry, Event, Player, Round
from arbiter.games.models import Game
from tests.accounts.builders import bearer, make_user
from tests.events.builders import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup():
    org = make_user("org", organizer=True)
    event = make_event(org, n_players=4, published=True)
    round1 = services.pair_next_round(event, by=org)
    services.publish_round(round1, by=org)
    other_arbiter = make_user("other")
    make_event(org, name="Other Open", arbiters=[other_arbiter])
    player_user = make_user("player1")
    entry1 = event.entries.get(pairing_number=1)
    services.link_user(entry1.player, player_user, by=org)
    return org, event, round1, other_arbiter, player_user


def _writes(event, round1):
    game = round1.games.exclude(black=None).order_by("board").first()
    # An entry that is not the linked player's own (the player may change their own).
    other_entry = event.entries.get(pairing_number=4)
    ids = list(event.entries.values_list("player_id", flat=True))
    return [
        ("patch", f"/api/events/{event.pk}", {"rounds": 9}),
        ("post", f"/api/events/{event.pk}/players", {"surname": "Intruder"}),
        ("post", f"/api/events/{event.pk}/entries", {"player_id": ids[0]}),
        ("post", f"/api/events/{event.pk}/entries/import", {"csv": "surname\nIntruder\n"}),
        ("post", f"/api/entries/{other_entry.pk}/withdraw", {"reason": "x"}),
        ("put", f"/api/entries/{other_entry.pk}/absences", {"rounds": [3]}),
        ("post", f"/api/entries/{other_entry.pk}/byes", {"round": 3}),
        ("post", f"/api/events/{event.pk}/rounds", {}),
        ("post", f"/api/rounds/{round1.pk}/publish", {}),
        ("put", f"/api/rounds/{round1.pk}/schedule", {"scheduled_start": "2026-05-01T13:30Z"}),
        ("delete", f"/api/rounds/{round1.pk}", {}),
        ("put", f"/api/rounds/{round1.pk}/pairings", {"boards": [ids[:2]], "reason": "x"}),
        ("put", f"/api/games/{game.pk}/result", {"result": "2-0", "termination": ""}),
        ("post", f"/api/games/{game.pk}/forfeit", {"absent": "black", "reason": "x"}),
        ("put", f"/api/events/{event.pk}/arbiters", {"usernames": ["other"]}),
    ]


def _snapshot(event):
    return (
        Event.objects.filter(pk=event.pk).values().get(),
        list(Entry.objects.filter(event=event).values().order_by("pk")),
        list(Round.objects.filter(event=event).values().order_by("pk")),
        list(Game.objects.filter(round__event=event).values().order_by("pk")),
        list(event.arbiters.values_list("pk", flat=True)),
        Player.objects.count(),
        AuditEntry.objects.filter(event=event).count(),
    )


@pytest.mark.parametrize("who", ["player", "other_arbiter"])
def test_every_api_write_is_403_for_a_player_and_for_another_events_arbiter(client, setup, who):
    org, event, round1, other_arbiter, player_user = setup
    auth = bearer(player_user if who == "player" else other_arbiter)
    before = _snapshot(event)
    for method, url, body in _writes(event, round1):
        r = getattr(client, method)(url, body, content_type="application/json", **auth)
        assert r.status_code == 403, (method, url, r.status_code, r.content)
        assert r.json()["error"] == "forbidden", (method, url)
    assert _snapshot(event) == before
    r = client.get(f"/api/events/{event.pk}/audit", **auth)
    assert r.status_code == 403


def test_a_player_may_request_a_bye_for_their_own_entry_only(client, setup):
    org, event, round1, other_arbiter, player_user = setup
    own = event.entries.get(pairing_number=1)
    r = client.post(
        f"/api/entries/{own.pk}/byes",
        {"round": 3},
        content_type="application/json",
        **bearer(player_user),
    )
    assert r.status_code == 200 and r.json()["requested_byes"] == [3]


def test_round_start_time_through_the_api(client, setup):
    org, event, round1, other_arbiter, player_user = setup
    auth = bearer(org)
    url = f"/api/rounds/{round1.pk}/schedule"
    r = client.put(
        url, {"scheduled_start": "2026-05-01T15:30+02:00"}, content_type="application/json", **auth
    )
    assert r.status_code == 200, r.content
    assert r.json()["scheduled_start"].startswith("2026-05-01T13:30")
    event_json = client.get(f"/api/events/{event.pk}").json()
    assert event_json["rounds_paired"][0]["scheduled_start"].startswith("2026-05-01T13:30")
    r = client.put(
        url, {"scheduled_start": "2026-05-01T13:30"}, content_type="application/json", **auth
    )
    assert r.status_code == 422 and "time zone" in r.json()["message"]
    r = client.put(url, {"scheduled_start": None}, content_type="application/json", **auth)
    assert r.status_code == 200 and r.json()["scheduled_start"] is None
    paths = client.get("/api/openapi.json").json()["paths"]
    assert "put" in paths["/api/rounds/{round_id}/schedule"]


def test_a_logged_in_session_may_write_with_its_csrf_token(setup):
    org, event, round1, other_arbiter, player_user = setup
    client = Client(enforce_csrf_checks=True)
    client.force_login(org)
    url = f"/api/rounds/{round1.pk}/schedule"
    body = {"scheduled_start": "2026-05-01T13:30Z"}
    r = client.put(url, body, content_type="application/json")
    assert r.status_code in (401, 403)  # no CSRF token: refused
    round1.refresh_from_db()
    assert round1.scheduled_start is None
    client.get("/events/")  # sets the CSRF cookie
    token = client.cookies["csrftoken"].value
    r = client.put(url, body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert r.status_code == 200, r.content
    round1.refresh_from_db()
    assert round1.scheduled_start is not None
