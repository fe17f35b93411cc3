"""Pages of notation sheets: a player's submit form, and the arbiter's comparison (versions
side by side, the diagram at the first difference, approve and edit). Thin: the services
and selectors decide; a refused action is said in words on the page, nothing changed."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from arbiter.errors import DomainError, Forbidden, Invalid, NotFound
from rules.svg import board_svg

from . import sheet_selectors
from .services import sheets

MAX_UPLOAD = 200_000


def _text_of(request) -> str:
    upload = request.FILES.get("file")
    if upload is not None and upload.size:
        if upload.size > MAX_UPLOAD:
            raise Invalid("sheet.upload_too_large", name=upload.name, max=MAX_UPLOAD)
        raw = upload.read()
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            return raw.decode("latin-1")
    return request.POST.get("text", "")


def _guard(request, game_id: int):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        return sheet_selectors.sheet_game(game_id)
    except NotFound as exc:
        raise Http404(exc.message) from None


@require_http_methods(["GET", "POST"])
def player_sheet(request, game_id: int):
    """A player's notation sheet of their own game: typed, pasted or a file."""
    game = _guard(request, game_id)
    if not hasattr(game, "pk"):
        return game
    error = None
    if request.method == "POST":
        try:
            sheets.submit_sheet(game.pk, _text_of(request), by=request.user)
            return redirect("games:player_sheet", game.pk)
        except DomainError as exc:
            error = exc.message
    try:
        data = sheet_selectors.player_sheets(game.pk, by=request.user)
    except Forbidden as exc:
        raise PermissionDenied(exc.message) from None
    pending = any(s["status"] == "pending" for s in data["sheets"])
    return render(
        request,
        "games/sheet_submit.html",
        {
            "game": game,
            "event": game.round.event,
            "round": game.round,
            "data": data,
            "error": error,
            "text": request.POST.get("text", "") if error else "",
            "pending": pending,
        },
        status=422 if error else 200,
    )


@require_http_methods(["GET", "POST"])
def compare_sheets(request, game_id: int):
    """The arbiter's comparison: every version side by side, approve or edit one."""
    game = _guard(request, game_id)
    if not hasattr(game, "pk"):
        return game
    error = choice = None
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "approve":
                sheets.approve_sheet(
                    int(request.POST.get("sheet") or 0),
                    by=request.user,
                    reason=request.POST.get("reason", ""),
                    result_stands=request.POST.get("result_stands") or None,
                )
            elif action == "edit":
                sheets.edit_sheet(
                    game.pk,
                    _text_of(request),
                    by=request.user,
                    reason=request.POST.get("reason", ""),
                )
            elif action == "check":
                sheets.check_pending(game.pk)
            else:
                raise Invalid("sheet.unknown_action", action=action)
            return redirect("games:compare_sheets", game.pk)
        except DomainError as exc:
            error = exc.message
            if exc.details.get("choice") == "result_stands":
                choice = {**exc.details, "sheet": request.POST.get("sheet")}
    try:
        view = sheet_selectors.comparison(game.pk, by=request.user)
    except Forbidden as exc:
        raise PermissionDenied(exc.message) from None
    fen = view["fen_before_difference"] or game.fen
    return render(
        request,
        "games/sheet_compare.html",
        {
            "game": game,
            "event": game.round.event,
            "round": game.round,
            "view": view,
            "svg": board_svg(fen, size=320),
            "error": error,
            "choice": choice,
            "pending": any(v["status"] == "pending" for v in view["versions"]),
        },
        status=(409 if choice else 422) if error else 200,
    )
