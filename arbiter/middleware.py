"""Django's own middleware, declared sync-only, so that under ASGI a request crosses from the
event loop to a thread once.

Django's built-in middleware is both sync- and async-capable; WhiteNoise is sync-only. In such
a mixed chain the ASGI handler hops between the event loop and threads around every middleware
(about 16 hops a request), and each sync-after-async step starts a thread with an event loop of
its own: 5 ms a request where a plain WSGI call takes 0.7 ms. All views here are sync, so a
chain that is sync from end to end loses nothing and costs one hop.
(Measured with benchmarks/move_entry.py: the bare endpoint went from 5.3 to 3.2 ms a request.)
"""

from __future__ import annotations

from django.contrib.auth import middleware as auth
from django.contrib.messages import middleware as messages
from django.contrib.sessions import middleware as sessions
from django.middleware import clickjacking, common, csrf, security


def sync_only(cls: type) -> type:
    """A subclass of the middleware `cls` that Django runs in sync mode only."""
    return type(
        cls.__name__,
        (cls,),
        {"sync_capable": True, "async_capable": False, "__module__": __name__},
    )


SecurityMiddleware = sync_only(security.SecurityMiddleware)
SessionMiddleware = sync_only(sessions.SessionMiddleware)
CommonMiddleware = sync_only(common.CommonMiddleware)
CsrfViewMiddleware = sync_only(csrf.CsrfViewMiddleware)
AuthenticationMiddleware = sync_only(auth.AuthenticationMiddleware)
MessageMiddleware = sync_only(messages.MessageMiddleware)
XFrameOptionsMiddleware = sync_only(clickjacking.XFrameOptionsMiddleware)
