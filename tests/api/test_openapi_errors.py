"""Issue 16: the OpenAPI schema documents every error answer (the one error form) and the
limits of every input."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(client):
    return client.get("/api/openapi.json").json()


def test_every_operation_documents_its_error_answers_in_the_one_form(schema):
    assert set(schema["components"]["schemas"]["ErrorOut"]["required"]) == {
        "error",
        "code",
        "params",
        "message",
    }
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            errors = {s for s in responses if s.startswith(("4", "5"))}
            assert {"401", "403", "422"} <= errors, (method, path)
            if "{" in path:
                assert "404" in errors, (method, path)
            if "requestBody" in operation:
                assert "413" in errors, (method, path)
            for status in errors:
                body = responses[status]["content"]["application/json"]["schema"]
                assert body == {"$ref": "#/components/schemas/ErrorOut"}, (method, path, status)


def _body_schema(schema, path, method="post"):
    ref = schema["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]
    return schema["components"]["schemas"][ref["$ref"].rsplit("/", 1)[1]]


def test_the_limits_are_in_the_schema(schema):
    move = _body_schema(schema, "/api/games/{game_id}/moves")["properties"]
    assert move["ply"]["minimum"] == 1 and move["ply"]["maximum"] == 10_000
    assert move["request_id"]["maxLength"] == 100 and move["move"]["maxLength"] == 200
    clock = _body_schema(schema, "/api/games/{game_id}/clock")["properties"]
    delta = next(s for s in clock["delta_ms"]["anyOf"] if s.get("type") == "integer")
    assert delta["maximum"] == 24 * 3600 * 1000 and delta["minimum"] == -24 * 3600 * 1000
    player = _body_schema(schema, "/api/events/{event_id}/players")["properties"]
    assert player["surname"]["maxLength"] == 100 and player["club"]["maxLength"] == 200
    (after,) = [
        p
        for p in schema["paths"]["/api/events/{event_id}/standings"]["get"]["parameters"]
        if p["name"] == "after_round"
    ]
    bounds = next(s for s in after["schema"]["anyOf"] if s.get("type") == "integer")
    assert bounds["minimum"] == 0 and bounds["maximum"] == 99
    assert "429" in schema["paths"]["/api/tokens"]["post"]["responses"]


def test_an_unknown_api_url_is_a_404_in_the_error_form(client):
    r = client.get("/api/games/not-a-number")
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    assert client.get("/no-such-page/").status_code == 404  # pages keep Django's own
