"""Perft: the number of leaf nodes of the legal move tree, to test and time move generation.

Counts follow the FMJD convention (routes taking the same pieces from the same start to the
same end are one move). Works on raw bitboards, with bulk counting at depth 1: quiet moves
and single captures by men are counted with population counts, without generating them.
"""

from .board import ALL, BLACK_PROMOTION, RAY_BITS, WHITE_PROMOTION
from .movegen import capture_targets, king_can_capture, man_multi_captures
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
    empty = ALL ^ (own | opp)
    men = own & ~kings
    k = own & kings
    # FMJD 4.2: men that can take in each direction (x + d is the opponent's, x + 2d free).
    # c_* are the squares from which a capture in that direction is possible.
    c_d5 = (opp >> 5) & (empty >> 10)
    c_d6 = (opp >> 6) & (empty >> 12)
    c_u5 = (opp << 5) & (empty << 10)
    c_u6 = (opp << 6) & (empty << 12)
    if (men & (c_d5 | c_d6 | c_u5 | c_u6)) or (k and king_can_capture(k, opp, empty)):
        j_d5 = men & c_d5
        j_d6 = men & c_d6
        j_u5 = men & c_u5
        j_u6 = men & c_u6
        moves = None
        # Without kings, all captures are single jumps when no landing square allows another
        # jump (in any direction but back over the piece just taken, FMJD 4.5/4.8).
        if not k and not (
            ((j_d5 << 10) & (c_d5 | c_d6 | c_u6))
            or ((j_d6 << 12) & (c_d5 | c_d6 | c_u5))
            or ((j_u5 >> 10) & (c_d6 | c_u5 | c_u6))
            or ((j_u6 >> 12) & (c_d5 | c_u5 | c_u6))
        ):
            if depth == 1:
                return j_d5.bit_count() + j_d6.bit_count() + j_u5.bit_count() + j_u6.bit_count()
            moves = []
            for jumps, shift in ((j_d5, 5), (j_d6, 6)):
                while jumps:
                    f = jumps & -jumps
                    jumps ^= f
                    moves.append((f, f << (2 * shift), f << shift))
            for jumps, shift in ((j_u5, 5), (j_u6, 6)):
                while jumps:
                    f = jumps & -jumps
                    jumps ^= f
                    moves.append((f, f >> (2 * shift), f >> shift))
        if moves is None:
            if k:
                moves = capture_targets(own, opp, kings)[1]
            else:
                # some man can take two or more: only the men whose jump can go on matter
                movers = (
                    (j_d5 & ((c_d5 | c_d6 | c_u6) >> 10))
                    | (j_d6 & ((c_d5 | c_d6 | c_u5) >> 12))
                    | (j_u5 & ((c_d6 | c_u5 | c_u6) << 10))
                    | (j_u6 & ((c_d5 | c_u5 | c_u6) << 12))
                )
                moves = man_multi_captures(movers, opp, empty)
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
                nk |= tb  # FMJD 4.15: only a capture ENDING on the far row crowns
            total += _perft(opp & ~cap, (own ^ fb) | tb, nk, nw, depth - 1)
        return total
    if white:
        t5 = (men >> 5) & empty  # FMJD 3.4: a man steps forwards (White: up)
        t6 = (men >> 6) & empty
    else:
        t5 = (men << 5) & empty
        t6 = (men << 6) & empty
    if depth == 1:
        n = t5.bit_count() + t6.bit_count()
        if k:
            # FMJD 3.9: a king's moves in one direction are the free squares it slides over
            for delta in (5, 6):
                g = (k << delta) & empty
                while g:
                    n += g.bit_count()
                    g = (g << delta) & empty
                g = (k >> delta) & empty
                while g:
                    n += g.bit_count()
                    g = (g >> delta) & empty
        return n
    total = 0
    nw = not white
    d1 = depth - 1
    if white:
        promo = WHITE_PROMOTION
        while t5:
            tb = t5 & -t5
            t5 ^= tb
            mv = tb | (tb << 5)
            total += _perft(opp, own ^ mv, kings | tb if tb & promo else kings, nw, d1)
        while t6:
            tb = t6 & -t6
            t6 ^= tb
            mv = tb | (tb << 6)
            total += _perft(opp, own ^ mv, kings | tb if tb & promo else kings, nw, d1)
    else:
        promo = BLACK_PROMOTION
        while t5:
            tb = t5 & -t5
            t5 ^= tb
            mv = tb | (tb >> 5)
            total += _perft(opp, own ^ mv, kings | tb if tb & promo else kings, nw, d1)
        while t6:
            tb = t6 & -t6
            t6 ^= tb
            mv = tb | (tb >> 6)
            total += _perft(opp, own ^ mv, kings | tb if tb & promo else kings, nw, d1)
    while k:
        fb = k & -k
        k ^= fb
        for ray in RAY_BITS[fb.bit_length() - 1]:
            for tb in ray:
                if not tb & empty:
                    break
                mv = fb | tb
                total += _perft(opp, own ^ mv, kings ^ mv, nw, d1)
    return total
