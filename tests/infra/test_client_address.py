"""The client's address (arbiter/infra/clientaddr.py): X-Forwarded-For is read only when the
direct peer is a trusted proxy (TRUSTED_PROXIES), and then from the right."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import RequestFactory

from arbiter.infra.clientaddr import client_address
from arbiter.settings import _trusted_proxies


def address(peer: str, forwarded: str | None = None) -> str:
    extra = {"REMOTE_ADDR": peer}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return client_address(RequestFactory().get("/", **extra))


def test_without_trusted_proxies_the_peer_is_the_client_whatever_the_header_says(settings):
    settings.TRUSTED_PROXIES = []
    assert address("203.0.113.7") == "203.0.113.7"
    assert address("203.0.113.7", "198.51.100.1") == "203.0.113.7"
    assert address("127.0.0.1", "198.51.100.1") == "127.0.0.1"  # not even from localhost


def test_a_spoofed_header_from_an_untrusted_peer_is_ignored(settings):
    settings.TRUSTED_PROXIES = ["10.0.0.5"]
    # The attacker connects directly and claims to be someone else: still the attacker.
    assert address("203.0.113.66", "198.51.100.1") == "203.0.113.66"
    assert address("203.0.113.66", "10.0.0.5") == "203.0.113.66"


def test_behind_a_trusted_proxy_the_client_is_the_rightmost_untrusted_address(settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/24", "2001:db8:1::/48"]
    assert address("10.0.0.5", "198.51.100.1") == "198.51.100.1"
    # The client wrote an address of its own first; the proxy appended the real one.
    assert address("10.0.0.5", "1.2.3.4, 198.51.100.1") == "198.51.100.1"
    # Two proxies in a chain: the second names the first, which named the client.
    assert address("10.0.0.5", "6.6.6.6, 198.51.100.1, 10.0.0.9") == "198.51.100.1"
    assert address("2001:db8:1::2", "2001:db8:2::7") == "2001:db8:2::7"
    assert address("10.0.0.5", "198.51.100.1:5123") == "198.51.100.1"  # with a port
    assert address("10.0.0.5", "[2001:db8:2::7]:443") == "2001:db8:2::7"


def test_odd_headers_behind_a_trusted_proxy_never_give_the_clients_own_words(settings):
    settings.TRUSTED_PROXIES = ["10.0.0.5"]
    assert address("10.0.0.5") == "10.0.0.5"  # no header: the proxy itself
    assert address("10.0.0.5", "") == "10.0.0.5"
    assert address("10.0.0.5", "1.2.3.4, not-an-address") == "10.0.0.5"
    assert address("10.0.0.5", "10.0.0.5") == "10.0.0.5"  # every hop trusted: the leftmost
    assert address("10.0.0.5", "x" * 10_000 + ", 198.51.100.1") == "198.51.100.1"


@pytest.mark.parametrize("value", ["10.0.0.300", "proxy.example", "10.0.0.0/33"])
def test_a_trusted_proxy_that_is_no_address_stops_the_settings_with_the_reason(value):
    with pytest.raises(ImproperlyConfigured, match="TRUSTED_PROXIES"):
        _trusted_proxies(f"10.0.0.1, {value}")
    assert _trusted_proxies(" 10.0.0.1 , ::1,10.1.0.0/16 ") == ["10.0.0.1", "::1", "10.1.0.0/16"]
