"""The address a request came from: the one function for it (the login limits count by it).

REMOTE_ADDR is the direct peer. Behind a reverse proxy every request comes from the proxy's
address: one attacker's wrong passwords would lock everyone out (20 per address, arbiter/
accounts/throttle.py), or a limit per proxy would be useless. The proxy names its own peer
in X-Forwarded-For, appended to whatever the client sent; the client may write anything
there. So the header is read only when the direct peer is a proxy we trust (the setting
TRUSTED_PROXIES, env, addresses or networks, default none), and from the right: each entry
is the peer of the proxy that wrote it, so the rightmost entry that is not a trusted proxy
is the client. Entries left of it are the client's own words and are ignored.

uvicorn is started with --no-proxy-headers (arbiter/runtime/supervisor.py): by default it
rewrites the peer from X-Forwarded-For for connections from 127.0.0.1, which would make the
peer seen here already the header's claim.
"""

from __future__ import annotations

import ipaddress
from functools import cache

from django.conf import settings

#: Entries of X-Forwarded-For looked at, from the right (proxies in a chain: a handful).
MAX_HOPS = 20
#: The longest text of an address kept (IPv6 with a zone: 45 characters is the column).
MAX_LENGTH = 45

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


@cache
def _networks(trusted: tuple[str, ...]) -> tuple:
    return tuple(ipaddress.ip_network(t, strict=False) for t in trusted)


def trusted_networks() -> tuple:
    """TRUSTED_PROXIES as networks (checked when the settings load: arbiter/settings.py)."""
    return _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ())))


def parse(text: str) -> Address | None:
    """An address as a peer or a proxy writes it ("203.0.113.7", "2001:db8::1", also with a
    port: "203.0.113.7:5123", "[2001:db8::1]:443"), or None when it is none."""
    text = text.strip()
    if text.startswith("[") and "]" in text:
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]  # IPv4 with a port
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped
    return address


def _trusted(address: Address, networks: tuple) -> bool:
    return any(address in network for network in networks)


def client_address(request) -> str:
    """The address the request came from: its peer, or, when the peer is a trusted proxy,
    the rightmost address in X-Forwarded-For that is not a trusted proxy (all of them
    trusted: the leftmost). "" without a request; "unknown" without a peer."""
    if request is None:
        return ""
    peer_text = (request.META.get("REMOTE_ADDR") or "").strip()
    peer = parse(peer_text)
    networks = trusted_networks()
    if peer is None or not networks or not _trusted(peer, networks):
        return (str(peer) if peer is not None else peer_text or "unknown")[:MAX_LENGTH]
    # Django joins repeated headers with ","; the rightmost hops are the proxies' own.
    hops = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")[-MAX_HOPS:]
    client = peer
    for text in reversed(hops):
        address = parse(text)
        if address is None:
            break  # not an address: what lies left of here is no proxy's word
        client = address
        if not _trusted(address, networks):
            break
    return str(client)[:MAX_LENGTH]
