"""Positions, moves, FEN and move notation (FMJD art. 2-4 and 8)."""

from __future__ import annotations

import re
from enum import StrEnum

from . import movegen
from .board import (
    BLACK_PROMOTION,
    INDEX_TO_SQ,
    RAY_BITS,
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
    def label(self) -> str:
        return self.value.capitalize()


class Move:
    """One move: a step, a flight or a whole capture (FMJD 4.1: a full capture is one move).

    ``path`` is the start, each landing square after a piece is taken, and the end.
    Two moves are equal when they go from the same start to the same end taking the same
    set of pieces: FMJD treats such routes as one move.
    """

    __slots__ = ("start", "end", "captures", "path", "promotes", "_key")

    def __init__(
        self,
        start: int,
        end: int,
        captures: tuple[int, ...] = (),
        path: tuple[int, ...] | None = None,
        promotes: bool = False,
    ):
        captures = tuple(captures)
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "end", end)
        object.__setattr__(self, "captures", captures)
        object.__setattr__(self, "path", tuple(path) if path else (start, end))
        object.__setattr__(self, "promotes", bool(promotes))
        object.__setattr__(self, "_key", (start, end, frozenset(captures)))

    def __setattr__(self, name, value):
        raise AttributeError("Move is immutable")

    @property
    def is_capture(self) -> bool:
        return bool(self.captures)

    def __eq__(self, other):
        if isinstance(other, Move):
            return self._key == other._key
        return NotImplemented

    def __hash__(self):
        return hash(self._key)

    def __str__(self) -> str:
        return f"{self.start}{'x' if self.captures else '-'}{self.end}"

    def full_text(self) -> str:
        """Every landing square: "47x38x24x13x36" (a quiet move stays "32-28")."""
        if not self.captures:
            return str(self)
        return "x".join(str(s) for s in self.path)

    def __repr__(self) -> str:
        return f"Move({self.full_text()!r})"


# --------------------------------------------------------------------------- FEN

_FEN_ITEM = re.compile(r"(K?)(\d+)(?:-(K?)(\d+))?$", re.IGNORECASE)


def _fen_error(fen: str, column: int | None, what: str) -> FenError:
    where = f" at column {column + 1}" if column is not None else ""
    return FenError(f"bad FEN {fen!r}{where}: {what}", fen=fen, column=column)


def parse_fen(fen: str) -> tuple[int, int, int, bool]:
    """Read a PDN FEN into (white, black, kings, white_to_move) bitboards.

    "W:W31-50:B1-20": the side to move, then the pieces of each colour in either order
    (the colour letter of each field says whose pieces they are: never swapped), squares
    or ranges, "K" for kings; an empty side ("W:W:B1"), whitespace and a trailing "." are
    tolerated, as are PDN's optional ":H<n>" / ":F<n>" counter fields (ignored).
    """
    if not isinstance(fen, str):
        raise FenError(f"a FEN must be a string, not {type(fen).__name__}")
    # Keep each significant character with its column in the original text.
    chars = [(c, i) for i, c in enumerate(fen) if not c.isspace()]
    while chars and chars[-1][0] == ".":
        chars.pop()
    if not chars:
        raise _fen_error(fen, None, "it is empty (expected e.g. 'W:W31-50:B1-20')")
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
        raise _fen_error(fen, col, "field 1 must be the side to move, 'W' or 'B'")
    white_to_move = turn_field[0][0].upper() == "W"

    boards = {"W": 0, "B": 0}
    kings = 0
    seen_colours: set[str] = set()
    for n, field in enumerate(fields[1:], start=2):
        if not field:
            col = colons[n - 1]
            raise _fen_error(fen, col, f"field {n} is empty (expected 'W' or 'B' then squares)")
        colour, col0 = field[0][0].upper(), field[0][1]
        if colour in "HF" and all(c.isdigit() for c, _ in field[1:]):
            continue  # move counters some writers append; not part of the position
        if colour not in "WB":
            raise _fen_error(
                fen,
                col0,
                f"field {n} must start with 'W' or 'B' (whose pieces), not {field[0][0]!r}",
            )
        name = "White" if colour == "W" else "Black"
        if colour in seen_colours:
            raise _fen_error(fen, col0, f"field {n} lists {name}'s pieces a second time")
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
                raise _fen_error(fen, col0, f"field {n} ({name}) has an empty item between commas")
            text = "".join(c for c, _ in item)
            col = item[0][1]
            m = _FEN_ITEM.match(text)
            if not m:
                raise _fen_error(
                    fen, col, f"{text!r} in {name}'s pieces is not a square, 'K'+square or a range"
                )
            king = bool(m.group(1)) or bool(m.group(3))
            lo = int(m.group(2))
            hi = int(m.group(4)) if m.group(4) else lo
            for sq in (lo, hi):
                if not 1 <= sq <= 50:
                    raise _fen_error(fen, col, f"{sq} in {name}'s pieces is not a square (1-50)")
            if hi < lo:
                raise _fen_error(fen, col, f"range {text!r} in {name}'s pieces runs backwards")
            for sq in range(lo, hi + 1):
                b = SQ_BIT[sq]
                if (boards["W"] | boards["B"]) & b:
                    raise _fen_error(fen, col, f"square {sq} is listed twice")
                boards[colour] |= b
                if king:
                    kings |= b
    return boards["W"], boards["B"], kings, white_to_move


