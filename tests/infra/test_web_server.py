"""The web server's pieces: the WSGI bridge inside the ASGI server, and the API's fair gate."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from arbiter.infra.gate import FairGate
from arbiter.infra.wsgibridge import WSGIBridge


def _serve(app, scope: dict, messages: list[dict]) -> list[dict]:
    """Run the ASGI `app` on one request: `messages` are what the client sends; returns
    what the app sent."""
    sent: list[dict] = []
    incoming = list(messages)

    async def receive():
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    return sent


def _in_two(first: bytes, second: bytes) -> list[dict]:
    """A request body that arrives in two messages."""
    return [
        {"type": "http.request", "body": first, "more_body": True},
        {"type": "http.request", "body": second, "more_body": False},
    ]


def _scope(method="POST", path="/echo") -> dict:
    return {
        "type": "http",
        "method": method,
        "path": path,
        "query_string": b"x=1",
        "http_version": "1.1",
        "headers": [(b"content-type", b"text/plain"), (b"content-length", b"11")],
        "server": ("127.0.0.1", 8000),
        "client": ("127.0.0.1", 50000),
    }


class _Echo:
    """A WSGI app that echoes its request body and notes where it was closed."""

    def __init__(self):
        self.closed_in = None

    def __call__(self, environ, start_response):
        body = environ["wsgi.input"].read(int(environ["CONTENT_LENGTH"]))
        write = start_response("201 Created", [("Content-Type", "text/plain"), ("X-Q", "x=1")])
        write(b"<")
        app = self

        class Body(list):
            def close(self):
                app.closed_in = threading.current_thread().name

        return Body([body, b">", environ["QUERY_STRING"].encode()])


def test_the_bridge_gives_the_app_the_whole_body_and_sends_its_whole_response():
    app = _Echo()
    sent = _serve(WSGIBridge(app, threads=2), _scope(), _in_two(b"hello ", b"world"))
    assert sent == [
        {
            "type": "http.response.start",
            "status": 201,
            "headers": [(b"content-type", b"text/plain"), (b"x-q", b"x=1")],
        },
        {"type": "http.response.body", "body": b"<hello world>x=1"},
    ]
    # Closed in the thread that ran the request (Django returns that thread's connection).
    assert app.closed_in is not None and app.closed_in.startswith("web")


def test_the_bridge_does_not_run_the_app_for_a_client_that_left():
    app = _Echo()
    sent = _serve(
        WSGIBridge(app, threads=1),
        _scope(),
        [{"type": "http.request", "body": b"hel", "more_body": True}],  # then disconnect
    )
    assert sent == [] and app.closed_in is None


def test_an_error_in_the_app_reaches_the_server():
    def broken(environ, start_response):
        raise RuntimeError("view failed")

    with pytest.raises(RuntimeError, match="view failed"):
        _serve(WSGIBridge(broken, threads=1), _scope("GET", "/"), [{"type": "http.request"}])


def test_the_bridge_answers_lifespan_and_closes_websockets():
    bridge = WSGIBridge(_Echo(), threads=1)
    sent = _serve(
        bridge, {"type": "lifespan"}, [{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}]
    )
    assert [m["type"] for m in sent] == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
    sent = _serve(WSGIBridge(_Echo(), threads=1), {"type": "websocket"}, [])
    assert sent == [{"type": "websocket.close", "code": 1000}]


def test_the_gate_lets_no_more_than_its_limit_in_at_once():
    gate, inside, most = FairGate(2), [0], [0]
    lock = threading.Lock()

    def work():
        with gate:
            with lock:
                inside[0] += 1
                most[0] = max(most[0], inside[0])
            time.sleep(0.01)
            with lock:
                inside[0] -= 1

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert most[0] == 2 and inside[0] == 0


def test_the_gate_lets_waiters_in_in_the_order_they_came_and_nobody_overtakes():
    """The holder leaves and asks again at once: it must queue behind the waiters (with a
    semaphore it usually took the slot back, and a waiter could wait for ever)."""
    gate, order = FairGate(1), []
    gate.__enter__()  # the holder
    waiters = []
    for name in "abc":
        t = threading.Thread(
            target=lambda n=name: (gate.__enter__(), order.append(n), gate.__exit__())
        )
        t.start()
        waiters.append(t)
        while len(gate._waiters) < len(waiters):  # queued in this order
            time.sleep(0.001)
    gate.__exit__()
    gate.__enter__()  # straight back: after a, b and c
    order.append("holder")
    gate.__exit__()
    for t in waiters:
        t.join()
    assert order == ["a", "b", "c", "holder"]


def test_a_body_over_the_limit_gets_413_without_reaching_the_app(monkeypatch):
    from arbiter.infra import wsgibridge

    monkeypatch.setattr(wsgibridge, "MAX_BODY_BYTES", 8)
    app = _Echo()
    sent = _serve(WSGIBridge(app, threads=1), _scope(), _in_two(b"12345", b"67890"))
    assert sent[0]["status"] == 413 and b"larger than" in sent[1]["body"]
    assert app.closed_in is None


_TRY_LOCK = (
    "import fcntl, os, sys\n"
    "fd = os.open(sys.argv[1], os.O_RDWR)\n"
    "try:\n"
    "    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\n"
    "except BlockingIOError:\n"
    "    sys.exit(1)\n"
)


def test_on_sqlite_the_process_lock_holds_off_other_processes(tmp_path):
    """Another server process cannot take it while a request holds it, and can after."""
    import subprocess
    import sys

    fcntl = pytest.importorskip("fcntl")  # noqa: F841 - POSIX only
    from arbiter.infra.gate import ProcessLock

    db = tmp_path / "db.sqlite3"
    lock = ProcessLock({"ENGINE": "django.db.backends.sqlite3", "NAME": str(db)})

    def other_process_gets_it() -> bool:
        run = subprocess.run([sys.executable, "-c", _TRY_LOCK, f"{db}-gate"], check=False)
        return run.returncode == 0

    with lock:
        assert not other_process_gets_it()
    assert other_process_gets_it()


@pytest.mark.parametrize(
    "database",
    [
        {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"},
        {"ENGINE": "django.db.backends.postgresql", "NAME": "arbiter"},
    ],
)
def test_the_process_lock_does_nothing_elsewhere(database):
    from arbiter.infra.gate import ProcessLock

    lock = ProcessLock(database)
    with lock:
        assert lock._file() is None
