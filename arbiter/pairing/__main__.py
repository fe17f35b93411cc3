"""python -m arbiter.pairing pair|check --system dutch|fmjd EVENT.trf

pair   writes the next round's pairings (JaVaFo/bbpPairings output: the number of pairs,
       then one "white black" line a board, a bye as "number 0"); --explain adds each
       board's reasons.
check  re-pairs every round of the file from the rounds before it and lists each round
       where the file differs, with the criterion that decides between the two (exit 1).
--baku applies Baku acceleration (FIDE C.04.5.1) when the file has no XXA records.
"""

from __future__ import annotations

import argparse
import sys

from arbiter.events.pairing import PairingError
from arbiter.events.pairing.dutch import (
    baku_acceleration,
    criteria_by_bracket,
    deciding_criterion,
    pair_dutch,
)
from arbiter.events.pairing.swiss import pair_swiss
from arbiter.events.pairing.trf_states import TrfRoundInput, states_before
from arbiter.events.trf import TrfError, TrfFile, read_trf


def _pair(system: str, trf: TrfFile, round_number: int, baku: bool):
    data = states_before(trf, round_number)
    acceleration = data.acceleration
    if baku and not trf.accelerations:
        by_number = baku_acceleration(
            sorted(trf.players), trf.rounds or round_number, round_number, data.points_win
        )
        acceleration = {n: v for n, v in by_number.items() if v}
    if system == "dutch":
        result = pair_dutch(
            data.players,
            round_number,
            rounds=trf.rounds,
            points_win=data.points_win,
            initial_colour=data.initial_colour,
            acceleration=acceleration,
            forbidden=data.forbidden,
            score_scale=10,
        )
    else:
        result = pair_swiss(data.players, round_number)
    return data, acceleration, result


def _file_round(trf: TrfFile, round_number: int) -> tuple[set[tuple[int, int]], set[int]]:
    pairs, byes = set(), set()
    for n, e in trf.players.items():
        if round_number - 1 < len(e.cells):
            c = e.cells[round_number - 1]
            if c.opponent is not None and c.colour == "w":
                pairs.add((n, c.opponent))
            elif c.opponent is not None and c.colour not in ("w", "b") and n < c.opponent:
                pairs.add((n, c.opponent))  # a forfeit written without colours
            elif c.code == "U":
                byes.add(n)
    return pairs, byes


def cmd_pair(args) -> int:
    trf = _read(args.file)
    round_number = trf.paired_rounds + 1
    if trf.rounds and round_number > trf.rounds:
        print(f"{args.file}: all {trf.rounds} rounds are paired already", file=sys.stderr)
        return 3
    try:
        _, _, result = _pair(args.system, trf, round_number, args.baku)
    except PairingError as e:
        print(f"{args.file}, round {round_number}: {e}", file=sys.stderr)
        return 1
    lines = [str(len(result.boards))]
    for b in result.boards:
        lines.append(f"{b.white_id} {b.black_id or 0}")
        if args.explain:
            lines.append(f"  # {b.note.get('reason', '')}")
    text = "\n".join(lines) + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


def check_file(trf: TrfFile, system: str = "dutch", baku: bool = False) -> list[str]:
    """One line per round where the file differs from our pairing (empty when identical)."""
    out = []
    for rnd in range(1, trf.paired_rounds + 1):
        file_pairs, file_byes = _file_round(trf, rnd)
        try:
            data, acceleration, result = _pair(system, trf, rnd, baku)
        except PairingError as e:
            out.append(f"round {rnd}: no pairing here ({e}); the file has one")
            continue
        ours = {(b.white_id, b.black_id) for b in result.boards if b.black_id is not None}
        our_byes = {b.white_id for b in result.boards if b.black_id is None}
        if ours == file_pairs and our_byes == file_byes:
            continue
        out.append(f"round {rnd}: {_difference(trf, data, acceleration, rnd, ours, file_pairs)}")
    return out


def _difference(trf, data: TrfRoundInput, acceleration, rnd, ours, theirs) -> str:
    unordered = {frozenset(p) for p in ours}
    if unordered == {frozenset(p) for p in theirs}:
        boards = sorted(p for p in theirs if p not in ours)
        return f"same pairs, colours differ on {len(boards)} board(s) (colour allocation, part 5)"
    opts = dict(
        rounds=trf.rounds,
        points_win=data.points_win,
        acceleration=acceleration,
        forbidden=data.forbidden,
    )
    a = criteria_by_bracket(data.players, rnd, ours, **opts)
    b = criteria_by_bracket(data.players, rnd, theirs, **opts)
    only = len(unordered - {frozenset(p) for p in theirs})
    decided = deciding_criterion(a, b)
    if decided is None:
        return (
            f"{only} pair(s) differ, equal on every criterion: the order of candidates "
            "(exchanges, transpositions) decides"
        )
    name, score, mine, file_value = decided
    better = "ours" if mine > file_value else "the file's"
    return (
        f"{only} pair(s) differ; deciding criterion {name} in the bracket of score "
        f"{score / 10:g}: ours {mine}, file {file_value} ({better} is better)"
    )


def cmd_check(args) -> int:
    trf = _read(args.file)
    lines = check_file(trf, args.system, args.baku)
    for line in lines:
        print(line)
    rounds = trf.paired_rounds
    print(f"{rounds - len(lines)} of {rounds} rounds identical")
    return 1 if lines else 0


def _read(path: str) -> TrfFile:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return read_trf(f.read())
    except (OSError, TrfError) as e:
        print(f"{path}: {e}", file=sys.stderr)
        raise SystemExit(3) from None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m arbiter.pairing", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, fn in (("pair", cmd_pair), ("check", cmd_check)):
        p = sub.add_parser(name)
        p.add_argument("file")
        p.add_argument("--system", choices=("dutch", "fmjd"), default="dutch")
        p.add_argument("--baku", action="store_true", help="Baku acceleration (C.04.5.1)")
        if name == "pair":
            p.add_argument("-o", "--output")
            p.add_argument("--explain", action="store_true")
        p.set_defaults(fn=fn)
    args = parser.parse_args(argv)
    return args.fn(args)


if __name__ == "__main__":
    raise SystemExit(main())
