"""The Dutch system side by side with bbpPairings (FIDE-endorsed), the reference.

    python benchmarks/pairing_dutch.py --bbp /path/to/bbpPairings.exe [--events 300]
        [--min-players 9] [--max-players 400] [--seed 1] [--speed 1000,3000] [--limit 600]
        [--no-identity] [--fast-nodes N] [--round R]

Identity: bbpPairings generates random events (its own -g generator: random results,
forfeits, withdrawals, half-point byes the players asked for, any number of players), pairing
every round with its Dutch engine. Each round is then paired again here from the same state
(python -m arbiter.pairing check): the report gives rounds compared, identical, and every
differing round with the criterion that decides between the two pairings.

`--fast-nodes N` sends brackets of N players or more (default 60) to the compiled stepwise
matchings (see dutch.py): a small N checks that method on every bracket of small events too.

Speed: an event of N players with R-1 rounds played (`--round R`, default 4; paired by the
FMJD Swiss, random results) is written as a TRF; the next round is paired by both programs from that file,
each timed (a limit stops the slower one), and the pairings compared. Each figure is the
wall time and the CPU time of the whole command (ours includes starting Python and reading
the file); on a shared machine the CPU time is the one to compare. The ratio is ours to
bbpPairings' CPU time.

bbpPairings is not in any package registry: build it from its public source, outside this
repository, and give the binary's path. Without it the script says so and times ours alone.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arbiter.events.pairing import dutch
from arbiter.events.pairing.swiss import pair_swiss
from arbiter.events.tiebreaks import GameRecord
from arbiter.events.trf import TrfEvent, TrfPlayer, read_trf, write_trf
from arbiter.pairing.__main__ import check_file


def generate(bbp: str, players: int, rounds: int, seed: int, workdir: str) -> str:
    """A random event from bbpPairings' generator, every round paired by its Dutch engine."""
    rng = random.Random(seed)
    config = Path(workdir, f"cfg{seed}.txt")
    config.write_text(
        f"PlayersNumber={players}\nRoundsNumber={rounds}\n"
        f"DrawPercentage={rng.choice((10, 30, 50))}\n"
        # JaVaFo's generator rates: one event in N (smaller is more often).
        f"ForfeitRate={rng.choice((10, 20, 40))}\nRetiredRate={rng.choice((20, 40, 80))}\n"
        f"HalfPointByeRate={rng.choice((10, 20, 40))}\n"
    )
    out = Path(workdir, f"event{seed}.trf")
    subprocess.run(
        [bbp, "--dutch", "-g", str(config), "-o", str(out), "-s", str(seed)],
        check=True,
        capture_output=True,
        timeout=3600,
    )
    text = out.read_text().replace("\r\n", "\n").replace("\r", "\n")
    return text + f"\nXXR {rounds}\n"


def identity(args) -> None:
    rng = random.Random(args.seed)
    compared = identical = 0
    differing: list[str] = []
    criteria: dict[str, int] = {}
    seconds = 0.0
    with tempfile.TemporaryDirectory() as workdir:
        for event in range(args.events):
            n = rng.randint(args.min_players, args.max_players)
            rounds = rng.randint(5, 11)
            seed = rng.randrange(1, 10**9)
            text = None
            for attempt in range(3):  # its generator gives up when a round cannot be paired
                try:
                    text = generate(args.bbp, n, rounds, seed + attempt, workdir)
                    break
                except (subprocess.SubprocessError, OSError) as e:
                    error = e
            if text is None:
                print(f"event {event}: bbpPairings could not generate it ({error})", flush=True)
                continue
            trf = read_trf(text)
            started = time.perf_counter()
            lines = check_file(trf)
            took = time.perf_counter() - started
            seconds += took
            paired = trf.paired_rounds
            compared += paired
            identical += paired - len(lines)
            for line in lines:
                differing.append(f"event {event} ({n} players, seed {seed}) {line}")
                key = _criterion(line)
                criteria[key] = criteria.get(key, 0) + 1
            print(
                f"event {event}: {n} players, {paired} rounds, {paired - len(lines)} "
                f"identical ({took:.1f} s)",
                flush=True,
            )
    print()
    print(f"rounds compared: {compared}, identical: {identical}, differing: {compared - identical}")
    for key, count in sorted(criteria.items(), key=lambda kv: -kv[1]):
        print(f"  {count:4d}  {key}")
    for line in differing:
        print("  " + line)
    if compared:
        print(f"our pairing time: {seconds:.1f} s for {compared} rounds")


def _criterion(line: str) -> str:
    if "deciding criterion" in line:
        return line.split("deciding criterion ")[1].split(" in the bracket")[0]
    if "colours differ" in line:
        return "colour allocation"
    if "order of candidates" in line:
        return "order of candidates (equal on every criterion)"
    return line.split(": ", 1)[1][:60]


