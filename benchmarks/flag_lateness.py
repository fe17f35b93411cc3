"""Flag lateness: from a clock's deadline to the flag's result committed, with no request.

    python benchmarks/flag_lateness.py --db sqlite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test python benchmarks/flag_lateness.py --db postgres

A clock worker (`-Q clock --pool prefork --concurrency 2`, as arbiter/runtime/supervisor.py starts it;
or --pool solo) and beat (the sweep, every second) run as deployed.
Two scenarios of --games games each: flags at random times over --spread seconds, then all at
the same instant. The reference, in the same run on the same worker, is a bare Celery ETA task
due at each deadline (benchmarks.flag_worker.bare_eta): how late it starts. Reported: p50/p99
lateness (ms) of both, their ratio, and how many flags the ETA task caught (the rest: sweep).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import (
    Process,
    fresh_database,
    percentile,
    redis_url,
    setup_django,
    summary_ms,
)


def make_running_games(n: int, deadlines: list[datetime]) -> list[int]:
    """`n` games whose White clock runs out at the given deadlines (an arbiter set the time)."""
    from django.contrib.auth import get_user_model

    from arbiter.events.models import Event, Player, Round
    from arbiter.games import services
    from arbiter.games.models import Game

    user, _ = get_user_model().objects.get_or_create(username="bench-arbiter")
    tag = f"flags-{time.monotonic_ns()}"
    event = Event.objects.create(name=tag, slug=tag, time_control="7200", published=True)
    event.arbiters.add(user)
    rnd = Round.objects.create(event=event, number=1)
    ids = []
    for board, deadline in enumerate(deadlines, start=1):
        game = Game.objects.create(
            round=rnd,
            board=board,
            white=Player.objects.create(surname=f"W{board}"),
            black=Player.objects.create(surname=f"B{board}"),
        )
        services.start_clocks(game, by=user)
        left = (deadline - datetime.now(UTC)) // timedelta(milliseconds=1)
        if left <= 0:
            raise SystemExit("setup too slow for the chosen lead time: raise --lead")
        services.set_clock_times(game, left, 7_200_000, by=user, reason="benchmark")
        ids.append(game.pk)
    return ids


def run_scenario(name: str, deadlines: list[datetime], client, timeout: float) -> dict:
    from arbiter.games.models import Game
    from benchmarks.flag_worker import BARE_KEY, FLAG_KEY, VIA_KEY, bare_eta

    for key in (BARE_KEY, FLAG_KEY, VIA_KEY):
        client.delete(key)
    ids = make_running_games(len(deadlines), deadlines)
    stored = dict(Game.objects.filter(pk__in=ids).values_list("pk", "clock__deadline"))
    for pk, deadline in stored.items():
        bare_eta.apply_async((str(pk), deadline.timestamp()), eta=deadline, queue="clock")
    # The worker takes the ETA tasks in (one by one, ~5-25 ms each here) before they are due.
    while client.llen("clock") and time.time() < min(stored.values()).timestamp():
        time.sleep(0.1)
    margin = min(stored.values()).timestamp() - time.time()
    print(f"  {name}: all tasks queued and taken in, {margin:.1f} s before the first deadline")
    end = max(stored.values()).timestamp() + timeout
    while time.time() < end:
        if client.hlen(FLAG_KEY) >= len(ids) and client.hlen(BARE_KEY) >= len(ids):
            break
        time.sleep(0.2)
    committed = {int(k): float(v) for k, v in client.hgetall(FLAG_KEY).items()}
    flag_late = [(committed[pk] - stored[pk].timestamp()) * 1000 for pk in ids if pk in committed]
    bare_late = [float(v) for v in client.hgetall(BARE_KEY).values()]
    via = Counter(v.decode() for v in client.hgetall(VIA_KEY).values())
    finished = Game.objects.filter(pk__in=ids, termination="flag").count()
    spread = (max(stored.values()) - min(stored.values())).total_seconds() * 1000
    print(f"  {name}: deadlines spread over {spread:.0f} ms", flush=True)
    print(f"    flag (deadline -> result committed): {summary_ms(flag_late)}", flush=True)
    print(f"    bare ETA task (eta -> task starts):  {summary_ms(bare_late)}", flush=True)
    print(
        f"    ratio flag/bare: p50 x{percentile(flag_late, 50) / percentile(bare_late, 50):.1f}, "
        f"p99 x{percentile(flag_late, 99) / percentile(bare_late, 99):.1f}; "
        f"games flagged {finished}/{len(ids)}; caught by {dict(via)}",
        flush=True,
    )
    return {"flag": flag_late, "bare": bare_late}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["postgres", "sqlite"], default="sqlite")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--spread", type=float, default=10.0, help="seconds (random scenario)")
    parser.add_argument("--pool", choices=["prefork", "solo"], default="prefork")
    parser.add_argument(
        "--concurrency", type=int, default=2, help="prefork processes (2 as deployed)"
    )
    parser.add_argument("--lead", type=float, default=60.0, help="seconds for the setup")
    args = parser.parse_args()

    db = fresh_database(args.db, "bench_flag_lateness")
    broker, redis_server = redis_url()
    setup_django(db.url, broker)
    import redis

    client = redis.Redis.from_url(broker)
    workdir = Path(tempfile.mkdtemp(prefix="bench-flags-"))
    env = {**os.environ, "DATABASE_URL": db.url, "REDIS_URL": broker}
    env.pop("DATABASE_TEST_NAME", None)
    client.delete("clock", "unacked", "unacked_index")
    app = ["-m", "celery", "-A", "benchmarks.flag_worker"]
    pool = ["--pool", args.pool]
    if args.pool == "prefork":
        pool += ["--concurrency", str(args.concurrency)]
    worker = Process(
        [
            sys.executable,
            *app,
            "worker",
            "-Q",
            "clock",
            *pool,
            "-l",
            "info",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-n",
            "clock@%h",
        ],
        env,
        workdir / "worker.log",
        ready=" ready.",
    )
    beat = Process(
        [sys.executable, *app, "beat", "-s", str(workdir / "schedule"), "-l", "info"],
        env,
        workdir / "beat.log",
        ready="beat: Starting",
    )
    try:
        print(
            f"flag lateness, {args.games} games per scenario, {args.db}, clock worker "
            f"{' '.join(pool)} + beat sweep every 1 s",
            flush=True,
        )
        now = datetime.now(UTC)
        start = now + timedelta(seconds=args.lead)
        rng = random.Random(4)
        spread = [start + timedelta(seconds=rng.uniform(0, args.spread)) for _ in range(args.games)]
        run_scenario("random", spread, client, timeout=10)
        burst_at = datetime.now(UTC) + timedelta(seconds=args.lead)
        run_scenario("burst", [burst_at] * args.games, client, timeout=10)
    finally:
        beat.stop()
        worker.stop()
        client.delete("clock", "unacked", "unacked_index")
        from django.db import connections

        connections.close_all()
        db.cleanup()
        if redis_server:
            redis_server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
