"""Positions, moves, FEN and move notation (FMJD art. 2-4 and 8)."""

from __future__ import annotations

import re
from enum import StrEnum

from . import movegen
from .board import (
    ALL,
    BLACK_PROMOTION,
    INDEX_SQ,
    INDEX_TO_SQ,
    MAN_JUMPS,
    NBITS,
    NEIGHBOUR,
    RAY_BITS,
    RAYS,
    SQ_BIT,
    SQ_INDEX,
    WHITE_PROMOTION,
    ZOBRIST_BLACK_KING,
    ZOBRIST_BLACK_MAN,
    ZOBRIST_BLACK_TO_MOVE,
    ZOBRIST_WHITE_KING,
    ZOBRIST_WHITE_MAN,
    squares_of,
)
from .errors import AmbiguousMove, FenError, IllegalMove


class Color(StrEnum):
    WHITE = "white"
    BLACK = "black"

    @property
    def opponent(self) -> Color:
        return Color.BLACK if self is Color.WHITE else Color.WHITE

    @property
    def letter(self) -> str:
        return "W" if self is Color.WHITE else "B"

    @property
    def index(self) -> int:
        """0 for White, 1 for Black: the side's place in a (white, black) pair."""
        return 0 if self is Color.WHITE else 1

    @property
    def label(self) -> str:
        return self.value.capitalize()


_tuple_new = tuple.__new__


def _move_key(start: int, end: int, captures) -> int:
    """One int per FMJD move: start, end and the SET of pieces taken (routes over the same
    pieces are one move): the taken pieces' bitboard, then start and end squares."""
    cap = 0
    for c in captures:
        cap |= SQ_BIT[c]
    return (cap << 12) | (start << 6) | end


class Move(tuple):
    """One move: a step, a flight or a whole capture (FMJD 4.1: a full capture is one move).

    ``path`` is the start, each landing square after a piece is taken, and the end;
    ``captures`` the squares of the pieces taken, in the order taken. Two moves are equal when
    they go from the same start to the same end taking the same set of pieces: FMJD treats
    such routes as one move. Immutable and hashable (a tuple underneath, for speed: the
    generator hands out shared, pre-built instances for non-capturing moves).
    """

    __slots__ = ()

    def __new__(
        cls,
        start: int,
        end: int,
        captures: tuple[int, ...] = (),
        path: tuple[int, ...] | None = None,
        promotes: bool = False,
    ):
        captures = tuple(captures)
        path = tuple(path) if path else (start, end)
        for sq in (start, end, *captures, *path):
            if sq not in SQ_BIT:
                raise ValueError(f"{sq!r} is not a square (1-50, FMJD 2.6)")
        return _tuple_new(
            cls, (start, end, captures, path, bool(promotes), _move_key(start, end, captures))
        )

    start = property(lambda self: self[0], doc="start square")
    end = property(lambda self: self[1], doc="end square")
    captures = property(lambda self: self[2], doc="squares taken, in order")
    path = property(lambda self: self[3], doc="start, landing squares, end")
    promotes = property(lambda self: self[4], doc="a man crowned by this move (FMJD 3.5, 4.15)")

    @property
    def is_capture(self) -> bool:
        return bool(self[2])

    def __eq__(self, other):
        if isinstance(other, Move):
            return self[5] == other[5]
        return NotImplemented

    def __ne__(self, other):
        if isinstance(other, Move):
            return self[5] != other[5]
        return NotImplemented

    def __hash__(self):
        return hash(self[5])

    def __str__(self) -> str:
        return f"{self[0]}{'x' if self[2] else '-'}{self[1]}"

    def full_text(self) -> str:
        """Every landing square: "47x38x24x13x36" (a quiet move stays "32-28")."""
        if not self[2]:
            return str(self)
        return "x".join(str(s) for s in self[3])

    def __repr__(self) -> str:
        return f"Move({self.full_text()!r})"

    def __reduce__(self):
        return (Move, (self[0], self[1], self[2], self[3], self[4]))


