"""Pairing algorithms, pure Python (no Django): round robin by the Berger tables
(berger.py), the FMJD-style Swiss by weighted matching inside score brackets (swiss.py, with
the colour rules in colours.py and the matching helpers in matching.py), the FIDE Dutch
system (dutch.py; its inputs from TRF files in trf_states.py), a checker for hand-made
pairings (check.py), the players' states derived from game records (history.py), and a
simulated event for tests and benchmarks (devtools/pairing_simulation.py).

PairingResult.stats (Swiss): boards, floats (pairs with unequal scores), colour_exceptions
(players given a colour against the hard rules), preferences_unmet, mode ("strict" or
"colour exceptions allowed"), merged_brackets, players, seconds. Round robin: floats 0,
colour_exceptions 0, system "round_robin".

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
from .dutch import pair_dutch
from .history import EntryInfo, build_states
from .swiss import pair_swiss
from .types import Board, PairingError, PairingResult, PlayerState

__all__ = [
    "Board",
    "EntryInfo",
    "PairingError",
    "PairingResult",
    "PlayerState",
    "berger_rounds",
    "build_states",
    "check_pairing",
    "pair_dutch",
    "pair_round_robin",
    "pair_swiss",
]
