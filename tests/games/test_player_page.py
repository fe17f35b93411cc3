"""Issue 12: the player's own page (/me/): their events, their next pairing once its round is
published (a draft round's pairing never shows), their games with links to the record, the
PDN and their notation sheet, and the results to confirm; the login that takes them there,
which the organizer gives them."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from arbiter.events.models import AuditEntry, Entry, Round
from arbiter.games import confirmation_selectors as read
from arbiter.games import services
from tests.accounts.builders import make_user
from tests.games.builders import make_event, make_game, make_player

pytestmark = pytest.mark.django_db


def text(response) -> str:
    body = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", body).replace("&#x27;", "'")


@pytest.fixture
def world(db):
    arbiter = make_user("arb")
    event = make_event(time_control="-", arbiter=arbiter, name="Emmen Open", slug="emmen")
    me = make_user("halima", password="a-long-pass-123")
    player = make_player(me, surname="Okonkwo")
    first = make_player(surname="Vermeulen")
    second = make_player(surname="Sokolova")
    for n, p in enumerate([player, first, second], start=1):
        Entry.objects.create(event=event, player=p, pairing_number=n)
    played = make_game(event, white=player, black=first, board=3)
    services.set_result(played, "0-2", by=arbiter)
    draft = make_game(
        event, white=second, black=player, board=7, round_number=2, round_status="draft"
    )
    draft.round.scheduled_start = datetime(2026, 12, 12, 13, 30, tzinfo=UTC)
    draft.round.save()
    return type(
        "World",
        (),
        dict(arbiter=arbiter, event=event, me=me, player=player, played=played, draft=draft),
    )


def test_a_draft_rounds_pairing_never_shows_on_the_players_page(client, world):
    client.force_login(world.me)
    page = client.get(reverse("games:me"))
    assert page.status_code == 200
    words = text(page)
    assert "Emmen Open" in words and "Round 1 · board 3 · White against Vermeulen" in words
    assert "No game waiting for you" in words
    assert "Sokolova" not in words and "board 7" not in words and "Round 2" not in words


def test_the_next_published_pairing_shows_board_colour_opponent_and_start(client, world):
    Round.objects.filter(pk=world.draft.round_id).update(status="published")
    client.force_login(world.me)
    words = text(client.get(reverse("games:me")))
    assert "Your next game Round 2 · board 7" in words
    assert "You play Black against Sokolova" in words
    assert "Starts Saturday 12 December, 13:30 UTC" in words


def test_the_players_games_link_the_record_the_pdn_and_their_sheet(client, world):
    client.force_login(world.me)
    body = client.get(reverse("games:me")).content.decode()
    game = world.played
    assert reverse("games:game_page", args=["emmen", 1, 3]) in body
    assert reverse("games:game_pdn", args=["emmen", 1, 3]) in body
    assert reverse("games:player_sheet", args=[game.pk]) in body
    assert "submit your notation sheet" in body
    assert "0-2 (lost)" in text(client.get(reverse("games:me")))


def test_fmjd_10_2_the_player_confirms_the_result_from_their_page(client, world):
    client.force_login(world.me)
    url = reverse("games:me_confirm", args=[world.played.pk])
    assert "Confirm 0-2" in text(client.get(reverse("games:me")))
    page = client.post(url, {"result": "0-2"}, follow=True)
    assert "Board 3: 0-2, confirmed by white only." in text(page)
    assert "Confirm 0-2" not in text(page)  # confirmed: the button is gone
    # saying it was another result is a disagreement the arbiter sees
    page = client.post(url, {"result": "1-1"}, follow=True)
    assert "0-2 recorded; white says 1-1" in text(page)
    assert AuditEntry.objects.filter(action=read.CONFIRM).count() == 2


def test_a_confirmation_before_the_result_is_refused_in_words(client, world):
    Round.objects.filter(pk=world.draft.round_id).update(status="published")
    client.force_login(world.me)
    page = client.post(
        reverse("games:me_confirm", args=[world.draft.pk]), {"result": "2-0"}, follow=True
    )
    assert "Not confirmed: board 7 has no result yet" in text(page)
    assert not AuditEntry.objects.filter(action=read.CONFIRM).exists()


def test_a_login_not_linked_to_a_player_is_told_why_there_is_nothing(client, world):
    client.force_login(make_user("visitor"))
    words = text(client.get(reverse("games:me")))
    assert "is not linked to a player" in words


def test_the_page_needs_a_login(client, world):
    page = client.get(reverse("games:me"))
    assert page.status_code == 302 and "/accounts/login/" in page["Location"]


def test_a_player_lands_on_their_page_after_logging_in(client, world):
    page = client.post("/accounts/login/", {"username": "halima", "password": "a-long-pass-123"})
    assert page.status_code == 302 and page["Location"] == reverse("games:me")
    client.logout()
    make_user("olga", password="a-long-pass-123")
    page = client.post("/accounts/login/", {"username": "olga", "password": "a-long-pass-123"})
    assert page["Location"] == "/"
    page = client.post(
        "/accounts/login/?next=/events/",
        {"username": "halima", "password": "a-long-pass-123"},
    )
    assert page["Location"] == "/events/"


# ----- the organizer gives a player a login


def test_the_organizer_gives_a_player_a_login_from_the_players_page(client, world):
    org = make_user("org", organizer=True)
    world.event.organizer = org
    world.event.save()
    client.force_login(org)
    edit = reverse("events:edit_player", args=["emmen", 2])
    assert "Give Vermeulen a login" in text(client.get(edit))
    url = reverse("events:player_login", args=["emmen", 2])
    page = client.post(
        url, {"login-username": "halima", "login-password": "another-pass-456"}, follow=True
    )
    assert page.status_code == 422 and "'halima' is taken" in text(page)
    page = client.post(
        url, {"login-username": "vermeulen", "login-password": "another-pass-456"}, follow=True
    )
    assert "Login 'vermeulen' created for Vermeulen" in text(page)
    assert "logs in as vermeulen" in text(page)
    entry = Entry.objects.select_related("player__user").get(event=world.event, pairing_number=2)
    assert entry.player.user.check_password("another-pass-456")
    assert AuditEntry.objects.filter(action="player.login_created", new={"user": "vermeulen"})
    client.force_login(entry.player.user)
    assert "Round 1 · board 3 · Black against Okonkwo" in text(client.get(reverse("games:me")))


def test_an_arbiter_who_is_not_the_organizer_gives_no_login(client, world):
    client.force_login(world.arbiter)
    edit = text(client.get(reverse("events:edit_player", args=["emmen", 2])))
    assert "Give Vermeulen a login" not in edit
    page = client.post(
        reverse("events:player_login", args=["emmen", 2]),
        {"login-username": "v2", "login-password": "another-pass-456"},
    )
    assert page.status_code == 403
    assert not Entry.objects.get(event=world.event, pairing_number=2).player.user_id


def test_a_bye_in_the_published_round_is_the_next_pairing(client, world):
    bye = make_game(world.event, white=world.player, bye=True, round_number=3, board=9)
    make_game(world.event, round_number=3, board=1)  # still to be played: the round is open
    Round.objects.filter(pk=bye.round_id).update(status="published")
    services.set_result(bye, "bye", by=world.arbiter)
    client.force_login(world.me)
    words = text(client.get(reverse("games:me")))
    assert "Your next game Round 3 · board 9 You play White : a bye, no game to play." in words


def test_the_desk_says_which_players_have_a_login(client, world):
    org = make_user("org", organizer=True)
    world.event.organizer = org
    world.event.save()
    client.force_login(org)
    words = text(client.get(reverse("events:manage", args=["emmen"])))
    assert "Okonkwo edit Okonkwo · has a login" in words
    assert "Vermeulen edit Vermeulen · give a login" in words
