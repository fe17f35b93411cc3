"""The 10x10 board as bitboards: square numbering (FMJD 2.6), ray tables, Zobrist keys.

Layout: square s (1..50) lives at bit ``j = (s - 1) + (s - 1) // 10``, leaving a "ghost" bit
after every two rows (bits 10, 21, 32, 43). With that padding every diagonal step is a constant
shift: +5 is down-left, +6 down-right, -5 up-right, -6 up-left ("down" = towards square 50),
and a step off the left or right edge lands on a ghost bit, which is never a square. So a
bitboard of men can be moved one step with a single shift and a mask (the idea of the classic
"padded" draughts bitboard; tables are built once, at import).

Bitboards are plain Python ints. White men move up (towards 1-5, shifts -5/-6), Black men down.
"""

import random

SQUARES = range(1, 51)
DELTAS = (-6, -5, 5, 6)  # up-left, up-right, down-left, down-right


def square_index(square: int) -> int:
    return (square - 1) + (square - 1) // 10


SQ_INDEX = {s: square_index(s) for s in SQUARES}
INDEX_SQ = {j: s for s, j in SQ_INDEX.items()}
SQ_BIT = {s: 1 << j for s, j in SQ_INDEX.items()}
BIT_SQ = {b: s for s, b in SQ_BIT.items()}
NBITS = 54
# INDEX_TO_SQ as a list (ghost bits -> 0) for fast lookups in loops
INDEX_TO_SQ = [INDEX_SQ.get(j, 0) for j in range(NBITS)]

ALL = 0
for _b in SQ_BIT.values():
    ALL |= _b

# FMJD 3.5: a white man is crowned on Black's back row (1-5), a black man on White's (46-50).
WHITE_PROMOTION = sum(SQ_BIT[s] for s in range(1, 6))
BLACK_PROMOTION = sum(SQ_BIT[s] for s in range(46, 51))


def _step(j: int, delta: int) -> int:
    k = j + delta
    if 0 <= k < NBITS and k in INDEX_SQ:
        return k
    return -1


# NEIGHBOUR[j][d]: index one diagonal step from j in direction d (DELTAS order), or -1.
NEIGHBOUR = [[_step(j, d) if j in INDEX_SQ else -1 for d in DELTAS] for j in range(NBITS)]

# RAYS[j]: for each of the 4 directions, the squares (index, bit) along the diagonal from j.
RAYS: list[list[list[tuple[int, int]]]] = []
# RAY_BITS[j]: the same rays as lists of bits only (for non-capturing king moves, FMJD 3.9).
RAY_BITS: list[list[list[int]]] = []
for _j in range(NBITS):
    _rays = []
    for _d in range(4):
        _ray = []
        _k = NEIGHBOUR[_j][_d] if _j in INDEX_SQ else -1
        while _k >= 0:
            _ray.append((_k, 1 << _k))
            _k = NEIGHBOUR[_k][_d]
        _rays.append(_ray)
    RAYS.append(_rays)
    RAY_BITS.append([[b for _, b in r] for r in _rays])

# MAN_JUMPS[j]: (victim bit, landing index, landing bit) for a man's capture in each
# direction where both squares exist (FMJD 4.2: forwards and backwards).
MAN_JUMPS: list[list[tuple[int, int, int]]] = []
for _j in range(NBITS):
    _jumps = []
    if _j in INDEX_SQ:
        for _d in range(4):
            _v = NEIGHBOUR[_j][_d]
            if _v >= 0:
                _l = NEIGHBOUR[_v][_d]
                if _l >= 0:
                    _jumps.append((1 << _v, _l, 1 << _l))
    MAN_JUMPS.append(_jumps)

# Zobrist keys: one per (square, piece kind) and one for Black to move. Fixed seed, so a key
# stored today still means the same position tomorrow.
_rng = random.Random(0x10D4A0)
ZOBRIST_WHITE_MAN = [_rng.getrandbits(64) for _ in range(NBITS)]
ZOBRIST_WHITE_KING = [_rng.getrandbits(64) for _ in range(NBITS)]
ZOBRIST_BLACK_MAN = [_rng.getrandbits(64) for _ in range(NBITS)]
ZOBRIST_BLACK_KING = [_rng.getrandbits(64) for _ in range(NBITS)]
ZOBRIST_BLACK_TO_MOVE = _rng.getrandbits(64)


def bits(bb: int):
    """Yield the set bits of a bitboard, lowest first."""
    while bb:
        b = bb & -bb
        yield b
        bb ^= b


def squares_of(bb: int) -> list[int]:
    """The square numbers of a bitboard, ascending."""
    out = []
    while bb:
        b = bb & -bb
        out.append(INDEX_TO_SQ[b.bit_length() - 1])
        bb ^= b
    return out
