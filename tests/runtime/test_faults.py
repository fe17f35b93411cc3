"""Faults, with real servers: the whole system under its supervisor, as `python3 dev.py run`.

Games run with short clocks while the test kills the clock worker's main process, empties
Redis, kills a web worker, stops the whole system for a while, or cuts the database's
connections. Afterwards: no move lost or doubled, no game with two results, every flag within
FLAG_SLACK of its deadline, and the time the system was down credited to the running clocks
(their deadlines moved by it) rather than charged.

Slow (minutes): they run in the PostgreSQL pass of `python3 dev.py test`, not the SQLite one.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from arbiter.runtime.localservices import free_port, start_redis

from .test_supervisor import ROOT, Run, alive, home_page_answers, system_events

pytestmark = [pytest.mark.slow, pytest.mark.celery]

#: Moves played in each of the games that get moves (the mover runs through every fault).
PLIES = 40
#: A flag falls at most this late after its (credited) deadline.
FLAG_SLACK = timedelta(seconds=2)

SETUP = """
import json
from arbiter.events.models import Round
from arbiter.games import services
from tests.accounts.builders import make_token, make_user
from tests.games.builders import make_event, make_game

name = "{name}"
user = make_user(f"arbiter-{{name}}")
event = make_event(time_control="{tc}", arbiter=user, name=name, slug=name)
games = []
for board in range(1, {count} + 1):
    game = make_game(event, board=board)
    services.start_clocks(game, by=user)
    # Deadlines spread {spread_ms} ms apart.
    if board > 1:
        services.adjust_clock(game, "white", (board - 1) * {spread_ms}, by=user, reason="spread")
    games.append(game.pk)
Round.objects.filter(event=event).update(status=Round.Status.PUBLISHED)
print(json.dumps({{"token": make_token(user), "games": games}}))
"""

REPORT = """
import json
from arbiter.games.models import Game, Move
from clocks.models import ClockLog
ids = {ids}
out = {{}}
for game in Game.objects.filter(pk__in=ids).select_related("clock"):
    logs = ClockLog.objects.filter(clock=game.clock).order_by("at", "pk")
    out[game.pk] = {{
        "plies": list(Move.objects.filter(game=game).order_by("ply").values_list("ply", flat=True)),
        "result": game.result, "termination": game.termination, "status": game.status,
        "flag_at": game.flag_at.isoformat() if game.flag_at else None,
        "flags": [l.at.isoformat() for l in logs if l.action == "flag"],
        "credits": [[l.at.isoformat(), l.delta_ms] for l in logs
                    if l.action == "adjust" and l.reason.startswith("system down")],
    }}
