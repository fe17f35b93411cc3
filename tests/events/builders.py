"""Helpers that build events through the services, as an organizer and arbiters would."""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from arbiter.events import services
from arbiter.events.models import Event
from arbiter.games import services as game_services
from arbiter.games.models import Game

R = Game.Result


def make_user(username: str, *, organizer: bool = False, superuser: bool = False):
    User = get_user_model()
    if superuser:
        return User.objects.create_superuser(username=username, password="pw-" + username)
    user = User.objects.create_user(username=username, password="pw-" + username)
    if organizer:
        user.user_permissions.add(
            Permission.objects.get(codename="add_event", content_type__app_label="events")
        )
        user = User.objects.get(pk=user.pk)  # a fresh permission cache
    return user


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
