"""A WSGI application served by an ASGI server, for small requests and responses.

The request body is read on the event loop, the application runs on a fixed pool of threads,
and its response comes back whole: one hop to a thread and one back. a2wsgi, used before,
hops back to the event loop for each read of the body and each piece of the response, and
its thread waits on each: five hops for a move, about a tenth of a web process's CPU under
load (benchmarks/move_entry.py).

What this gives up: a response is sent once the application has produced all of it, so a
streaming response (server-sent events, a long download) would be held in memory until it
ends. None of the views streams; an endpoint that must (live boards) belongs to Django's
ASGI handler, routed in arbiter/asgi.py.
"""

from __future__ import annotations

import asyncio
import io
import sys
from concurrent.futures import ThreadPoolExecutor

from a2wsgi.wsgi import build_environ

# MAX_BODY_BYTES: the largest request body read (a player list or a PDN file is far smaller);
# a larger one gets 413 without reaching the application, and is not held in memory whole.
from arbiter.infra.limits import MAX_BODY_BYTES, too_large_body


class _Response:
    """What the application gave to start_response and write(), and its body."""

    __slots__ = ("status", "headers", "chunks")

    def __init__(self):
        self.status = 500
        self.headers: list[tuple[bytes, bytes]] = []
        self.chunks: list[bytes] = []

    def start(self, status: str, headers: list[tuple[str, str]], exc_info=None):
        # Nothing is sent before the application returns, so a second call (with exc_info,
        # PEP 3333) may always replace the first.
        self.status = int(status.split(" ", 1)[0])
        self.headers = [(k.lower().encode("latin1"), v.encode("latin1")) for k, v in headers]
        return self.chunks.append  # the legacy write() callable


class WSGIBridge:
    """ASGI application running the WSGI application `app` on `threads` threads."""

    def __init__(self, app, threads: int):
        self.app = app
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="web")

    async def __call__(self, scope, receive, send) -> None:
        kind = scope["type"]
        if kind == "http":
            await self._http(scope, receive, send)
        elif kind == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    self.executor.shutdown(wait=False)
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        elif kind == "websocket":
            await send({"type": "websocket.close", "code": 1000})

    async def _http(self, scope, receive, send) -> None:
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client left before sending all of its request
            body += message.get("body", b"")
            if len(body) > MAX_BODY_BYTES:
                await _too_large(send, scope.get("path", ""))
                return
            if not message.get("more_body", False):
                break
        environ = build_environ(scope, io.BytesIO(bytes(body)))
        environ["wsgi.errors"] = sys.stderr
        loop = asyncio.get_running_loop()
        response = await loop.run_in_executor(self.executor, self._run, environ)
        await send(
            {"type": "http.response.start", "status": response.status, "headers": response.headers}
        )
        await send({"type": "http.response.body", "body": b"".join(response.chunks)})

    def _run(self, environ) -> _Response:
        """In a pool thread: the whole response. The iterable is closed here, in the thread
        that ran the request: Django then returns that thread's database connection."""
        response = _Response()
        iterable = self.app(environ, response.start)
        try:
            response.chunks.extend(iterable)
        finally:
            close = getattr(iterable, "close", None)
            if close is not None:
                close()
        return response


async def _too_large(send, path: str) -> None:
    status, content_type, text = too_large_body(path)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", content_type.encode()),
                (b"content-length", str(len(text)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": text})
