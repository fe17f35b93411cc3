"""`python manage.py seed_demo`: a demo Swiss event to look around in (fictional people).

Creates the users `organizer`, `arbiter` and `player` (password from DEMO_PASSWORD, else the
documented demo password "demo-pass-123"), an open Swiss event "Demo Open" of 7 rounds with
20 fictional players, rounds 1-3 paired and played with random results (fixed seed), and
round 4 paired and published with its games not played yet. Round 3's results are
confirmed by the players on most boards (one disputed), ready for the arbiter to accept;
`player` is the login of one of the players (their page: /me/). Does nothing when the demo
event exists already. Everything goes through the services, as an organizer would.
"""

from __future__ import annotations

import datetime as dt
import os
import random

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand
from django.db import transaction
from django.urls import reverse

from arbiter.events import services
from arbiter.events.models import Event
from arbiter.games import services as game_services
from arbiter.games.models import Game
from rules.outcome import Termination

DEMO_SLUG = "demo-open"
DEMO_NAME = "Demo Open"
DEFAULT_PASSWORD = "demo-pass-123"
SEED = 20261130
PLAYED_ROUNDS = 3

# Invented people: any likeness to real players is accidental.
PLAYERS = [
    ("Vermeulen", "Aart", "NED"),
    ("Kowalczyk", "Bartosz", "POL"),
    ("Diallo", "Cheikh", "SEN"),
    ("Moreau", "Delphine", "FRA"),
    ("Ivanenko", "Egor", "UKR"),
    ("Baptiste", "Fabrice", "HAI"),
    ("Jansma", "Gerrit", "NED"),
    ("Okonkwo", "Halima", "NGR"),
    ("Petrauskas", "Ignas", "LTU"),
    ("Lemaire", "Juliette", "BEL"),
    ("Sokolova", "Ksenia", "RUS"),
    ("Traore", "Lassina", "MLI"),
    ("van Dijkhuis", "Maarten", "NED"),
    ("Nkemelu", "Ngozi", "CMR"),
    ("Oliveira", "Otavio", "BRA"),
    ("Pelletier", "Quentin", "CAN"),
    ("Rahimov", "Rustam", "UZB"),
    ("Szabo", "Sara", "HUN"),
    ("Tamboura", "Tidiane", "BUR"),
    ("Visser", "Ulla", "NED"),
]
TITLES = ["GMI", "MI", "MF", "", "", ""]


class Command(BaseCommand):
    help = "Create a demo Swiss event with users organizer/arbiter/player (idempotent)."

    def handle(self, *args, **options):
        if Event.objects.filter(slug=DEMO_SLUG).exists():
            self.stdout.write(f"seed_demo: the demo event '{DEMO_SLUG}' exists; nothing to do.")
            return
        password = os.environ.get("DEMO_PASSWORD") or DEFAULT_PASSWORD
        with transaction.atomic():
            event = seed(password)
        self.stdout.write(
            f"seed_demo: created '{event.name}' ({reverse('events:detail', args=[event.slug])}), rounds 1-{PLAYED_ROUNDS} played, "
            f"round {PLAYED_ROUNDS + 1} published.\n"
            f"Logins: organizer, arbiter, player (a player: /me/); password: {password}"
        )


def _user(username: str, password: str, **extra):
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    if user is None:
        user = User.objects.create_user(username=username, password=password, **extra)
    return user


def _random_result(rng: random.Random, white, black) -> tuple[str, str]:
    """A plausible result: the higher rated wins more often; draughts has many draws."""
    diff = ((white.rating or 1200) - (black.rating or 1200)) / 400
    p_white = 1 / (1 + 10 ** (-diff))
    draw = 0.4
    x = rng.random()
    if x < draw:
        return Game.Result.DRAW, rng.choice([Termination.AGREED_DRAW, Termination.DRAW_REPETITION])
    win_term = rng.choice(
        [Termination.RESIGNED, Termination.RESIGNED, Termination.BLOCKED, Termination.FLAG]
    )
    if rng.random() < p_white:
        return Game.Result.WHITE_WINS, win_term
    return Game.Result.BLACK_WINS, win_term


def seed(password: str) -> Event:
    rng = random.Random(SEED)
    organizer = _user("organizer", password, first_name="Olga", last_name="Organizer")
    organizer.user_permissions.add(
        Permission.objects.get(codename="add_event", content_type__app_label="events")
    )
    organizer = get_user_model().objects.get(pk=organizer.pk)  # fresh permission cache
    arbiter = _user("arbiter", password, first_name="Arno", last_name="Arbiter")
    player_user = _user("player", password)
    today = dt.date.today()
    event = services.create_event(
        by=organizer,
        name=DEMO_NAME,
        system=Event.System.SWISS,
        rounds=7,
        time_control="45/5400+30:1800+30",
        tiebreaks=["solkoff_cut1", "solkoff", "sonneborn_berger", "wins"],
        place="Demo Hall",
        start_date=today - dt.timedelta(days=PLAYED_ROUNDS),
        end_date=today + dt.timedelta(days=7 - PLAYED_ROUNDS),
        status=Event.Status.REGISTRATION,
        published=True,
    )
    event.slug = DEMO_SLUG  # a stable address for the demo
    event.save(update_fields=["slug"])
    services.set_arbiters(event, [arbiter], by=organizer, chief=arbiter)
    players = []
    for i, (surname, given, fed) in enumerate(PLAYERS):
        players.append(
            services.create_player(
                by=organizer,
                surname=surname,
                given_name=given,
                federation=fed,
                rating=rng.randrange(1500, 2450, 5),
                title=rng.choice(TITLES) if i < 10 else "",
                club=f"Demo Club {i % 5 + 1}",
            )
        )
        services.add_entry(event, players[-1], by=organizer)
    services.link_user(players[7], player_user, by=organizer)
    for number in range(1, PLAYED_ROUNDS + 2):
        round_ = services.pair_next_round(event, by=arbiter)
        services.publish_round(round_, by=arbiter)
        if number > PLAYED_ROUNDS:
            break
        for game in round_.games.select_related("white", "black").filter(result=""):
            result, termination = _random_result(rng, game.white, game.black)
            game_services.set_result(game, result, termination=termination, by=arbiter)
    _confirm_demo_results(event, arbiter, player_user)
    event.refresh_from_db()
    return event


def _confirm_demo_results(event: Event, arbiter, player_user) -> None:
    """The last played round's results as the boards' tablets confirmed them (entered for
    each side, as a board's device does): most agreed by both, one confirmed by one side,
    one disputed; the demo player's own game waits for their confirmation on /me/."""
    from arbiter.games.services.confirmation import confirm_result

    games = Game.objects.filter(round__event=event, round__number=PLAYED_ROUNDS).exclude(black=None)
    for game in games.select_related("white", "black").order_by("board"):
        if player_user.pk in (game.white.user_id, game.black.user_id):
            side = "black" if game.white.user_id == player_user.pk else "white"
            confirm_result(game.pk, by=arbiter, result=game.result, side=side)
            continue
        confirm_result(game.pk, by=arbiter, result=game.result, side="white")
        if game.board == 2:
            continue  # Black has not confirmed yet
        other = "1-1" if game.result != "1-1" else "2-0"
        said = other if game.board == 3 else game.result  # board 3: Black disagrees
        confirm_result(game.pk, by=arbiter, result=said, side="black")
