"""The FMJD rules of international draughts (10x10), in pure Python.

This package imports nothing from Django, Celery, `clocks` or `arbiter` (a test proves it):
it is the engine that every move, claim and notation sheet is checked against.
"""

from .claims import ClaimCheck, DrawRuleState
from .errors import AmbiguousMove, FenError, IllegalMove, RulesError
from .game import Game, Outcome, Setup, endgame_rule
from .outcome import Score, Termination
from .perft import perft
from .position import START_FEN, Color, Move, Position

__all__ = [
    "START_FEN",
    "AmbiguousMove",
    "ClaimCheck",
    "Color",
    "DrawRuleState",
    "FenError",
    "Game",
    "IllegalMove",
    "Move",
    "Outcome",
    "Position",
    "RulesError",
    "Score",
    "Setup",
    "Termination",
    "endgame_rule",
    "perft",
]
