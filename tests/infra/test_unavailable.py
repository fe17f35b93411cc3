"""The database down: 503, in the API's error form or as a plain page, never an HTML 500."""

from unittest import mock

import pytest
from django.db import OperationalError, connection
from django.test import Client

from tests.accounts.builders import make_user

pytestmark = pytest.mark.django_db

DROPPED = OperationalError("server closed the connection unexpectedly")


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


@pytest.fixture
def database_down():
    with mock.patch.object(connection, "cursor", side_effect=DROPPED):
        yield


def test_an_api_request_gets_503_in_the_api_error_form(client, database_down):
    response = client.get("/api/games/1")
    assert response.status_code == 503
    assert response["Content-Type"].startswith("application/json")
    assert response["Retry-After"] == "5"
    body = response.json()
    assert (body["error"], body["code"], body["params"]) == (
        "unavailable",
        "request.database_unreachable",
        {"retry_after_s": 5},
    )
    assert "database cannot be reached" in body["message"]
    assert "try again in 5 seconds" in body["message"]
    assert "same request_id" in body["message"]


def test_a_write_to_the_api_gets_the_same_503(client):
    client.force_login(make_user("arbiter-1"))
    with mock.patch.object(connection, "cursor", side_effect=DROPPED):
        response = client.post(
            "/api/games/1/moves",
            {"ply": 1, "move": "32-28", "request_id": "r1"},
            content_type="application/json",
        )
    assert response.status_code == 503
    assert response.json()["code"] == "request.database_unreachable"


def test_a_page_gets_a_plain_503_page_saying_the_database_is_unreachable(client, database_down):
    response = client.get("/")
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert "The database cannot be reached" in page
    assert 'name="viewport"' in page  # readable on a phone


def test_any_other_error_is_still_a_500(client):
    with mock.patch.object(connection, "cursor", side_effect=ValueError("a bug")):
        response = client.get("/api/games/1")
    assert response.status_code == 500


def test_pooled_postgresql_connections_are_checked_before_use_after_sitting_idle():
    from arbiter.infra.postgresql import base

    if connection.vendor != "postgresql" or not connection.pool:
        pytest.skip("the pool is PostgreSQL's")
    assert connection.pool._check is base.check_if_idle
    assert connection.pool._reset is base.given_back


def test_the_pool_checks_a_connection_only_when_it_sat_idle(monkeypatch):
    from psycopg_pool import ConnectionPool

    from arbiter.infra.postgresql import base

    checked = []
    monkeypatch.setattr(ConnectionPool, "check_connection", checked.append)

    class Conn:
        pass

    fresh, idle, never = Conn(), Conn(), Conn()
    base.given_back(fresh)
    base.given_back(idle)
    idle.arbiter_given_back_at -= base.IDLE_CHECK_S + 0.1
    for conn in (fresh, idle, never):
        base.check_if_idle(conn)
    assert checked == [idle, never]  # a connection given back just now: no round trip
