"""Pairing algorithms, pure Python (no Django): round robin by the Berger tables, Swiss by
weighted matching inside score brackets, and a checker for hand-made pairings.

Board.note, for every board:
    {"white": {"score", "group", "float": "up"|"down"|None, "colour_preference": "W"|"B"|None,
               "preference_met", "pairing_number"},
     "black": {...} or None for a bye,
     "reason": a sentence, e.g. "Score group 4: no. 7 (6) floats down to meet no. 12 (4).
               Colours: no. 7 had a strong preference for white, got it; ...",
     "bye": "pairing" | "requested" (byes only), "colour_exception": True (when one)}
"""

from .berger import berger_rounds, pair_round_robin
from .check import check_pairing
from .swiss import pair_swiss
from .types import Board, PairingError, PairingResult, PlayerState

__all__ = [
    "Board",
    "PairingError",
    "PairingResult",
    "PlayerState",
    "berger_rounds",
    "check_pairing",
    "pair_round_robin",
    "pair_swiss",
]
