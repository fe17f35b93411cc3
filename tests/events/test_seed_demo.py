import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from arbiter.events import selectors
from arbiter.events.management.commands.seed_demo import DEFAULT_PASSWORD, DEMO_SLUG
from arbiter.events.models import AuditEntry, Event, Player, Round
from arbiter.games.models import Game

pytestmark = pytest.mark.django_db


def _run(capsys) -> str:
    call_command("seed_demo")
    return capsys.readouterr().out


def test_seed_demo_builds_a_running_swiss_with_three_rounds_played_and_round_4_published(
    capsys, monkeypatch
):
    monkeypatch.delenv("DEMO_PASSWORD", raising=False)
    out = _run(capsys)
    assert DEFAULT_PASSWORD in out
    event = Event.objects.get(slug=DEMO_SLUG)
    assert (event.system, event.rounds, event.status, event.published) == (
        "swiss",
        7,
        "running",
        True,
    )
    assert event.entries.count() == 20
    assert event.organizer.username == "organizer"
    assert list(event.arbiters.values_list("username", flat=True)) == ["arbiter"]
    rounds = list(event.round_set.order_by("number"))
    assert [(r.number, r.status) for r in rounds] == [
        (1, Round.Status.FINISHED),
        (2, Round.Status.FINISHED),
        (3, Round.Status.FINISHED),
        (4, Round.Status.PUBLISHED),
    ]
    assert not Game.objects.filter(round__in=rounds[:3], result="").exists()
    assert Game.objects.filter(round=rounds[3]).count() == 10
    assert not Game.objects.filter(round=rounds[3]).exclude(result="").exists()
    results = set(Game.objects.filter(round__in=rounds[:3]).values_list("result", flat=True))
    assert len(results) >= 2  # really random results, not all the same
    for username in ("organizer", "arbiter", "player"):
        assert authenticate(username=username, password=DEFAULT_PASSWORD) is not None
    assert Player.objects.get(user__username="player").entries.filter(event=event).exists()
    standings = selectors.standings(event)
    assert sum(line.points for line in standings) == 3 * 10 * 2  # 10 games a round, 2 points each


def test_seed_demo_is_idempotent_and_reproducible(capsys):
    _run(capsys)
    event = Event.objects.get(slug=DEMO_SLUG)
    first = sorted(
        Game.objects.filter(round__event=event).values_list("round__number", "board", "result")
    )
    counts = (
        Event.objects.count(),
        Player.objects.count(),
        Game.objects.count(),
        AuditEntry.objects.count(),
    )
    assert "nothing to do" in _run(capsys)
    assert counts == (
        Event.objects.count(),
        Player.objects.count(),
        Game.objects.count(),
        AuditEntry.objects.count(),
    )
    # The same seed gives the same event on a fresh database.
    Game.objects.all().delete()
    Event.objects.all().delete()
    Player.objects.all().delete()
    _run(capsys)
    again = Event.objects.get(slug=DEMO_SLUG)
    second = sorted(
        Game.objects.filter(round__event=again).values_list("round__number", "board", "result")
    )
    assert first == second


def test_seed_demo_takes_the_password_from_the_environment(capsys, monkeypatch):
    monkeypatch.setenv("DEMO_PASSWORD", "another-secret-42")
    assert "another-secret-42" in _run(capsys)
    assert authenticate(username="arbiter", password="another-secret-42") is not None


def test_the_demo_events_page_is_the_one_printed(capsys, monkeypatch, client):
    # The run command prints this line: the path must open the event's page, not a 404.
    monkeypatch.delenv("DEMO_PASSWORD", raising=False)
    out = _run(capsys)
    path = out.split("(", 1)[1].split(")", 1)[0]
    assert path == f"/events/{DEMO_SLUG}/"
    assert client.get(path).status_code == 200
