"""Django's error views, answering in the API's error form under /api/ (a URL no route
matches, e.g. /api/games/abc) and with Django's own pages elsewhere."""

from __future__ import annotations

from django.http import JsonResponse
from django.views import defaults


def _api(request) -> bool:
    return request.path.startswith("/api/")


def not_found(request, exception=None):
    if _api(request):
        return JsonResponse(
            {"error": "not_found", "message": f"no API endpoint at {request.path}"}, status=404
        )
    return defaults.page_not_found(request, exception)


def bad_request(request, exception=None):
    if _api(request):
        return JsonResponse({"error": "bad_request", "message": "bad request"}, status=400)
    return defaults.bad_request(request, exception)


def forbidden(request, exception=None):
    if _api(request):
        return JsonResponse({"error": "forbidden", "message": str(exception or "")}, status=403)
    return defaults.permission_denied(request, exception)
