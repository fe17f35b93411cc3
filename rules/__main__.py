"""Command line: `python -m rules perft|moves|replay|svg ...` (see `python -m rules -h`).

Bad input exits non-zero with one line on stderr (never a traceback):
status 2 for a bad command line, 1 for bad input (FEN, file), 3 when `replay` read
the file but some games could not be replayed (each game's error is printed).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence

PROG = "python -m rules"
MAX_PERFT_DEPTH = 40  # far beyond what finishes; deeper would overflow Python's stack


class CliError(Exception):
    """Bad input: printed as one line on stderr, exit status `status`."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line instead of usage + message
        raise CliError(f"{message} (see {PROG} -h)", status=2)


def _position(fen: str):
    from . import Position

    if fen.strip().lower() in ("start", "startpos"):
        return Position.start()
    return Position.from_fen(fen)


def cmd_perft(args: argparse.Namespace) -> int:
    if not re.fullmatch(r"\s*-?[0-9]+\s*", args.depth):  # int() would take "1_0", "٣"
        raise CliError(f"depth {args.depth!r} is not a whole number")
    depth = int(args.depth)
    if depth < 0:
        raise CliError(f"depth {depth} is negative")
    if depth > MAX_PERFT_DEPTH:
        raise CliError(f"depth {depth} is too deep (at most {MAX_PERFT_DEPTH} plies)")
    pos = _position(args.fen)
    print(perft(pos, depth))
    return 0


def perft(pos, depth: int) -> int:
    """Leaf count (the engine's fast perft when it has one)."""
    try:
        from .perft import perft as fast
    except ImportError:
        fast = None
    if fast is not None:
        return fast(pos, depth)
    if depth == 0:
        return 1
    moves = pos.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(pos.play(m), depth - 1) for m in moves)


def cmd_moves(args: argparse.Namespace) -> int:
    pos = _position(args.fen)
    for move in sorted(pos.legal_moves()):  # by start, end and path
        print(pos.move_text(move))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from .pdn import replay_file

    try:
        games = replay_file(args.file)
    except FileNotFoundError:
        raise CliError(f"{args.file}: no such file") from None
    except IsADirectoryError:
        raise CliError(f"{args.file}: is a directory, not a PDN file") from None
    except OSError as exc:
        raise CliError(f"{args.file}: cannot read: {exc.strerror or exc}") from None
    summaries = [g.summary() for g in games]
    if args.json:
        json.dump(summaries, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        for s in summaries:
            print(f"{s['index']}\t{s['plies']}\t{s['fen'] or '-'}\t{s['result']}")
            for w in s["warnings"]:
                print(f"\twarning: {w}")
            if s["error"]:
                print(f"\terror: {s['error']}")
    failed = sum(1 for s in summaries if s["error"])
    if failed:
        print(
            f"{PROG}: {failed} of {len(summaries)} games in {args.file} could not be "
            "replayed completely",
            file=sys.stderr,
        )
        return 3
    return 0


def cmd_svg(args: argparse.Namespace) -> int:
    from .svg import board_svg

    pos = _position(args.fen)
    last = None
    if args.last_move and not re.fullmatch(r"\d+(?:[-xX:]\d+)+", args.last_move.strip()):
        raise CliError(
            f"--last-move {args.last_move!r} is not a move like 32-28 or 28x17 (FMJD 8.2)"
        )
    if args.last_move:
        last = pos.parse_move(args.last_move) if args.before else args.last_move
        if args.before:
            pos = pos.play(last)
    sys.stdout.write(board_svg(pos, last_move=last, flipped=args.flipped, size=args.size))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="International draughts (FMJD rules) tools.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    p = sub.add_parser("perft", help="count the leaf nodes of the legal move tree")
    p.add_argument("fen", metavar="FEN", help='a PDN FEN, or "start"')
    p.add_argument("depth", metavar="DEPTH", help="plies (0 or more)")
    p.set_defaults(func=cmd_perft)

    p = sub.add_parser("moves", help="list the legal moves in PDN notation, one per line")
    p.add_argument("fen", metavar="FEN", help='a PDN FEN, or "start"')
    p.set_defaults(func=cmd_moves)

    p = sub.add_parser("replay", help="read and replay every game of a PDN file")
    p.add_argument("file", metavar="FILE.pdn")
    p.add_argument(
        "--json",
        action="store_true",
        help="one JSON array of {index, plies, fen, result, warnings, error}",
    )
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("svg", help="write an SVG diagram of the position to stdout")
    p.add_argument("fen", metavar="FEN", help='a PDN FEN, or "start"')
    p.add_argument("--last-move", metavar="MOVE", help="highlight this move (e.g. 32-28)")
    p.add_argument(
        "--before",
        action="store_true",
        help="FEN is the position before --last-move: play it, then draw",
    )
    p.add_argument("--flipped", action="store_true", help="Black at the bottom")
    p.add_argument("--size", type=int, default=400, help="pixels (default 400)")
    p.set_defaults(func=cmd_svg)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        return args.func(args)
    except CliError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return exc.status
    except BrokenPipeError:  # e.g. piped into `head`
        return 0
    except (ValueError, TypeError) as exc:  # RulesError, FenError, IllegalMove, PdnError
        message = " ".join(str(exc).split())
        print(f"{PROG}: error: {message}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - a bug, reported in one line all the same
        print(f"{PROG}: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 70


if __name__ == "__main__":
    sys.exit(main())
