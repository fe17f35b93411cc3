"""The size limit of a request body, answered in words before anything reads the body.

The WSGI bridge (wsgibridge.py) stops reading a larger body and answers 413 itself; behind
another server (or in tests) `BodyLimitMiddleware` answers from the Content-Length header, so
that Django's own check (DATA_UPLOAD_MAX_MEMORY_SIZE, a bare 400 page) is never what a client
sees. API paths get the API's error form, pages a short text.
"""

from __future__ import annotations

import json

from django.http import HttpResponse

from arbiter.messages import Problem

#: The largest request body accepted: a CSV of 5000 players, JSON-escaped, is well below it.
MAX_BODY_BYTES = 4 * 1024 * 1024


def too_large_body(path: str, size: int | None = None) -> tuple[int, str, bytes]:
    """(status, content type, body) of the answer to a body larger than MAX_BODY_BYTES."""
    max_mib = MAX_BODY_BYTES // (1024 * 1024)
    problem = (
        Problem("request.too_large", max_mib=max_mib)
        if size is None
        else Problem("request.too_large_size", max_mib=max_mib, size=size)
    )
    message = str(problem)
    if path.startswith("/api/"):
        answer = {
            "error": "too_large",
            "code": problem.code,
            "params": problem.params,
            "message": message,
            "limit_bytes": MAX_BODY_BYTES,
        }
        return 413, "application/json", json.dumps(answer).encode()
    return 413, "text/plain; charset=utf-8", (message + "\n").encode()


class BodyLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            size = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            size = 0
        if size > MAX_BODY_BYTES:
            status, content_type, body = too_large_body(request.path, size)
            return HttpResponse(body, status=status, content_type=content_type)
        return self.get_response(request)
