"""Notation sheets and PDN import, measured (issue 13), side by side with py-draughts.

Run from the project root:

    python benchmarks/sheets.py                       # SQLite, 200 sheets, 10,000 games
    python benchmarks/sheets.py --db postgres         # on DATABASE_URL's server (bench_sheets)
    python benchmarks/sheets.py --sheets 50 --games 1000   # a quick look

1. A sheet checked and reconciled: for each of --sheets games (90-130 plies, random legal
   moves from a fixed seed) a player's sheet written with hand-written slips (`32 - 28`,
   move numbers missing or without their dot) is checked by the rules engine and aligned
   with the entered record and with the opponent's sheet (which differs at one ply):
   - pure: rules.notation_sheet.check_sheet + align, p50 / p99;
   - service: services.sheets.check_sheet(sheet_id) (the Celery task's work: read the sheet,
     check, compare with the stored record and the other sheet, write the report), p50 / p99;
   - peer: py-draughts' StandardBoard.from_pdn replaying the same sheet (clean text),
     p50 / p99, and the ratio.
2. A --games import: an event of --games pairings (rounds of 100 boards) and a PDN file of
   as many games; services.pdn_import.read_import (the task's work: read, replay, match
   every game, save progress) is timed: games/s, and the process's peak memory (max RSS,
   and how much it grew during the import). The peer: py-draughts reading every game of
   the same file (replay only, no matching), games/s and the ratio.

py-draughts is the test extra's second PDN reader (pip install -e .[test]); without it the
peer columns are skipped with a note.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.harness import fresh_database, percentile, redis_url, setup_django  # noqa: E402


def random_game(rng: random.Random, plies: int) -> list[str]:
    from rules import Position

    pos, out = Position.start(), []
    for _ in range(plies):
        moves = sorted(pos.legal_moves())
        if not moves:
            break
        move = rng.choice(moves)
        out.append(pos.move_text(move))
        pos = pos.play(move)
    return out


def clean_text(moves: list[str], result: str = "*") -> str:
    body = " ".join((f"{i // 2 + 1}. {m}" if i % 2 == 0 else m) for i, m in enumerate(moves))
    return f"{body} {result}"


def slipped_text(moves: list[str], rng: random.Random) -> str:
    """As a hand-written sheet: spaces around dashes, numbers missing or without a dot."""
    parts = []
    for i, m in enumerate(moves):
        if i % 2 == 0:
            how = rng.random()
            if how < 0.7:
                parts.append(f"{i // 2 + 1}.")
            elif how < 0.85:
                parts.append(f"{i // 2 + 1}")
        parts.append(m.replace("-", " - ") if rng.random() < 0.2 else m)
    return " ".join(parts) + " 1-1"


def load_peer():
    peers = ROOT / "var" / "peers"
    if peers.is_dir():
        sys.path.append(str(peers))
    try:
        import draughts
        from draughts import StandardBoard
    except Exception as exc:  # noqa: BLE001 - not installed: say so, go on
        return None, f"{type(exc).__name__}: {exc}"
    return StandardBoard, f"py-draughts {getattr(draughts, '__version__', '?')}"


def ms(seconds: float) -> float:
    return seconds * 1000


def line(name: str, values: list[float]) -> str:
    return (
        f"  {name:<28} n={len(values)} p50={percentile(values, 50):7.2f} ms "
        f"p99={percentile(values, 99):7.2f} ms"
    )


def max_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bench_sheets(n: int, rng: random.Random, peer) -> None:
    from django.utils import timezone

    from arbiter.events.models import Round
    from arbiter.games.models import Move, NotationSheet
    from arbiter.games.services import sheets
    from rules import Position
    from rules.notation_sheet import align, check_sheet
    from tests.accounts.builders import make_user
    from tests.games.builders import make_event, make_game, make_player

    print(f"1. A sheet checked and reconciled ({n} sheets of 90-130 plies)")
    arbiter = make_user("bench-arbiter")
    event = make_event(arbiter=arbiter)
    pure, service, peer_times = [], [], []
    for k in range(n):
        moves = random_game(rng, rng.randint(90, 130))
        text = slipped_text(moves, rng)
        other = list(moves)
        # the opponent's sheet differs at a ply where another move was legal
        positions = [Position.start()]
        for m in moves:
            positions.append(positions[-1].play(positions[-1].parse_move(m)))
        choices = [i for i in range(10, len(moves)) if len(positions[i].legal_texts()) > 1]
        at = rng.choice(choices)
        other[at] = next(t for t in positions[at].legal_texts() if t != moves[at])
        theirs = check_sheet(clean_text(other))

        t0 = time.perf_counter()
        mine = check_sheet(text)
        align(mine.notations, moves, result_a=mine.result, result_b="1-1")
        align(mine.notations, theirs.notations, result_a=mine.result, result_b=theirs.result)
        pure.append(ms(time.perf_counter() - t0))
        assert mine.ok, mine.problem

        white, black = make_player(make_user(f"w{k}")), make_player(make_user(f"b{k}"))
        game = make_game(event, white=white, black=black, board=k + 1)
        Round.objects.filter(pk=game.round_id).update(status=Round.Status.PUBLISHED)
        pos, rows = Position.start(), []
        for i, m in enumerate(moves, 1):
            pos = pos.play(pos.parse_move(m))
            rows.append(
                Move(game=game, ply=i, notation=m, fen_after=pos.fen(), played_at=timezone.now())
            )
        Move.objects.bulk_create(rows)
        sheets.check_sheet(sheets.submit_sheet(game.pk, clean_text(other), by=black.user).pk)
        sheet = sheets.submit_sheet(game.pk, text, by=white.user)
        t0 = time.perf_counter()
        checked = sheets.check_sheet(sheet.pk)
        service.append(ms(time.perf_counter() - t0))
        assert checked.status == NotationSheet.Status.CHECKED
        got = checked.comparison["black"]["first_difference"]
        assert got == at + 1, (got, at + 1, moves[at], other[at], checked.comparison["black"])

        if peer is not None:
            t0 = time.perf_counter()
            peer.from_pdn('[GameType "20"]\n' + clean_text(moves))
            peer_times.append(ms(time.perf_counter() - t0))
    print(line("pure (check + 2 alignments)", pure))
    print(line("service (the task's work)", service))
    if peer_times:
        print(line("py-draughts from_pdn", peer_times))
        print(
            f"  ratio ours/peer at p50: pure {percentile(pure, 50) / percentile(peer_times, 50):.2f}"
            f", service {percentile(service, 50) / percentile(peer_times, 50):.2f}"
        )


def bench_import(n: int, rng: random.Random, peer) -> None:
    from arbiter.events.models import Player, Round
    from arbiter.games.models import Game
    from arbiter.games.services import pdn_import
    from rules.pdn import parse_games
    from tests.accounts.builders import make_user
    from tests.games.builders import make_event

    boards = 100
    rounds = -(-n // boards)
    print(f"2. Importing {n} games ({rounds} rounds of up to {boards} boards)")
    arbiter = make_user("bench-importer")
    event = make_event(arbiter=arbiter)
    players = Player.objects.bulk_create(
        Player(surname=f"Surname{i:03d}", given_name=f"Given{i}") for i in range(2 * boards)
    )
    round_objs = Round.objects.bulk_create(
        Round(event=event, number=r + 1, status=Round.Status.PUBLISHED) for r in range(rounds)
    )
    games, pieces = [], []
    pool = [random_game(rng, rng.randint(70, 110)) for _ in range(200)]
    for idx in range(n):
        r, b = divmod(idx, boards)
        # each round pairs the players anew: a rotation keeps every pair unique per round
        w = players[(b + r) % (2 * boards)]
        bl = players[(b + r + boards) % (2 * boards)]
        games.append(Game(round=round_objs[r], board=b + 1, white=w, black=bl))
        moves = pool[idx % len(pool)]
        pieces.append(
            f'[Event "Bench"]\n[Round "{r + 1}"]\n[Board "{b + 1}"]\n'
            f'[White "{w.given_name} {w.surname.upper()}"]\n[Black "{bl.surname}, {bl.given_name}"]\n'
            f'[Result "1-1"]\n[GameType "20"]\n\n{clean_text(moves, "1-1")}\n\n'
        )
    Game.objects.bulk_create(games, batch_size=1000)
    text = "".join(pieces)
    del pieces
    print(f"  file: {len(text) / 1e6:.1f} MB")
    rss_before = max_rss_mb()
    t0 = time.perf_counter()
    job = pdn_import.upload(event.pk, text, file_name="bench.pdn", by=arbiter)
    job = pdn_import.read_import(job.pk)
    took = time.perf_counter() - t0
    counts = job.report["counts"]
    assert counts["new"] == n, counts
    rss_after = max_rss_mb()
    print(
        f"  ours: {n} games in {took:.1f} s = {n / took:.0f} games/s; matched {counts['new']}, "
        f"errors {counts['errors']}; peak RSS {rss_after:.0f} MB "
        f"(grew {rss_after - rss_before:.0f} MB during the import)"
    )
    if peer is not None:
        t0 = time.perf_counter()
        read = 0
        for g in parse_games(text):  # the same games, one string each, for the peer
            body = clean_text([m.text for m in g.moves], "1-1")
            peer.from_pdn('[GameType "20"]\n' + body)
            read += 1
        peer_took = time.perf_counter() - t0
        print(
            f"  py-draughts: {read} games in {peer_took:.1f} s = {read / peer_took:.0f} games/s "
            f"(replay only, no matching); ratio ours/peer in games/s "
            f"{(n / took) / (read / peer_took):.2f}"
        )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    ap.add_argument("--sheets", type=int, default=200)
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()

    peer, note = load_peer()
    print(f"peer: {note}")
    db = fresh_database(args.db, "bench_sheets")
    broker, server = redis_url()
    try:
        setup_django(db.url, broker)
        from django.conf import settings

        settings.CELERY_TASK_ALWAYS_EAGER = True  # the checks are timed in this process
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
        rng = random.Random(args.seed)
        if args.sheets:
            bench_sheets(args.sheets, rng, peer)
        if args.games:
            bench_import(args.games, rng, peer)
    finally:
        from django.db import connections

        connections.close_all()
        db.cleanup()
        if server is not None:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
