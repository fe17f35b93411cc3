"""Issue 16, security: password attempts are limited per account (5 failures in 15 min) and
per address (20), on the login page, the admin's login and the API's token issuing; while
over the limit even the right password is refused, with the wait in words."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from arbiter.accounts import throttle
from arbiter.accounts.models import LoginFailure
from tests.accounts.builders import make_user

pytestmark = pytest.mark.django_db


def login_page(client, username, password, address="10.0.0.1"):
    return client.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address
    )


def token_api(client, username, password, address="10.0.0.1"):
    return client.post(
        "/api/tokens",
        {"username": username, "password": password},
        content_type="application/json",
        REMOTE_ADDR=address,
    )


def test_the_login_page_refuses_the_right_password_after_5_failures_and_says_how_long(client):
    make_user("anna", password="pw-anna")
    for _ in range(throttle.PER_ACCOUNT):
        r = login_page(client, "anna", "wrong")
        assert r.status_code == 200 and "_auth_user_id" not in client.session
    r = login_page(client, "anna", "pw-anna")
    assert "_auth_user_id" not in client.session
    text = r.content.decode()
    assert "too many failed logins for this account" in text and "try again in" in text
    # From another address too: the limit is the account's.
    login_page(client, "anna", "pw-anna", address="10.9.9.9")
    assert "_auth_user_id" not in client.session


def test_the_account_opens_again_once_the_failures_leave_the_window(client):
    make_user("anna", password="pw-anna")
    for _ in range(throttle.PER_ACCOUNT):
        login_page(client, "anna", "wrong")
    LoginFailure.objects.update(at=timezone.now() - throttle.WINDOW - timedelta(seconds=1))
    r = login_page(client, "anna", "pw-anna")
    assert r.status_code == 302 and client.session["_auth_user_id"]


def test_a_right_password_before_the_limit_clears_the_count(client):
    make_user("anna", password="pw-anna")
    for _ in range(throttle.PER_ACCOUNT - 1):
        login_page(client, "anna", "wrong")
    assert login_page(client, "anna", "pw-anna").status_code == 302
    assert not LoginFailure.objects.filter(username="anna").exists()


def test_one_address_trying_many_accounts_is_stopped_at_20(client):
    make_user("victim", password="pw-victim")
    for i in range(throttle.PER_ADDRESS):
        login_page(client, f"user{i}", "guess", address="10.6.6.6")
    r = login_page(client, "victim", "pw-victim", address="10.6.6.6")
    assert "your network address" in r.content.decode()
    assert "_auth_user_id" not in client.session
    assert login_page(client, "victim", "pw-victim", address="10.7.7.7").status_code == 302


def test_the_token_api_counts_failures_and_answers_429_with_the_wait(client):
    make_user("anna", password="pw-anna")
    for _ in range(throttle.PER_ACCOUNT):
        r = token_api(client, "anna", "wrong")
        assert r.status_code == 401 and r.json()["error"] == "unauthorized"
    r = token_api(client, "anna", "pw-anna")
    assert r.status_code == 429
    out = r.json()
    assert out["error"] == "too_many_attempts" and "try again in" in out["message"]
    assert out["code"] == "login.throttled_account" and out["params"]["limit"] == 5
    assert 0 < out["retry_after"] <= throttle.WINDOW.total_seconds() + 1
    assert "token" not in out


def test_the_page_and_the_api_share_the_count(client):
    make_user("anna", password="pw-anna")
    for _ in range(3):
        login_page(client, "anna", "wrong")
    for _ in range(2):
        token_api(client, "anna", "wrong")
    assert token_api(client, "anna", "pw-anna").status_code == 429


def test_the_admin_login_is_limited_too(client):
    make_user("boss", password="pw-boss", is_superuser=True, is_staff=True)
    for _ in range(throttle.PER_ACCOUNT):
        client.post("/admin/login/", {"username": "boss", "password": "wrong"})
    r = client.post("/admin/login/", {"username": "boss", "password": "pw-boss"})
    assert "try again in" in r.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize("bad", ["a\x00b", "x" * 151])
def test_a_bad_username_is_a_form_error_not_a_500(client, bad):
    r = login_page(client, bad, "pw")
    assert r.status_code == 200


def test_behind_a_trusted_proxy_one_attacker_does_not_lock_everyone_out(client, settings):
    """Every request comes from the proxy's address: the limit counts the client named in
    X-Forwarded-For by the trusted proxy (TRUSTED_PROXIES), not the proxy."""
    settings.TRUSTED_PROXIES = ["10.0.0.5"]
    make_user("victim", password="pw-victim")

    def via_proxy(username, password, client_address):
        return client.post(
            "/accounts/login/",
            {"username": username, "password": password},
            REMOTE_ADDR="10.0.0.5",
            HTTP_X_FORWARDED_FOR=client_address,
        )

    for i in range(throttle.PER_ADDRESS):
        via_proxy(f"user{i}", "guess", "203.0.113.66")
    assert (
        "your network address" in via_proxy("victim", "pw-victim", "203.0.113.66").content.decode()
    )
    assert via_proxy("victim", "pw-victim", "198.51.100.1").status_code == 302
    assert set(LoginFailure.objects.values_list("address", flat=True)) == {"203.0.113.66"}


def test_a_client_naming_another_address_directly_is_still_counted_by_its_own(client, settings):
    settings.TRUSTED_PROXIES = ["10.0.0.5"]
    for i in range(throttle.PER_ADDRESS):
        client.post(
            "/api/tokens",
            {"username": f"user{i}", "password": "guess"},
            content_type="application/json",
            REMOTE_ADDR="203.0.113.66",
            HTTP_X_FORWARDED_FOR=f"198.51.100.{i}",  # a new address each time: ignored
        )
    assert set(LoginFailure.objects.values_list("address", flat=True)) == {"203.0.113.66"}
    r = token_api(client, "anyone", "guess", address="203.0.113.66")
    assert r.status_code == 429 and r.json()["code"] == "login.throttled_address"
