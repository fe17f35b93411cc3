"""A player's card: their entries and games in the events the reader may see."""

from __future__ import annotations

from django.db.models import Q

from arbiter.events.models import Player, Round
from arbiter.events.records import scoring_of
from arbiter.events.selectors.crosstable import symbol
from arbiter.events.selectors.events import visible_events
from arbiter.events.selectors.standings import standings
from arbiter.events.tiebreaks import points
from arbiter.games.models import Game


def player_card(player: Player, *, user=None) -> dict:
    """{"player", "entries": [{event, entry, pairing_number, status, points, rank, shared_rank}],
    "games": [{event, round, board, game_id, colour, opponent, result, symbol, points}]}.

    Only events visible to `user` (public: published ones) and published rounds.
    """
    events = visible_events(user)
    entries = list(
        player.entries.filter(event__in=events)
        .select_related("event")
        .order_by("-event__start_date", "event__name")
    )
    out_entries = []
    for entry in entries:
        line = next((ln for ln in standings(entry.event) if ln.player.pk == player.pk), None)
        out_entries.append(
            {
                "event": entry.event,
                "entry": entry,
                "pairing_number": entry.pairing_number,
                "status": entry.status,
                "points": line.points if line else 0,
                "rank": line.rank if line else None,
                "shared_rank": line.shared_rank if line else "",
            }
        )
    games = (
        Game.objects.filter(
            Q(white=player) | Q(black=player), round__event__in=[e.event for e in entries]
        )
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("round__event", "white", "black")
        .order_by("round__event__name", "round__number")
    )
    out_games = []
    for g in games:
        side = "white" if g.white_id == player.pk else "black"
        scoring = scoring_of(g.round.event)
        out_games.append(
            {
                "event": g.round.event,
                "round": g.round.number,
                "board": g.board,
                "game_id": g.pk,
                "colour": None if g.black_id is None else ("W" if side == "white" else "B"),
                "opponent": g.black if side == "white" else g.white,
                "result": g.result,
                "symbol": symbol(g.result, side, scoring),
                "points": points(g.result, side, scoring) if g.result else None,
            }
        )
    return {"player": player, "entries": out_entries, "games": out_games}
