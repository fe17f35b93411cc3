"""Small events built straight from the models for the page tests (no pairing engine).

Test modules import the fixtures by their function names (`swiss_fixture`); pytest knows
them by the names given in @pytest.fixture (`swiss`).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from arbiter.events.models import Entry, Event, Player, Round
from arbiter.games.models import Game

NAMES = [
    ("Baliakin", "Alexander", 1410),
    ("Georgiev", "Alexander", 1450),
    ("Schwarzman", "Alexei", 1420),
    ("Boomstra", "Roel", 1400),
    ("Ndjofang", "Jean Marc", 1380),
]


def make_user(username: str, **extra):
    """A user without a usable password (pages log in with force_login; no slow hashing)."""
    return get_user_model().objects.create_user(username=username, password=None, **extra)


def make_event(organizer, *, slug="open", system=Event.System.SWISS, published=True, names=NAMES):
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


def add_round(event, number, boards, *, status=Round.Status.PUBLISHED):
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


@pytest.fixture(name="organizer")
def organizer_fixture(db):
    return make_user("orga")


@pytest.fixture(name="swiss")
def swiss_fixture(organizer):
    """Five players, rounds 1-2 published with results, round 3 paired as a draft."""
    event, p = make_event(organizer)
    add_round(event, 1, [(p[0], p[3], "2-0"), (p[2], p[1], "1-1"), (p[4], None, "bye")])
    add_round(event, 2, [(p[1], p[0], "0-2"), (p[3], p[4], "+/-"), (p[2], None, "bye")])
    add_round(
        event,
        3,
        [(p[0], p[2], ""), (p[4], p[1], ""), (p[3], None, "bye")],
        status=Round.Status.DRAFT,
    )
    return event, p
