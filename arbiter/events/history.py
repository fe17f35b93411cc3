"""An event's past as the pure modules see it: scores, colours, opponents, byes, floats.

Shared by the services (pairing a round, checking a hand-made pairing) and the selectors
(standings, crosstables): the database rows become `PlayerState`, `PlayerInfo` and
`GameRecord` values, and nothing else converts them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from arbiter.events.models import Entry, Event
from arbiter.events.pairing import PlayerState
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


def points(result: str, side: str, scoring: Scoring) -> int:
    """Points that `side` ("white" or "black") scores with `result`; 0 while unplayed.

    A forfeit loser scores nothing (not even `loss` points): the game was not played.
    """
    white = side == "white"
    if result == R.WHITE_WINS:
        return scoring.win if white else scoring.loss
    if result == R.BLACK_WINS:
        return scoring.loss if white else scoring.win
    if result == R.DRAW:
        return scoring.draw
    if result == R.WHITE_FORFEIT_WIN:
        return scoring.forfeit_win if white else 0
    if result == R.BLACK_FORFEIT_WIN:
        return 0 if white else scoring.forfeit_win
    if result == R.BYE:
        return scoring.bye if white else 0
    return 0


def event_games(event: Event, *, before_round: int | None = None) -> list[Game]:
    """The event's games (rounds < before_round when given), in round and board order."""
    qs = Game.objects.filter(round__event=event).select_related("round")
    if before_round is not None:
        qs = qs.filter(round__number__lt=before_round)
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
    """Each entry's state before `round_number`, from the games of the earlier rounds."""
    scoring = scoring_of(event)
    score: dict[int, int] = defaultdict(int)
    met: dict[int, list[int]] = defaultdict(list)
    colour: dict[int, dict[int, str]] = defaultdict(dict)
    floats: dict[int, dict[int, str | None]] = defaultdict(dict)
    had_bye: set[int] = set()
    for g in games:
        rnd = g.round.number
        if rnd >= round_number:
            continue
        for side, pid, opp in (
            ("white", g.white_id, g.black_id),
            ("black", g.black_id, g.white_id),
        ):
            if pid is None:
                continue
            score[pid] += points(g.result, side, scoring)
            note = (g.pairing_note or {}).get(side) or {}
            floats[pid][rnd] = note.get("float")
            if g.result in PLAYED:
                met[pid].append(opp)
                colour[pid][rnd] = "W" if side == "white" else "B"
        # A pairing-allocated bye; and, as FIDE C.04.1.d, a win without playing (the opponent
        # did not come) also counts as the player's "free point": no pairing bye after it.
        if g.result in (R.BYE, R.WHITE_FORFEIT_WIN):
            had_bye.add(g.white_id)
        elif g.result == R.BLACK_FORFEIT_WIN:
            had_bye.add(g.black_id)
    states = []
    for e in entries:
        pid = e.player_id
        states.append(
            PlayerState(
                id=pid,
                pairing_number=e.pairing_number,
                rating=e.player.rating,
                score=score[pid],
                opponents=tuple(met[pid]),
                colours=tuple(colour[pid].get(r, "-") for r in range(1, round_number)),
                had_bye=pid in had_bye,
                floats=tuple(floats[pid].get(r) for r in range(1, round_number)),
                active=is_active_in(e, round_number),
                bye_requested=round_number in (e.requested_byes or []),
            )
        )
    return states