def _quiet_tables():
    """Pre-built non-capturing moves, shared by every position (FMJD 3.4, 3.5, 3.9).

    MAN[colour][d][target index] for a man stepping to that target (d: 5 or 6 squares in the
    padded layout); KING_RAYS[from index] = 4 lists of (target bit, Move).
    """
    man = {True: {5: {}, 6: {}}, False: {5: {}, 6: {}}}
    for j, s in INDEX_SQ.items():
        for d in (5, 6):
            # White men move up: target j, from j + d.
            f = j + d
            if f in INDEX_SQ and f in [n for n in NEIGHBOUR[j] if n >= 0]:
                man[True][d][j] = Move(INDEX_SQ[f], s, (), None, s <= 5)
            f = j - d
            if f in INDEX_SQ and f in [n for n in NEIGHBOUR[j] if n >= 0]:
                man[False][d][j] = Move(INDEX_SQ[f], s, (), None, s >= 46)
    tables = {
        c: {d: [man[c][d].get(j) for j in range(NBITS)] for d in (5, 6)} for c in (True, False)
    }
    king_rays = [
        [[(b, Move(INDEX_SQ[j], INDEX_SQ[k])) for k, b in ray] for ray in RAYS[j]]
        if j in INDEX_SQ
        else []
        for j in range(NBITS)
    ]
    return tables, king_rays


_MAN_MOVES, _KING_RAY_MOVES = _quiet_tables()


# --------------------------------------------------------------------------- FEN

_FEN_ITEM = re.compile(r"(K?)(\d+)(?:-(K?)(\d+))?$", re.IGNORECASE | re.ASCII)  # 0-9 only


def _fen_error(fen: str, column: int | None, code: str, **params) -> FenError:
    return FenError(code, fen=fen, column=column, **params)


def parse_fen(fen: str) -> tuple[int, int, int, bool]:
    """Read a PDN FEN into (white, black, kings, white_to_move) bitboards.

    "W:W31-50:B1-20": the side to move, then the pieces of each colour in either order
    (the colour letter of each field says whose pieces they are: never swapped), squares
    or ranges, "K" for kings; an empty side ("W:W:B1"), whitespace and a trailing "." are
    tolerated, as are PDN's optional ":H<n>" / ":F<n>" counter fields (ignored).
    """
    if not isinstance(fen, str):
        raise FenError("fen.not_text", type=type(fen).__name__)
    # Keep each significant character with its column in the original text.
    chars = [(c, i) for i, c in enumerate(fen) if not c.isspace()]
    while chars and chars[-1][0] == ".":
        chars.pop()
    if not chars:
        raise _fen_error(fen, None, "fen.empty")
    fields: list[list[tuple[str, int]]] = [[]]
    colons = [0]  # column of the ':' opening each field
    for c, i in chars:
        if c == ":":
            fields.append([])
            colons.append(i)
        else:
            fields[-1].append((c, i))

    turn_field = fields[0]
    if len(turn_field) != 1 or turn_field[0][0].upper() not in "WB":
        col = turn_field[0][1] if turn_field else 0
        raise _fen_error(fen, col, "fen.bad_turn")
    white_to_move = turn_field[0][0].upper() == "W"
    if len(fields) == 1:  # "W" alone describes no position ("W:W:B" says "no pieces")
        raise _fen_error(fen, None, "fen.no_pieces_field")

    boards = {"W": 0, "B": 0}
    kings = 0
    seen_colours: set[str] = set()
    for n, field in enumerate(fields[1:], start=2):
        if not field:
            col = colons[n - 1]
            raise _fen_error(fen, col, "fen.empty_field", field=n)
        colour, col0 = field[0][0].upper(), field[0][1]
        if colour in "HF" and all(c.isdigit() for c, _ in field[1:]):
            continue  # move counters some writers append; not part of the position
        if colour not in "WB":
            raise _fen_error(fen, col0, "fen.bad_colour", field=n, letter=field[0][0])
        name = "White" if colour == "W" else "Black"
        if colour in seen_colours:
            raise _fen_error(fen, col0, "fen.colour_twice", field=n, colour=name)
        seen_colours.add(colour)
        # split the rest on commas, keeping the column of each item
        items: list[list[tuple[str, int]]] = [[]]
        for c, i in field[1:]:
            if c == ",":
                items.append([])
            else:
                items[-1].append((c, i))
        for k, item in enumerate(items):
            if not item:
                if len(items) == 1 or k == len(items) - 1:
                    continue  # "W:W:B1" (no pieces) or a trailing comma
                raise _fen_error(fen, col0, "fen.empty_item", field=n, colour=name)
            text = "".join(c for c, _ in item)
            col = item[0][1]
            m = _FEN_ITEM.match(text)
            if not m:
                raise _fen_error(fen, col, "fen.bad_item", item=text, colour=name)
            king = bool(m.group(1)) or bool(m.group(3))
            lo = int(m.group(2))
            hi = int(m.group(4)) if m.group(4) else lo
            for sq in (lo, hi):
                if not 1 <= sq <= 50:
                    raise _fen_error(fen, col, "fen.not_a_square", square=sq, colour=name)
            if hi < lo:
                raise _fen_error(fen, col, "fen.range_backwards", item=text, colour=name)
            for sq in range(lo, hi + 1):
                b = SQ_BIT[sq]
                other = "B" if colour == "W" else "W"
                if boards[other] & b:  # never guess which colour is meant
                    raise _fen_error(fen, col, "fen.square_both_colours", square=sq)
                if boards[colour] & b:
                    raise _fen_error(fen, col, "fen.square_twice", square=sq, colour=name)
                boards[colour] |= b
                if king:
                    kings |= b
    return boards["W"], boards["B"], kings, white_to_move


