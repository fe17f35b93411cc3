import csv
import io

import pytest

from arbiter.events import services
from arbiter.events.models import Event
from tests.accounts.builders import bearer, make_user
from tests.events.builders import make_event

pytestmark = pytest.mark.django_db


def test_routes_appear_in_the_openapi_schema(client):
    paths = client.get("/api/openapi.json").json()["paths"]
    for path, method in [
        ("/api/events", "get"),
        ("/api/events", "post"),
        ("/api/events/{event_id}", "get"),
        ("/api/events/{event_id}/players", "post"),
        ("/api/events/{event_id}/entries", "post"),
        ("/api/events/{event_id}/entries/import", "post"),
        ("/api/events/{event_id}/rounds", "post"),
        ("/api/rounds/{round_id}/publish", "post"),
        ("/api/rounds/{round_id}/pairings", "get"),
        ("/api/rounds/{round_id}/pairings", "put"),
        ("/api/games/{game_id}/result", "put"),
        ("/api/events/{event_id}/standings", "get"),
        ("/api/events/{event_id}/standings.csv", "get"),
        ("/api/events/{event_id}/standings.json", "get"),
        ("/api/rounds/{round_id}/pairings.csv", "get"),
        ("/api/events/{event_id}/export.trf", "get"),
    ]:
        assert method in paths.get(path, {}), f"{method.upper()} {path}"


