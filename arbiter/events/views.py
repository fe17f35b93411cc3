"""Public pages of an event: information, pairings, results, standings, crosstable, cards.

Thin: every read is a selector (selectors/, presentation.py); domain errors become
404/403 in `domain_errors`. Drafts are visible only to their organizer and arbiters.
"""

from __future__ import annotations

from functools import wraps

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import render

from arbiter.errors import Forbidden, NotFound
from arbiter.events import presentation as pages
from arbiter.events.models import Event
from arbiter.events.permissions import can_create_events, is_arbiter
from arbiter.messages import Problem


class EventRefused(PermissionDenied):
    """A refusal on an event's page: the 403 page names whom to ask (its organizer, arbiters)."""

    def __init__(self, why: Problem, event: Event):
        super().__init__(str(why))
        self.why = why
        self.event = event


def domain_errors(view):
    """Map NotFound to 404 and Forbidden to 403 (other domain errors are the view's job)."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except NotFound as exc:
            raise Http404(exc.message) from exc
        except Forbidden as exc:
            raise PermissionDenied(exc.message) from exc

    return wrapper


def _context(request, event: Event, **extra) -> dict:
    rounds = pages.visible_rounds(request.user, event)
    return {
        "event": event,
        "rounds": rounds,
        "can_manage": is_arbiter(request.user, event),
        **extra,
    }


def event_list(request):
    return render(
        request, "events/event_list.html", {"can_create_events": can_create_events(request.user)}
    )


@domain_errors
def event_detail(request, slug: str):
    event = pages.event_for(request.user, slug)
    context = _context(request, event, tab="info", info=pages.event_info(event))
    context["entries"] = list(event.entries.select_related("player").order_by("pairing_number"))
    context["provisional"] = pages.provisional_numbers(event, context["entries"])
    return render(request, "events/event_detail.html", context)


@domain_errors
def round_pairings(request, slug: str, number: int):
    """Pairings and results of a round by board: the sheet for the hall's wall."""
    event = pages.event_for(request.user, slug)
    rnd = pages.round_for(request.user, event, number)
    context = _context(
        request,
        event,
        round=rnd,
        rows=pages.board_lines(rnd),
        unpaired=pages.not_paired(rnd),
    )
    return render(request, "events/round_pairings.html", context)


@domain_errors
def round_alphabetical(request, slug: str, number: int):
    """The same pairings by player name, each with their board and colour."""
    event = pages.event_for(request.user, slug)
    rnd = pages.round_for(request.user, event, number)
    context = _context(request, event, round=rnd, rows=pages.player_lines(rnd))
    return render(request, "events/round_alphabetical.html", context)


@domain_errors
def results(request, slug: str):
    """Every visible round's results, board by board."""
    event = pages.event_for(request.user, slug)
    context = _context(request, event, tab="results")
    context["round_rows"] = [(rnd, pages.board_lines(rnd)) for rnd in reversed(context["rounds"])]
    return render(request, "events/results.html", context)


def _after_round(request, rounds) -> int | None:
    value = request.GET.get("after", "")
    if not value:
        return pages.last_round_with_results(rounds)
    if not (value.isascii() and value.isdigit()) or int(value) not in {r.number for r in rounds}:
        raise NotFound("round.no_published_round", value=value)
    return int(value)


@domain_errors
def standings(request, slug: str):
    """Standings after any round, with the event's tie-breaks and how each was computed."""
    event = pages.event_for(request.user, slug)
    context = _context(request, event, tab="standings")
    after = _after_round(request, context["rounds"])
    context.update(
        after=after,
        played_rounds=pages.rounds_with_results(context["rounds"]),
        info=pages.event_info(event),
        rows=pages.standing_rows(event, after_round=after) if after else [],
    )
    return render(request, "events/standings.html", context)


@domain_errors
def crosstable(request, slug: str):
    """A grid for round robins; a wallchart (opponent, colour, result per round) for Swiss."""
    event = pages.event_for(request.user, slug)
    context = _context(request, event, tab="crosstable", table=pages.crosstable(event))
    return render(request, "events/crosstable.html", context)


@domain_errors
def player_card(request, slug: str, number: int):
    """A player's games and results in this event."""
    event = pages.event_for(request.user, slug)
    entry = pages.entry_for(event, number)
    context = _context(request, event, card=pages.event_player_card(request.user, event, entry))
    return render(request, "events/player_card.html", context)
