"""Rules engine speed, side by side with py-draughts and pydraughts, in one run.

    python benchmarks/rules_speed.py            # full run (a few minutes on 2 busy cores)
    python benchmarks/rules_speed.py --quick    # depth 6 only, fewer positions and games

What is measured (best of --rounds, each library in its own subprocess so that peak memory,
ru_maxrss, is that library's alone):

* perft from the start position to depth 6 and 7 (leaves per second); every library's count
  is checked against the published 167,140 / 1,049,442. Two rows per library where it has
  two ways: its fastest internal perft (ours: `rules.perft`, bulk counting; py-draughts: the
  turbo engine's `perft`) and perft through the public API (legal_moves + play/push).
  pydraughts runs a few hundred leaves/s, so it does depth 3 only, and a sample of 100
  positions and 3 games, one round (said in the table).
* legal move generation on real positions: every position of the shared mobydam games,
  replayed by our engine from the files' move lists (move numbers and results stripped);
  each library builds its boards from the FENs outside the timing, then generates the legal
  moves once per fresh board (microseconds per position).
* replay of the same games from their move texts (parse + play through each library's
  notation entry point: our `Game.push(text)`, py-draughts `Board.push_uci`, pydraughts
  `Board.push(Move(board, pdn_move=...))`), plies per second. The PDN reader is not used.

The peers are installed only here, never as project dependencies: one virtualenv each
(benchmarks/.venv-py-draughts, benchmarks/.venv-pydraughts, gitignored; both packages
install a top-level `draughts` package, so they cannot share one), created on first run with
`python -m venv` and pip.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PEERS = {
    "py-draughts": ("py-draughts==1.10.1", HERE / ".venv-py-draughts"),
    "pydraughts": ("pydraughts==0.6.7", HERE / ".venv-pydraughts"),
}
START_COUNTS = {1: 9, 2: 81, 3: 658, 4: 4265, 5: 27117, 6: 167140, 7: 1049442, 8: 6483961}


def shared_data() -> Path:
    for p in ROOT.parents:
        if (p / "shared" / "data").is_dir():
            return p / "shared" / "data"
    raise SystemExit("shared/data not found above the checkout")


# --------------------------------------------------------------------------- workers
# Each worker runs in its own process and prints one JSON line.


def _push_pop_perft(board, legal_moves, depth: int) -> int:
    """Perft through a peer's public API: legal_moves(board), board.push(m), board.pop()."""

    def rec(d):
        moves = legal_moves(board)
        if d == 1:
            return len(moves)
        n = 0
        for m in moves:
            board.push(m)
            n += rec(d - 1)
            board.pop()
        return n

    return rec(depth)


def _maxrss_mb() -> float:
    import resource

    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kilobytes on Linux
    return round(kb / 1024, 1)


def _best(fn, rounds: int):
    best = None
    result = None
    for _ in range(rounds):
        t0 = time.perf_counter()
        result = fn()
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return result, best


def worker(lib: str, task: str, args: dict) -> dict:
    rounds = args["rounds"]
    if lib == "ours":
        sys.path.insert(0, str(ROOT))
        from rules import Game, Position, perft

        def start():
            return Position.start()

        def fast_perft(depth):
            return perft(start(), depth)

        def api_perft(depth):
            def rec(pos, d):
                moves = pos.legal_moves()
                if d == 1:
                    return len(moves)
                return sum(rec(pos.play(m), d - 1) for m in moves)

            return rec(start(), depth)

        def boards(fens):
            return [Position.from_fen(f) for f in fens]

        def gen(board):
            return board.legal_moves()

        def replay(game):
            g = Game()
            for t in game:
                g.push(t)
            return len(game)

    elif lib == "py-draughts":
        from draughts import Board
        from draughts.engines.turbo import perft_from_board

        def fast_perft(depth):
            return perft_from_board(Board(), depth)

        def api_perft(depth):
            return _push_pop_perft(Board(), lambda board: board.legal_moves, depth)

        def boards(fens):
            return [Board.from_fen(f) for f in fens]

        def gen(board):
            return board.legal_moves

        def replay(game):
            b = Board()
            for t in game:
                b.push_uci(t)
            return len(game)

    elif lib == "pydraughts":
        from draughts import Board, Move

        fast_perft = None

        def api_perft(depth):
            return _push_pop_perft(Board("standard"), lambda board: board.legal_moves(), depth)

        def boards(fens):
            return [Board("standard", fen=f) for f in fens]

        def gen(board):
            return board.legal_moves()

        def replay(game):
            b = Board("standard")
            for t in game:
                b.push(Move(b, pdn_move=t))
            return len(game)

    else:
        raise SystemExit(f"unknown library {lib}")

    out: dict = {"lib": lib, "task": task}
    if task.startswith("perft"):
        kind, depth = task.split(":")[1], int(task.split(":")[2])
        fn = fast_perft if kind == "fast" else api_perft
        if fn is None:
            return {**out, "skipped": "no separate fast perft"}
        # short runs are repeated for at least a second (best run kept): timer noise on a
        # busy machine would otherwise dominate depth 6
        count, dt = _best(lambda: fn(depth), rounds)
        spent = dt
        while spent < 1.0:
            count, again = _best(lambda: fn(depth), 1)
            spent += again
            dt = min(dt, again)
        out.update(depth=depth, count=count, seconds=dt, rate=count / dt)
    elif task == "movegen":
        fens = args["fens"]
        total = 0.0
        nmoves = 0
        for _ in range(rounds):
            bs = boards(fens)  # outside the timing
            t0 = time.perf_counter()
            n = 0
            for b in bs:
                n += len(gen(b))
            dt = time.perf_counter() - t0
            total = dt if not total else min(total, dt)
            nmoves = n
        out.update(positions=len(fens), moves=nmoves, seconds=total, us=total / len(fens) * 1e6)
    elif task == "replay":
        games = args["games"]
        plies, dt = _best(lambda: sum(replay(g) for g in games), rounds)
        out.update(games=len(games), plies=plies, seconds=dt, rate=plies / dt)
    out["maxrss_mb"] = _maxrss_mb()
    return out


