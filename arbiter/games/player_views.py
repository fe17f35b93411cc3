"""The player's own page (/me/) and its one action, confirming a result. Thin: the selector
decides what is shown (player_selectors.py), the service what a confirmation writes."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from arbiter.errors import DomainError

from . import player_selectors
from .confirmation_selectors import CONFIRMABLE
from .services.confirmation import confirm_result


@require_GET
@login_required
def me(request):
    """The logged-in player's events, next pairing, games, records and notation sheets."""
    page = player_selectors.player_page(request.user)
    return render(request, "games/me.html", {**page, "results": CONFIRMABLE, "tab": "me"})


@require_POST
@login_required
def confirm(request, game_id: int):
    """The player confirms the result of their game (or says it was another)."""
    result = request.POST.get("result", "")
    try:
        state = confirm_result(game_id, by=request.user, result=result)
    except DomainError as exc:
        messages.error(request, f"Not confirmed: {exc.message}.")
    else:
        messages.success(request, f"Board {state['board']}: {state['words']}.")
    return redirect("games:me")
