"""Claims: from a claim's request to its decision committed, with a real worker.

    python benchmarks/claims.py --db sqlite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test python benchmarks/claims.py --db postgres

Every claim is a draw claimed under FMJD 6.4 on its own game, where the rule applies (5 moves
each played with a king and a man against a king), so each is granted and ends its game: the
whole path (stored in the request's transaction, a task on the clock queue after commit, the
game locked, the record restored, the rules engine's check, the ending service's writes).
The request is the service call (make_claim) in this process; the decision's commit is taken
by a hook in the worker (benchmarks.claim_worker). A clock worker (`-Q clock --pool prefork
--concurrency 2`, as deployed) runs the tasks. Two scenarios of --claims claims: at random
times over --spread seconds, then all at once (from --threads threads). The reference, in the
same run on the same worker, is a bare Celery task queued with each claim (how late it
starts). Targets (issue 11): p99 under 200 ms at random times, the burst decided within 1 s.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import threading
import time
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

FEN = "W:WK47,36:BK3"  # FMJD 6.4: a king and a man against a king


def drawn_state() -> dict:
    """The engine's state after 5 quiet moves each from FEN: 6.4 applies."""
    from rules import Game as RulesGame

    record = RulesGame(FEN)
    seen = {record.position}
    while record.plies < 10:
        pos = record.position
        for move in pos.legal_moves():
            after = pos.play(move)
            if after not in seen and not any(m.is_capture for m in after.legal_moves()):
                record.push(move)
                seen.add(after)
                break
        else:
            raise SystemExit(f"no quiet move in {pos.fen()}")
    assert record.check_claim("6.4").granted
    return record.to_state()


def make_games(n: int) -> tuple[list[int], object]:
    from django.contrib.auth import get_user_model

    from arbiter.events.models import Event, Player, Round
    from arbiter.games.models import EndingRules, Game

    user, _ = get_user_model().objects.get_or_create(username="bench-arbiter")
    tag = f"claims-{time.monotonic_ns()}"
    event = Event.objects.create(name=tag, slug=tag, time_control="-", published=True)
    event.arbiters.add(user)
    EndingRules.objects.create(event=event, claim_articles=["6.4"])
    rnd = Round.objects.create(event=event, number=1, status="published")
    state = drawn_state()
    games = [
        Game(
            round=rnd,
            board=board,
            white=Player.objects.create(surname=f"W{board}"),
            black=Player.objects.create(surname=f"B{board}"),
            start_fen=state["start_fen"],
            fen=state["fen"],
            ply=state["ply"],
            rules_state=state,
            status=Game.Status.RUNNING,
        )
        for board in range(1, n + 1)
    ]
    Game.objects.bulk_create(games)
    return [g.pk for g in Game.objects.filter(round=rnd).order_by("board")], user


def claim(game_id: int, user, requested: dict, bare, answered: dict) -> None:
    from arbiter.games.services import claims

    t = time.time()
    made = claims.make_claim(game_id, article="6.4", request_id=f"b{game_id}", by=user)
    requested[made["id"]] = t
    answered[made["id"]] = time.time()  # the request's answer: stored, its task queued
    bare.apply_async((f"b{game_id}", time.time()), queue="clock")


