"""The arbiter's desk and the error pages: round clocks by event and round number, "in play",
the round's start, 403/404 in the site's layout, the results form's errors in one pass."""

import logging
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from arbiter.events.models import Round
from arbiter.games.models import Game
from tests.accounts.builders import make_user

pytestmark = pytest.mark.django_db


def text(response) -> str:
    body = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", body)


def test_the_desk_links_each_round_to_its_clocks_by_number_and_to_each_board(client, swiss, org):
    event, _ = swiss
    client.force_login(org)
    page = client.get(reverse("events:manage", args=[event.slug])).content.decode()
    clocks = reverse("events:round_clocks", args=[event.slug, 2])
    assert clocks == f"/events/{event.slug}/rounds/2/arbiter/"
    assert f'href="{clocks}"' in page
    game = Game.objects.get(round__event=event, round__number=2, board=1)
    assert f'href="{reverse("games:board", args=[game.pk])}"' in page
    # The draft round 3 has no clocks to run yet: no link.
    assert reverse("events:round_clocks", args=[event.slug, 3]) not in page


def test_the_round_clocks_page_shows_every_board_and_leads_back_to_the_desk(client, swiss, org):
    event, _ = swiss
    client.force_login(org)
    response = client.get(reverse("events:round_clocks", args=[event.slug, 2]))
    assert response.status_code == 200
    page = response.content.decode()
    assert f'href="{reverse("events:manage", args=[event.slug])}"' in page
    assert "Arbiter&#x27;s desk" in page or "Arbiter's desk" in page
    assert len(re.findall(r"<tr data-game=\"\d+\">", page)) == 3  # two boards and the bye
    # A round number that does not exist is a 404, not an error.
    assert client.get(reverse("events:round_clocks", args=[event.slug, 9])).status_code == 404


def test_a_round_whose_clocks_run_is_in_play_and_shows_when_it_started(client, swiss, org):
    event, _ = swiss
    rnd = event.round_set.get(number=3)
    rnd.status = Round.Status.PUBLISHED
    rnd.save()
    started = timezone.now().replace(microsecond=0)
    rnd.games.filter(board=1).update(status=Game.Status.RUNNING, started_at=started)
    page = text(client.get(reverse("events:detail", args=[event.slug])))
    local = timezone.localtime(started)
    assert re.search(rf"3 {local:%a} {local.day} {local:%b}, {local:%H:%M} In play", page), page
    assert re.search(r"2 (\w+ \d+ \w+, [\d:]+ )?Published", page)  # no clock ran: published
    client.force_login(org)
    assert "In play" in text(client.get(reverse("events:manage", args=[event.slug])))


def test_an_arbiter_of_another_event_gets_a_403_page_saying_whom_to_ask(client, swiss, caplog):
    event, _ = swiss
    event.arbiters.add(make_user("deputy"))
    client.force_login(make_user("stranger"))
    with caplog.at_level(logging.INFO):
        response = client.get(reverse("events:manage", args=[event.slug]))
    assert response.status_code == 403
    page = text(response)
    assert "You may not open this page" in page
    assert "only the arbiters and the organizer of &#x27;Test open&#x27; may use its desk" in page
    assert "stranger , who is not an arbiter of Test open" in page
    assert "Ask its organizer org to name you one of its arbiters" in page
    assert "or ask one of its arbiters: deputy" in page
    assert '<header class="site">' in response.content.decode()  # the site's layout
    refusals = [r for r in caplog.records if "403" in r.getMessage() or r.levelno >= 30]
    assert len(refusals) == 1, [r.getMessage() for r in refusals]
    assert refusals[0].exc_info is None  # one line, no traceback


def test_a_missing_page_is_a_404_in_the_sites_layout_saying_what_was_missing(client, swiss):
    event, _ = swiss
    response = client.get(reverse("events:player", args=[event.slug, 42]))
    assert response.status_code == 404
    assert "no player number 42 in" in text(response)
    assert '<header class="site">' in response.content.decode()


def test_the_results_form_reports_every_boards_errors_in_one_pass(client, swiss, org):
    """Board 1 lacks a correction's reason (the form's check), board 2 a result its
    termination cannot have (the service's): both are shown at once, and nothing is saved."""
    event, _ = swiss
    client.force_login(org)
    data = {
        "board-1-result": "1-1",  # board 1 had 0-2: a correction needs a reason
        "board-1-termination": "",
        "board-1-reason": "",
        "board-2-result": "1-1",  # board 2 had +/-
        "board-2-termination": "resigned",
        "board-2-reason": "typo",
    }
    response = client.post(reverse("events:enter_results", args=[event.slug, 2]), data)
    assert response.status_code == 200
    page = response.content.decode()
    assert "already has the result 0-2: say why it is corrected" in page
    assert "cannot score" in page
    assert "Nothing was saved: 2 board(s)" in text(response)
    results = list(
        Game.objects.filter(round__event=event, round__number=2)
        .order_by("board")
        .values_list("result", flat=True)
    )
    assert results == ["0-2", "+/-", "bye"]


def test_the_api_docs_take_swagger_from_the_project_not_a_cdn(client):
    page = client.get("/api/docs").content.decode()
    assert "cdn" not in page.lower()
    scripts = re.findall(r'src="([^"]+\.js)"', page)
    assert scripts and all(s.startswith("/static/") for s in scripts), scripts


def test_a_refused_board_page_is_one_log_line_and_a_page_saying_why(client, swiss, caplog):
    event, _ = swiss
    game = Game.objects.get(round__event=event, round__number=2, board=1)
    client.force_login(make_user("visitor"))
    with caplog.at_level(logging.INFO):
        response = client.get(reverse("games:board", args=[game.pk]))
    assert response.status_code == 403
    assert "only an arbiter of 'Test open' may open this page" in text(response).replace(
        "&#x27;", "'"
    )
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 1 and lines[0].exc_info is None, [r.getMessage() for r in lines]
