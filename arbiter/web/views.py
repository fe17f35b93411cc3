"""The home page and the error pages (403, 404) in the site's layout."""

from __future__ import annotations

import logging

from django.shortcuts import render

from arbiter.events.permissions import can_create_events

logger = logging.getLogger("arbiter.refused")


def home(request):
    return render(
        request, "public/home.html", {"can_create_events": can_create_events(request.user)}
    )


def _reason(exception) -> str:
    """The message the code gave with the refusal ('' when it gave none)."""
    args = getattr(exception, "args", ())
    text = str(args[0]) if args else ""
    # Django's resolver gives a dict for unmatched addresses: no words for the reader there.
    return text if isinstance(args[0] if args else None, str) else ""


def forbidden(request, exception=None):
    """403: what was refused and why, and whom to ask (an event's organizer and arbiters).

    Logged once, on one line: Django's own log of the response (with two chained
    tracebacks) is skipped, since a refusal is not a fault of the server.
    """
    reason = _reason(exception)
    event = getattr(exception, "event", None)
    context = {"reason": reason, "event": event, "path": request.path}
    if event is not None:
        context["organizer"] = event.organizer
        context["arbiters"] = list(event.arbiters.order_by("username"))
    user = request.user.username if request.user.is_authenticated else "anonymous"
    logger.warning("403 %s %s for %s: %s", request.method, request.path, user, reason or "-")
    response = render(request, "403.html", context, status=403)
    response._has_been_logged = True  # django.request would log it again, with tracebacks
    return response


def not_found(request, exception=None):
    """404: what was not found (the code's message when it gave one)."""
    return render(
        request, "404.html", {"reason": _reason(exception), "path": request.path}, status=404
    )
