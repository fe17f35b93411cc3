"""Standings after any round, with the event's tie-breaks and shared places."""

from __future__ import annotations

from dataclasses import dataclass, field

from arbiter.events.models import Entry, Event, Player
from arbiter.events.records import event_games, game_records, player_infos, scoring_of
from arbiter.events.tiebreaks import TIEBREAKS, StandingRow, compute_standings


@dataclass(frozen=True)
class StandingLine:
    rank: int
    shared_rank: str  # "3-4" when every tie-break is equal
    player: Player
    entry: Entry
    points: int | float
    games_played: int
    values: dict = field(default_factory=dict)  # tie-break code -> value, in the event's order
    explain: dict = field(default_factory=dict)  # tie-break code -> lines saying how
    row: StandingRow | None = None

    @property
    def withdrawn(self) -> bool:
        return self.entry.status == Entry.Status.WITHDRAWN


def tiebreak_columns(event: Event) -> list[tuple[str, str]]:
    """(code, description) of the event's tie-breaks, in order."""
    return [(code, TIEBREAKS.get(code, code)) for code in event.tiebreaks]


def standings(event: Event, *, after_round: int | None = None) -> list[StandingLine]:
    """The ranking after `after_round` (default: every result so far). Draft rounds have no
    results and are left out, for every reader."""
    entries = list(event.entries.select_related("player"))
    games = [
        g
        for g in event_games(event, drafts=False)
        if after_round is None or g.round.number <= after_round
    ]
    rows = compute_standings(
        player_infos(entries),
        game_records(games),
        tiebreaks=list(event.tiebreaks),
        scoring=scoring_of(event),
        after_round=after_round,
    )
    by_player = {e.player_id: e for e in entries}
    return [
        StandingLine(
            rank=r.rank,
            shared_rank=r.shared_rank,
            player=by_player[r.player_id].player,
            entry=by_player[r.player_id],
            points=r.points,
            games_played=r.games_played,
            values=dict(r.values),
            explain=dict(r.explain),
            row=r,
        )
        for r in rows
    ]
