"""Real Redis and real Celery worker processes for the tests that need them (marker `celery`).

The worker runs in another process, so it sees only committed data: tests using it take
`transactional_db`, and on SQLite the test database is a file (see tests/conftest.py).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent.parent


def worker_database_url() -> str:
    """The URL of the database the tests use right now (the test database, not the main one)."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        name = str(db["NAME"])
        if name in ("", ":memory:") or name.startswith("file:memorydb"):
            raise RuntimeError("a worker process cannot see an in-memory SQLite database")
        return f"sqlite:///{name}"
    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path="/" + db["NAME"]))


def use_broker(url: str) -> None:
    """Point this process's Celery app (which queues the flag tasks) at `url`."""
    from arbiter.celery import app

    if app.conf.broker_url == url:
        return
    app.conf.broker_url = url
    # Forget connections made to the old URL (none, unless a task was sent before).
    app._pool = None
    app.amqp._producer_pool = None


def purge_queues() -> None:
    from arbiter.celery import app

    with app.connection_for_write() as conn:
        client = conn.default_channel.client
        client.delete("clock", "default", "unacked", "unacked_index", "unacked_mutex")


class CeleryProcess:
    """A `celery worker` or `celery beat` subprocess, in its own process group."""

    def __init__(self, args: list[str], *, env: dict[str, str], log: Path, ready: str):
        self.log = log
        self.ready_marker = ready
        self._log_file = open(log, "wb")  # noqa: SIM115 (closed in stop())
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "arbiter", *args],
            cwd=ROOT,
            env=env,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"celery exited early:\n{self.log.read_text(errors='replace')}")
            if self.ready_marker in self.log.read_text(errors="replace"):
                return
            time.sleep(0.05)
        raise RuntimeError(f"celery not ready in {timeout} s:\n{self.log.read_text()}")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Send `sig` to the process group (the worker and any child it forked)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, sig)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=15)
        self._log_file.close()


def celery_env(redis_url: str, database_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_TEST_NAME"}}
    env.update(
        {
            "REDIS_URL": redis_url,
            "DATABASE_URL": database_url,
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "LOG_LEVEL": "WARNING",
            # A test worker needs few database connections.
            "DB_POOL_MIN": "1",
            "DB_POOL_MAX": "4",
        }
    )
    return env


def start_worker(
    name: str, *, redis_url: str, workdir: Path, queues: str = "clock,default", wait: bool = True
):
    proc = CeleryProcess(
        [
            "worker",
            "-Q",
            queues,
            # Not --pool=solo: its blocking loop runs a due ETA task only when a message
            # arrives or every 2 s; prefork's event loop runs it on time.
            "--pool=prefork",
            "--concurrency=1",
            "-n",
            f"{name}@%h",
            "-l",
            "info",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        env=celery_env(redis_url, _named(worker_database_url(), f"celery-{name}")),
        log=workdir / f"{name}.log",
        ready=" ready.",
    )
    if wait:
        proc.wait_ready()
    return proc


def _named(database_url: str, name: str) -> str:
    """On PostgreSQL, the worker's connections carry `name` (pg_stat_activity.application_name)."""
    if not database_url.startswith("postgres"):
        return database_url
    return database_url + ("&" if "?" in database_url else "?") + f"application_name={name}"


def start_beat(*, redis_url: str, workdir: Path, wait: bool = True):
    proc = CeleryProcess(
        ["beat", "-s", str(workdir / "beat-schedule"), "--max-interval", "1", "-l", "info"],
        env=celery_env(redis_url, worker_database_url()),
        log=workdir / "beat.log",
        ready="beat: Starting",
    )
    if wait:
        proc.wait_ready()
    return proc
