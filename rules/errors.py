"""Errors raised by the rules engine: all are `ValueError`s carrying what, where and why."""


class RulesError(ValueError):
    """Base class for bad input to the rules engine."""


class FenError(RulesError):
    """A FEN string that cannot be read. The message names the field and column."""

    def __init__(self, message: str, *, fen: str = "", column: int | None = None):
        super().__init__(message)
        self.fen = fen
        self.column = column


class IllegalMove(RulesError):
    """A move that is not legal in the position.

    ``reason`` says why (citing the FMJD article), ``move_text`` is the text as given and
    ``legal`` lists the legal moves in PDN notation.
    """

    def __init__(self, move_text: str, reason: str, legal: list[str] | None = None):
        self.move_text = move_text
        self.reason = reason
        self.legal = list(legal or [])
        super().__init__(f"illegal move {move_text!r}: {reason}")


class AmbiguousMove(IllegalMove):
    """A short capture that matches two different moves (same start and end, different pieces
    taken). ``candidates`` are the full-path notations of the matching moves."""

    def __init__(self, move_text: str, candidates: list[str], legal: list[str] | None = None):
        self.candidates = list(candidates)
        reason = (
            f"ambiguous: {len(candidates)} different captures match; "
            f"write every landing square: {', '.join(candidates)}"
        )
        super().__init__(move_text, reason, legal)
