"""Hand edits of a round's pairing, as whole board lists for `services.set_pairing`.

Pure functions on [(white_id, black_id | None), ...] in board order: every player stays
seated exactly once where they were seated before; the service then checks the result
against the pairing rules and returns its warnings.
"""

from __future__ import annotations

Boards = list[tuple[int, int | None]]


def _seats(boards: Boards) -> list[list[int | None]]:
    return [[white, black] for white, black in boards]


def _find(seats: list[list[int | None]], player_id: int) -> tuple[int, int] | None:
    for i, seat in enumerate(seats):
        for side in (0, 1):
            if seat[side] == player_id:
                return i, side
    return None


def swap_players(boards: Boards, first: int, second: int) -> Boards:
    """The two players exchange seats (boards and colours). Both must be seated."""
    seats = _seats(boards)
    a, b = _find(seats, first), _find(seats, second)
    if a is None or b is None:
        missing = first if a is None else second
        raise ValueError(f"player {missing} is not paired in this round")
    seats[a[0]][a[1]], seats[b[0]][b[1]] = second, first
    return [(w, b_) for w, b_ in seats]


def set_board(boards: Boards, number: int, white: int, black: int | None) -> Boards:
    """Board `number` (1-based; len+1 adds a board) gets `white` and `black` (None: a bye).

    Whoever sat there moves to the seat the new player left; a player who was not seated
    takes the seat, and the one displaced is left unpaired (the service warns about it).
    A board left with no white player (its white moved away to a bye) is dropped.
    """
    if not 1 <= number <= len(boards) + 1:
        raise ValueError(f"board {number} does not exist (the round has {len(boards)})")
    seats = _seats(boards)
    if number == len(boards) + 1:
        seats.append([None, None])
    target = seats[number - 1]
    for side, player in ((0, white), (1, black)):
        displaced = target[side]
        if player is None:
            target[side] = None
            if displaced is not None:
                seats.append([displaced, None])  # the displaced player gets a bye
            continue
        where = _find(seats, player)
        if where is not None:
            seats[where[0]][where[1]] = displaced
        target[side] = player
    result = []
    for w, b in seats:
        if w is None and b is None:
            continue
        if w is None:  # a lone black becomes the white of a bye board
            w, b = b, None
        result.append((w, b))
    return result