print(json.dumps(out))
"""


def manage_shell(env: dict, code: str) -> dict:
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def when(text: str) -> datetime:
    return datetime.fromisoformat(text)


class Mover:
    """Plays the first legal move in each of `games`, one request after the other, as a
    tablet would: a request that fails (refused connection, 5xx) is sent again with the same
    request_id until it gets an answer; stops a game at `plies` moves or when it is over."""

    def __init__(self, port: int, token: str, games: list[int], plies: int):
        from rules import Game as RulesGame

        self.base = f"http://127.0.0.1:{port}/api/games"
        self.token = token
        self.games = {g: RulesGame() for g in games}
        self.accepted: dict[int, list[int]] = {g: [] for g in games}
        self.retries = 0
        self.statuses: dict[int, int] = {}
        self.plies = plies
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _post(self, game_id: int, body: dict) -> tuple[int, dict]:
        request = urllib.request.Request(
            f"{self.base}/{game_id}/moves",
            data=json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            payload = exc.read()
            assert exc.headers.get("Content-Type", "").startswith("application/json"), payload
            return exc.code, json.loads(payload)

    def _run(self) -> None:
        open_games = set(self.games)
        while open_games and not self.stop.is_set():
            for game_id in sorted(open_games):
                rules_game = self.games[game_id]
                ply = len(self.accepted[game_id]) + 1
                move = rules_game.position.legal_texts()[0]
                body = {"ply": ply, "move": move, "request_id": f"g{game_id}-p{ply}"}
                while not self.stop.is_set():
                    try:
                        status, answer = self._post(game_id, body)
                    except (OSError, http.client.HTTPException):
                        status, answer = None, None
                    self.statuses[status] = self.statuses.get(status, 0) + 1
                    if status is None or status >= 500:
                        self.retries += 1
                        time.sleep(0.3)
                        continue
                    break
                if status == 201:
                    rules_game.push(move)
                    self.accepted[game_id].append(ply)
                    if ply >= self.plies:
                        open_games.discard(game_id)
                elif status == 409 and answer.get("game", {}).get("status") == "finished":
                    open_games.discard(game_id)
                else:
                    raise AssertionError(f"game {game_id} ply {ply}: {status} {answer}")
                time.sleep(0.1)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(timeout=60)


def wait_until(predicate, timeout: float, what: str, run: Run | None = None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.5)
    pytest.fail(f"timed out waiting for {what}" + (f":\n{run.output}" if run else ""))


def check_games(report: dict, mover: Mover | None = None, *, after: datetime | None = None):
    """Every game flagged once, within FLAG_SLACK of its deadline; moves neither lost nor
    doubled. Returns the lateness of each flag in ms."""
    late = []
    for game_id, game in report.items():
        game_id = int(game_id)
        plies = game["plies"]
        assert plies == list(range(1, len(plies) + 1)), (game_id, plies)  # none lost or doubled
        if mover is not None and game_id in mover.accepted:
            assert plies == mover.accepted[game_id], (game_id, plies, mover.accepted[game_id])
        assert game["status"] == "finished" and game["termination"] == "flag", (game_id, game)
        assert len(game["flags"]) == 1, (game_id, game["flags"])  # one result, one flag
        fell_at, recorded = when(game["flag_at"]), when(game["flags"][0])
        assert recorded >= fell_at
        if after is not None:
            assert recorded >= after, (game_id, game)  # nothing fell while the system was down
        late.append((recorded - fell_at) / timedelta(milliseconds=1))
        assert recorded - fell_at <= FLAG_SLACK, (game_id, game)
    return late


def report_line(what: str, values: list[float]) -> str:
    return (
        f"{what}: n={len(values)} max={max(values):.0f} ms mean={sum(values) / len(values):.0f} ms"
    )


def uvicorn_workers(pid: int) -> list[int]:
    """The worker processes of the uvicorn server `pid` (spawned by multiprocessing)."""
    found = []
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        with contextlib.suppress(FileNotFoundError):
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.append(int(child))
    return found


@pytest.fixture
def redis_server():
    server = start_redis()
    yield server
    server.stop()


def test_clock_worker_killed_redis_emptied_web_worker_killed_then_the_whole_system_stopped(
    tmp_path, redis_server
):
    env = {
        **{k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}},
        "ARBITER_VAR_DIR": str(tmp_path),
        "REDIS_URL": redis_server.url,
    }
    port = free_port()
    run = Run(tmp_path, port, "--no-demo", env={"REDIS_URL": redis_server.url})
    second = None
    try:
        run.wait_for(lambda: "Press Ctrl-C" in run.output, 240, "every process to be ready")
        children = run.state()["children"]
        # 8 games of 40 s sudden death, White to move; White's deadlines 1.5 s apart.
        setup = manage_shell(env, SETUP.format(name="faults", tc="40", count=8, spread_ms=1500))
        games = setup["games"]
        with Mover(port, setup["token"], games[:4], plies=PLIES) as mover:
            # 1. The clock worker's main process dies: restarted, the others run on.
            os.kill(children["clock"], signal.SIGKILL)
            run.wait_for(
                lambda: "supervisor: clock is ready again" in run.output, 120, "clock restarted"
            )
            # 2. Redis emptied: the flag tasks already queued are gone, and the queues'
            # bindings with them.
            import redis

            redis.Redis.from_url(redis_server.url).flushall()
            # 3. One of the web server's two worker processes dies: uvicorn starts another;
            # the mover's requests that fail meanwhile are sent again.
            web_workers = uvicorn_workers(children["web"])
            assert len(web_workers) == 2, web_workers
            assert mover.thread.is_alive(), "the moves ended before the faults"
            os.kill(web_workers[0], signal.SIGKILL)
            wait_until(lambda: not alive(web_workers[0]), 10, "the web worker's end")
            wait_until(
                lambda: len(uvicorn_workers(children["web"])) == 2, 60, "a new web worker", run
            )
            wait_until(lambda: not mover.thread.is_alive(), 120, "the moves", run)
        assert home_page_answers(port)
        for name in ("worker", "beat", "web"):
            assert run.state()["children"][name] == children[name], name
        report = wait_until(
            lambda: (
                (r := manage_shell(env, REPORT.format(ids=games)))
                and all(g["status"] == "finished" for g in r.values())
                and r
            ),
            120,
            "every flag",
            run,
        )
        late = check_games(report, mover)
        assert all(len(mover.accepted[g]) == PLIES for g in games[:4]), mover.accepted
        # The system took moves throughout (the other web worker beat on): nothing credited.
        assert all(g["credits"] == [] for g in report.values()), report
        assert ("restart", "clock") in [e[:2] for e in system_events(tmp_path)]
        print(report_line("flag lateness, clock worker killed + Redis emptied", late))
        print(f"moves: {sum(map(len, mover.accepted.values()))} accepted, answers {mover.statuses}")

        # 4. The whole system stopped: no web process takes moves and no flag falls; on the
        # restart the running clocks are credited with the time it was down.
        setup = manage_shell(env, SETUP.format(name="stopped", tc="20", count=6, spread_ms=1000))
        games = setup["games"]
        time.sleep(3)
        stopped_at = datetime.now(UTC)
        os.killpg(run.process.pid, signal.SIGINT)
        assert run.process.wait(timeout=90) == 0, run.output
        time.sleep(6)
        second = Run(tmp_path, port, "--no-demo", env={"REDIS_URL": redis_server.url})
        second.wait_for(lambda: home_page_answers(port), 240, "the restarted web server")
        back_at = datetime.now(UTC)
        down_s = (back_at - stopped_at).total_seconds()
        report = wait_until(
            lambda: (
                (r := manage_shell(env, REPORT.format(ids=games)))
                and all(g["status"] == "finished" for g in r.values())
                and r
            ),
            120,
            "every flag after the restart",
            second,
        )
        late = check_games(report, after=back_at - timedelta(seconds=2))
        credits = [game["credits"] for game in report.values()]
        assert all(len(c) == 1 for c in credits), credits
        credited_s = [c[0][1] / 1000 for c in credits]
        # Credited from the last heartbeat before the stop to the first one after it.
        assert all(down_s - 3 <= c <= down_s + 3 for c in credited_s), (down_s, credited_s)
        print(report_line("flag lateness after the restart", late))
        print(
            f"whole system down {down_s:.1f} s; credited {min(credited_s):.1f}-"
            f"{max(credited_s):.1f} s to each of {len(credited_s)} running clocks"
        )
    finally:
        run.cleanup()
        if second is not None:
            second.cleanup()


class CuttableProxy:
    """A TCP proxy in front of the PostgreSQL server, that the test cuts: every connection
    through it is dropped at once, and new ones are closed as soon as they are accepted, until
    it is restored. The server itself is never touched."""

    def __init__(self, host: str, port: int):
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.cut_off = threading.Event()
        self.lock = threading.Lock()
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.cut_off.is_set():
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self.lock:
                self.pairs.append((client, upstream))
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()

    @staticmethod
    def _pump(a: socket.socket, b: socket.socket) -> None:
        with contextlib.suppress(OSError, ValueError):
            while True:
                ready, _, _ = select.select([a, b], [], [])
                for source in ready:
                    data = source.recv(65536)
                    if not data:
                        raise OSError("closed")
                    (b if source is a else a).sendall(data)
        for s in (a, b):
            with contextlib.suppress(OSError):
                s.close()

    def cut(self) -> None:
        self.cut_off.set()
        with self.lock:
            pairs, self.pairs = self.pairs, []
        for pair in pairs:
            for s in pair:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                    s.close()

    def restore(self) -> None:
        self.cut_off.clear()

    def close(self) -> None:
        self.cut()
        self.listener.close()


def get(url: str, token: str | None = None, timeout: float = 30) -> tuple[int, str, bytes]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    try:
        with urllib.request.urlopen(
            urllib.request.Request(url, headers=headers), timeout=timeout
        ) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("Content-Type", ""), exc.read()


@pytest.mark.postgres
def test_database_connections_dropped_for_5_s(tmp_path, redis_server):
    import uuid
    from urllib.parse import urlsplit, urlunsplit

    import psycopg

    server_url = os.environ.get("DATABASE_URL", "")
    parts = urlsplit(server_url)
    if not server_url.startswith(("postgres://", "postgresql://")) or not parts.port:
        pytest.skip("needs DATABASE_URL pointing at a PostgreSQL server over TCP")
    scratch = f"arbiter_faults_{uuid.uuid4().hex[:10]}"
    admin = psycopg.connect(server_url.replace("postgres://", "postgresql://", 1), autocommit=True)
    admin.execute(f'CREATE DATABASE "{scratch}"')
    proxy = CuttableProxy(parts.hostname, parts.port)
    direct_url = urlunsplit(parts._replace(path=f"/{scratch}"))
    netloc = (
        f"{parts.username}@127.0.0.1:{proxy.port}" if parts.username else f"127.0.0.1:{proxy.port}"
    )
    proxied_url = urlunsplit(parts._replace(netloc=netloc, path=f"/{scratch}"))
    # The test reads and writes directly; the system goes through the proxy.
    env = {
        **{k: v for k, v in os.environ.items() if k != "DATABASE_URL"},
        "DATABASE_URL": direct_url,
        "REDIS_URL": redis_server.url,
    }
    port = free_port()
    run = Run(
        tmp_path,
        port,
        "--no-demo",
        env={"DATABASE_URL": proxied_url, "REDIS_URL": redis_server.url},
    )
    try:
        run.wait_for(lambda: "Press Ctrl-C" in run.output, 240, "every process to be ready")
        setup = manage_shell(env, SETUP.format(name="outage", tc="30", count=6, spread_ms=1000))
        games, token = setup["games"], setup["token"]
        api = f"http://127.0.0.1:{port}/api/games/{games[-1]}"
        answers = []

        def probe() -> None:
            # During the outage: 503 in the API's form, or a plain page; never a 500.
            while proxy.cut_off.is_set():
                answers.append(("api", *get(api, token, timeout=20)))
                answers.append(("page", *get(f"http://127.0.0.1:{port}/", timeout=20)))

        with Mover(port, token, games[:3], plies=PLIES) as mover:
            time.sleep(3)
            proxy.cut()
            cut_at = time.monotonic()
            prober = threading.Thread(target=probe, daemon=True)
            prober.start()
            time.sleep(5)
            proxy.restore()
            outage_s = time.monotonic() - cut_at
            prober.join(timeout=30)
            back = time.monotonic()
            after = [get(api, token) for _ in range(20)]  # no stale connection left behind
            first_ok_s = time.monotonic() - back
            wait_until(lambda: not mover.thread.is_alive(), 180, "the moves", run)
        for kind, status, content_type, body in answers:
            assert status in (200, 503), (kind, status, body[:300])
            if status == 503 and kind == "api":
                assert content_type.startswith("application/json")
                assert json.loads(body)["error"] == "unavailable"
            elif status == 503:
                assert b"The database cannot be reached" in body
        assert [a[0] for a in after] == [200] * 20, after
        report = wait_until(
            lambda: (
                (r := manage_shell(env, REPORT.format(ids=games)))
                and all(g["status"] == "finished" for g in r.values())
                and r
            ),
            180,
            "every flag",
            run,
        )
        late = check_games(report, mover)
        credits = [game["credits"] for game in report.values()]
        assert all(len(c) == 1 for c in credits), credits
        credited_s = [c[0][1] / 1000 for c in credits]
        assert all(outage_s - 1.5 <= c <= outage_s + 3 for c in credited_s), (outage_s, credited_s)
        unavailable = sum(1 for a in answers if a[1] == 503)
        print(report_line("flag lateness after a database outage", late))
        print(
            f"database cut {outage_s:.1f} s: {len(answers)} requests during it, {unavailable} "
            f"answered 503, none 500; credited {min(credited_s):.1f}-{max(credited_s):.1f} s "
            f"to {len(credited_s)} clocks; 20 reads after it in {first_ok_s:.2f} s; "
            f"moves {mover.statuses}"
        )
        os.killpg(run.process.pid, signal.SIGINT)
        assert run.process.wait(timeout=90) == 0, run.output
    finally:
        run.cleanup()
        proxy.close()
        admin.execute(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
        admin.close()