def _fen_section(letter: str, pieces: int, kings: int) -> str:
    items = [("K" if SQ_BIT[s] & kings else "") + str(s) for s in squares_of(pieces)]
    return letter + ",".join(items)


# --------------------------------------------------------------------------- Position

_MOVE_TEXT = re.compile(r"^(\d+)((?:[-xX:]\d+)+)$")
_SIMPLE_MOVE = re.compile(r"(\d\d?)([-x])(\d\d?)$")
_ANNOTATION = re.compile(r"[!?*+=#]+$")


def _capture_tables():
    """Pre-built single captures by a man (the most common capture), per colour:
    MAN_JUMP_MOVES[white][j] = [(victim bit, landing index, landing bit, Move)]."""
    out = {}
    for white in (True, False):
        promo = WHITE_PROMOTION if white else BLACK_PROMOTION
        table = []
        for j in range(NBITS):
            row = []
            for vb, land, lb in MAN_JUMPS[j]:
                s, e = INDEX_SQ[j], INDEX_SQ[land]
                v = INDEX_SQ[vb.bit_length() - 1]
                row.append((vb, land, lb, Move(s, e, (v,), (s, e), bool(lb & promo))))
            table.append(row)
        out[white] = table
    return out


_MAN_JUMP_MOVES = _capture_tables()


def _single_capture_tables():
    """SINGLE[white] = 4 tables (down 5, down 6, up 5, up 6 in the padded layout), each
    indexed by the capturing man's index: the pre-built one-piece capture that way."""
    out = {}
    for white in (True, False):
        tables = []
        for delta in (5, 6, -5, -6):
            table = [None] * NBITS
            for j, row in enumerate(_MAN_JUMP_MOVES[white]):
                for vb, _land, _lb, mv in row:
                    if vb.bit_length() - 1 == j + delta:
                        table[j] = mv
            tables.append(table)
        out[white] = tables
    return out


_SINGLE_CAPTURES = _single_capture_tables()


def _quiet_lookup():
    """For every (start, end) on one diagonal: (white man's Move or None, black man's Move or
    None, king's Move, bitboard of the squares between, end bit). Lets a written quiet move
    be checked without generating every move (FMJD 3.4, 3.9)."""
    table = {}
    for j, s in INDEX_SQ.items():
        for ray in RAYS[j]:
            between = 0
            for k, b in ray:
                e = INDEX_SQ[k]
                white_man = _MAN_MOVES[True][j - k][k] if j - k in (5, 6) else None
                black_man = _MAN_MOVES[False][k - j][k] if k - j in (5, 6) else None
                table[(s << 6) | e] = (white_man, black_man, Move(s, e), between, b)
                between |= b
    return table


