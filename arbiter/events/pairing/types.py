"""The data the pairing algorithms take and give: plain frozen dataclasses, no Django."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class PairingError(ValueError):
    """No pairing satisfies the absolute rules (for example every remaining pair has met)."""


@dataclass(frozen=True)
class PlayerState:
    """One entry as the pairing sees it before a round.

    `score` is in the event's points (2 for a win, 1 for a draw by default).
    `opponents` holds the ids met over the board: a forfeited (unplayed) game does not count,
    so the two may still be paired. `colours` has one letter per round so far: "W", "B", or
    "-" for a round not played (bye, forfeit, absence). `had_bye` is True once the player got
    a pairing-allocated bye (or points without playing, which counts the same way).
    `floats` is per round "up", "down" or None. `paired_before`: the player was in the pairing
    of an earlier round (a game, a forfeit or a pairing-allocated bye): the Dutch colours by
    rank count him (C.04.3 5.2.5, as bbpPairings does) even when he is away now.
    """

    id: int
    pairing_number: int
    rating: int | None = None
    score: int = 0
    opponents: tuple[int, ...] = ()
    colours: tuple[str, ...] = ()
    had_bye: bool = False
    floats: tuple[str | None, ...] = ()
    active: bool = True
    bye_requested: bool = False
    paired_before: bool = False


@dataclass(frozen=True)
class Board:
    """One pairing: `black_id` None means a bye. `note` says why (see the package docstring)."""

    number: int
    white_id: int
    black_id: int | None
    note: dict[str, Any] = field(default_factory=dict)


@dataclass
class PairingResult:
    boards: list[Board]
    warnings: list[str] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
