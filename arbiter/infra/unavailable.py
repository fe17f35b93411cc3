"""503 instead of 500 when the database cannot be reached (settings: `handler500` in urls).

Django hands every uncaught exception to the 500 handler, from a view or a middleware alike
(the session's save, the user's lookup). When it is a database connection error, the answer
is 503 with a Retry-After: in the API's error form under /api/ (arbiter.errors.Unavailable,
code "request.database_unreachable"), a plain page otherwise. The page renders no template
and touches nothing that needs the database.
"""

from __future__ import annotations

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.views import defaults

from arbiter.errors import Unavailable

RETRY_AFTER_S = 5
_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Database unreachable</title></head>
<body style="font-family: sans-serif; margin: 1.5rem; max-width: 40rem">
<h1>The database cannot be reached</h1>
<p>The arbiter system is running but cannot reach its database just now, so what you asked
for may not have been done. Try again in a few seconds, and check that it was saved.</p>
</body></html>
"""


def database_down(exc: BaseException | None) -> bool:
    """A failure to reach the database, or a connection it dropped (not a bad query)."""
    return isinstance(exc, OperationalError | InterfaceError)


def server_error(request, *args, **kwargs):
    """Django's handler500: 503 when the database is down, Django's own 500 page otherwise."""
    if not database_down(sys.exc_info()[1]):
        return defaults.server_error(request, *args, **kwargs)
    headers = {"Retry-After": str(RETRY_AFTER_S)}
    if request.path.startswith("/api/"):
        error = Unavailable("request.database_unreachable", retry_after_s=RETRY_AFTER_S)
        return JsonResponse(error.as_dict(), status=error.status, headers=headers)
    return HttpResponse(_PAGE, status=503, headers=headers, content_type="text/html")