_QUIET_LOOKUP = _quiet_lookup()


def _capture_moves(own: int, opp: int, kings: int, wtm: bool) -> list[Move]:
    """Every legal capture (FMJD 4.1-4.15) as Moves: only those taking the most pieces
    (4.13), one per (start, end, set of pieces taken).

    Depth-first from each piece that can capture. A jumped piece stays on the board until
    the capture ends (4.8/4.11): it blocks, and is never jumped twice; the mover's own start
    square counts as free. Routes are kept as tuples of board indices and turned into Move
    objects only for the survivors; single captures by a man use pre-built Moves.
    """
    base_empty = ALL & ~(own | opp)
    best = 0
    leaves: list = []  # (start idx, end idx, cap bits, landings, caps) of the best routes
    singles: list = []  # pre-built Moves for one-piece man captures
    man_jumps = _MAN_JUMP_MOVES[wtm]

    men = movegen.capturing_men(own & ~kings, opp, base_empty)
    while men:
        f = men & -men
        men ^= f
        j0 = f.bit_length() - 1
        empty = base_empty | f
        for vb, land, lb, mv in man_jumps[j0]:
            if not (vb & opp and lb & empty):
                continue
            # FMJD 4.5: go on capturing from the landing square as long as possible
            stack = [(land, vb, 1, (land,), (vb,))]
            while stack:
                j, cap, n, landings, caps = stack.pop()
                extended = False
                for vb2, land2, lb2 in MAN_JUMPS[j]:
                    if vb2 & opp and not vb2 & cap and lb2 & empty:
                        extended = True
                        stack.append((land2, cap | vb2, n + 1, landings + (land2,), caps + (vb2,)))
                if extended or n < best:
                    continue
                if n > best:
                    best = n
                    leaves = []
                    singles = []
                if n == 1:
                    singles.append(mv)
                else:
                    leaves.append((j0, j, cap, landings, caps))

    k = own & kings
    while k:
        f = k & -k
        k ^= f
        j0 = f.bit_length() - 1
        empty = base_empty | f
        # FMJD 4.3/4.6: the king jumps a piece at any distance and lands on any free square
        # behind it, turning where it can go on capturing.
        stack = [(j0, 0, 0, (), ())]
        while stack:
            j, cap, n, landings, caps = stack.pop()
            extended = False
            for ray in RAYS[j]:
                it = iter(ray)
                for _idx, b in it:
                    if b & empty:
                        continue
                    # an own piece (FMJD 4.7) or one already jumped (4.8) ends the ray
                    if b & opp and not b & cap:
                        ncap = cap | b
                        ncaps = caps + (b,)
                        for idx2, b2 in it:
                            if not b2 & empty:
                                break
                            extended = True
                            stack.append((idx2, ncap, n + 1, landings + (idx2,), ncaps))
                    break
            if extended or not n or n < best:
                continue
            if n > best:
                best = n
                leaves = []
                singles = []
            leaves.append((j0, j, cap, landings, caps))

    if not leaves:
        return singles
    promo = WHITE_PROMOTION if wtm else BLACK_PROMOTION
    moves = singles
    seen = set()
    to_sq = INDEX_TO_SQ
    for j0, j, cap, landings, caps in leaves:
        s = to_sq[j0]
        e = to_sq[j]
        key = (cap << 12) | (s << 6) | e
        if key in seen:
            continue  # same pieces, same start and end: the same move (FMJD)
        seen.add(key)
        pr = not (1 << j0) & kings and bool((1 << j) & promo)  # FMJD 4.15
        path = (s,) + tuple(to_sq[x] for x in landings)
        cap_sq = tuple(to_sq[b.bit_length() - 1] for b in caps)
        moves.append(_tuple_new(Move, (s, e, cap_sq, path, pr, key)))
    return moves


