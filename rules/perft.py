"""Perft: the number of leaf nodes of the legal move tree, to test and time move generation.

Counts follow the FMJD convention (routes taking the same pieces from the same start to the
same end are one move). Works on raw bitboards, with bulk counting at depth 1.
"""

from .board import BLACK_PROMOTION, WHITE_PROMOTION
from .movegen import capture_targets, count_quiet_moves, has_capture, quiet_moves
from .position import Position


def perft(position: Position, depth: int) -> int:
    """Leaf nodes at ``depth`` plies from ``position``."""
    if depth < 0:
        raise ValueError("depth must be >= 0")
    if depth == 0:
        return 1
    own, opp = (
        (position.white, position.black)
        if position.white_to_move
        else (position.black, position.white)
    )
    return _perft(own, opp, position.kings, position.white_to_move, depth)


def _perft(own: int, opp: int, kings: int, white: bool, depth: int) -> int:
    if has_capture(own, opp, kings):
        _, moves = capture_targets(own, opp, kings)
        if depth == 1:
            return len(moves)
        promo = WHITE_PROMOTION if white else BLACK_PROMOTION
        total = 0
        nw = not white
        for fb, tb, cap in moves:
            nk = kings & ~cap
            if fb & nk:
                nk = (nk ^ fb) | tb
            elif tb & promo:
                nk |= tb
            total += _perft(opp & ~cap, (own ^ fb) | tb, nk, nw, depth - 1)
        return total
    if depth == 1:
        return count_quiet_moves(own, opp, kings, white)
    promo = WHITE_PROMOTION if white else BLACK_PROMOTION
    total = 0
    nw = not white
    for fb, tb in quiet_moves(own, opp, kings, white):
        nk = kings
        if fb & kings:
            nk = kings ^ fb ^ tb
        elif tb & promo:
            nk = kings | tb
        total += _perft(opp, own ^ fb ^ tb, nk, nw, depth - 1)
    return total