# --------------------------------------------------------------------------- driver


def ensure_peer(name: str) -> Path:
    spec, venv = PEERS[name]
    py = venv / "bin" / "python"
    if not py.exists():
        print(f"creating {venv.name} with {spec} ...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(py), "-m", "pip", "install", "-q", spec], check=True)
    return py


_TOKEN = re.compile(r"\d+(?:\s*[-x]\s*\d+)+")


def corpus(max_games: int | None):
    """Move lists of the shared mobydam games, replayed by our engine from the files' move
    texts (tags, comments, move numbers and results stripped). Every library then gets the
    moves as our engine writes them (PDN short form, full path only when ambiguous; a few
    mobydam captures are written with '-'), and the FEN of every position before a move.
    Games our engine cannot replay are left out and counted."""
    sys.path.insert(0, str(ROOT))
    from rules import Game, RulesError

    games, fens, bad = [], [], 0
    for path in sorted((shared_data() / "pdn" / "mobydam").glob("*.pdn")):
        text = path.read_text(encoding="latin-1")
        for block in re.split(r"\n(?=\[Event )", text):
            body = re.sub(r"\[[^\]]*\]", " ", block)
            body = re.sub(r"\{[^}]*\}", " ", body)
            body = re.sub(r"\d+\.(\.\.)?", " ", body)  # move numbers
            moves = ["".join(m.split()) for m in _TOKEN.findall(body)]
            moves = [m for m in moves if not re.fullmatch(r"[012]-[012]", m)]  # results
            if not moves:
                continue
            g = Game()
            written, game_fens = [], []
            try:
                for m in moves:
                    pos = g.position
                    game_fens.append(pos.fen())
                    written.append(pos.move_text(g.push(m)))
            except RulesError:
                bad += 1
                continue
            games.append(written)
            fens.extend(game_fens)
            if max_games and len(games) >= max_games:
                return games, fens, bad
    return games, fens, bad


def run_worker(python: Path, lib: str, task: str, args: dict) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(args, fh)
        argfile = fh.name
    try:
        proc = subprocess.run(
            [str(python), str(Path(__file__).resolve()), "--worker", lib, task, argfile],
            capture_output=True,
            text=True,
            cwd=str(HERE),
        )
    finally:
        os.unlink(argfile)
    if proc.returncode != 0:
        return {"lib": lib, "task": task, "error": proc.stderr.strip().splitlines()[-1:]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="depth 6, fewer positions and games")
    ap.add_argument("--rounds", type=int, default=3, help="best of N rounds (default 3)")
    ap.add_argument("--json", help="also write the raw results to this file")
    ap.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    a = ap.parse_args()

    if a.worker:
        lib, task, argfile = a.worker
        args = json.loads(Path(argfile).read_text())
        print(json.dumps(worker(lib, task, args)))
        return

    pythons = {"ours": Path(sys.executable)}
    for name in PEERS:
        pythons[name] = ensure_peer(name)

    games, fens, bad = corpus(60 if a.quick else None)
    # pydraughts is about a thousand times slower: a sample, one round only
    small_games = games[:3]
    small_fens = fens[:: max(1, len(fens) // 100)][:100]
    depths = [6] if a.quick else [6, 7]
    print(
        f"corpus: {len(games)} mobydam games replayed by our engine ({bad} left out), "
        f"{len(fens)} positions",
        file=sys.stderr,
    )

    # (label, task, args, libraries); each round runs every line once, libraries in turn, so
    # that a busy machine slows all of them alike; the best round counts.
    plan = []
    for d in depths:
        plan.append(
            (f"perft d{d}, fastest path (leaves/s)", f"perft:fast:{d}", {}, ["ours", "py-draughts"])
        )
        plan.append(
            (f"perft d{d}, public API (leaves/s)", f"perft:api:{d}", {}, ["ours", "py-draughts"])
        )
    plan.append(("perft d3, public API (leaves/s)", "perft:api:3", {}, ["ours", "pydraughts"]))
    plan.append(
        (
            f"legal moves, {len(fens)} positions (us/pos)",
            "movegen",
            {"fens": fens},
            ["ours", "py-draughts"],
        )
    )
    plan.append(
        (
            f"replay {len(games)} games (plies/s)",
            "replay",
            {"games": games},
            ["ours", "py-draughts"],
        )
    )
    plan.append(
        (
            f"legal moves, {len(small_fens)} positions (us/pos)",
            "movegen",
            {"fens": small_fens},
            ["ours", "pydraughts"],
        )
    )
    plan.append(
        (
            f"replay {len(small_games)} games (plies/s)",
            "replay",
            {"games": small_games},
            ["ours", "pydraughts"],
        )
    )

    best: dict = {}
    per_round: dict = {}
    for rnd in range(a.rounds):
        for label, task, args, libs in plan:
            for lib in libs:
                if lib == "pydraughts" and rnd > 0:
                    continue
                r = run_worker(pythons[lib], lib, task, {"rounds": 1, **args})
                print(
                    f"  round {rnd + 1} {lib:12} {task:14} {_brief(r)}", file=sys.stderr, flush=True
                )
                key = (label, lib)
                per_round.setdefault(key, []).append(r)
                old = best.get(key)
                if (
                    old is None
                    or "error" in old
                    or ("seconds" in r and r["seconds"] < old["seconds"])
                ):
                    if old and "maxrss_mb" in old and "maxrss_mb" in r:
                        r["maxrss_mb"] = max(r["maxrss_mb"], old["maxrss_mb"])
                    best[key] = r
                elif "maxrss_mb" in r and "maxrss_mb" in old:
                    old["maxrss_mb"] = max(old["maxrss_mb"], r["maxrss_mb"])

    if a.json:
        Path(a.json).write_text(
            json.dumps([{"label": k[0], **v} for k, v in best.items()], indent=1)
        )
    print_table(plan, best, per_round, a.rounds)


def _brief(r: dict) -> str:
    if "error" in r:
        return f"ERROR {r['error']}"
    if "skipped" in r:
        return r["skipped"]
    if "count" in r:
        return f"{r['count']:,} leaves in {r['seconds']:.2f}s"
    if "us" in r:
        return f"{r['us']:.1f} us/position"
    return f"{r['rate']:,.0f} plies/s"


def _value(r: dict | None) -> float | None:
    if not r or "error" in r or "skipped" in r:
        return None
    return r["us"] if "us" in r else r["rate"]


def _cell(r: dict | None) -> str:
    v = _value(r)
    if v is None:
        return "-" if not r else ("n/a" if "skipped" in r else "ERROR")
    text = f"{v:,.1f}" if "us" in r else f"{v:,.0f}"
    if "count" in r and r["count"] != START_COUNTS[r["depth"]]:
        text += " WRONG COUNT"
    return text


def print_table(plan, best, per_round, rounds) -> None:
    head = (
        f"{'measure':42} {'ours':>10} {'peer':>10} {'peer is':>12} {'ours/peer':>9}"
        f" {'median':>7}   peak RSS MB ours / peer"
    )
    print(head)
    print("-" * len(head))
    for label, _task, _args, libs in plan:
        ours = best.get((label, "ours"))
        peer_name = libs[1]
        peer = best.get((label, peer_name))
        o, p = _value(ours), _value(peer)
        ratio = median = "-"
        lower_is_better = bool(ours and "us" in ours)
        if o and p:
            ratio = f"{(p / o if lower_is_better else o / p):.2f}x"
        # the ratio within each round (the two ran one after the other), median over rounds
        pairs = [
            (_value(x), _value(y))
            for x, y in zip(
                per_round.get((label, "ours"), []),
                per_round.get((label, peer_name), []),
                strict=False,
            )
        ]
        ratios = sorted((y / x if lower_is_better else x / y) for x, y in pairs if x and y)
        if ratios:
            median = f"{ratios[len(ratios) // 2]:.2f}x"
        mem = " / ".join(
            f"{r['maxrss_mb']:.0f}" if r and "maxrss_mb" in r else "-" for r in (ours, peer)
        )
        print(
            f"{label:42} {_cell(ours):>10} {_cell(peer):>10} {peer_name:>12} {ratio:>9}"
            f" {median:>7}   {mem}"
        )
    print(
        f"ours/peer: how many times faster ours is (>1 = ours faster), best round of {rounds} "
        "each; median: median over rounds of the ratio within a round (pydraughts: 1 round). "
        "Perft counts checked against perft.json (167,140 at d6, 1,049,442 at d7)."
    )


if __name__ == "__main__":
    main()