class Position:
    """A position: the pieces on the 50 squares (FMJD 2.6) and the side to move.

    Immutable and hashable. Build one with `Position.start()` or `Position.from_fen()`.
    Internally four plain ints (bitboards of `rules.board`'s padded layout), read through
    the `white`, `black`, `kings` and `white_to_move` properties.
    """

    __slots__ = ("_w", "_b", "_k", "_wtm", "_moves", "_by_key", "_routes", "_z", "_fen")

    def __init__(self, white: int, black: int, kings: int, white_to_move: bool = True):
        self._w = white
        self._b = black
        self._k = kings
        self._wtm = bool(white_to_move)
        self._moves = None
        self._by_key = None
        self._routes = None
        self._z = None
        self._fen = None

    white = property(lambda self: self._w, doc="bitboard of White's pieces")
    black = property(lambda self: self._b, doc="bitboard of Black's pieces")
    kings = property(lambda self: self._k, doc="bitboard of the kings of both colours")
    white_to_move = property(lambda self: self._wtm)

    # ----- construction and FEN

    @classmethod
    def start(cls) -> Position:
        """FMJD 2.8: black men on 1-20, white men on 31-50, White to move (3.3)."""
        return cls(sum(SQ_BIT[s] for s in range(31, 51)), sum(SQ_BIT[s] for s in range(1, 21)), 0)

    @classmethod
    def from_fen(cls, fen: str) -> Position:
        return cls(*parse_fen(fen))

    def fen(self) -> str:
        """Canonical PDN FEN: side to move, White's pieces, Black's pieces, ascending."""
        if self._fen is None:  # kept: a move's service writes it in three places
            self._fen = ":".join(
                (
                    "W" if self._wtm else "B",
                    _fen_section("W", self._w, self._k),
                    _fen_section("B", self._b, self._k),
                )
            )
        return self._fen

    # ----- queries

    @property
    def turn(self) -> Color:
        return Color.WHITE if self._wtm else Color.BLACK

    def piece_at(self, square: int) -> str | None:
        """'w' / 'W' (white man / king), 'b' / 'B', or None for a free square."""
        b = SQ_BIT.get(square)
        if b is None:
            raise ValueError(f"{square!r} is not a square (1-50)")
        if self._w & b:
            return "W" if self._k & b else "w"
        if self._b & b:
            return "B" if self._k & b else "b"
        return None

    def pieces(self, color: Color) -> tuple[list[int], list[int]]:
        """(men squares, king squares) of one colour, ascending."""
        bb = self._w if color is Color.WHITE else self._b
        return squares_of(bb & ~self._k), squares_of(bb & self._k)

    def material(self) -> tuple[int, int, int, int]:
        """(white men, white kings, black men, black kings)."""
        w, b, k = self._w, self._b, self._k
        return (
            (w & ~k).bit_count(),
            (w & k).bit_count(),
            (b & ~k).bit_count(),
            (b & k).bit_count(),
        )

    @property
    def zobrist(self) -> int:
        """A 64-bit Zobrist key of the pieces and the side to move (for repetition, FMJD 6.1)."""
        z = self._z
        if z is None:
            z = 0 if self._wtm else ZOBRIST_BLACK_TO_MOVE
            for bb, table in (
                (self._w & ~self._k, ZOBRIST_WHITE_MAN),
                (self._w & self._k, ZOBRIST_WHITE_KING),
                (self._b & ~self._k, ZOBRIST_BLACK_MAN),
                (self._b & self._k, ZOBRIST_BLACK_KING),
            ):
                while bb:
                    b = bb & -bb
                    bb ^= b
                    z ^= table[b.bit_length() - 1]
            self._z = z
        return z

    def __hash__(self) -> int:
        return self.zobrist

    def __eq__(self, other):
        if isinstance(other, Position):
            return (
                self._w == other._w
                and self._b == other._b
                and self._k == other._k
                and self._wtm == other._wtm
            )
        return NotImplemented

    def __reduce__(self):
        return (Position, (self._w, self._b, self._k, self._wtm))

    def __repr__(self) -> str:
        return f"Position.from_fen({self.fen()!r})"

    def __str__(self) -> str:
        rows = []
        for r in range(10):
            cells = []
            for c in range(10):
                if (r + c) % 2 == 0:
                    cells.append(" ")
                else:
                    sq = r * 5 + c // 2 + 1
                    cells.append(self.piece_at(sq) or ".")
            rows.append(" ".join(cells))
        return "\n".join(rows)

    # ----- moves

    def _capture_routes(self):
        routes = self._routes
        if routes is None:
            if self._wtm:
                routes = movegen.capture_routes(self._w, self._b, self._k)
            else:
                routes = movegen.capture_routes(self._b, self._w, self._k)
            self._routes = routes
        return routes

    def _generate(self) -> list[Move]:
        """The legal moves (FMJD art. 3 and 4), computed once per position, in a fixed order
        (captures sorted by start, end and path; other moves by kind and square)."""
        moves = self._moves
        if moves is not None:
            return moves
        wtm = self._wtm
        if wtm:
            own, opp = self._w, self._b
        else:
            own, opp = self._b, self._w
        kings = self._k
        empty = ALL ^ (own | opp)
        men = own & ~kings
        k = own & kings
        # FMJD 4.2: men that can take in each direction (x + d the opponent's, x + 2d free)
        c_d5 = (opp >> 5) & (empty >> 10)
        c_d6 = (opp >> 6) & (empty >> 12)
        c_u5 = (opp << 5) & (empty << 10)
        c_u6 = (opp << 6) & (empty << 12)
        if (men & (c_d5 | c_d6 | c_u5 | c_u6)) or (k and movegen.king_can_capture(k, opp, empty)):
            j_d5 = men & c_d5
            j_d6 = men & c_d6
            j_u5 = men & c_u5
            j_u6 = men & c_u6
            # FMJD 4.1: capture is compulsory. Without kings, when no landing square allows
            # another jump (FMJD 4.5), every capture is a single jump: pre-built Moves.
            if not k and not (
                ((j_d5 << 10) & (c_d5 | c_d6 | c_u6))
                or ((j_d6 << 12) & (c_d5 | c_d6 | c_u5))
                or ((j_u5 >> 10) & (c_d6 | c_u5 | c_u6))
                or ((j_u6 >> 12) & (c_d5 | c_u5 | c_u6))
            ):
                moves = []
                append = moves.append
                for jumps, table in zip(
                    (j_d5, j_d6, j_u5, j_u6), _SINGLE_CAPTURES[wtm], strict=True
                ):
                    while jumps:
                        f = jumps & -jumps
                        jumps ^= f
                        append(table[f.bit_length() - 1])
            else:
                moves = _capture_moves(own, opp, kings, wtm)
            moves.sort()
        else:
            # FMJD 3.4 (men, one step forwards) and 3.9 (kings fly over free squares):
            # pre-built Move objects, no allocation but the list.
            moves = []
            append = moves.append
            tables = _MAN_MOVES[wtm]
            for d in (5, 6):
                table = tables[d]
                t = ((men >> d) if wtm else (men << d)) & empty
                while t:
                    b = t & -t
                    t ^= b
                    append(table[b.bit_length() - 1])
            while k:
                f = k & -k
                k ^= f
                for ray in _KING_RAY_MOVES[f.bit_length() - 1]:
                    for b, mv in ray:
                        if not b & empty:
                            break
                        append(mv)
        self._moves = moves
        return moves

    def _capture_moves(self, own: int, kings: int, wtm: bool) -> list[Move]:
        # FMJD 4.1 (compulsory), 4.13 (majority); one Move per set of pieces taken.
        opp = self._b if wtm else self._w
        moves = _capture_moves(own, opp, kings, wtm)
        moves.sort()
        return moves

    def _legal(self) -> dict[int, Move]:
        """Legal moves by their key (start, end, set of pieces taken)."""
        by_key = self._by_key
        if by_key is None:
            by_key = self._by_key = {m[5]: m for m in self._generate()}
        return by_key

    def legal_moves(self) -> list[Move]:
        """Every legal move (FMJD art. 3 and 4), in a fixed order (`sorted()` them for display:
        moves sort by start, end and path)."""
        return list(self._generate())

    def is_legal(self, move: Move) -> bool:
        return isinstance(move, Move) and move[5] in self._legal()

    def play(self, move: Move | str) -> Position:
        """The position after a legal move (a `Move` or its text). Raises `IllegalMove`."""
        if isinstance(move, str):
            move = self.parse_move(move)
        else:
            canonical = self._legal().get(move[5]) if isinstance(move, Move) else None
            if canonical is None:
                raise IllegalMove(
                    move.full_text() if isinstance(move, Move) else repr(move),
                    "move.not_legal",
                    self.legal_texts(),
                )
            move = canonical
        return self._apply(move)

    def _apply(self, move: Move) -> Position:
        fb = SQ_BIT[move[0]]
        tb = SQ_BIT[move[1]]
        cap = move[5] >> 12  # the key holds the taken pieces' bitboard
        kings = self._k
        if cap:
            kings &= ~cap  # FMJD 4.11: taken pieces leave after the whole capture
        if fb & kings:
            kings = (kings ^ fb) | tb
        elif move[4]:
            kings |= tb  # FMJD 3.5 / 4.15
        new = _new_position(Position)
        if self._wtm:
            new._w = (self._w ^ fb) | tb
            new._b = self._b & ~cap
            new._wtm = False
        else:
            new._w = self._w & ~cap
            new._b = (self._b ^ fb) | tb
            new._wtm = True
        new._k = kings
        new._moves = new._by_key = new._routes = new._z = new._fen = None
        return new

    def is_game_over(self) -> bool:
        """FMJD 7.2.2 / 7.2.3: the side to move has no piece or no legal move."""
        return not self._generate()

    # ----- notation

    def legal_texts(self) -> list[str]:
        """The legal moves in PDN notation, sorted by start, end and path (for messages)."""
        return [self.move_text(m) for m in sorted(self._generate())]

    def move_text(self, move: Move) -> str:
        """PDN notation: "32-28" / "28x17", or every landing square "47x38x24x13x36" when
        another legal capture goes from the same start to the same end (FMJD 8.2)."""
        move = self._legal().get(move[5], move)
        if move[2]:
            s, e, k = move[0], move[1], move[5]
            for other in self._generate():
                if other[0] == s and other[1] == e and other[5] != k:
                    return move.full_text()
            return f"{s}x{e}"
        return f"{move[0]}-{move[1]}"

    def parse_move(self, text: str) -> Move:
        """Read a move in PDN notation against this position.

        Accepts "32-28", "28x17", full paths "47x38x24x13x36" and incomplete paths whose
        squares are an ordered subsequence of a legal route's landing squares ("2x30x11").
        Spaces inside ("35x 4") and trailing annotation signs ("!", "?", FMJD 9.1) are
        tolerated. Raises `IllegalMove` (reason + legal moves) or `AmbiguousMove`.
        """
        if not isinstance(text, str):
            raise IllegalMove(repr(text), "move.not_text")
        m = _SIMPLE_MOVE.match(text)
        if m:  # fast path: "32-28" / "28x17"
            start, end, via, t = int(m.group(1)), int(m.group(3)), [], text
            if m.group(2) == "-" and self._moves is None:
                move = self._quick_quiet(start, end)
                if move is not None:
                    return move
        else:
            t = _ANNOTATION.sub("", "".join(text.split()))
            m = _MOVE_TEXT.match(t)
            if not m:
                raise IllegalMove(text, "move.bad_notation", self.legal_texts())
            nums = [int(m.group(1))] + [int(x) for x in re.split(r"[-xX:]", m.group(2))[1:]]
            start, end, via = nums[0], nums[-1], nums[1:-1]
        moves = self._generate()
        if not via:
            cands = [mv for mv in moves if mv[0] == start and mv[1] == end]
            if len(cands) == 1:
                return cands[0]
        elif moves and moves[0][2]:
            legal = self._legal()
            found = {}
            for r_start, landings, caps in self._capture_routes():
                if INDEX_TO_SQ[r_start] != start or INDEX_TO_SQ[landings[-1]] != end:
                    continue
                if _is_subsequence(via, [INDEX_TO_SQ[j] for j in landings[:-1]]):
                    key = _move_key(start, end, [INDEX_TO_SQ[c] for c in caps])
                    found[key] = legal[key]
            cands = list(found.values())
        else:
            cands = []
        if len(cands) == 1:
            return cands[0]
        for n in (start, end, *via):
            if not 1 <= n <= 50:
                raise IllegalMove(text, "move.not_a_square", self.legal_texts(), square=n)
        if len(cands) > 1:
            raise AmbiguousMove(text, sorted(c.full_text() for c in cands), self.legal_texts())
        is_capture_text = "x" in t.lower() or ":" in t
        code, params = self._why_illegal(start, end, via, is_capture_text)
        raise IllegalMove(text, code, self.legal_texts(), **params)

    def _quick_quiet(self, start: int, end: int) -> Move | None:
        """The quiet move start-end if it is legal, checked without generating every move;
        None when it is not (or not sure), and the full path decides."""
        entry = _QUIET_LOOKUP.get((start << 6) | end)
        if entry is None:
            return None
        wtm = self._wtm
        if wtm:
            own, opp = self._w, self._b
        else:
            own, opp = self._b, self._w
        fb = SQ_BIT[start]
        if not own & fb:
            return None
        occupied = own | opp
        white_man, black_man, king_move, between, tb = entry
        kings = self._k
        if fb & kings:
            move = king_move if not (between | tb) & occupied else None  # FMJD 3.9
        else:
            move = (white_man if wtm else black_man) if not tb & occupied else None  # 3.4
        if move is None:
            return None
        # FMJD 4.1: no quiet move while a capture is possible
        empty = ALL ^ occupied
        men = own & ~kings
        if men & (
            ((opp >> 5) & (empty >> 10))
            | ((opp >> 6) & (empty >> 12))
            | ((opp << 5) & (empty << 10))
            | ((opp << 6) & (empty << 12))
        ):
            return None
        k = own & kings
        if k and movegen.king_can_capture(k, opp, empty):
            return None
        return move

    def _why_illegal(
        self, start: int, end: int, via: list[int], is_capture_text: bool
    ) -> tuple[str, dict]:
        """Why no legal move matches: (code, params) of the reason (rules.errors.TEXTS)."""
        if self._wtm:
            own, opp = self._w, self._b
        else:
            own, opp = self._b, self._w
        side = "White" if self._wtm else "Black"
        other = "Black" if self._wtm else "White"
        fb, tb = SQ_BIT[start], SQ_BIT[end]
        legal = self._generate()
        if not legal:
            return "move.no_legal_move", {"side": side}
        if not own & fb:
            if opp & fb:
                return "move.opponents_piece", {"square": start, "owner": other, "side": side}
            return "move.no_piece", {"square": start}
        if legal[0].is_capture:
            # FMJD 4.1 and 4.13
            routes = movegen.capture_routes(own, opp, self._k, majority=False)
            best = len(legal[0].captures)
            mine = [
                r
                for r in routes
                if INDEX_TO_SQ[r[0]] == start
                and INDEX_TO_SQ[r[1][-1]] == end
                and _is_subsequence(via, [INDEX_TO_SQ[j] for j in r[1][:-1]])
            ]
            if mine:
                taken = max(len(r[2]) for r in mine)
                return "move.majority", {"required": best, "taken": taken}
            possible = [self.move_text(m) for m in legal[:5]] + (["..."] if len(legal) > 5 else [])
            if not is_capture_text:
                return "move.capture_compulsory", {"possible": possible}
            return "move.no_such_capture", {"start": start, "end": end, "possible": possible}
        if via:
            return "move.not_a_capture_position", {}
        if (own | opp) & tb:
            return "move.square_occupied", {"square": end}
        if fb & self._k:
            if not self._on_diagonal(start, end):
                return "move.king_not_diagonal", {"start": start, "end": end}
            return "move.king_blocked", {"start": start, "end": end}
        forward = end < start if self._wtm else end > start
        if not forward:
            return "move.man_backwards", {}
        return "move.man_one_square", {}

    @staticmethod
    def _on_diagonal(start: int, end: int) -> bool:
        tb = SQ_BIT[end]
        return any(tb in ray for ray in RAY_BITS[SQ_INDEX[start]])


_new_position = object.__new__


def _is_subsequence(needle: list[int], hay: list[int]) -> bool:
    it = iter(hay)
    return all(any(x == y for y in it) for x in needle)


START_FEN = Position.start().fen()
