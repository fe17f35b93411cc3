"""The board pages in a real (headless) Chromium against a live server.

Skipped where no Chromium is installed. Set ARBITER_SCREENSHOT_DIR to keep the screenshots
(board page with a running clock, the players' clock page) for a look.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from django.utils import timezone

from arbiter.events.models import Round
from arbiter.games import selectors, services
from arbiter.games.models import Game
from arbiter.games.services import results
from arbiter.runtime.localservices import free_port
from tests.accounts.builders import make_user

from ..games.builders import make_event, make_game, make_player
from .cdp import Browser, find_chromium

CHROMIUM = find_chromium()
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt install chromium)"),
]


def seconds(text: str) -> float:
    """'1:29:57' / '4:05' / '0:09.4' -> seconds."""
    total = 0.0
    for part in text.split(":"):
        total = total * 60 + float(part)
    return total


@pytest.fixture
def running_game(transactional_db):
    arbiter = make_user("chief")
    event = make_event(time_control="5400+30", arbiter=arbiter, published=True)
    event.name = "Dutch Open 2026"
    event.save()
    game = make_game(
        event,
        board=3,
        white=make_player(surname="Roel Boomstra"),
        black=make_player(surname="Alexander Schwarzman"),
    )
    Round.objects.filter(pk=game.round_id).update(
        status=Round.Status.PUBLISHED, scheduled_start=timezone.now()
    )
    services.start_clocks(game, by=arbiter, reason="round 1 starts")
    for ply, move in enumerate(["32-28", "19-23", "28x19", "14x23", "37-32"], start=1):
        services.submit_move(game.pk, ply=ply, move=move, request_id=f"seed-{ply}", by=arbiter)
    return game, arbiter


def login(browser: Browser, live_server, client, user) -> None:
    client.force_login(user)
    browser.call(
        "Network.setCookie",
        name="sessionid",
        value=client.cookies["sessionid"].value,
        url=live_server.url,
    )


def test_board_page_shows_the_position_and_blacks_clock_running(
    browser, live_server, client, running_game, shots
):
    game, arbiter = running_game
    login(browser, live_server, client, arbiter)
    browser.open(f"{live_server.url}/games/{game.pk}/arbiter/")
    browser.wait_for("document.getElementById('black-time').textContent.includes(':')")
    browser.wait_for("document.querySelectorAll('#move-list tr').length === 3")
    first = browser.js("document.getElementById('black-time').textContent")
    white = browser.js("document.getElementById('white-time').textContent")
    time.sleep(2.5)
    later = browser.js("document.getElementById('black-time').textContent")
    # Black is to move after 37-32: Black's clock counts down, White's stands still.
    assert 1.5 <= seconds(first) - seconds(later) <= 4.5, (first, later)
    assert browser.js("document.getElementById('white-time').textContent") == white
    assert browser.js(
        "document.querySelector('.clock-face[data-side=\"black\"]').classList.contains('running')"
    )
    moves = browser.js("document.getElementById('move-list').innerText")
    assert re.search(r"1\s+32-28.*19-23", moves) and "37-32" in moves
    assert browser.js("document.querySelectorAll('#legal-moves option').length") > 0
    browser.screenshot(shots / "board_page_running_clock.png")

    # An illegal move: the page says why and lists the legal moves, the game is unchanged.
    browser.js(
        "document.getElementById('move-input').value = '19-24';"
        "document.getElementById('move-form').requestSubmit(); true"
    )
    browser.wait_for("!document.getElementById('message').hidden")
    message = browser.js("document.getElementById('message').innerText")
    assert "Legal moves" in message and re.search(r"\d+-\d+", message), message
    browser.screenshot(shots / "board_page_illegal_move.png")
    game.refresh_from_db()
    assert game.ply == 5

    # A legal move entered in the box goes through the API and the clocks swap.
    legal = browser.js("document.querySelector('#legal-moves option').value")
    browser.js(
        f"document.getElementById('move-input').value = '{legal}';"
        "document.getElementById('move-form').requestSubmit(); true"
    )
    browser.wait_for(
        "document.querySelector('.clock-face[data-side=\"white\"]').classList.contains('running')"
    )
    game.refresh_from_db()
    assert game.ply == 6
    # The answer carries the new move only: the page appends it to the moves it showed.
    browser.wait_for(f"document.getElementById('move-list').innerText.includes('{legal}')")
    moves = browser.js("document.getElementById('move-list').innerText")
    assert re.search(r"1\s+32-28.*19-23", moves) and "37-32" in moves, moves


def test_before_the_start_clocks_show_the_first_periods_time_and_the_log_the_start(
    browser, live_server, client, transactional_db, shots
):
    arbiter = make_user("deputy")
    event = make_event(time_control="45/5400+30:1800+30", arbiter=arbiter, published=True)
    game = make_game(event, board=1)
    Round.objects.filter(pk=game.round_id).update(status=Round.Status.PUBLISHED)
    login(browser, live_server, client, arbiter)
    browser.open(f"{live_server.url}/rounds/{game.round_id}/arbiter/")
    browser.wait_for("document.querySelector('[data-clock=\"white\"]').textContent === '1:30:00'")
    browser.open(f"{live_server.url}/games/{game.pk}/arbiter/")
    browser.wait_for("document.getElementById('white-time').textContent.includes(':')")
    assert browser.js("document.getElementById('white-time').textContent") == "1:30:00"
    assert browser.js("document.getElementById('black-time').textContent") == "1:30:00"
    note = browser.js("document.getElementById('clock-note').textContent")
    assert note.startswith("Clock not started · 90 min for 45 moves"), note
    # Start from the page, with a reason: the clock's log shows who started it and why.
    browser.js(
        "document.getElementById('reason').value = 'round 4 starts';"
        "document.querySelector('[data-action=\"start\"]').click(); true"
    )
    browser.js("document.querySelector('#clock-log-box summary').click(); true")  # unfold it
    browser.wait_for("document.getElementById('clock-log').innerText.includes('round 4 starts')")
    row = browser.js("document.getElementById('clock-log').rows[0].innerText")
    assert "Start" in row and "deputy" in row and "1:30:00" in row, row
    browser.screenshot(shots / "board_page_clock_log.png")


def test_a_move_entered_by_tapping_the_piece_then_its_square(
    browser, live_server, client, running_game, shots
):
    """After 37-32 Black is to move: tapping 17 shows its two squares (21, 22), tapping 21 puts
    17-21 in the move box, and Enter move plays it; nothing is played before that."""
    game, arbiter = running_game
    login(browser, live_server, client, arbiter)
    browser.open(f"{live_server.url}/games/{game.pk}/arbiter/")
    browser.wait_for("document.querySelectorAll('#legal-moves option').length > 0")

    def tap(square):
        browser.js(
            f"document.querySelector('#diagram [data-square=\"{square}\"]')"
            ".dispatchEvent(new MouseEvent('click', {bubbles: true})); true"
        )

    tap(2)  # no legal move starts there: nothing is picked
    assert browser.js("document.querySelectorAll('#diagram rect.picked').length") == 0
    tap(17)
    assert browser.js("document.querySelector('#diagram rect.picked').dataset.square") == "17"
    targets = "[...document.querySelectorAll('#diagram rect.target')].map(r => r.dataset.square)"
    assert sorted(browser.js(targets)) == ["21", "22"]
    browser.screenshot(shots / "board_page_piece_picked.png")
    # A new diagram (here: flipped) keeps the picked piece and its squares marked.
    first_square = "document.querySelector('#diagram rect.square').getAttribute('x')"
    x_before = browser.js(first_square)
    browser.js("document.getElementById('flip').click(); true")
    browser.wait_for(f"{first_square} !== '{x_before}'")
    assert browser.js("document.querySelector('#diagram rect.picked').dataset.square") == "17"
    assert sorted(browser.js(targets)) == ["21", "22"]
    tap(17)  # a second tap lets go of the piece
    assert (
        browser.js("document.querySelectorAll('#diagram rect.picked, #diagram rect.target').length")
        == 0
    )
    tap(17)
    tap(21)
    assert browser.js("document.getElementById('move-input').value") == "17-21"
    game.refresh_from_db()
    assert game.ply == 5  # not played until confirmed
    browser.js("document.getElementById('enter-move').click(); true")
    browser.wait_for("document.getElementById('move-list').innerText.includes('17-21')")
    game.refresh_from_db()
    assert game.ply == 6


def test_starting_a_whole_round_asks_first_and_says_what_it_did(
    browser, live_server, client, transactional_db
):
    arbiter = make_user("chief-arbiter")
    event = make_event(time_control="5400+30", arbiter=arbiter, published=True)
    games = [make_game(event, board=n) for n in (1, 2, 3)]
    Round.objects.filter(pk=games[0].round_id).update(status=Round.Status.PUBLISHED)
    results.set_result(games[2], "1-1", by=arbiter)  # decided before the start
    login(browser, live_server, client, arbiter)
    browser.open(f"{live_server.url}/rounds/{games[0].round_id}/arbiter/")
    browser.wait_for("document.querySelectorAll('tr[data-game]').length === 3")
    start = "document.querySelector('[data-round-action=\"start\"]').click(); true"

    # Board 3 is decided: no clock times on its row (the others show the time control's).
    browser.wait_for("document.querySelector('[data-clock=\"white\"]').textContent === '1:30:00'")
    assert (
        browser.js(
            "document.querySelector('tr[data-game] + tr + tr [data-clock=\"white\"]').textContent"
        )
        == "–"
    )
    browser.js("window.confirm = () => false; " + start)  # the arbiter says no
    time.sleep(0.5)
    assert not Game.objects.filter(pk__in=[g.pk for g in games], clock__isnull=False).exists()

    browser.js("window.confirm = () => true; " + start)
    browser.wait_for("!document.getElementById('message').hidden")
    message = browser.js("document.getElementById('message').innerText")
    assert message == "Started 2 clocks.", message  # board 3 has its result
    assert Game.objects.filter(pk__in=[g.pk for g in games], status="running").count() == 2

    # Board 1 paused on its own: "Resume all" resumes it and says why board 2 was left alone.
    services.pause_clocks(games[0], by=arbiter, reason="toilet")
    browser.js("document.querySelector('[data-round-action=\"resume\"]').click(); true")
    browser.wait_for("document.getElementById('message').innerText.startsWith('Resumed 1')")
    message = browser.js("document.getElementById('message').innerText")
    assert message.startswith("Resumed 1 clock. Not changed: board 2 ("), message


def test_clock_display_formats():
    # Pure helpers of clock.js, evaluated in the browser (no page needed).
    script = Path(__file__).resolve().parents[2] / "arbiter/web/static/arbiter/clock.js"
    b = Browser(CHROMIUM, free_port())
    try:
        b.js(script.read_text() + "; true")
        fmt = "window.ArbiterClock.format"
        assert b.js(f"{fmt}(9400)") == "0:09.4"  # tenths in the last ten seconds
        assert b.js(f"{fmt}(65000)") == "1:05"
        assert b.js(f"{fmt}(3725000)") == "1:02:05"
        assert b.js(f"{fmt}(-5)") == "0:00.0"  # never below zero: the server records flags
        assert b.js("window.ArbiterClock.parseDuration('1:30:00')") == 5_400_000
        assert b.js("window.ArbiterClock.parseDuration('1:3x')") is None
        # Black runs since the reading at 12:00:00.000; 1.5 s later Black shows 1.5 s less.
        readings = b.js(
            "window.ArbiterClock.readings({white_ms: 60000, black_ms: 30000, running: 'black',"
            " paused: false, server_time: '2026-05-09T12:00:00+00:00'},"
            " Date.parse('2026-05-09T12:00:01.500+00:00'))"
        )
        assert readings == {"white": 60000, "black": 28500}
    finally:
        b.close()


def test_players_clock_page_is_readable_and_counts_down(browser, live_server, running_game, shots):
    game, _ = running_game
    # The tablet's own clock is an hour fast: the page must not care (server time rules).
    browser.call(
        "Page.addScriptToEvaluateOnNewDocument",
        source="(() => { const real = Date.now; Date.now = () => real() + 3600000; })();",
    )
    browser.call(
        "Emulation.setDeviceMetricsOverride",
        width=1280,
        height=800,
        deviceScaleFactor=1,
        mobile=False,
    )
    browser.open(f"{live_server.url}/games/{game.pk}/clock/")  # published: no login needed
    running = "document.querySelector('.pc-face[data-side=\"black\"]')"
    browser.wait_for(f"{running}.classList.contains('running')")
    first = browser.js(f"{running}.querySelector('.time').textContent")
    time.sleep(2.2)
    later = browser.js(f"{running}.querySelector('.time').textContent")
    assert 1.2 <= seconds(first) - seconds(later) <= 4.0, (first, later)
    assert browser.js("document.getElementById('last-move').textContent") == "3. 37-32"
    # What the page shows is what the server says Black has left now (within a poll).
    state = selectors.game_state(selectors.readable_game(game.pk, by=None))
    shown = seconds(browser.js(f"{running}.querySelector('.time').textContent"))
    assert abs(shown - state["clock"]["black_ms"] / 1000) <= 2.0, (shown, state["clock"])
    # Readable from two metres: digits over 100 px high on a 1280x800 tablet, and h:mm:ss
    # fits in its half of the screen.
    box = browser.js(
        f"(() => {{ const t = {running}.querySelector('.time').getBoundingClientRect();"
        f" const f = {running}.getBoundingClientRect();"
        " return {h: t.height, fits: t.left >= f.left && t.right <= f.right}; })()"
    )
    assert box["h"] >= 100 and box["fits"], box
    assert browser.js("document.documentElement.scrollWidth <= window.innerWidth")
    browser.screenshot(shots / "players_clock_page.png")
    # The tablet's screen: "Full screen" asks the browser for it (and leaves it on a second
    # press); the browser's answer is its own, so the request is what is checked here.
    browser.js(
        "window.asked = 0; document.documentElement.requestFullscreen ="
        " () => { window.asked += 1; return Promise.resolve(); };"
        "document.getElementById('fullscreen').click(); true"
    )
    assert browser.js("window.asked") == 1
