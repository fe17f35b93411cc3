"""The Celery app of the flag-lateness benchmark's worker: the project's app and tasks, plus

- `benchmarks.bare_eta`: the reference, a bare ETA task that records how late it started;
- a hook recording when each flag's transaction committed, and which task recorded it.

    celery -A benchmarks.flag_worker worker -Q clock --pool=solo
"""

from __future__ import annotations

import os
import time

from celery import current_task
from celery.signals import worker_init

from arbiter.celery import app

BARE_KEY = "bench:bare_late_ms"
FLAG_KEY = "bench:flag_committed"
VIA_KEY = "bench:flag_via"


def _redis():
    import redis

    return redis.Redis.from_url(os.environ["REDIS_URL"])


@app.task(name="benchmarks.bare_eta", ignore_result=True)
def bare_eta(key: str, eta_epoch: float) -> None:
    _redis().hset(BARE_KEY, key, (time.time() - eta_epoch) * 1000)


@worker_init.connect
def _record_flag_commits(**_):
    from django.db import transaction

    from arbiter.games.services import flags

    original = flags.apply_flag
    client = _redis()

    def apply_flag(game, side, now):
        result = original(game, side, now)
        via = current_task.name if current_task else "?"
        game_id = game.pk

        def committed():
            client.hset(VIA_KEY, game_id, via)
            client.hset(FLAG_KEY, game_id, time.time())

        transaction.on_commit(committed)
        return result

    flags.apply_flag = apply_flag
