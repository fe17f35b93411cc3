"""The public page of a game of a published round (arbiters also see unpublished ones)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from arbiter.errors import NotFound
from rules.svg import board_svg

from . import pdn_export
from .public_game import game_page as page_data


@require_GET
def game_page(request, slug: str, number: int, board: int):
    try:
        game = pdn_export.board_game(slug, number, board, by=request.user)
    except NotFound as exc:
        raise Http404(exc.message) from None
    data = page_data(game)
    return render(
        request,
        "games/public_game.html",
        {
            "game": game,
            "event": game.round.event,
            "round": game.round,
            "data": data,
            "svg": board_svg(data["fens"][-1], size=400),
        },
    )
