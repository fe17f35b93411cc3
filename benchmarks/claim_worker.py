"""The Celery app of the claims benchmark's worker: the project's app and tasks, the bare task
of the flag benchmark (the reference), and hooks recording when each claim's decision
committed (time.time(), in Redis) and how long its task ran.

    celery -A benchmarks.claim_worker worker -Q clock
"""

from __future__ import annotations

import time

from celery.signals import worker_init

from benchmarks.flag_worker import _redis, app, bare_eta

CLAIM_KEY = "bench:claim_committed"
TASK_KEY = "bench:claim_task_ms"  # how long each decision task ran (lock to commit)

__all__ = ["CLAIM_KEY", "TASK_KEY", "app", "bare_eta"]


@worker_init.connect
def _record_claim_commits(**_):
    from django.db import transaction

    from arbiter.games.services import claims

    original = claims._decide_locked
    client = _redis()

    def decide_locked(game, claim, now):
        ending = original(game, claim, now)
        claim_id = claim.pk
        transaction.on_commit(lambda: client.hset(CLAIM_KEY, claim_id, time.time()))
        return ending

    claims._decide_locked = decide_locked
    original_task = claims.decide_claim

    def decide_claim(claim_id, **kw):
        start = time.perf_counter()
        try:
            return original_task(claim_id, **kw)
        finally:
            client.hset(TASK_KEY, claim_id, (time.perf_counter() - start) * 1000)

    claims.decide_claim = decide_claim
