"""Crosstables: a grid for round robins, a wallchart (round by round) for Swiss events."""

from __future__ import annotations

from arbiter.events.models import Event
from arbiter.events.records import FORFEITS, event_games, scoring_of
from arbiter.events.selectors.standings import standings
from arbiter.events.tiebreaks import points
from arbiter.games.models import Game

R = Game.Result


def symbol(result: str, side: str, scoring) -> str:
    """A result as the crosstable shows it for `side`: points, '+'/'-' for forfeits, '' unplayed."""
    if not result:
        return ""
    if result == R.BYE:
        return "bye"
    if result in FORFEITS:
        return "+" if points(result, side, scoring) else "-"
    return str(points(result, side, scoring))


def _cell(g: Game, side: str, scoring) -> dict:
    return {
        "round": g.round.number,
        "board": g.board,
        "game_id": g.pk,
        "colour": "W" if side == "white" else "B",
        "result": symbol(g.result, side, scoring),
        "points": points(g.result, side, scoring) if g.result else None,
    }


def crosstable(event: Event, *, include_draft: bool = False) -> dict:
    """{"kind": "grid" | "wallchart", "rounds": n, "rows": [...]}, rows in ranking order.

    Each row: no (pairing number), player_id, name, federation, rating, rank, shared_rank,
    points, withdrawn, and either `cells` (grid: per opponent in row order, a list of games
    from this player's side, [] on the diagonal) or `results` (wallchart: per round,
    opponent_no / opponent_id / colour / result / points, or None when not paired).
    Draft rounds are left out unless include_draft.
    """
    scoring = scoring_of(event)
    table = standings(event)
    games = event_games(event, drafts=include_draft)
    number_of = {line.player.pk: line.entry.pairing_number for line in table}
    rank_of = {line.player.pk: line.rank for line in table}
    rows = [
        {
            "no": line.entry.pairing_number,
            "player_id": line.player.pk,
            "name": str(line.player),
            "federation": line.player.federation,
            "rating": line.player.rating,
            "title": line.player.title,
            "rank": line.rank,
            "shared_rank": line.shared_rank,
            "points": line.points,
            "values": line.values,
            "withdrawn": line.withdrawn,
        }
        for line in table
    ]
    rounds = event.rounds
    if event.system == Event.System.SWISS:
        by_round: dict[tuple[int, int], dict] = {}
        for g in games:
            for side, pid, opp in (
                ("white", g.white_id, g.black_id),
                ("black", g.black_id, g.white_id),
            ):
                if pid is None:
                    continue
                cell = _cell(g, side, scoring)
                cell["opponent_id"] = opp
                cell["opponent_no"] = number_of.get(opp)
                cell["opponent_rank"] = rank_of.get(opp)
                if opp is None:
                    cell["colour"] = None
                by_round[(pid, g.round.number)] = cell
        for row in rows:
            row["results"] = [by_round.get((row["player_id"], r)) for r in range(1, rounds + 1)]
        return {"kind": "wallchart", "rounds": rounds, "rows": rows}
    order = [row["player_id"] for row in rows]
    index = {pid: i for i, pid in enumerate(order)}
    for row in rows:
        row["cells"] = [[] for _ in order]
    for g in games:
        if g.black_id is None:
            continue
        w, b = index.get(g.white_id), index.get(g.black_id)
        if w is None or b is None:
            continue
        rows[w]["cells"][b].append(_cell(g, "white", scoring))
        rows[b]["cells"][w].append(_cell(g, "black", scoring))
    return {"kind": "grid", "rounds": rounds, "rows": rows}