def _fen_section(letter: str, pieces: int, kings: int) -> str:
    items = [("K" if SQ_BIT[s] & kings else "") + str(s) for s in squares_of(pieces)]
    return letter + ",".join(items)


# --------------------------------------------------------------------------- Position

_MOVE_TEXT = re.compile(r"^(\d+)((?:[-xX:]\d+)+)$")
_ANNOTATION = re.compile(r"[!?*+=#]+$")


class Position:
    """A position: the pieces on the 50 squares (FMJD 2.6) and the side to move.

    Immutable and hashable. Build one with `Position.start()` or `Position.from_fen()`.
    Internally four plain ints (bitboards of `rules.board`'s padded layout).
    """

    __slots__ = ("white", "black", "kings", "white_to_move", "_moves", "_routes", "_zobrist")

    def __init__(self, white: int, black: int, kings: int, white_to_move: bool = True):
        object.__setattr__(self, "white", white)
        object.__setattr__(self, "black", black)
        object.__setattr__(self, "kings", kings)
        object.__setattr__(self, "white_to_move", bool(white_to_move))
        object.__setattr__(self, "_moves", None)
        object.__setattr__(self, "_routes", None)
        object.__setattr__(self, "_zobrist", None)

    def __setattr__(self, name, value):
        raise AttributeError("Position is immutable: play() returns a new one")

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
        return ":".join(
            (
                "W" if self.white_to_move else "B",
                _fen_section("W", self.white, self.kings),
                _fen_section("B", self.black, self.kings),
            )
        )

    # ----- queries

    @property
    def turn(self) -> Color:
        return Color.WHITE if self.white_to_move else Color.BLACK

    def piece_at(self, square: int) -> str | None:
        """'w' / 'W' (white man / king), 'b' / 'B', or None for a free square."""
        b = SQ_BIT.get(square)
        if b is None:
            raise ValueError(f"{square!r} is not a square (1-50)")
        if self.white & b:
            return "W" if self.kings & b else "w"
        if self.black & b:
            return "B" if self.kings & b else "b"
        return None

    def pieces(self, color: Color) -> tuple[list[int], list[int]]:
        """(men squares, king squares) of one colour, ascending."""
        bb = self.white if color is Color.WHITE else self.black
        return squares_of(bb & ~self.kings), squares_of(bb & self.kings)

    def material(self) -> tuple[int, int, int, int]:
        """(white men, white kings, black men, black kings)."""
        w, b, k = self.white, self.black, self.kings
        return (
            (w & ~k).bit_count(),
            (w & k).bit_count(),
            (b & ~k).bit_count(),
            (b & k).bit_count(),
        )

    @property
    def zobrist(self) -> int:
        """A 64-bit Zobrist key of the pieces and the side to move (for repetition, FMJD 6.1)."""
        z = self._zobrist
        if z is None:
            z = 0 if self.white_to_move else ZOBRIST_BLACK_TO_MOVE
            for bb, table in (
                (self.white & ~self.kings, ZOBRIST_WHITE_MAN),
                (self.white & self.kings, ZOBRIST_WHITE_KING),
                (self.black & ~self.kings, ZOBRIST_BLACK_MAN),
                (self.black & self.kings, ZOBRIST_BLACK_KING),
            ):
                while bb:
                    b = bb & -bb
                    bb ^= b
                    z ^= table[b.bit_length() - 1]
            object.__setattr__(self, "_zobrist", z)
        return z

    def __hash__(self) -> int:
        return self.zobrist

    def __eq__(self, other):
        if isinstance(other, Position):
            return (
                self.white == other.white
                and self.black == other.black
                and self.kings == other.kings
                and self.white_to_move == other.white_to_move
            )
        return NotImplemented

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

    def _sides(self) -> tuple[int, int]:
        if self.white_to_move:
            return self.white, self.black
        return self.black, self.white

    def _capture_routes(self):
        routes = self._routes
        if routes is None:
            own, opp = self._sides()
            routes = movegen.capture_routes(own, opp, self.kings)
            object.__setattr__(self, "_routes", routes)
        return routes

    def _legal(self) -> dict:
        """Legal moves keyed by (start, end, frozenset of captures), computed once."""
        moves = self._moves
        if moves is not None:
            return moves
        own, opp = self._sides()
        kings = self.kings
        wtm = self.white_to_move
        promo = WHITE_PROMOTION if wtm else BLACK_PROMOTION
        moves = {}
        if movegen.has_capture(own, opp, kings):
            # FMJD 4.1 (compulsory) and 4.13 (majority); one Move per set of pieces taken.
            for start, landings, caps in sorted(self._capture_routes()):
                s = INDEX_TO_SQ[start]
                e = INDEX_TO_SQ[landings[-1]]
                cap_sq = tuple(INDEX_TO_SQ[c] for c in caps)
                key = (s, e, frozenset(cap_sq))
                if key in moves:
                    continue
                fb = 1 << start
                pr = not fb & kings and bool((1 << landings[-1]) & promo)  # FMJD 4.15
                moves[key] = Move(s, e, cap_sq, (s,) + tuple(INDEX_TO_SQ[j] for j in landings), pr)
        else:
            for fb, tb in movegen.quiet_moves(own, opp, kings, wtm):
                s = INDEX_TO_SQ[fb.bit_length() - 1]
                e = INDEX_TO_SQ[tb.bit_length() - 1]
                pr = not fb & kings and bool(tb & promo)  # FMJD 3.5
                moves[(s, e, frozenset())] = Move(s, e, (), (s, e), pr)
        moves = dict(sorted(moves.items(), key=lambda kv: (kv[1].start, kv[1].end, kv[1].path)))
        object.__setattr__(self, "_moves", moves)
        return moves

    def legal_moves(self) -> list[Move]:
        """Every legal move (FMJD art. 3 and 4), sorted by start, end and path."""
        return list(self._legal().values())

    def is_legal(self, move: Move) -> bool:
        return move._key in self._legal()

    def play(self, move: Move | str) -> Position:
        """The position after a legal move (a `Move` or its text). Raises `IllegalMove`."""
        if isinstance(move, str):
            move = self.parse_move(move)
        else:
            legal = self._legal()
            canonical = legal.get(move._key)
            if canonical is None:
                raise IllegalMove(
                    move.full_text(), "not a legal move in this position", self.legal_texts()
                )
            move = canonical
        return self._apply(move)

    def _apply(self, move: Move) -> Position:
        fb = SQ_BIT[move.start]
        tb = SQ_BIT[move.end]
        cap = 0
        for s in move.captures:
            cap |= SQ_BIT[s]
        kings = self.kings & ~cap  # FMJD 4.11: taken pieces leave after the whole capture
        if fb & kings:
            kings = (kings & ~fb) | tb
        elif move.promotes:
            kings |= tb  # FMJD 3.5 / 4.15
        if self.white_to_move:
            return Position((self.white & ~fb) | tb, self.black & ~cap, kings, False)
        return Position(self.white & ~cap, (self.black & ~fb) | tb, kings, True)

    def is_game_over(self) -> bool:
        """FMJD 7.2.2 / 7.2.3: the side to move has no piece or no legal move."""
        return not self._legal()

    # ----- notation

    def legal_texts(self) -> list[str]:
        return [self.move_text(m) for m in self.legal_moves()]

    def move_text(self, move: Move) -> str:
        """PDN notation: "32-28" / "28x17", or every landing square "47x38x24x13x36" when
        another legal capture goes from the same start to the same end (FMJD 8.2)."""
        legal = self._legal()
        move = legal.get(move._key, move)
        if move.captures:
            for other in legal.values():
                if other.start == move.start and other.end == move.end and other._key != move._key:
                    return move.full_text()
        return str(move)

    def parse_move(self, text: str) -> Move:
        """Read a move in PDN notation against this position.

        Accepts "32-28", "28x17", full paths "47x38x24x13x36" and incomplete paths whose
        squares are an ordered subsequence of a legal route's landing squares ("2x30x11").
        Spaces inside ("35x 4") and trailing annotation signs ("!", "?", FMJD 9.1) are
        tolerated. Raises `IllegalMove` (reason + legal moves) or `AmbiguousMove`.
        """
        if not isinstance(text, str):
            raise IllegalMove(repr(text), "a move must be given as text such as '32-28'")
        raw = text
        t = "".join(text.split())
        t = _ANNOTATION.sub("", t)
        m = _MOVE_TEXT.match(t)
        if not m:
            raise IllegalMove(
                raw,
                "not a move: expected squares 1-50 separated by '-' (move) or 'x' (capture), "
                "e.g. '32-28' or '28x17' (FMJD 8.2)",
                self.legal_texts(),
            )
        nums = [int(m.group(1))] + [int(x) for x in re.split(r"[-xX:]", m.group(2))[1:]]
        for n in nums:
            if not 1 <= n <= 50:
                raise IllegalMove(raw, f"{n} is not a square (1-50, FMJD 2.6)", self.legal_texts())
        start, end, via = nums[0], nums[-1], nums[1:-1]
        legal = self._legal()

        if not via:
            cands = [mv for mv in legal.values() if mv.start == start and mv.end == end]
        else:
            keys = {}
            for r_start, landings, caps in self._capture_routes() if self._has_captures() else ():
                if INDEX_TO_SQ[r_start] != start or INDEX_TO_SQ[landings[-1]] != end:
                    continue
                inner = [INDEX_TO_SQ[j] for j in landings[:-1]]
                if _is_subsequence(via, inner):
                    key = (start, end, frozenset(INDEX_TO_SQ[c] for c in caps))
                    keys[key] = legal[key]
            cands = list(keys.values())
        if len(cands) == 1:
            return cands[0]
        if len(cands) > 1:
            raise AmbiguousMove(raw, sorted(c.full_text() for c in cands), self.legal_texts())
        raise IllegalMove(
            raw,
            self._why_illegal(start, end, via, "x" in t.lower() or ":" in t),
            self.legal_texts(),
        )

    def _has_captures(self) -> bool:
        legal = self._legal()
        return bool(legal) and next(iter(legal.values())).is_capture

    def _why_illegal(self, start: int, end: int, via: list[int], is_capture_text: bool) -> str:
        """Explain, citing the article, why no legal move matches."""
        own, opp = self._sides()
        side = "White" if self.white_to_move else "Black"
        other = "Black" if self.white_to_move else "White"
        fb, tb = SQ_BIT[start], SQ_BIT[end]
        legal = list(self._legal().values())
        if not legal:
            return f"{side} has no legal move (FMJD 7.2.2/7.2.3): the game is over"
        if not own & fb:
            if opp & fb:
                return f"the piece on {start} is {other}'s and {side} is to move (FMJD 3.3)"
            return f"there is no piece on {start}"
        if legal[0].is_capture:
            # FMJD 4.1 and 4.13
            routes = movegen.capture_routes(own, opp, self.kings, majority=False)
            best = len(legal[0].captures)
            mine = [
                r
                for r in routes
                if INDEX_TO_SQ[r[0]] == start
                and INDEX_TO_SQ[r[1][-1]] == end
                and _is_subsequence(via, [INDEX_TO_SQ[j] for j in r[1][:-1]])
            ]
            if mine:
                return (
                    f"the majority rule (FMJD 4.13) requires taking {best} "
                    f"piece{'s' if best > 1 else ''}; this capture takes "
                    f"{max(len(r[2]) for r in mine)}"
                )
            possible = ", ".join(self.move_text(m) for m in legal[:5])
            if len(legal) > 5:
                possible += ", ..."
            if not is_capture_text:
                return f"capture is compulsory (FMJD 4.1): {possible} is possible"
            return (
                f"no legal capture goes from {start} to {end} this way; captures are compulsory "
                f"and the one taking the most pieces must be played (FMJD 4.1, 4.13): {possible}"
            )
        if via:
            return "this is not a capture position: a move has only a start and an end square"
        if (own | opp) & tb:
            return f"square {end} is occupied"
        if fb & self.kings:
            if not self._on_diagonal(start, end):
                return f"{start} and {end} are not on one diagonal (FMJD 3.9)"
            return f"the king's way from {start} to {end} is blocked (FMJD 3.9)"
        forward = end < start if self.white_to_move else end > start
        if not forward:
            return "a man moves forwards only (FMJD 3.4)"
        return "a man moves one square diagonally forwards (FMJD 3.4)"

    @staticmethod
    def _on_diagonal(start: int, end: int) -> bool:
        tb = SQ_BIT[end]
        return any(tb in ray for ray in RAY_BITS[SQ_INDEX[start]])


def _is_subsequence(needle: list[int], hay: list[int]) -> bool:
    it = iter(hay)
    return all(any(x == y for y in it) for x in needle)


START_FEN = Position.start().fen()
