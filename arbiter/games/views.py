"""Pages of a game: the arbiter's board and round pages, and the players' clock page.

The pages are shells: their scripts (static/arbiter/board.js, round.js, clock.js) read the
state from the JSON API and act through it, so that a page and a program see the same rules.
"""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET

from arbiter.errors import NotFound
from arbiter.events.permissions import is_arbiter, require_view_round
from rules.svg import board_svg

from . import presentation, selectors
from .models import Irregularity


class _LoginNeeded(Exception):
    pass


def _require(request, event) -> None:
    """The arbiter's pages: anonymous visitors are sent to log in, others get 403."""
    if is_arbiter(request.user, event):
        return
    if not request.user.is_authenticated:
        raise _LoginNeeded
    raise PermissionDenied(f"only an arbiter of '{event}' may open this page")


def _require_view(request, game) -> None:
    """The public's pages of a game: 404 for a game of a draft round or event (its board,
    names and colours are not shown before the round is published)."""
    require_view_round(request.user, game.round, NotFound("game.not_found", game_id=game.pk))


def _page(view):
    """NotFound -> 404; anonymous -> the login page; others without the role -> 403."""

    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except NotFound as exc:
            raise Http404(exc.message) from None
        except _LoginNeeded:
            return redirect_to_login(request.get_full_path())

    wrapper.__name__ = view.__name__
    wrapper.__doc__ = view.__doc__
    return wrapper


@require_GET
@ensure_csrf_cookie
@_page
def board(request, game_id: int):
    """The arbiter's board: diagram, move entry, move list, clocks and their controls."""
    game = presentation.game_for_page(game_id)
    _require(request, game.round.event)
    return render(
        request,
        "games/board.html",
        {
            "game": game,
            "event": game.round.event,
            "round": game.round,
            "svg": board_svg(
                game.fen, last_move=presentation.last_move_notation(game) or None, size=480
            ),
            "arrival": selectors.arrival_state(game),
            "tc": presentation.time_control(game.round.event),
            "irregularity_kinds": Irregularity.Kind.choices,
        },
    )


@require_GET
@_page
def player_clock(request, game_id: int):
    """The board's clock: on a tablet bound to the board (a device token in the browser,
    /tablet/), the players press it, enter the moves on the diagram and act (offer, claim,
    resign, choose); elsewhere the same page shows the clocks only."""
    game = presentation.game_for_page(game_id)
    _require_view(request, game)
    event = game.round.event
    return render(
        request,
        "games/player_clock.html",
        {
            "game": game,
            "event": event,
            "round": game.round,
            "tc": presentation.time_control(event),
            "svg": board_svg(
                game.fen, last_move=presentation.last_move_notation(game) or None, size=480
            ),
            "claim_articles": ("6.1", "6.2", "6.3", "6.4"),
        },
    )


@require_GET
def tablet(request):
    """Where a tablet is bound to a board: the short code typed, or the link's code taken."""
    return render(request, "games/tablet_bind.html", {})


@require_GET
@_page
def diagram(request, game_id: int):
    """The game's position as SVG (?flipped=1: Black at the bottom)."""
    game = presentation.game_for_page(game_id)
    _require_view(request, game)
    svg = board_svg(
        game.fen,
        last_move=presentation.last_move_notation(game) or None,
        flipped=request.GET.get("flipped") in {"1", "true"},
        size=480,
    )
    response = HttpResponse(svg, content_type="image/svg+xml")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
@ensure_csrf_cookie
@_page
def round_board(request, round_id: int):
    """The arbiter's round: every board, its clocks and arrivals; the round's clock buttons."""
    round_ = presentation.round_for_page(round_id)
    _require(request, round_.event)
    return render(
        request,
        "games/round.html",
        {
            "round": round_,
            "event": round_.event,
            "state": presentation.round_state(round_),
            "tc": presentation.time_control(round_.event),
        },
    )


@require_GET
@_page
def round_state(request, round_id: int):
    """The round page's data, polled every second."""
    round_ = presentation.round_for_page(round_id)
    _require(request, round_.event)
    return JsonResponse(presentation.round_state(round_))
