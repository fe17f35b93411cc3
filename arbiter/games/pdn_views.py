"""PDN downloads at stable public URLs: a game, a round, an event (published rounds only;
an arbiter of the event also gets the rounds not yet published)."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.views.decorators.http import require_GET

from arbiter.errors import NotFound

from . import pdn_export

PDN_TYPE = "application/x-draughts-pdn; charset=utf-8"


def pdn_response(name: str, text: str, *, inline: bool = False) -> HttpResponse:
    response = HttpResponse(text, content_type=PDN_TYPE)
    how = "inline" if inline else "attachment"
    response["Content-Disposition"] = f'{how}; filename="{name}"'
    return response


def _download(read, *args, **kwargs) -> HttpResponse:
    try:
        name, text = read(*args, **kwargs)
    except NotFound as exc:
        raise Http404(exc.message) from None
    return pdn_response(name, text)


@require_GET
def game_pdn(request, slug: str, number: int, board: int):
    try:
        game = pdn_export.board_game(slug, number, board, by=request.user)
    except NotFound as exc:
        raise Http404(exc.message) from None
    return _download(pdn_export.game_pdn, game.pk, by=request.user)


@require_GET
def round_pdn(request, slug: str, number: int):
    return _download(pdn_export.round_pdn_by_number, slug, number, by=request.user)


@require_GET
def event_pdn(request, slug: str):
    return _download(pdn_export.event_pdn, slug, by=request.user)