def test_a_whole_round_through_the_api(client, org):
    auth = bearer(org)
    r = client.post(
        "/api/events",
        {"name": "API Open", "system": "swiss", "rounds": 3, "tiebreaks": ["solkoff", "wins"]},
        content_type="application/json",
        **auth,
    )
    assert r.status_code == 201, r.content
    event_id = r.json()["id"]
    for i, rating in enumerate([2100, 2000, 1900, 1800]):
        r = client.post(
            f"/api/events/{event_id}/players",
            {"surname": f"Api{i}", "given_name": "X", "rating": rating, "federation": "NED"},
            content_type="application/json",
            **auth,
        )
        assert r.status_code == 201, r.content
        assert r.json()["pairing_number"] == i + 1
    r = client.post(f"/api/events/{event_id}/rounds", **auth)
    assert r.status_code == 201, r.content
    round_ = r.json()
    assert round_["number"] == 1 and round_["status"] == "draft" and len(round_["boards"]) == 2
    # Not public while a draft, not even for the organizer's anonymous visitors.
    assert client.get(f"/api/rounds/{round_['id']}/pairings").status_code == 404
    r = client.post(f"/api/rounds/{round_['id']}/publish", **auth)
    assert r.status_code == 200 and r.json()["status"] == "published"
    services.update_event(Event.objects.get(pk=event_id), by=org, published=True)
    pairings = client.get(f"/api/rounds/{round_['id']}/pairings").json()
    assert [b["board"] for b in pairings["boards"]] == [1, 2]
    assert len(pairings["alphabetical"]) == 4
    for board, result in zip(pairings["boards"], ["2-0", "1-1"], strict=True):
        r = client.put(
            f"/api/games/{board['game_id']}/result",
            {"result": result, "termination": ""},
            content_type="application/json",
            **auth,
        )
        assert r.status_code == 200, r.content
        assert r.json()["result"] == result
    standings = client.get(f"/api/events/{event_id}/standings?explain=true").json()
    assert standings["tiebreaks"] == ["solkoff", "wins"]
    assert set(standings["tiebreak_names"]) == {"solkoff", "wins"}
    assert [row["points"] for row in standings["rows"]] == [2, 1, 1, 0]
    assert standings["rows"][0]["tiebreaks"]["wins"] == 1
    assert standings["rows"][0]["explain"]["solkoff"]
    r = client.get(f"/api/events/{event_id}/standings.csv")
    assert r["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(r.content.decode())))
    assert rows[0][-2:] == ["solkoff", "wins"] and len(rows) == 5
    r = client.get(f"/api/rounds/{round_['id']}/pairings.csv?order=alpha")
    assert len(list(csv.reader(io.StringIO(r.content.decode())))) == 5
    trf = client.get(f"/api/events/{event_id}/export.trf").content.decode()
    assert trf.startswith("012 API Open")
    assert sum(1 for line in trf.splitlines() if line.startswith("001")) == 4
    r = client.post(f"/api/events/{event_id}/rounds", **auth)
    assert r.status_code == 201 and r.json()["number"] == 2


def test_writes_need_a_token_or_a_session(client, org):
    event = make_event(org, n_players=2, published=True)
    r = client.post("/api/events", {"name": "X", "rounds": 3}, content_type="application/json")
    assert r.status_code == 401
    assert client.post(f"/api/events/{event.pk}/rounds").status_code == 401
    bad = {"HTTP_AUTHORIZATION": "Bearer not-a-token"}
    assert client.post(f"/api/events/{event.pk}/rounds", **bad).status_code == 401


def test_roles_are_enforced_behind_the_api(client, org):
    event = make_event(org, n_players=4, published=True)
    stranger = bearer(make_user("stranger"))
    r = client.post(f"/api/events/{event.pk}/rounds", **stranger)
    assert r.status_code == 403 and r.json()["error"] == "forbidden"
    r = client.post(
        "/api/events", {"name": "X", "rounds": 3}, content_type="application/json", **stranger
    )
    assert r.status_code == 403


def test_drafts_are_not_found_for_the_public_but_readable_by_their_organizer(client, org):
    draft = make_event(org, name="Secret")
    assert client.get(f"/api/events/{draft.pk}").status_code == 404
    assert client.get(f"/api/events/{draft.pk}/standings").status_code == 404
    assert client.get("/api/events").json() == []
    r = client.get(f"/api/events/{draft.pk}", **bearer(org))
    assert r.status_code == 200 and r.json()["name"] == "Secret"


def test_bad_input_gets_422_saying_what_and_where(client, org):
    auth = bearer(org)
    r = client.post(
        "/api/events",
        {"name": "X", "rounds": 3, "tiebreaks": ["buchholz"]},
        content_type="application/json",
        **auth,
    )
    assert r.status_code == 422 and "buchholz" in r.json()["message"]
    # The code and its parameters, for a program; the message, for a person.
    body = r.json()
    assert body["code"] == "tiebreaks.unknown" and body["params"]["unknown"] == ["buchholz"]
    assert "solkoff" in body["params"]["known"]
    assert body["message"].startswith("tiebreaks: unknown code(s) buchholz; known: ")
    event = make_event(org)
    r = client.post(
        f"/api/events/{event.pk}/entries/import",
        {"csv": "surname,rating\nA,high\n,2000\n"},
        content_type="application/json",
        **auth,
    )
    assert r.status_code == 422
    assert [e["line"] for e in r.json()["errors"]] == [2, 3]
    assert not event.entries.exists()


def test_unfinished_previous_round_gives_409(client, org):
    event = make_event(org, n_players=4)
    round1 = services.pair_next_round(event, by=org)
    services.publish_round(round1, by=org)
    r = client.post(f"/api/events/{event.pk}/rounds", **bearer(org))
    assert r.status_code == 409 and "board(s) 1, 2" in r.json()["message"]


def test_set_pairing_returns_warnings(client, org):
    event = make_event(org, n_players=4)
    round1 = services.pair_next_round(event, by=org)
    ids = list(event.entries.order_by("pairing_number").values_list("player_id", flat=True))
    r = client.put(
        f"/api/rounds/{round1.pk}/pairings",
        {"boards": [[ids[0], ids[1]], [ids[2], None]], "reason": "test"},
        content_type="application/json",
        **bearer(org),
    )
    assert r.status_code == 200, r.content
    body = r.json()
    assert any("not paired" in w for w in body["warnings"])
    assert [b["board"] for b in body["round"]["boards"]] == [1, 2]


def test_entries_import_withdraw_and_bye_through_the_api(client, org):
    event = make_event(org, published=True)
    auth = bearer(org)
    r = client.post(
        f"/api/events/{event.pk}/entries/import",
        {"csv": "surname,given_name\nA,One\nB,Two\nC,Three\n"},
        content_type="application/json",
        **auth,
    )
    assert r.status_code == 201 and len(r.json()) == 3
    entries = client.get(f"/api/events/{event.pk}/entries").json()
    assert [e["pairing_number"] for e in entries] == [1, 2, 3]
    r = client.post(
        f"/api/entries/{entries[0]['id']}/byes",
        {"round": 1},
        content_type="application/json",
        **auth,
    )
    assert r.status_code == 200 and r.json()["requested_byes"] == [1]
    r = client.post(
        f"/api/entries/{entries[2]['id']}/withdraw",
        {"reason": "ill"},
        content_type="application/json",
        **auth,
    )
    assert r.status_code == 204
    assert len(client.get(f"/api/events/{event.pk}/entries").json()) == 2


def test_patch_event_and_read_its_audit_trail(client, org):
    event = make_event(org)
    auth = bearer(org)
    r = client.patch(
        f"/api/events/{event.pk}",
        {"rounds": 9, "published": True, "reason": "two more rounds"},
        content_type="application/json",
        **auth,
    )
    assert r.status_code == 200 and r.json()["rounds"] == 9 and r.json()["published"]
    trail = client.get(f"/api/events/{event.pk}/audit", **auth).json()
    assert trail[0]["action"] == "event.update" and trail[0]["reason"] == "two more rounds"
    assert trail[0]["old"] == {"published": False, "rounds": 5}
    assert client.get(f"/api/events/{event.pk}/audit", **bearer(make_user("x"))).status_code == 403


def test_the_downtime_credit_is_an_event_setting_on_by_default(client, org):
    auth = bearer(org)
    r = client.post(
        "/api/events", {"name": "Credit Open", "rounds": 5}, content_type="application/json", **auth
    )
    assert r.status_code == 201 and r.json()["downtime_credit"] is True
    event_id = r.json()["id"]
    r = client.patch(
        f"/api/events/{event_id}",
        {"downtime_credit": False},
        content_type="application/json",
        **auth,
    )
    assert r.status_code == 200 and r.json()["downtime_credit"] is False
    assert client.get(f"/api/events/{event_id}", **auth).json()["downtime_credit"] is False
    r = client.patch(
        f"/api/events/{event_id}",
        {"downtime_credit": "sometimes"},
        content_type="application/json",
        **auth,
    )
    assert r.status_code == 422 and "downtime_credit" in r.content.decode()


def test_the_service_refuses_a_downtime_credit_that_is_not_true_or_false(org):
    from arbiter.errors import Invalid

    event = make_event(org)
    with pytest.raises(Invalid) as caught:
        services.update_event(event, by=org, downtime_credit="yes")
    assert caught.value.code == "event.not_boolean"
    assert caught.value.message == "downtime_credit: give true or false"
