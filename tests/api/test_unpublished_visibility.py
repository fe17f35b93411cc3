"""Issue 16, security: nothing of an unpublished round or event is shown to anyone but its
organizer and arbiters, by any read path: the games API (state, arrival), the players' clock
page, the diagram, the round's pairings and exports, TRF, standings, crosstable and the
player's card. One rule decides (permissions.can_view_round); 404 for the others, so that
an id tells nothing either."""

from __future__ import annotations

import pytest
from django.db.models import Q
from django.test import Client

from arbiter.events import services
from arbiter.events.models import Round
from tests.accounts.builders import make_token, make_user
from tests.events.builders import make_event, play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    org = make_user("org", organizer=True)
    arbiter = make_user("arb")
    event = make_event(org, n_players=4, published=True, rounds=5, arbiters=[arbiter])
    play_round(event, org)
    player_user = make_user("player1")
    services.link_user(event.entries.get(pairing_number=1).player, player_user, by=org)
    return event, org, arbiter, player_user


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {make_token(user)}"
        client.force_login(user)
    return client


PUBLIC_READS = [
    "/api/events/{event}",
    "/api/events/{event}/rounds",
    "/api/events/{event}/standings",
    "/api/events/{event}/standings.json",
    "/api/events/{event}/standings.csv",
    "/api/events/{event}/crosstable",
    "/api/events/{event}/export.trf",
    "/api/players/{player}",
]


def _reads(client, event) -> dict:
    player = event.entries.get(pairing_number=1).player_id
    return {
        url: client.get(url.format(event=event.pk, player=player)).content for url in PUBLIC_READS
    }


@pytest.mark.parametrize("who", ["anonymous", "player"])
def test_a_draft_rounds_games_are_not_found_by_id_anywhere(world, who):
    event, org, arbiter, player_user = world
    draft = services.pair_next_round(event, by=org)
    # The linked player's own game: even they do not see it before it is published.
    game = draft.games.get(Q(white__user=player_user) | Q(black__user=player_user))
    client = _client(player_user if who == "player" else None)
    for url in [
        f"/api/games/{game.pk}",
        f"/api/games/{game.pk}/arrival",
        f"/games/{game.pk}/clock/",
        f"/games/{game.pk}/board.svg",
        f"/api/rounds/{draft.pk}/pairings",
        f"/api/rounds/{draft.pk}/pairings.csv",
        f"/api/rounds/{draft.pk}/pairings.json",
        f"/events/{event.slug}/rounds/{draft.number}/",
        f"/events/{event.slug}/rounds/{draft.number}/by-name/",
    ]:
        response = client.get(url)
        assert response.status_code == 404, (who, url, response.status_code)
        assert game.white.surname.encode() not in response.content


@pytest.mark.parametrize("who", ["anonymous", "player"])
def test_the_events_reads_and_exports_are_the_same_before_and_after_a_draft_pairing(world, who):
    event, org, arbiter, player_user = world
    client = _client(player_user if who == "player" else None)
    before = _reads(client, event)
    services.pair_next_round(event, by=org)
    after = _reads(client, event)
    for url in PUBLIC_READS:
        assert after[url] == before[url], (who, url)


@pytest.mark.parametrize("who", ["org", "arbiter"])
def test_the_organizer_and_arbiters_see_the_draft_everywhere(world, who):
    event, org, arbiter, player_user = world
    draft = services.pair_next_round(event, by=org)
    game = draft.games.exclude(black=None).first()
    client = _client(org if who == "org" else arbiter)
    for url in [
        f"/api/games/{game.pk}",
        f"/api/games/{game.pk}/arrival",
        f"/games/{game.pk}/clock/",
        f"/games/{game.pk}/board.svg",
        f"/api/rounds/{draft.pk}/pairings",
        f"/events/{event.slug}/rounds/{draft.number}/",
    ]:
        assert client.get(url).status_code == 200, (who, url)
    trf = client.get(f"/api/events/{event.pk}/export.trf").content.decode()
    public_trf = Client().get(f"/api/events/{event.pk}/export.trf").content.decode()
    assert trf != public_trf  # the draft's pairings are in the arbiters' TRF only
    rounds = client.get(f"/api/events/{event.pk}/rounds").json()
    assert [r["number"] for r in rounds] == [1, 2]


def test_once_published_the_round_is_public(world):
    event, org, arbiter, player_user = world
    draft = services.pair_next_round(event, by=org)
    game = draft.games.exclude(black=None).first()
    services.publish_round(draft, by=org)
    assert Round.objects.get(pk=draft.pk).status == Round.Status.PUBLISHED
    client = Client()
    for url in [f"/api/games/{game.pk}", f"/games/{game.pk}/clock/", f"/games/{game.pk}/board.svg"]:
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize("who", ["anonymous", "player"])
def test_nothing_of_an_unpublished_event_is_shown(who):
    org = make_user("org", organizer=True)
    event = make_event(org, n_players=4, published=False, rounds=5)
    play_round(event, org)
    player_user = make_user("player1")
    services.link_user(event.entries.get(pairing_number=1).player, player_user, by=org)
    game = Round.objects.get(event=event, number=1).games.first()
    client = _client(player_user if who == "player" else None)
    player = event.entries.get(pairing_number=1).player_id
    for url in [
        *(u.format(event=event.pk, player=player) for u in PUBLIC_READS if "players" not in u),
        f"/api/games/{game.pk}",
        f"/api/games/{game.pk}/arrival",
        f"/games/{game.pk}/clock/",
        f"/games/{game.pk}/board.svg",
        f"/events/{event.slug}/",
        f"/events/{event.slug}/standings/",
    ]:
        assert client.get(url).status_code == 404, (who, url)
    card = client.get(f"/api/players/{player}").json()
    assert card["entries"] == [] and card["games"] == []
