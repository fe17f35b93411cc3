"""The player's own page (/me/): a logged-in player's events, their next pairing, their games
with the records and results' confirmations, and their own notation sheets.

What of a round is shown follows the one rule (events.permissions.can_view_round): a draft
round's pairing is not the player's to see before it is published, even their own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

from arbiter.events.models import Entry, Player, Round
from arbiter.events.permissions import can_view, can_view_round

from . import confirmation_selectors
from .models import Game, NotationSheet


def player_of(user) -> Player | None:
    """The Player whose login `user` is (None: not a player's login)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user=user).first()


@dataclass
class PlayerGame:
    game: Game
    side: str  # "white" or "black"
    opponent: Player | None  # None: a bye
    confirmation: dict
    sheet: NotationSheet | None = None  # the player's latest version

    @property
    def colour(self) -> str:
        return "White" if self.side == "white" else "Black"

    @property
    def outcome(self) -> str:
        """The result for the player, in words ("" while the game is played)."""
        white = {"2-0": "won", "1-1": "drawn", "0-2": "lost", "+/-": "won by forfeit"}
        white |= {"-/+": "lost by forfeit", "-/-": "lost by forfeit (both absent)", "bye": "bye"}
        flip = {"won": "lost", "lost": "won", "won by forfeit": "lost by forfeit"}
        flip["lost by forfeit"] = "won by forfeit"
        words = white.get(self.game.result, "")
        return words if self.side == "white" else flip.get(words, words)

    @property
    def my_confirmation(self) -> dict | None:
        return self.confirmation.get(self.side)

    @property
    def can_confirm(self) -> bool:
        """A finished game of two players whose result the arbiter has not accepted yet."""
        return bool(
            self.game.result and self.opponent is not None and not self.confirmation["approved"]
        )


@dataclass
class PlayerEvent:
    entry: Entry
    next_game: PlayerGame | None = None
    games: list[PlayerGame] = field(default_factory=list)


def _latest_sheets(games: list[PlayerGame]) -> dict[int, NotationSheet]:
    wanted = Q()
    for g in games:
        wanted |= Q(game_id=g.game.pk, side=g.side)
    if not games:
        return {}
    latest: dict[int, NotationSheet] = {}
    for sheet in NotationSheet.objects.filter(wanted).order_by("game_id", "version"):
        latest[sheet.game_id] = sheet
    return latest


def player_page(user) -> dict:
    """{"player", "events": [PlayerEvent]}; the events the player is entered in that they may
    see, newest first, each with the player's games of its published rounds."""
    player = player_of(user)
    if player is None:
        return {"player": None, "events": []}
    entries = [
        e
        for e in Entry.objects.filter(player=player)
        .select_related("event")
        .order_by("-event__start_date", "-event_id")
        if can_view(user, e.event)
    ]
    games = [
        g
        for g in Game.objects.filter(
            Q(white=player) | Q(black=player), round__event__in=[e.event for e in entries]
        )
        .select_related("round__event", "white", "black")
        .order_by("round__number", "board")
        if can_view_round(user, g.round)
    ]
    confirmations = confirmation_selectors.entries_by_game(games)
    mine = []
    for g in games:
        side = "white" if g.white_id == player.pk else "black"
        state = confirmation_selectors.summarize(g, confirmations.get(g.pk, []))
        mine.append(PlayerGame(g, side, g.black if side == "white" else g.white, state))
    sheets = _latest_sheets(mine)
    events = {e.event_id: PlayerEvent(e) for e in entries}
    for pg in mine:
        pg.sheet = sheets.get(pg.game.pk)
        event = events[pg.game.round.event_id]
        event.games.append(pg)
        to_play = not pg.game.result or (
            pg.opponent is None and pg.game.round.status == Round.Status.PUBLISHED
        )
        if event.next_game is None and to_play:
            event.next_game = pg  # the earliest published round still to be played (or a bye)
    return {"player": player, "events": list(events.values())}
