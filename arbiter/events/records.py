"""An event's past as the pure modules see it: scores, colours, opponents, byes, floats.

Shared by the services (pairing a round, checking a hand-made pairing) and the selectors
(standings, crosstables): the database rows become `PlayerState`, `PlayerInfo` and
`GameRecord` values, and nothing else converts them.
"""

from __future__ import annotations

from collections.abc import Iterable

from arbiter.events.models import Entry, Event, Round
from arbiter.events.pairing import EntryInfo, PlayerState, build_states
from arbiter.events.tiebreaks import GameRecord, PlayerInfo, Scoring
from arbiter.games.models import Game

R = Game.Result
#: Results of games that were really played over the board (they count for colours and
#: for "opponents met"; forfeits do not: an unplayed game is no encounter).
PLAYED = frozenset({R.WHITE_WINS, R.DRAW, R.BLACK_WINS})
FORFEITS = frozenset({R.WHITE_FORFEIT_WIN, R.BLACK_FORFEIT_WIN, R.DOUBLE_FORFEIT})
RESULT_CODES = frozenset(r.value for r in R)


def scoring_of(event: Event) -> Scoring:
    """The event's points for a win, draw, loss, bye and forfeit win (FMJD 7: 2/1/0)."""
    return Scoring(
        win=event.points_win,
        draw=event.points_draw,
        loss=event.points_loss,
        bye=event.points_bye,
        forfeit_win=event.points_forfeit_win,
    )


def event_games(
    event: Event, *, before_round: int | None = None, drafts: bool = True
) -> list[Game]:
    """The event's games (rounds < before_round when given), in round and board order;
    without the draft rounds' when `drafts` is false (what a reader who may not see them
    gets: permissions.sees_drafts)."""
    qs = Game.objects.filter(round__event=event).select_related("round")
    if before_round is not None:
        qs = qs.filter(round__number__lt=before_round)
    if not drafts:
        qs = qs.exclude(round__status=Round.Status.DRAFT)
    return list(qs.order_by("round__number", "board"))


def game_records(games: Iterable[Game]) -> list[GameRecord]:
    return [
        GameRecord(round=g.round.number, white_id=g.white_id, black_id=g.black_id, result=g.result)
        for g in games
        if g.white_id is not None
    ]


def player_infos(entries: Iterable[Entry]) -> list[PlayerInfo]:
    return [
        PlayerInfo(
            id=e.player_id,
            pairing_number=e.pairing_number,
            rating=e.player.rating,
            name=str(e.player),
        )
        for e in entries
    ]


def is_active_in(entry: Entry, round_number: int) -> bool:
    """May this entry be paired in `round_number`? Not after withdrawing, not when absent."""
    if entry.status == Entry.Status.WITHDRAWN:
        after = entry.withdrawn_after_round
        if after is None or round_number > after:
            return False
    return round_number not in (entry.absent_rounds or [])


def player_states(
    event: Event, entries: Iterable[Entry], games: Iterable[Game], round_number: int
) -> list[PlayerState]:
    """Each entry's state before `round_number`, from the games of the earlier rounds.

    The derivation itself (scores with the event's scoring, colours and opponents from
    games played over the board, byes and forfeit wins, floats) is the pairing package's
    `build_states`, so that the services and the pairing's own tests agree on it.
    """
    entries = list(entries)
    return build_states(
        [
            EntryInfo(
                id=e.player_id,
                pairing_number=e.pairing_number,
                rating=e.player.rating,
                active=is_active_in(e, round_number),
            )
            for e in entries
        ],
        [r for r in game_records(games) if r.round < round_number],
        round_number,
        scoring=scoring_of(event),
        bye_requests=[e.player_id for e in entries if round_number in (e.requested_byes or [])],
    )
