"""Network lag credit of the board's tablet: the time charged for each move against the true
thinking time, with the hall's network simulated on loopback.

A small asyncio TCP proxy in front of the web server (uvicorn) delays every chunk each way by
`--delay` ms with +-`--jitter` ms, and every `--spike-every`-th request upward by `--spike`
ms more (a slow Wi-Fi retransmission); order is kept on each connection. A simulated tablet
plays a game through it: it waits each move's true thinking time (random), presses (POST
.../moves with the thinking time it measured since the previous press), and waits for the
answer. The same moves, thinking times and delays are played three ways, one game each:

  credit   the event's quota (default 5000 ms per player): the server credits the lag;
  none     quota 0: the server charges its own figure (the transit of the press included);
  liar     quota as `credit`, but the tablet reports 0 ms for every move: the quota holds.

Charged time = the mover's clock before the move minus after it (no increment), from the
stored moves. Run from the repository root:

    python benchmarks/lag_credit.py [--moves 16] [--delay 300] [--jitter 20] [--spike 900]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import (
    HttpConnection,
    Process,
    fresh_database,
    percentile,
    redis_url,
    setup_django,
)
from benchmarks.move_entry import legal_line, purge_clock_queue, wait_http


class DelayProxy:
    """Forwards 127.0.0.1:`port` to the upstream, delaying each direction."""

    def __init__(self, upstream: int, delay_ms: float, jitter_ms: float, spike_ms: float,
                 spike_every: int, seed: int):  # fmt: skip
        self.upstream = upstream
        self.delay, self.jitter = delay_ms / 1000, jitter_ms / 1000
        self.spike, self.spike_every = spike_ms / 1000, spike_every
        self.random = random.Random(seed)
        self.requests = 0
        self.server = None

    def _delay(self, upward: bool, chunk: bytes) -> float:
        d = self.delay + self.random.uniform(-self.jitter, self.jitter)
        if upward and chunk.startswith(b"POST "):
            self.requests += 1
            if self.spike_every and self.requests % self.spike_every == 0:
                d += self.spike
        return max(0.0, d)

    async def _pump(self, reader, writer, upward: bool) -> None:
        queue: asyncio.Queue = asyncio.Queue()
        last_due = 0.0

        async def deliver():
            while True:
                due, chunk = await queue.get()
                if chunk is None:
                    writer.close()
                    return
                wait = due - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                writer.write(chunk)
                await writer.drain()

        task = asyncio.create_task(deliver())
        try:
            while True:
                chunk = await reader.read(65536)
                if not chunk:
                    break
                # In order: a chunk is never delivered before the one sent ahead of it.
                last_due = max(last_due, time.monotonic() + self._delay(upward, chunk))
                queue.put_nowait((last_due, chunk))
        finally:
            queue.put_nowait((last_due, None))
            await task

    async def _client(self, c_reader, c_writer) -> None:
        u_reader, u_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
        # Cancelled when the benchmark is over: its loop closes the connections.
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(
                self._pump(c_reader, u_writer, True),
                self._pump(u_reader, c_writer, False),
                return_exceptions=True,
            )

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]


def make_game(arbiter, quota_ms: int, n: int):
    from arbiter.accounts import devices
    from arbiter.events.models import Event, Player, Round
    from arbiter.games.models import Game

    event = Event.objects.create(
        name=f"Lag {n}", slug=f"lag-{n}", time_control="7200", published=True, lag_quota_ms=quota_ms
    )
    event.arbiters.add(arbiter)
    rnd = Round.objects.create(event=event, number=1, status=Round.Status.PUBLISHED)
    game = Game.objects.create(
        round=rnd,
        board=1,
        white=Player.objects.create(surname=f"W{n}"),
        black=Player.objects.create(surname=f"B{n}"),
    )
    binding = devices.new_binding(game, by=arbiter)
    _, secret = devices.redeem(binding.short, address=f"10.9.0.{n}")
    return game, secret


async def play(proxy_port: int, game_id: int, secret: str, line, thinks, *, lie: bool):
    """The tablet: think, press with the measured time, wait for the answer. Returns the
    true thinking time of each move (ms, between this tablet's presses)."""
    conn = HttpConnection("127.0.0.1", proxy_port)
    headers = {"Authorization": f"Bearer {secret}"}
    status, _ = await conn.request("GET", f"/api/games/{game_id}", headers=headers)
    assert status == 200, status
    true_ms = []
    last_press = None
    for ply, (move, think) in enumerate(zip(line, thinks, strict=False), start=1):
        if last_press is not None:
            # The next player's time began at the last press on this tablet; the answer to it
            # may still be on its way back.
            await asyncio.sleep(max(0.0, last_press + think - time.monotonic()))
        press = time.monotonic()
        measured = None if last_press is None else round((press - last_press) * 1000)
        true_ms.append(measured)
        body = {"ply": ply, "move": move, "request_id": f"g{game_id}-{ply}"}
        if measured is not None:
            body["thinking_ms"] = 0 if lie else measured
        status, data = await conn.request(
            "POST", f"/api/games/{game_id}/moves", json.dumps(body).encode(), headers=headers
        )
        assert status == 201, (status, data[:300])
        last_press = press
    await conn.close()
    return true_ms


def charged(game_id: int) -> list[int | None]:
    """The time taken off the mover's clock by each move (ms)."""
    from arbiter.games.models import Game, Move

    game = Game.objects.get(pk=game_id)
    start = game.clock.tc.periods[0].time_ms
    left = {"white": start, "black": start}
    out = []
    for m in Move.objects.filter(game=game).order_by("ply"):
        side = "white" if m.ply % 2 else "black"
        now = m.white_ms if side == "white" else m.black_ms
        out.append(left[side] - now)
        left[side] = now
    return out


def credited(game_id: int) -> tuple[int, int, int]:
    from arbiter.games.models import Game
    from clocks.models import ClockLog

    clock = Game.objects.get(pk=game_id).clock
    lines = ClockLog.objects.filter(clock=clock, action="lag").count()
    return clock.lag_credit_white_ms, clock.lag_credit_black_ms, lines


def report(name: str, true_ms, got, first_out=True) -> list[float]:
    pairs = [(t, c) for t, c in zip(true_ms, got, strict=True) if t is not None]
    errors = [c - t for t, c in pairs]
    absolute = [abs(e) for e in errors]
    within = sum(1 for e in absolute if e <= 50)
    print(
        f"  {name:7} charged - true: p50 {percentile(absolute, 50):6.0f} ms  "
        f"p95 {percentile(absolute, 95):6.0f} ms  max {max(absolute):6.0f} ms  "
        f"(signed min {min(errors):+.0f}, max {max(errors):+.0f})  "
        f"within 50 ms: {within}/{len(pairs)}"
    )
    return absolute


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=16)
    parser.add_argument("--delay", type=float, default=300.0, help="ms each way")
    parser.add_argument("--jitter", type=float, default=20.0, help="+- ms each way")
    parser.add_argument("--spike", type=float, default=900.0, help="extra ms upward")
    parser.add_argument("--spike-every", type=int, default=4, help="every n-th POST (0: none)")
    parser.add_argument("--quota", type=int, default=5000, help="ms per player per game")
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args()

    from arbiter.runtime.localservices import free_port

    port = free_port()
    db = fresh_database("sqlite", "bench_lag_credit")
    broker, redis_server = redis_url()
    setup_django(db.url, broker)
    from django.contrib.auth import get_user_model

    from arbiter.games import services

    arbiter = get_user_model().objects.create(username="arbiter")
    games = {
        "credit": make_game(arbiter, args.quota, 1),
        "none": make_game(arbiter, 0, 2),
        "liar": make_game(arbiter, args.quota, 3),
    }
    rng = random.Random(args.seed)
    thinks = [rng.uniform(0.3, 1.5) for _ in range(args.moves)]
    line = legal_line(args.moves)
    workdir = Path(tempfile.mkdtemp(prefix="bench-lag-"))
    env = {**os.environ, "DATABASE_URL": db.url, "REDIS_URL": broker, "HEARTBEAT": "0"}
    server = Process(
        [sys.executable, "-m", "uvicorn", "arbiter.asgi:application", "--host", "127.0.0.1",
         "--port", str(port), "--log-level", "warning", "--no-access-log"],
        env,
        workdir / "uvicorn.log",
    )  # fmt: skip
    try:
        wait_http(port)
        print(
            f"lag credit: {args.moves} moves per game, {args.delay:g} ms +- {args.jitter:g} ms "
            f"each way, +{args.spike:g} ms on every {args.spike_every}th press, quota "
            f"{args.quota} ms per player (sqlite, 1 uvicorn worker)"
        )
        results = {}
        for name, (game, secret) in games.items():
            services.start_clocks(game, by=arbiter, reason="benchmark")

            async def run(game=game, secret=secret, name=name):
                proxy = DelayProxy(
                    port, args.delay, args.jitter, args.spike, args.spike_every, args.seed
                )
                proxy_port = await proxy.start()
                try:
                    return await play(proxy_port, game.pk, secret, line, thinks, lie=name == "liar")
                finally:
                    proxy.server.close()

            true_ms = asyncio.run(run())
            results[name] = (true_ms, charged(game.pk))
        for name in ("credit", "none"):
            report(name, *results[name])
        _, got = results["liar"]
        true_ms = results["liar"][0]
        white, black, lines = credited(games["liar"][0].pk)
        honest = sum(t for t in true_ms if t is not None)
        print(
            f"  liar    (reports 0 ms): credited white {white} ms, black {black} ms in {lines} "
            f"lines (quota {args.quota} each); charged {sum(got[1:])} ms for {honest} ms of true "
            f"thinking"
        )
        w, b, n = credited(games["credit"][0].pk)
        print(f"  credit: credited white {w} ms, black {b} ms in {n} lag lines")
        assert white <= args.quota and black <= args.quota
    finally:
        server.stop()
        purge_clock_queue()
        from django.db import connections

        connections.close_all()
        db.cleanup()
        if redis_server:
            redis_server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
