"""The arbiter's board and round pages and the players' clock page (Django's test client).

The pages' scripts act through the JSON API with the session and the CSRF token the page
carries: one test walks that path with CSRF checks on, as a browser would.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from arbiter.games import services
from rules import START_FEN
from rules.svg import board_svg
from tests.accounts.builders import make_user

from .builders import make_event, make_game, make_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def board(arbiter_user):
    event = make_event(time_control="300", arbiter=arbiter_user, published=False)
    white_user = make_user("whiteplayer")
    game = make_game(event, board=1, white=make_player(white_user, "Sijbrands"))
    return game, white_user


def test_board_page_renders_for_an_arbiter(client, board, arbiter_user):
    game, _ = board
    client.force_login(arbiter_user)
    response = client.get(f"/games/{game.pk}/arbiter/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'data-state-url="/api/games/{game.pk}"' in html
    assert 'id="move-input"' in html and 'list="legal-moves"' in html
    assert html.count('class="piece white-man"') == 20  # the diagram of the start position
    assert html.count('class="piece black-man"') == 20
    assert "Sijbrands" in html
    assert re.search(r'<meta name="csrf-token" content="\w+">', html)
    assert "arbiter/board.js" in html and "arbiter/clock.js" in html


def test_arbiter_pages_send_anonymous_users_to_login_and_refuse_others(client, board):
    game, white_user = board
    for url in (f"/games/{game.pk}/arbiter/", f"/rounds/{game.round_id}/arbiter/"):
        anonymous = client.get(url)
        assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    client.force_login(white_user)  # a player of this very game is no arbiter
    assert client.get(f"/games/{game.pk}/arbiter/").status_code == 403
    assert client.get(f"/rounds/{game.round_id}/arbiter/").status_code == 403
    assert client.get(f"/rounds/{game.round_id}/arbiter/state.json").status_code == 403
    assert client.get("/games/999999/arbiter/").status_code == 404


def test_round_page_lists_every_board_for_an_arbiter(client, board, arbiter_user):
    game, _ = board
    second = make_game(game.round.event, board=2, round_number=1)
    client.force_login(arbiter_user)
    response = client.get(f"/rounds/{game.round_id}/arbiter/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<tr data-game="{game.pk}">' in html and f'<tr data-game="{second.pk}">' in html
    assert f'data-clock-url="/api/rounds/{game.round_id}/clock"' in html


def test_round_state_gives_each_boards_clock_at_the_servers_time(client, board, arbiter_user):
    game, _ = board
    services.start_clocks(game, by=arbiter_user, reason="round start")
    services.submit_move(game.pk, ply=1, move="32-28", request_id="r1", by=arbiter_user)
    client.force_login(arbiter_user)
    body = client.get(f"/rounds/{game.round_id}/arbiter/state.json").json()
    (row,) = body["games"]
    assert row["id"] == game.pk and row["white"] == "Sijbrands"
    assert row["last_move"] == {"ply": 1, "notation": "32-28"}
    assert row["clock"]["running"] == "black"
    assert 0 < row["clock"]["black_ms"] <= 300_000 and row["clock"]["white_ms"] <= 300_000
    assert row["white_arrived_at"] is not None  # the move was White's arrival
    assert body["round_start"] is not None  # the clocks' start is the round's start


def test_players_clock_page_follows_the_events_visibility(client, board, arbiter_user):
    game, white_user = board
    url = f"/games/{game.pk}/clock/"
    assert client.get(url).status_code == 404  # a draft event: not shown, even its id
    client.force_login(white_user)
    assert client.get(url).status_code == 404
    client.force_login(arbiter_user)
    response = client.get(url)
    assert response.status_code == 200
    assert b"data-player-clock" in response.content
    game.round.event.published = True
    game.round.event.save()
    client.logout()
    assert client.get(url).status_code == 200  # published: anyone may watch the clocks


def test_the_page_csrf_token_lets_its_scripts_start_the_clock_and_enter_a_move(board, arbiter_user):
    game, _ = board
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(arbiter_user)
    html = browser.get(f"/games/{game.pk}/arbiter/").content.decode()
    token = re.search(r'<meta name="csrf-token" content="(\w+)">', html).group(1)
    headers = {"X-CSRFToken": token}
    refused = browser.post(
        f"/api/games/{game.pk}/clock",
        {"action": "start", "reason": "round start"},
        content_type="application/json",
    )
    assert refused.status_code in (401, 403)  # no token: refused
    started = browser.post(
        f"/api/games/{game.pk}/clock",
        {"action": "start", "reason": "round start"},
        content_type="application/json",
        headers=headers,
    )
    assert started.status_code == 200, started.content
    state = browser.get(f"/api/games/{game.pk}").json()
    assert state["clock"]["running"] == "white" and "32-28" in state["legal_moves"]
    moved = browser.post(
        f"/api/games/{game.pk}/moves",
        {"ply": 1, "move": "32-28", "request_id": "page-1"},
        content_type="application/json",
        headers=headers,
    )
    assert moved.status_code == 201, moved.content
    svg = browser.get(f"/games/{game.pk}/board.svg").content.decode()
    assert svg.count('class="square last-move"') == 2  # 32 and 28 tinted
    assert 'data-square="28"><title>white man on 28' in svg


def test_board_svg_can_be_flipped(client, board, arbiter_user):
    game, _ = board
    client.force_login(arbiter_user)
    normal = client.get(f"/games/{game.pk}/board.svg")
    flipped = client.get(f"/games/{game.pk}/board.svg?flipped=1")
    assert normal["Content-Type"] == "image/svg+xml"
    assert normal.content != flipped.content


# -- the diagram (rules.svg reads the FEN; tests/rules/test_fen.py and test_svg.py) ------


def test_the_board_page_diagram_marks_the_last_move():
    svg = board_svg(START_FEN, last_move="32-28", size=480)
    assert svg.count('class="square last-move"') == 2
    assert 'class="last-move-path" points=' in svg


def test_pages_give_the_time_control_in_words_and_what_the_clocks_show_before_the_start(
    client, arbiter_user
):
    """Before the clocks are started each shows the first period's time (1:30:00 here), and
    the time control reads in words, not only as its PDN tag."""
    event = make_event(time_control="45/5400+30:1800+30", arbiter=arbiter_user, published=True)
    game = make_game(event, board=1)
    client.force_login(arbiter_user)
    words = "90 min for 45 moves + 30 s per move, then 30 min for the rest of the game"
    for url in (
        f"/games/{game.pk}/arbiter/",
        f"/rounds/{game.round_id}/arbiter/",
        f"/games/{game.pk}/clock/",
    ):
        html = client.get(url).content.decode()
        assert 'data-start-ms="5400000"' in html, url
        if "/clock/" not in url:
            assert words in html, url


def test_an_untimed_event_shows_no_start_time(client, arbiter_user):
    game = make_game(make_event(time_control="-", arbiter=arbiter_user), board=1)
    client.force_login(arbiter_user)
    html = client.get(f"/games/{game.pk}/arbiter/").content.decode()
    assert 'data-start-ms=""' in html and "no time control" in html
