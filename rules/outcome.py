"""How a game ended, as data (FMJD art. 6 and 7), shared by the engine and the arbiter."""

from enum import StrEnum


class Termination(StrEnum):
    """Why a game ended (a code: the arbiter words it). The score is a separate fact (see `Score`)."""

    NO_PIECES = "no_pieces"  # FMJD 7.2.3
    BLOCKED = "blocked"  # FMJD 7.2.2
    RESIGNED = "resigned"  # FMJD 7.2.1
    REFUSED_RULES = "refused_rules"  # FMJD 7.2.4
    FLAG = "flag"  # time exceeded (FMJD 10, competition rules)
    AGREED_DRAW = "agreed_draw"  # FMJD 7.3.1
    DRAW_REPETITION = "draw_repetition"  # FMJD 6.1
    DRAW_25_MOVES = "draw_25_moves"  # FMJD 6.2
    DRAW_16_MOVES = "draw_16_moves"  # FMJD 6.3
    DRAW_5_MOVES = "draw_5_moves"  # FMJD 6.4
    NO_WIN_POSSIBLE = "no_win_possible"  # FMJD 7.3.3
    FORFEIT = "forfeit"  # not played: late arrival, absence
    ARBITER = "arbiter"  # an arbiter's decision
    BYE = "bye"  # no opponent this round


class Score(StrEnum):
    """The score as PDN writes it for draughts (win 2, draw 1, loss 0; FMJD 7)."""

    WHITE_WINS = "2-0"
    DRAW = "1-1"
    BLACK_WINS = "0-2"
    UNFINISHED = "*"
