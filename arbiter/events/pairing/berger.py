"""Round robin by the Berger tables (FIDE Handbook C.05 Annex 1, used by the FMJD too).

For n players (n even; with n odd, number n + 1 is a dummy and meeting it is a bye) there are
n - 1 rounds. Player n sits on board 1 every round: with white in even rounds, with black in
odd rounds. The others turn round a circle: in round r the circle starts at player
s(r) = 1 + (r - 1) * n / 2 (mod n - 1); s(r) meets n on board 1, and on board k + 1 the
k-th player after s(r) has white against the k-th player before it. This reproduces the
published tables, e.g. for 6 players: round 1 1-6 2-5 3-4, round 2 6-4 5-3 1-2,
round 3 2-6 3-1 4-5, round 4 6-5 1-4 2-3, round 5 3-6 4-2 5-1.

A double round robin repeats the table with the colours reversed in the second cycle. As
FIDE C.05 Annex 1 recommends, the last two rounds of the first cycle are played in swapped
order (unless `swap_last_rounds=False`): without it, two players get the same colour three
times in a row across the cycles (for example no. 1 of 6: B in round 5, then B, B).
"""

from __future__ import annotations

from .types import Board, PairingError, PairingResult, PlayerState


def berger_rounds(n_players: int) -> list[list[tuple[int, int]]]:
    """For each round, the (white, black) pairing numbers in board order; n + 1 means a bye."""
    if n_players < 2:
        raise ValueError(f"a round robin needs at least 2 players, got {n_players}")
    n = n_players + (n_players % 2)
    m = n - 1  # size of the circle
    rounds = []
    for r in range(1, n):
        start = (r - 1) * (n // 2) % m  # 0-based position of s(r) in the circle 1..n-1
        circle = [(start + k) % m + 1 for k in range(m)]
        boards = [(circle[0], n) if r % 2 == 1 else (n, circle[0])]
        for k in range(1, n // 2):
            boards.append((circle[k], circle[m - k]))
        rounds.append(boards)
    return rounds


def pair_round_robin(
    players: list[PlayerState],
    round_number: int,
    *,
    double: bool = False,
    swap_last_rounds: bool = True,
) -> PairingResult:
    """The boards of one round of a (double) round robin.

    Berger numbers are the players' order by pairing number (1..n). The schedule is fixed:
    a player who is no longer active keeps the board and a warning says the game is to be
    forfeited; a player whose opponent is the dummy (n odd) gets the bye.
    """
    ordered = sorted(players, key=lambda p: p.pairing_number)
    numbers = [p.pairing_number for p in ordered]
    if len(set(numbers)) != len(numbers):
        raise PairingError("two players share a pairing number; each needs its own")
    n = len(ordered)
    table = berger_rounds(n)
    cycle = len(table)
    total = cycle * (2 if double else 1)
    if not 1 <= round_number <= total:
        raise PairingError(
            f"round {round_number} does not exist: a {'double ' if double else ''}round robin "
            f"of {n} players has {total} rounds"
        )
    second_cycle = round_number > cycle
    table_round = (round_number - 1) % cycle + 1
    if double and swap_last_rounds and not second_cycle and cycle >= 3:
        # FIDE C.05 Annex 1: swap the last two rounds of the first cycle.
        table_round = {cycle - 1: cycle, cycle: cycle - 1}.get(table_round, table_round)
    pairs = table[table_round - 1]
    if second_cycle:
        pairs = [(b, a) for a, b in pairs]
    by_berger = {i + 1: p for i, p in enumerate(ordered)}
    boards: list[Board] = []
    byes: list[PlayerState] = []
    warnings: list[str] = []
    size = n + (n % 2)
    for white_no, black_no in pairs:
        if size in (white_no, black_no) and n % 2:
            byes.append(by_berger[black_no if white_no == size else white_no])
            continue
        w, b = by_berger[white_no], by_berger[black_no]
        for p in (w, b):
            if not p.active:
                warnings.append(
                    f"no. {p.pairing_number} is not active: the game against no. "
                    f"{(b if p is w else w).pairing_number} is to be forfeited"
                )
        note = {
            "white": _rr_side(w),
            "black": _rr_side(b),
            "reason": (
                f"Round robin, Berger table for {size} players, round {table_round}"
                f"{' (second cycle, colours reversed)' if second_cycle else ''}"
                f"{f' played as round {round_number}' if table_round != round_number else ''}: "
                f"Berger no. {white_no} has white against no. {black_no}."
            ),
        }
        boards.append(Board(len(boards) + 1, w.id, b.id, note))
    result = []
    for real in byes:
        note = {
            "white": _rr_side(real),
            "black": None,
            "reason": f"Round robin with an odd number of players: no. {real.pairing_number} "
            f"meets the dummy no. {size} in round {round_number}, a bye.",
            "bye": "pairing",
        }
        result.append(Board(len(boards) + len(result) + 1, real.id, None, note))
    return PairingResult(
        boards=boards + result,
        warnings=warnings,
        stats={"floats": 0, "colour_exceptions": 0, "system": "round_robin"},
    )


def _rr_side(p: PlayerState) -> dict:
    return {
        "score": p.score,
        "group": None,
        "float": None,
        "colour_preference": None,
        "preference_met": True,
        "pairing_number": p.pairing_number,
    }
