"""Simulated Swiss events with random results: for property tests and benchmarks.

`SwissSimulation` keeps each player's history the way the services would (points, opponents
met over the board, colours per round, byes, floats) and turns it into PlayerState rows.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from arbiter.events.pairing.history import EntryInfo
from arbiter.events.pairing.swiss import pair_swiss
from arbiter.events.pairing.types import PairingError, PairingResult, PlayerState


@dataclass
class SimPlayer:
    id: int
    pairing_number: int
    rating: int
    score: int = 0
    opponents: list[int] = field(default_factory=list)
    colours: list[str] = field(default_factory=list)
    floats: list[str | None] = field(default_factory=list)
    had_bye: bool = False
    byes: int = 0
    active: bool = True
    bye_requested: bool = False
    paired_before: bool = False  # in a round's pairing: a game, a forfeit, the bye

    def state(self) -> PlayerState:
        return PlayerState(
            id=self.id,
            pairing_number=self.pairing_number,
            rating=self.rating,
            score=self.score,
            opponents=tuple(self.opponents),
            colours=tuple(self.colours),
            had_bye=self.had_bye,
            floats=tuple(self.floats),
            active=self.active,
            bye_requested=self.bye_requested,
            paired_before=self.paired_before,
        )


class SwissSimulation:
    """Random results (a rating-based win/draw/loss), optional forfeits, withdrawals and
    requested byes; scoring 2/1/0 and 2 points for a bye or a forfeit win."""

    def __init__(
        self,
        n_players: int,
        seed: int = 0,
        *,
        forfeit_rate: float = 0.0,
        withdraw_rate: float = 0.0,
        bye_request_rate: float = 0.0,
        lot_seed: str | None = None,
    ):
        self.rng = random.Random(seed)
        ratings = sorted((self.rng.randint(1000, 2400) for _ in range(n_players)), reverse=True)
        self.players = [SimPlayer(i + 100, i + 1, r) for i, r in enumerate(ratings)]
        self.forfeit_rate = forfeit_rate
        self.withdraw_rate = withdraw_rate
        self.bye_request_rate = bye_request_rate
        self.lot_seed = lot_seed
        self.round = 0
        self.results: list[PairingResult] = []
        # (round, white_id, black_id or None, result) with tiebreaks.GameRecord's result codes
        self.games: list[tuple[int, int, int | None, str]] = []

    def states(self) -> list[PlayerState]:
        return [p.state() for p in self.players]

    def entries(self) -> list[EntryInfo]:
        return [EntryInfo(p.id, p.pairing_number, p.rating, p.active) for p in self.players]

    def prepare_round(self) -> None:
        for p in self.players:
            p.bye_requested = False
            if p.active and self.rng.random() < self.withdraw_rate:
                p.active = False
            elif p.active and self.rng.random() < self.bye_request_rate:
                p.bye_requested = True

    def pair(self) -> PairingResult:
        return pair_swiss(self.states(), self.round + 1, lot_seed=self.lot_seed)

    def play(self, result: PairingResult) -> None:
        self.round += 1
        by_id = {p.id: p for p in self.players}
        seen = set()
        for board in result.boards:
            w = by_id[board.white_id]
            seen.add(w.id)
            if board.black_id is None:
                w.colours.append("-")
                w.floats.append(board.note["white"]["float"])
                if board.note.get("bye") == "pairing":
                    w.paired_before = True
                    w.score += 2
                    w.had_bye = True
                    w.byes += 1
                    self.games.append((self.round, w.id, None, "bye"))
                continue
            b = by_id[board.black_id]
            seen.add(b.id)
            w.paired_before = b.paired_before = True
            w.floats.append(board.note["white"]["float"])
            b.floats.append(board.note["black"]["float"])
            if self.rng.random() < self.forfeit_rate:
                w.colours.append("-")
                b.colours.append("-")
                winner = self.rng.choice((w, b))
                winner.score += 2
                # FIDE C.04.1 d: a forfeit win counts like a bye for the bye rule.
                winner.had_bye = True
                self.games.append((self.round, w.id, b.id, "+/-" if winner is w else "-/+"))
                continue
            w.colours.append("W")
            b.colours.append("B")
            w.opponents.append(b.id)
            b.opponents.append(w.id)
            expected = 1 / (1 + 10 ** ((b.rating - w.rating) / 400))
            x = self.rng.random()
            if x < expected * 0.8:
                w.score += 2
                outcome = "2-0"
            elif x < expected * 0.8 + 0.2:
                w.score += 1
                b.score += 1
                outcome = "1-1"
            else:
                b.score += 2
                outcome = "0-2"
            self.games.append((self.round, w.id, b.id, outcome))
        for p in self.players:
            if p.id not in seen:
                p.colours.append("-")
                p.floats.append(None)
        self.results.append(result)

    def run(self, rounds: int) -> int:
        """Play up to `rounds` rounds; stops early when no pairing exists (small fields).
        Returns the number of rounds played."""
        for played in range(rounds):
            self.prepare_round()
            try:
                result = self.pair()
            except PairingError:
                return played
            self.play(result)
        return rounds
