"""Shared parts of the benchmarks: a fresh database, Redis, server processes, an HTTP client.

Benchmarks run from the repository root (`python benchmarks/<name>.py ...`). They never touch
the database of DATABASE_URL itself: on PostgreSQL they create (and drop) a database named
bench_<name>_<DATABASE_URL's database> on the same server; on SQLite they use a temporary file.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
# Throwaway databases on loopback: a key of their own for this process and every server and
# migration it starts (the settings refuse to run without one).
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def summary_ms(values: list[float]) -> str:
    return (
        f"n={len(values)} p50={percentile(values, 50):.1f} ms p99={percentile(values, 99):.1f} ms "
        f"max={max(values, default=float('nan')):.1f} ms"
    )


def session_pids(sid: int) -> list[int]:
    """The processes of session `sid` (a Process's server and its children, e.g. uvicorn's
    workers); Linux only, else []."""
    pids = []
    for entry in Path("/proc").iterdir() if Path("/proc/self/stat").exists() else ():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == sid:  # fields after the name: state, ppid, pgrp, session
                pids.append(int(entry.name))
    return pids


def cpu_seconds(pids: list[int]) -> float:
    """CPU time (user + system) used so far by `pids` (Linux /proc; gone ones count 0)."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def database_pids(name: str) -> list[int]:
    """The PostgreSQL backends connected to the database `name` (from this process's view)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return []
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [name])
        return [pid for (pid,) in cursor.fetchall()]


@dataclass
class Database:
    url: str
    cleanup: callable


def fresh_database(kind: str, name: str, root: Path = ROOT) -> Database:
    """A new database migrated by `root`'s code (this checkout's by default): kind
    "postgres" (on DATABASE_URL's server) or "sqlite"."""
    if kind == "sqlite":
        workdir = Path(tempfile.mkdtemp(prefix=f"{name}-"))
        url = f"sqlite:///{workdir / 'bench.sqlite3'}"

        def cleanup():
            import shutil

            shutil.rmtree(workdir, ignore_errors=True)

    else:
        import psycopg

        base = os.environ.get("DATABASE_URL", "")
        if not base.startswith("postgres"):
            raise SystemExit("--db postgres needs DATABASE_URL=postgres://... (the server to use)")
        parts = urlsplit(base)
        # Named after DATABASE_URL's database too: checkouts sharing a server (each with a
        # database of its own) never drop each other's benchmark database mid-run.
        own = parts.path.strip("/")
        if own and own != "postgres":
            name = f"{name}_{own}"
        admin = urlunsplit(parts._replace(path="/postgres", scheme="postgresql"))
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        url = urlunsplit(parts._replace(path=f"/{name}"))

        def cleanup():
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0", "--noinput"],
        cwd=root,
        env={**os.environ, "DATABASE_URL": url},
        check=True,
    )
    return Database(url, cleanup)


def redis_url() -> tuple[str, object]:
    url = os.environ.get("REDIS_URL", "").strip()
    if url:
        return url, None
    from arbiter.runtime.localservices import start_redis

    server = start_redis()
    return server.url, server


def setup_django(database_url: str, broker_url: str, settings_module="arbiter.settings") -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ["REDIS_URL"] = broker_url
    os.environ["DJANGO_SETTINGS_MODULE"] = settings_module
    os.environ.pop("DATABASE_TEST_NAME", None)
    import django

    django.setup()


class Process:
    """A child process in its own process group, stopped with its children."""

    def __init__(self, args: list[str], env: dict[str, str], log: Path, ready: str | None = None):
        self.log = log
        self._out = open(log, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            args,
            cwd=ROOT,
            env=env,
            stdout=self._out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        if ready:
            self.wait_for(ready)

    def wait_for(self, marker: str, timeout: float = 120) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"{self.log.name} exited:\n{self.log.read_text(errors='replace')}"
                )
            if marker in self.log.read_text(errors="replace"):
                return
            time.sleep(0.1)
        raise RuntimeError(f"{self.log.name}: no {marker!r} in {timeout} s")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self._out.close()


class HttpConnection:
    """A minimal HTTP/1.1 keep-alive client on asyncio streams (no third-party package)."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.reader = self.writer = None

    async def request(self, method: str, path: str, body: bytes = b"", headers=None):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        head += [f"{k}: {v}" for k, v in (headers or {}).items()]
        if body:
            head += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        status_line = await self.reader.readline()
        if not status_line:
            self.writer = None
            raise ConnectionError("server closed the connection")
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            if name.lower() == "content-length":
                length = int(value.strip())
        data = await self.reader.readexactly(length) if length else b""
        return status, data

    async def close(self):
        if self.writer is not None:
            self.writer.close()
            self.writer = None
