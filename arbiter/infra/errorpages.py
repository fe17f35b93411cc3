"""Django's error views: under /api/ in the API's error form (a URL no route matches, e.g.
/api/games/abc), elsewhere the site's pages (arbiter/web/views.py) or Django's own."""

from __future__ import annotations

from django.http import JsonResponse
from django.views import defaults

from arbiter import messages
from arbiter.errors import DomainError
from arbiter.messages import Problem


def _api(request) -> bool:
    return request.path.startswith("/api/")


def _answer(exception, status: int, kind: str, problem: Problem) -> JsonResponse:
    if isinstance(exception, DomainError):
        return JsonResponse(exception.as_dict(), status=exception.status)
    body = {
        "error": kind,
        "code": problem.code,
        "params": messages.jsonable(problem.params),
        "message": str(problem),
    }
    return JsonResponse(body, status=status)


def not_found(request, exception=None):
    if _api(request):
        problem = Problem("request.no_endpoint", path=request.path)
        return _answer(exception, 404, "not_found", problem)
    from arbiter.web import views

    return views.not_found(request, exception)


def bad_request(request, exception=None):
    if _api(request):
        return _answer(None, 400, "bad_request", Problem("request.bad_request"))
    return defaults.bad_request(request, exception)


def forbidden(request, exception=None):
    if _api(request):
        return _answer(exception, 403, "forbidden", Problem("request.forbidden"))
    from arbiter.web import views

    return views.forbidden(request, exception)