def simulated_trf(n: int, played: int, seed: int) -> str:
    """An event of n players after `played` rounds (FMJD Swiss pairing, random results)."""
    rng = random.Random(seed)
    players = [
        TrfPlayer(id=i, pairing_number=i, name=f"Player {i}", rating=2400 - i // 2)
        for i in range(1, n + 1)
    ]
    games: list[GameRecord] = []
    from arbiter.events.pairing.history import EntryInfo, build_states

    entries = [EntryInfo(p.id, p.pairing_number, p.rating) for p in players]
    for rnd in range(1, played + 1):
        states = build_states(entries, games, rnd)
        result = pair_swiss(states, rnd)
        for b in result.boards:
            if b.black_id is None:
                games.append(GameRecord(rnd, b.white_id, None, "bye"))
            else:
                r = rng.choice(("2-0", "1-1", "0-2", "2-0", "0-2"))
                games.append(GameRecord(rnd, b.white_id, b.black_id, r))
    text = write_trf(TrfEvent(name=f"Simulated {n}", rounds=played + 2), players, games)
    return text.replace("\r\n", "\n") + "XXC white1\nBBW  2.0\nBBD  1.0\nBBU  2.0\n"


def speed(args) -> None:
    sizes = [int(x) for x in args.speed.split(",") if x]
    for n in sizes:
        text = simulated_trf(n, args.round - 1, args.seed)
        with tempfile.NamedTemporaryFile("w", suffix=".trf", delete=False) as f:
            f.write(text.replace("\n", "\r"))
        mine, bbp_out = f.name + ".ours", f.name + ".bbp"
        ours = _timed(
            [sys.executable, "-m", "arbiter.pairing", "pair", "--system", "dutch", f.name]
            + ["-o", mine],
            args.limit,
        )
        line = f"{n} players, round {args.round}: ours {ours[0]}"
        if args.bbp:
            theirs = _timed([args.bbp, "--dutch", f.name, "-p", bbp_out], args.limit)
            line += f", bbpPairings {theirs[0]}"
            if ours[1] and theirs[1]:
                line += f", CPU ratio ours/bbpPairings {ours[1] / theirs[1]:.3f}"
            if os.path.exists(mine) and os.path.exists(bbp_out):
                same = _pairs(mine) == _pairs(bbp_out)
                line += ", same pairing" if same else ", pairings differ"
        for path in (mine, bbp_out):
            if os.path.exists(path):
                os.unlink(path)
        os.unlink(f.name)
        print(line, flush=True)


def _pairs(path: str) -> set[tuple[int, int]]:
    lines = Path(path).read_text().split()
    return {(int(a), int(b)) for a, b in zip(lines[1::2], lines[2::2], strict=False)}


def _timed(command: list[str], limit: float) -> tuple[str, float | None]:
    """Wall time and CPU time of a command (ours includes starting Python, about 0.5 s),
    and the CPU seconds (None when it did not finish); the CPU time is what to compare on
    a shared machine."""
    started = time.perf_counter()
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        subprocess.run(
            command,
            check=True,
            capture_output=True,
            timeout=limit,
            cwd=Path(__file__).resolve().parent.parent,
        )
    except subprocess.TimeoutExpired:
        return f"more than {limit:g} s (stopped)", None
    except subprocess.CalledProcessError as e:
        return f"failed ({e.stderr.decode(errors='replace').strip()[-100:]})", None
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime
    return f"{time.perf_counter() - started:.2f} s ({used:.2f} s CPU)", used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bbp", help="path of a bbpPairings binary")
    parser.add_argument("--events", type=int, default=300)
    parser.add_argument("--min-players", type=int, default=9)
    parser.add_argument("--max-players", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--speed", default="1000,3000", help="sizes to time, comma-separated")
    parser.add_argument("--limit", type=float, default=600, help="seconds per timed pairing")
    parser.add_argument("--no-identity", action="store_true")
    parser.add_argument("--round", type=int, default=4, help="the round to time (2 or more)")
    parser.add_argument(
        "--fast-nodes",
        type=int,
        help="brackets of this many players or more take the compiled matchings (default "
        f"{dutch.FAST_NODES}); a small value checks that path on the small events too",
    )
    args = parser.parse_args()
    if args.fast_nodes is not None:
        dutch.FAST_NODES = args.fast_nodes
    if not args.bbp:
        print("no bbpPairings binary given (--bbp PATH): nothing to compare with, ours alone")
    elif not args.no_identity:
        identity(args)
    if args.speed:
        speed(args)


if __name__ == "__main__":
    main()
