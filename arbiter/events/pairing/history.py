"""PlayerState from the game records of earlier rounds, so that every caller derives the
pairing's inputs the same way (pure: takes tiebreaks.GameRecord rows, no Django).

Per round before `next_round`, for each player:
- a game played over the board ("2-0", "1-1", "0-2"): colour "W"/"B", the opponent is met;
- a forfeit ("+/-", "-/+", "-/-"): colour "-", not met (they may be paired again, FIDE
  C.04.1 b); the winner of a forfeit counts as having had a bye (C.04.1 d);
- a pairing-allocated bye ("bye"): colour "-", had_bye, and a downfloat (as in the Dutch
  system, so that the player is not the next to float down);
- no game: colour "-" (absent, withdrawn, not yet entered).
Points use the Scoring. Floats: "down" when the player had more points than the opponent
before that round, "up" when fewer.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..tiebreaks import RESULT_POINTS, GameRecord, Scoring, points
from .types import PlayerState


@dataclass(frozen=True)
class EntryInfo:
    id: int
    pairing_number: int
    rating: int | None = None
    active: bool = True


def _games_by_round(
    games: Iterable[GameRecord], ids: set[int], next_round: int
) -> dict[int, list[GameRecord]]:
    """The games before `next_round` by round; ValueError for a player without an entry."""
    by_round: dict[int, list[GameRecord]] = {}
    for g in games:
        if g.round < next_round:
            for pid in (g.white_id, g.black_id):
                if pid is not None and pid not in ids:
                    raise ValueError(f"round {g.round}: player id {pid} has no entry")
            by_round.setdefault(g.round, []).append(g)
    return by_round


def build_states(
    entries: list[EntryInfo],
    games: Iterable[GameRecord],
    next_round: int,
    *,
    scoring: Scoring = Scoring(),  # noqa: B008 - frozen dataclass, safe as a default
    bye_requests: Iterable[int] = (),
    absent: Iterable[int] = (),
) -> list[PlayerState]:
    """The PlayerState of every entry before `next_round`. `bye_requests` and `absent` are
    entry ids for that round (absent players are left unpaired, like withdrawn ones)."""
    by_round = _games_by_round(games, {e.id for e in entries}, next_round)
    score = {e.id: 0 for e in entries}
    opponents: dict[int, list[int]] = {e.id: [] for e in entries}
    colours: dict[int, list[str]] = {e.id: [] for e in entries}
    floats: dict[int, list[str | None]] = {e.id: [] for e in entries}
    had_bye = {e.id: False for e in entries}
    paired: set[int] = set()  # in the pairing of a round so far: a game, a forfeit, the bye
    for rnd in range(1, next_round):
        before = dict(score)
        seen: set[int] = set()
        for g in by_round.get(rnd, []):
            w, b, r = g.white_id, g.black_id, g.result
            if b is None:
                seen.add(w)
                colours[w].append("-")
                if r == "bye":
                    score[w] += points(r, "white", scoring)
                    had_bye[w] = True
                    paired.add(w)
                    floats[w].append("down")
                else:
                    floats[w].append(None)
                continue
            seen.update((w, b))
            paired.update((w, b))
            for me, other in ((w, b), (b, w)):
                diff = before[me] - before[other]
                floats[me].append("down" if diff > 0 else "up" if diff < 0 else None)
            if r in ("2-0", "1-1", "0-2"):
                colours[w].append("W")
                colours[b].append("B")
                opponents[w].append(b)
                opponents[b].append(w)
                score[w] += points(r, "white", scoring)
                score[b] += points(r, "black", scoring)
                continue
            colours[w].append("-")
            colours[b].append("-")
            if r not in RESULT_POINTS or r == "bye":
                raise ValueError(f"round {rnd}: unknown result {r!r} for {w}-{b}")
            score[w] += points(r, "white", scoring)
            score[b] += points(r, "black", scoring)
            if r == "+/-":
                had_bye[w] = True
            elif r == "-/+":
                had_bye[b] = True
        for e in entries:
            if e.id not in seen:
                colours[e.id].append("-")
                floats[e.id].append(None)
    requested = set(bye_requests)
    away = set(absent)
    return [
        PlayerState(
            id=e.id,
            pairing_number=e.pairing_number,
            rating=e.rating,
            score=score[e.id],
            opponents=tuple(opponents[e.id]),
            colours=tuple(colours[e.id]),
            had_bye=had_bye[e.id],
            floats=tuple(floats[e.id]),
            active=e.active and e.id not in away,
            bye_requested=e.id in requested,
            paired_before=e.id in paired,
        )
        for e in entries
    ]
