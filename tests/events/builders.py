"""Builders of events for tests. `make_event` and `play_round` go through the services, as
an organizer and arbiters would; `seed_event` and `seed_round` write the rows straight (no
pairing engine) for pages that need a given history of results."""

from __future__ import annotations

import random

from arbiter.events import services
from arbiter.events.models import Entry, Event, Player, Round
from arbiter.games import services as game_services
from arbiter.games.models import Game

R = Game.Result

NAMES = [
    ("Baliakin", "Alexander", 1410),
    ("Georgiev", "Alexander", 1450),
    ("Schwarzman", "Alexei", 1420),
    ("Boomstra", "Roel", 1400),
    ("Ndjofang", "Jean Marc", 1380),
]


def make_event(org, *, arbiters=(), n_players=0, ratings=None, **fields) -> Event:
    fields.setdefault("name", "Test Open")
    fields.setdefault("system", Event.System.SWISS)
    if fields["system"] == Event.System.SWISS:
        fields.setdefault("rounds", 5)
    event = services.create_event(by=org, **fields)
    if arbiters:
        services.set_arbiters(event, list(arbiters), by=org)
    for i in range(n_players):
        rating = ratings[i] if ratings is not None else 2000 - 10 * i
        player = services.create_player(
            by=org, surname=f"Player{i + 1:02d}", given_name="Test", rating=rating
        )
        services.add_entry(event, player, by=org)
    return event


def results_for(rng: random.Random):
    def pick(game: Game) -> str:
        return rng.choice([R.WHITE_WINS, R.DRAW, R.BLACK_WINS])

    return pick


def play_round(event: Event, by, pick=None):
    """Pair, publish and finish the next round; `pick(game)` gives each result (default draws)."""
    round_ = services.pair_next_round(event, by=by)
    services.publish_round(round_, by=by)
    for game in round_.games.filter(result=""):
        game_services.set_result(game, pick(game) if pick else R.DRAW, by=by)
    round_.refresh_from_db()
    return round_


def seed_event(organizer, *, slug="open", system=Event.System.SWISS, published=True, names=NAMES):
    """A running three-round event of `names` (rows only): (event, players)."""
    event = Event.objects.create(
        name=f"Test {slug}",
        slug=slug,
        place="Emmen",
        system=system,
        rounds=3,
        published=published,
        organizer=organizer,
        status=Event.Status.RUNNING,
        tiebreaks=["solkoff", "sonneborn_berger"],
    )
    players = []
    for number, (surname, given, rating) in enumerate(names, start=1):
        player, _ = Player.objects.get_or_create(
            surname=surname, given_name=given, defaults={"rating": rating}
        )
        Entry.objects.create(event=event, player=player, pairing_number=number)
        players.append(player)
    return event, players


def seed_round(event, number, boards, *, status=Round.Status.PUBLISHED):
    """boards: [(white, black | None, result)] in board order."""
    rnd = Round.objects.create(event=event, number=number, status=status)
    for board, (white, black, result) in enumerate(boards, start=1):
        Game.objects.create(
            round=rnd,
            board=board,
            white=white,
            black=black,
            result=Game.Result.BYE if black is None else result,
            status=Game.Status.FINISHED if result else Game.Status.SCHEDULED,
        )
    return rnd
