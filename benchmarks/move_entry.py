"""Move entry under load: the real POST /api/games/{id}/moves against a bare locked write.

    python benchmarks/move_entry.py --db sqlite
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test python benchmarks/move_entry.py --db postgres

200 games receive moves concurrently through uvicorn with 2 workers: first paced at
--rate moves/s in total (each game one move every 200/rate s, phases spread), then flat out
(each game sends its next move as soon as the last is answered). The peer, measured in the
same run on the same server, is a bare Django endpoint doing one locked write per move
(benchmarks/bare_urls.py). Reported: latency p50/p99 (ms), accepted moves/s, ratios.
A game cannot send ply n+1 before ply n is answered, so a slow answer delays that game's
next send (closed loop per game). Before measuring, --warmup seconds of paced load on other
games open the server's connections and prepare its statements, as on a server that has run a
while. --tc 300+3 measures blitz, where every move also queues its flag task.
BENCH_TIMELINE=1 prints latency per second of each phase. Each phase also reports the CPU time
per accepted move of the server's processes (web) and of the database's backends (db): on a
shared machine the latency follows the load of others, the CPU a move costs much less.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import (
    HttpConnection,
    Process,
    cpu_seconds,
    database_pids,
    fresh_database,
    percentile,
    redis_url,
    session_pids,
    setup_django,
    summary_ms,
)


def legal_line(plies: int, seed: int = 7) -> list[str]:
    """A legal line of `plies` moves from the start that does not end the game."""
    from rules import Game

    rng = random.Random(seed)
    while True:
        game, line = Game(), []
        for _ in range(plies):
            moves = game.position.legal_moves()
            if not moves or game.outcome() is not None:
                break
            move = rng.choice(moves)
            line.append(game.position.move_text(move))
            game.push(move)
        if len(line) == plies and game.outcome() is None:
            return line


def make_games(n: int, *, start: bool, time_control: str = "7200") -> tuple[list[int], str]:
    from django.contrib.auth import get_user_model

    from arbiter.accounts import tokens
    from arbiter.events.models import Event, Player, Round
    from arbiter.games import services
    from arbiter.games.models import Game

    user, _ = get_user_model().objects.get_or_create(username="bench-arbiter")
    _, secret = tokens.issue(user, name="bench")  # stored hashed: a new one each run
    tag = f"bench-{time.monotonic_ns()}"
    event = Event.objects.create(name=tag, slug=tag, time_control=time_control, published=True)
    event.arbiters.add(user)
    rnd = Round.objects.create(event=event, number=1, status=Round.Status.PUBLISHED)
    ids = []
    for board in range(1, n + 1):
        white = Player.objects.create(surname=f"W{board}")
        black = Player.objects.create(surname=f"B{board}")
        game = Game.objects.create(round=rnd, board=board, white=white, black=black)
        if start:
            services.start_clocks(game, by=user)
        ids.append(game.pk)
    return ids, secret


async def run_phase(
    port: int, kind: str, game_ids: list[int], token: str, line: list[str], *, rate, seconds
):
    latencies: list[float] = []
    timeline: list[tuple[float, float]] = []
    statuses: Counter = Counter()
    n = len(game_ids)
    interval = n / rate if rate else 0.0
    t_start = time.perf_counter() + 0.5
    t_end = t_start + seconds
    headers = {"Authorization": f"Bearer {token}"}

    async def play(i: int, game_id: int) -> None:
        conn = HttpConnection("127.0.0.1", port)
        next_send = t_start + (i * interval / n if rate else 0.0)
        try:
            for ply, move in enumerate(line, start=1):
                if rate:
                    delay = next_send - time.perf_counter()
                    if delay > 0:
                        await asyncio.sleep(delay)
                    next_send += interval
                elif ply == 1:
                    await asyncio.sleep(max(0.0, t_start - time.perf_counter()))
                if time.perf_counter() >= t_end:
                    return
                if kind == "api":
                    path = f"/api/games/{game_id}/moves"
                    body = json.dumps({"ply": ply, "move": move, "request_id": f"{game_id}-{ply}"})
                else:
                    path, body = f"/bare/{game_id}", "{}"
                sent = time.perf_counter()
                status, _ = await conn.request("POST", path, body.encode(), headers)
                latencies.append((time.perf_counter() - sent) * 1000)
                timeline.append((sent - t_start, latencies[-1]))
                statuses[status] += 1
                if status != 201:
                    return
        finally:
            await conn.close()

    await asyncio.gather(*(play(i, g) for i, g in enumerate(game_ids)))
    elapsed = min(time.perf_counter(), t_end) - t_start
    if os.environ.get("BENCH_TIMELINE") == "1":
        for second in range(int(seconds) + 1):
            lat = [ms for at, ms in timeline if second <= at < second + 1]
            print(f"    t={second:2}s {summary_ms(lat)}", flush=True)
    return latencies, statuses, elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["postgres", "sqlite"], default="sqlite")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rate", type=float, default=200.0, help="paced moves/s in total")
    parser.add_argument("--seconds", type=float, default=15.0, help="length of each phase")
    parser.add_argument("--workers", type=int, default=2, help="uvicorn worker processes")
    parser.add_argument("--port", type=int, default=0, help="default: a free port")
    parser.add_argument("--modes", default="paced,flat", help="phases to run: paced, flat")
    parser.add_argument(
        "--tc",
        default="7200",
        help="the event's time control: 7200 (classical: deadlines too far to queue a flag "
        "task per move) or e.g. 300+3 (blitz: every move queues one)",
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=3.0,
        help="seconds of paced load on other games before measuring (not reported)",
    )
    parser.add_argument("--kinds", default="bare,api", help="endpoints to load: bare, api")
    args = parser.parse_args()
    if not args.port:
        from arbiter.runtime.localservices import free_port

        args.port = free_port()

    db = fresh_database(args.db, "bench_move_entry")
    broker, redis_server = redis_url()
    setup_django(db.url, broker)
    from django.db import connection

    db_name = connection.settings_dict["NAME"]
    line = legal_line(120)
    modes, kinds = args.modes.split(","), args.kinds.split(",")
    sets = {
        (kind, mode): make_games(args.games, start=(kind == "api"), time_control=args.tc)
        for mode in [*modes, "warmup"]
        for kind in kinds
    }
    workdir = Path(tempfile.mkdtemp(prefix="bench-move-entry-"))
    env = {
        **os.environ,
        "DATABASE_URL": db.url,
        "REDIS_URL": broker,
        "DJANGO_SETTINGS_MODULE": "benchmarks.bare_settings",
    }
    server = Process(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "arbiter.asgi:application",
            "--workers",
            str(args.workers),
            "--host",
            "127.0.0.1",
            "--port",
            str(args.port),
            "--log-level",
            "warning",
            "--no-access-log",
        ],
        env,
        workdir / "uvicorn.log",
    )
    results = {}
    try:
        wait_http(args.port)
        print(
            f"move entry, {args.games} games, time control {args.tc}, uvicorn {args.workers} "
            f"workers, {args.db}, {args.warmup:g} s warm-up, "
            f"gate {os.environ.get('API_DB_CONCURRENCY') or ('1' if args.db == 'sqlite' else '4')} per worker",
            flush=True,
        )
        for kind in kinds if args.warmup else ():
            # A server that has run a while: connections open, statements prepared.
            ids, token = sets[(kind, "warmup")]
            asyncio.run(
                run_phase(args.port, kind, ids, token, line, rate=args.rate, seconds=args.warmup)
            )
        for mode in modes:
            for kind in kinds:
                ids, token = sets[(kind, mode)]
                rate = args.rate if mode == "paced" else None
                web, dbs = session_pids(server.proc.pid), database_pids(db_name)
                cpu = cpu_seconds(web), cpu_seconds(dbs)
                lat, statuses, elapsed = asyncio.run(
                    run_phase(args.port, kind, ids, token, line, rate=rate, seconds=args.seconds)
                )
                ok = statuses.get(201, 0)
                results[(kind, mode)] = (lat, ok / elapsed)
                # CPU per move of the server's processes and of the database's backends: what
                # a move costs, much less noisy than its latency on a shared machine.
                web_ms = (cpu_seconds(web) - cpu[0]) * 1000 / max(ok, 1)
                db_ms = (cpu_seconds(dbs) - cpu[1]) * 1000 / max(ok, 1)
                print(
                    f"  {mode:5} {kind:4}: {summary_ms(lat)}  {ok / elapsed:.0f} moves/s  "
                    f"statuses {dict(statuses)}  CPU/move web {web_ms:.2f} ms db {db_ms:.2f} ms",
                    flush=True,
                )
        for mode in modes if len(kinds) == 2 else ():
            (b_lat, b_tp), (a_lat, a_tp) = results[("bare", mode)], results[("api", mode)]
            print(
                f"  {mode}: api/bare p50 x{percentile(a_lat, 50) / percentile(b_lat, 50):.2f}, "
                f"p99 x{percentile(a_lat, 99) / percentile(b_lat, 99):.2f}, "
                f"throughput x{a_tp / b_tp:.2f}",
                flush=True,
            )
        verify(sets, line)
    finally:
        server.stop()
        purge_clock_queue()
        from django.db import connections

        connections.close_all()
        db.cleanup()
        if redis_server:
            redis_server.stop()
    return 0


def verify(sets, line) -> None:
    """Every accepted move is stored once, in order: nothing lost, nothing doubled."""
    from arbiter.games.models import Game, Move

    for (kind, _), (ids, _) in sets.items():
        if kind != "api":
            continue
        for game in Game.objects.filter(pk__in=ids).only("id", "ply"):
            plies = list(Move.objects.filter(game=game).values_list("ply", "notation"))
            assert plies == list(enumerate(line[: game.ply], start=1)), game.pk
    print("  verified: every game's stored moves are exactly the accepted ones", flush=True)


def purge_clock_queue() -> None:
    """The flag tasks queued for the benchmark's clocks (no worker ran): drop them."""
    try:
        from arbiter.celery import app

        with app.connection_for_write() as conn:
            conn.default_channel.client.delete("clock")
    except Exception as exc:  # noqa: BLE001
        print(f"  (could not purge the clock queue: {exc})")


def wait_http(port: int, timeout: float = 120) -> None:
    import urllib.request

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/openapi.json", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("uvicorn did not answer")


if __name__ == "__main__":
    sys.exit(main())