def collect(
    name: str, requested: dict, client, n: int, answered: dict, timeout: float = 30
) -> None:
    from arbiter.games.models import Claim
    from benchmarks.claim_worker import CLAIM_KEY, TASK_KEY
    from benchmarks.flag_worker import BARE_KEY

    end = time.time() + timeout
    while time.time() < end and (client.hlen(CLAIM_KEY) < n or client.hlen(BARE_KEY) < n):
        time.sleep(0.05)
    committed = {int(k): float(v) for k, v in client.hgetall(CLAIM_KEY).items()}
    late = [(committed[c] - t) * 1000 for c, t in requested.items() if c in committed]
    bare = [float(v) for v in client.hgetall(BARE_KEY).values()]
    task = [float(v) for v in client.hgetall(TASK_KEY).values()]
    granted = Claim.objects.filter(pk__in=list(requested), status="granted").count()
    made = [(answered[c] - t) * 1000 for c, t in requested.items()]
    print(f"  {name}:", flush=True)
    print(f"    claim (request -> decision committed): {summary_ms(late)}", flush=True)
    print(
        f"    request alone (stored, task queued):   {summary_ms(made)}; the last answered "
        f"{(max(answered.values()) - min(requested.values())) * 1000:.0f} ms after the first "
        "request",
        flush=True,
    )
    print(f"    bare task (queued -> starts):          {summary_ms(bare)}", flush=True)
    print(f"    decision task alone (worker):          {summary_ms(task)}", flush=True)
    if late and bare:
        first, last = min(requested.values()), max(committed.values(), default=0)
        print(
            f"    ratio claim/bare: p50 x{percentile(late, 50) / percentile(bare, 50):.1f}, "
            f"p99 x{percentile(late, 99) / percentile(bare, 99):.1f}; granted {granted}/{n}; "
            f"first request -> last decision {(last - first) * 1000:.0f} ms",
            flush=True,
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["postgres", "sqlite"], default="sqlite")
    parser.add_argument("--claims", type=int, default=200)
    parser.add_argument("--spread", type=float, default=20.0, help="seconds (random scenario)")
    parser.add_argument("--threads", type=int, default=8, help="burst: claims made at once")
    parser.add_argument("--concurrency", type=int, default=2, help="prefork processes")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)

    db = fresh_database(args.db, "bench_claims")
    broker, redis_server = redis_url()
    setup_django(db.url, broker)
    import redis

    from benchmarks.claim_worker import CLAIM_KEY, TASK_KEY, bare_eta
    from benchmarks.flag_worker import BARE_KEY

    client = redis.Redis.from_url(broker)
    workdir = Path(tempfile.mkdtemp(prefix="bench-claims-"))
    env = {**os.environ, "DATABASE_URL": db.url, "REDIS_URL": broker}
    env.pop("DATABASE_TEST_NAME", None)
    client.delete("clock", "unacked", "unacked_index", CLAIM_KEY, BARE_KEY, TASK_KEY)
    worker = Process(
        [
            sys.executable,
            *["-m", "celery", "-A", "benchmarks.claim_worker", "worker", "-Q", "clock"],
            *["--pool", "prefork", "--concurrency", str(args.concurrency), "-l", "info"],
            *["--without-gossip", "--without-mingle", "--without-heartbeat", "-n", "clock@%h"],
        ],
        env,
        workdir / "worker.log",
        ready=" ready.",
    )
    try:
        print(
            f"claims, {args.claims} per scenario, {args.db}, clock worker prefork "
            f"--concurrency {args.concurrency}",
            flush=True,
        )
        from django.db import connection

        ids, user = make_games(args.claims)
        rng = random.Random(11)
        at = sorted(rng.uniform(0, args.spread) for _ in ids)
        requested: dict = {}
        answered: dict = {}
        start = time.monotonic()
        for game_id, offset in zip(ids, at, strict=True):
            time.sleep(max(0.0, start + offset - time.monotonic()))
            claim(game_id, user, requested, bare_eta, answered)
        collect(f"random times over {args.spread:.0f} s", requested, client, len(ids), answered)

        client.delete(CLAIM_KEY, BARE_KEY, TASK_KEY)
        ids, user = make_games(args.claims)
        requested, answered = {}, {}
        chunks = [ids[i :: args.threads] for i in range(args.threads)]
        barrier = threading.Barrier(args.threads)

        def run(chunk):
            barrier.wait()
            for game_id in chunk:
                claim(game_id, user, requested, bare_eta, answered)
            connection.close()

        threads = [threading.Thread(target=run, args=(c,)) for c in chunks]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        collect(
            f"burst of {args.claims} from {args.threads} threads",
            requested,
            client,
            len(ids),
            answered,
        )
    finally:
        worker.stop()
        client.delete("clock", "unacked", "unacked_index", CLAIM_KEY, BARE_KEY, TASK_KEY)
        from django.db import connections

        connections.close_all()
        db.cleanup()
        if redis_server:
            redis_server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
