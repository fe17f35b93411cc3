"""PDN replay speed on the shared corpus (../shared/data/pdn), side by side with py-draughts.

Run from the project root:

    python benchmarks/pdn_replay.py               # whole corpus
    python benchmarks/pdn_replay.py --quick       # wiegerw-pdn/succeed and wiersma.pdn only

Two measurements, in one run:

1. Our reader on the raw files (`rules.pdn.replay_file`): games, plies replayed, games with
   an error, seconds, plies/s; also the parse-only time (no engine).
2. Side by side on identical input: every game that we replay without error is written in
   canonical PDN (`write_game`), and that same string is replayed by `rules.pdn.read_games`
   and by py-draughts' `StandardBoard.from_pdn`. Reported: plies/s of each, the ratio,
   and how many final positions agree.

py-draughts is the peer named in shared/data/pdn/SOURCES.txt. It is not a project
dependency (GPL, and it pulls in fastapi and numpy): install it apart, in the ignored
var/ folder, and this script finds it there:

    pip install --target var/peers py-draughts==1.10.1

Without it, the side-by-side part is skipped with a note.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules import Position  # noqa: E402
from rules.pdn import parse_games, read_games, replay_file, write_game  # noqa: E402


def shared_pdn() -> Path | None:
    for parent in ROOT.parents:
        candidate = parent / "shared" / "data" / "pdn"
        if candidate.is_dir():
            return candidate
    return None


def load_peer():
    peers = ROOT / "var" / "peers"
    if peers.is_dir():
        sys.path.append(str(peers))  # after the project's own packages
    try:
        from draughts import StandardBoard
    except Exception as exc:  # noqa: BLE001 - not installed, or broken: say so and go on
        return None, f"{type(exc).__name__}: {exc}"
    import draughts

    return StandardBoard, f"py-draughts {getattr(draughts, '__version__', '?')}"


def peer_fen(board) -> str | None:
    text = board.fen
    if text.startswith("[FEN"):
        text = text.split('"')[1]
    try:
        return Position.from_fen(text).fen()
    except ValueError:
        return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a small part of the corpus")
    args = ap.parse_args()

    root = shared_pdn()
    if root is None:
        print("shared/data/pdn not found beside the project: nothing to measure")
        return 1
    files = sorted(root.rglob("*.pdn"))
    if args.quick:
        files = sorted((root / "wiegerw-pdn" / "succeed").glob("*.pdn")) + [root / "wiersma.pdn"]

    # 1. Our reader on the raw files.
    t0 = time.perf_counter()
    for f in files:
        parse_games(f.read_bytes(), source=f.name)
    parse_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    replayed = [(f, replay_file(f)) for f in files]
    replay_s = time.perf_counter() - t0
    games = [g for _, fg in replayed for g in fg]
    plies = sum(g.plies for g in games)
    errors = [g for g in games if g.error]
    print(
        f"corpus: {len(files)} files, {len(games)} games, {plies} plies replayed, "
        f"{len(errors)} games with an error"
    )
    print(
        f"  ours, raw files : {replay_s:7.2f} s  {plies / replay_s:9.0f} plies/s "
        f"(of which parsing without the engine {parse_s:.2f} s)"
    )
    for g in errors:
        print(f"    error: {g.error}"[:200])

    # 2. Side by side on identical canonical strings.
    texts = [(write_game(g), g) for g in games if not g.error and g.plies]
    board_cls, peer_name = load_peer()
    t0 = time.perf_counter()
    ours = [read_games(t)[0] for t, _ in texts]
    ours_s = time.perf_counter() - t0
    ours_plies = sum(g.plies for g in ours)
    print(f"side by side: {len(texts)} games written canonically, {ours_plies} plies")
    print(f"  ours            : {ours_s:7.2f} s  {ours_plies / ours_s:9.0f} plies/s")
    if board_cls is None:
        print(f"  peer skipped ({peer_name}); see this script's docstring")
        return 0
    peer_plies = 0
    failed = 0
    agree = 0
    boards = []
    t0 = time.perf_counter()
    for text, _ in texts:
        try:
            board = board_cls.from_pdn(text)
        except Exception:  # noqa: BLE001 - the peer's failure on a game is counted, not raised
            failed += 1
            boards.append(None)
            continue
        boards.append(board)
        peer_plies += len(board._moves_stack)
    peer_s = time.perf_counter() - t0
    for board, (_, g) in zip(boards, texts, strict=True):
        if board is not None and peer_fen(board) == g.fen:
            agree += 1
    print(
        f"  {peer_name:<16}: {peer_s:7.2f} s  {peer_plies / peer_s:9.0f} plies/s "
        f"({failed} games refused)"
    )
    print(
        f"  ratio ours/peer : {(ours_plies / ours_s) / (peer_plies / peer_s):.2f}x plies/s; "
        f"final positions agree in {agree} of {len(texts)} games"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
