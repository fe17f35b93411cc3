"""A round's pairings: by board, or one line per player in alphabetical order."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from arbiter.events.models import Entry, Event, Player, Round
from arbiter.events.records import event_games, is_active_in, scoring_of
from arbiter.events.tiebreaks import points
from arbiter.games.models import Game


@dataclass(frozen=True)
class BoardLine:
    board: int
    game: Game
    white: Player
    black: Player | None  # None: a bye
    white_entry: Entry
    black_entry: Entry | None
    white_points: int  # points before this round
    black_points: int | None
    result: str
    note: dict


@dataclass(frozen=True)
class PlayerLine:
    player: Player
    entry: Entry
    points: int  # before this round
    board: int | None  # None: not paired (see `reason`)
    colour: str | None  # "W", "B", or None (bye / not paired)
    opponent: Player | None
    result: str  # the game's result code ("" while unplayed)
    game: Game | None
    reason: str = ""  # why not paired: "bye requested", "absent", "withdrawn", "free round"


def points_before(event: Event, round_number: int) -> dict[int, int]:
    """Each player's points from the rounds before `round_number`."""
    scoring = scoring_of(event)
    total: dict[int, int] = defaultdict(int)
    for g in event_games(event, before_round=round_number):
        total[g.white_id] += points(g.result, "white", scoring)
        if g.black_id is not None:
            total[g.black_id] += points(g.result, "black", scoring)
    return total


def _not_paired_reason(entry: Entry, number: int) -> str:
    if entry.status == Entry.Status.WITHDRAWN and not is_active_in(entry, number):
        return "withdrawn"
    if number in (entry.requested_byes or []):
        return "bye requested"
    if number in (entry.absent_rounds or []):
        return "absent"
    if entry.event.system != Event.System.SWISS:
        return "free round"
    return "not paired (entered after the pairing)"


def round_pairings(round_: Round, *, order: str = "board") -> list[BoardLine] | list[PlayerLine]:
    """`order="board"`: one line per board. `order="alpha"`: one line per player of the
    event by surname and given name, including those not paired (with the reason)."""
    if order not in {"board", "alpha"}:
        raise ValueError(f"order must be 'board' or 'alpha', not {order!r}")
    event = round_.event
    entries = {e.player_id: e for e in event.entries.select_related("player", "event")}
    before = points_before(event, round_.number)
    games = list(round_.games.select_related("white", "black").order_by("board"))
    if order == "board":
        return [
            BoardLine(
                board=g.board,
                game=g,
                white=g.white,
                black=g.black,
                white_entry=entries.get(g.white_id),
                black_entry=entries.get(g.black_id),
                white_points=before[g.white_id],
                black_points=before[g.black_id] if g.black_id else None,
                result=g.result,
                note=g.pairing_note or {},
            )
            for g in games
        ]
    lines = []
    paired = set()
    for g in games:
        for pid, colour, opp in (
            (g.white_id, "W", g.black),
            (g.black_id, "B", g.white),
        ):
            if pid is None:
                continue
            paired.add(pid)
            entry = entries[pid]
            lines.append(
                PlayerLine(
                    player=entry.player,
                    entry=entry,
                    points=before[pid],
                    board=g.board,
                    colour=colour if g.black_id else None,
                    opponent=opp,
                    result=g.result,
                    game=g,
                )
            )
    for pid, entry in entries.items():
        if pid in paired:
            continue
        lines.append(
            PlayerLine(
                player=entry.player,
                entry=entry,
                points=before[pid],
                board=None,
                colour=None,
                opponent=None,
                result="",
                game=None,
                reason=_not_paired_reason(entry, round_.number),
            )
        )
    lines.sort(
        key=lambda ln: (ln.player.surname.casefold(), ln.player.given_name.casefold(), ln.player.pk)
    )
    return lines
