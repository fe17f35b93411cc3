"""Errors raised by the rules engine: all are `ValueError`s carrying what, where and why.

Each error carries a stable `code` and its `params` (the squares, the counts, the article):
that is what a program reads, and what the arbiter words for its users (arbiter/messages.py).
`str(error)` is this library's own English, from the one table below, for the command line
and for programs that use the library on its own.
"""

from __future__ import annotations

from typing import Any

#: code -> the library's English template (str.format with the error's params).
TEXTS: dict[str, str] = {
    # Why a move is refused (IllegalMove.code / .params).
    "move.not_legal": "not a legal move in this position",
    "move.not_text": "a move must be given as text such as '32-28'",
    "move.bad_notation": (
        "not a move: expected squares 1-50 separated by '-' (move) or 'x' (capture), "
        "e.g. '32-28' or '28x17' (FMJD 8.2)"
    ),
    "move.not_a_square": "{square} is not a square (1-50, FMJD 2.6)",
    "move.no_legal_move": "{side} has no legal move (FMJD 7.2.2/7.2.3): the game is over",
    "move.opponents_piece": "the piece on {square} is {owner}'s and {side} is to move (FMJD 3.3)",
    "move.no_piece": "there is no piece on {square}",
    "move.majority": (
        "the majority rule (FMJD 4.13) requires taking {required} pieces; "
        "this capture takes {taken}"
    ),
    "move.capture_compulsory": "capture is compulsory (FMJD 4.1): {possible} is possible",
    "move.no_such_capture": (
        "no legal capture goes from {start} to {end} this way; captures are compulsory and "
        "the one taking the most pieces must be played (FMJD 4.1, 4.13): {possible}"
    ),
    "move.not_a_capture_position": (
        "this is not a capture position: a move has only a start and an end square"
    ),
    "move.square_occupied": "square {square} is occupied",
    "move.king_not_diagonal": "{start} and {end} are not on one diagonal (FMJD 3.9)",
    "move.king_blocked": "the king's way from {start} to {end} is blocked (FMJD 3.9)",
    "move.man_backwards": "a man moves forwards only (FMJD 3.4)",
    "move.man_one_square": "a man moves one square diagonally forwards (FMJD 3.4)",
    "move.ambiguous": (
        "ambiguous: {count} different captures match; write every landing square: {candidates}"
    ),
    # What is wrong with a FEN (FenError.code / .params; the column is FenError.column).
    "fen.not_text": "a FEN must be a string, not {type}",
    "fen.empty": "it is empty (expected e.g. 'W:W31-50:B1-20')",
    "fen.bad_turn": "field 1 must be the side to move, 'W' or 'B'",
    "fen.no_pieces_field": "no pieces field after the side to move (e.g. 'W:W31-50:B1-20')",
    "fen.empty_field": "field {field} is empty (expected 'W' or 'B' then squares)",
    "fen.bad_colour": "field {field} must start with 'W' or 'B' (whose pieces), not {letter!r}",
    "fen.colour_twice": "field {field} lists {colour}'s pieces a second time",
    "fen.empty_item": "field {field} ({colour}) has an empty item between commas",
    "fen.bad_item": "{item!r} in {colour}'s pieces is not a square, 'K'+square or a range",
    "fen.not_a_square": "{square} in {colour}'s pieces is not a square (1-50)",
    "fen.range_backwards": "range {item!r} in {colour}'s pieces runs backwards",
    "fen.square_both_colours": "square {square} is listed twice, for White and for Black",
    "fen.square_twice": "square {square} is listed twice in {colour}'s pieces",
    # A game record that cannot be restored or taken back (RulesError).
    "game.nothing_to_take_back": "no move to take back",
    "state.bad_version": "unknown rules state version {version!r}",
    "state.history_mismatch": "rules state: the history must end with the current position",
    "state.move_count": "rules state: {count} moves listed for ply {ply}",
    "state.bad_endgame_rule": "rules state: unknown endgame rule {rule!r}",
    "state.bad_counters": "rules state: the counters do not match the position",
    "state.unreadable": "bad rules state: {error}",
    "state.moves_mismatch": "rules state: the move list does not lead to the stored position",
}

#: Every code the rules engine gives (the arbiter words each one).
CODES = frozenset(TEXTS)


def text(code: str, params: dict[str, Any]) -> str:
    """This library's English for `code` with `params` (lists are joined with ', ')."""
    shown = {
        k: ", ".join(map(str, v)) if isinstance(v, list | tuple) else v for k, v in params.items()
    }
    return TEXTS[code].format(**shown)


class RulesError(ValueError):
    """Base class for bad input to the rules engine: `code` and `params` say what is wrong."""

    def __init__(self, code: str, /, **params: Any):
        self.code = code
        self.params = params
        super().__init__(text(code, params))


class FenError(RulesError):
    """A FEN string that cannot be read; `column` (0-based) says where, when known."""

    def __init__(self, code: str, /, *, fen: str = "", column: int | None = None, **params: Any):
        self.fen = fen
        self.column = column
        super().__init__(code, **params)
        where = f" at column {column + 1}" if column is not None else ""
        self.args = (f"bad FEN {fen!r}{where}: {self.args[0]}" if fen else self.args[0],)


class IllegalMove(RulesError):
    """A move that is not legal in the position.

    ``code`` and ``params`` say why (the reason's text cites the FMJD article), ``reason`` is
    that text, ``move_text`` the move as given and ``legal`` the legal moves in PDN notation.
    """

    def __init__(self, move_text: str, code: str, legal: list[str] | None = None, **params):
        self.move_text = move_text
        self.legal = list(legal or [])
        super().__init__(code, **params)
        self.reason = self.args[0]
        self.args = (f"illegal move {move_text!r}: {self.reason}",)


class AmbiguousMove(IllegalMove):
    """A short capture that matches two different moves (same start and end, different pieces
    taken). ``candidates`` are the full-path notations of the matching moves."""

    def __init__(self, move_text: str, candidates: list[str], legal: list[str] | None = None):
        self.candidates = list(candidates)
        super().__init__(
            move_text,
            "move.ambiguous",
            legal,
            count=len(self.candidates),
            candidates=list(self.candidates),
        )
