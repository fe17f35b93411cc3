"""The board's tablet in a real (headless) Chromium against a live server: bound with the
link's one-time code, moves tapped on the diagram and pressed, an illegal tap refused there,
a draw offered and accepted, presses alone where the event takes the moves from the sheets, a
claim refused with its explanation, a resignation, a flag shown without reload, and a press made while the network
was down sent again once it is back and applied once.

Skipped where no Chromium is installed; ARBITER_SCREENSHOT_DIR keeps the screenshots.
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from arbiter.accounts import devices
from arbiter.events.models import AuditEntry, Round
from arbiter.games import services
from arbiter.games.confirmation_selectors import game_confirmation
from arbiter.games.models import EndingRules, Game, Move
from arbiter.runtime.localservices import free_port
from tests.accounts.builders import make_user

from ..games.builders import make_event, make_game, make_player
from .cdp import Browser, find_chromium

CHROMIUM = find_chromium()
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt install chromium)"),
]


@pytest.fixture
def tablet():
    b = Browser(CHROMIUM, free_port(), width=768, height=1024)
    yield b
    b.close()


def board_game(time_control="5400+30"):
    arbiter = make_user("chief")
    event = make_event(time_control=time_control, arbiter=arbiter, published=True)
    EndingRules.objects.create(event=event, offer_min_moves=1)
    game = make_game(
        event, board=4, white=make_player(surname="Boomstra"), black=make_player(surname="Georgiev")
    )
    Round.objects.filter(pk=game.round_id).update(
        status=Round.Status.PUBLISHED, scheduled_start=timezone.now()
    )
    return game, arbiter


def bind(browser, live_server, game, arbiter):
    binding = devices.new_binding(game, by=arbiter)
    browser.open(f"{live_server.url}/tablet/?code={binding.link}")
    browser.wait_for(f"location.pathname === '/games/{game.pk}/clock/'")
    browser.wait_for("document.querySelector('.player-clock').classList.contains('tablet')")


def tap(browser, square: int) -> None:
    browser.wait_for(f"!!document.querySelector('#diagram [data-square=\"{square}\"]')")
    browser.js(
        f"document.querySelector('#diagram [data-square=\"{square}\"]')"
        ".dispatchEvent(new MouseEvent('click', {bubbles: true})); true"
    )


def running(browser, side: str) -> None:
    browser.wait_for(
        f"document.querySelector('.pc-face[data-side=\"{side}\"]').classList.contains('running')"
    )


def play(browser, game, ply: int, move: str, side: str) -> None:
    start, end = move.replace("x", "-").split("-")[0], move.replace("x", "-").split("-")[-1]
    running(browser, side)
    tap(browser, int(start))
    tap(browser, int(end))
    browser.wait_for(f"document.getElementById('chosen').textContent.includes('{move}')")
    browser.js(f"document.querySelector('[data-press=\"{side}\"]').click(); true")
    browser.wait_for(f"document.getElementById('last-move').textContent.includes('{move}')")
    assert Game.objects.get(pk=game.pk).ply == ply


def stored_running(game, side: str, timeout: float = 10) -> None:
    import time

    deadline = time.monotonic() + timeout
    while Game.objects.get(pk=game.pk).clock.running != side:
        assert time.monotonic() < deadline, f"{side}'s clock is not running on the server"
        time.sleep(0.1)


def confirm(browser) -> None:
    browser.wait_for("!document.getElementById('confirm').hidden")
    browser.js("document.getElementById('confirm-yes').click(); true")


def test_a_bound_tablet_plays_moves_refuses_an_illegal_tap_and_draws_by_agreement(
    tablet,
    live_server,
    transactional_db,
    shots,
):
    game, arbiter = board_game()
    bind(tablet, live_server, game, arbiter)
    tablet.wait_for("document.getElementById('banner').textContent.includes('not started')")
    services.start_clocks(game, by=arbiter, reason="round starts")
    play(tablet, game, 1, "32-28", "white")
    running(tablet, "black")
    # An illegal tap is refused on the diagram: no request is sent.
    tap(tablet, 19)
    tap(tablet, 25)
    tablet.wait_for("document.getElementById('message').textContent.includes('Not a legal move')")
    assert "19 cannot go to 25" in tablet.js("document.getElementById('message').textContent")
    # Pressing without a move is refused too (the event requires moves).
    tablet.js("document.querySelector('[data-press=\"black\"]').click(); true")
    tablet.wait_for("document.getElementById('message').textContent.includes('Tap your piece')")
    # Pressing the other side's clock is refused in words.
    tablet.js("document.querySelector('[data-press=\"white\"]').click(); true")
    tablet.wait_for("document.getElementById('message').textContent.includes(\"Black's clock\")")
    assert Move.objects.filter(game=game).count() == 1
    play(tablet, game, 2, "19-23", "black")
    play(tablet, game, 3, "28x19", "white")
    play(tablet, game, 4, "14x23", "black")
    tablet.screenshot(shots / "tablet-768x1024.png")
    game.refresh_from_db()
    assert game.clock.log.filter(action="lag").count() <= 4  # a loopback press: little or none
    # FMJD 7.3.1: Black has moved and offers a draw; White accepts on the same tablet.
    tablet.wait_for("!document.querySelector('[data-act=\"offer\"]').hidden")
    assert tablet.js("document.querySelector('[data-act=\"offer\"]').textContent") == (
        "Black offers a draw"
    )
    tablet.js("document.querySelector('[data-act=\"offer\"]').click(); true")
    confirm(tablet)
    tablet.wait_for("!document.querySelector('[data-act=\"accept\"]').hidden")
    # The arbiter's round page shows at once that an act waits on this board.
    from arbiter.games import presentation

    rows = presentation.round_state(game.round)["games"]
    assert rows[0]["acts_pending"] is True
    tablet.js("document.querySelector('[data-act=\"accept\"]').click(); true")
    confirm(tablet)
    tablet.wait_for("document.getElementById('banner').textContent.includes('1-1')")
    game.refresh_from_db()
    assert (game.result, game.termination) == ("1-1", "agreed_draw")
    acts = list(
        AuditEntry.objects.filter(action__startswith="game.draw")
        .order_by("pk")
        .values_list("action", "user__username")
    )
    assert [a for a, _ in acts] == ["game.draw_offer", "game.draw_accept"]
    assert all(user.startswith("tablet-") for _, user in acts)
    # Both players confirm the result on the tablet: "1-1, agreed by both" (FMJD 10.2).
    for side in ("white", "black"):
        tablet.wait_for("!document.getElementById('confirm-result').hidden")
        tablet.js(
            f'document.querySelector(\'[data-act="confirm"][data-side="{side}"]\').click(); true'
        )
        confirm(tablet)
        tablet.wait_for(
            f"document.getElementById('message').textContent.includes('{side.title()} confirmed')"
        )
    assert "agreed by both" in tablet.js("document.getElementById('message').textContent")
    assert game_confirmation(game)["status"] == "agreed"
    tablet.screenshot(shots / "tablet-over-768x1024.png")


def test_the_flag_shows_without_reload_and_the_page_fits_a_phone(
    phone,
    live_server,
    transactional_db,
    shots,
):
    game, arbiter = board_game(time_control="4")  # four seconds each
    bind(phone, live_server, game, arbiter)
    services.start_clocks(game, by=arbiter, reason="round starts")
    running(phone, "white")
    # Nothing wider than the screen (headless Chromium's window is at least 500 px wide).
    assert phone.js("document.documentElement.scrollWidth <= window.innerWidth")
    phone.wait_for("document.getElementById('banner').textContent.includes('FLAG')", timeout=15)
    assert phone.js(
        "document.querySelector('.pc-face[data-side=\"white\"]').classList.contains('flag')"
    )
    phone.wait_for(
        "document.getElementById('banner').textContent.includes('Game over')", timeout=10
    )
    phone.screenshot(shots / "tablet-flag-390x844.png")
    assert Game.objects.get(pk=game.pk).flag_side == "white"


def test_a_press_while_the_network_is_down_is_sent_again_and_applied_once(
    tablet, live_server, transactional_db
):
    game, arbiter = board_game()
    bind(tablet, live_server, game, arbiter)
    services.start_clocks(game, by=arbiter, reason="round starts")
    running(tablet, "white")
    tap(tablet, 32)
    tap(tablet, 28)
    tablet.wait_for("document.getElementById('chosen').textContent.includes('32-28')")
    tablet.call("Network.enable")
    tablet.call(
        "Network.emulateNetworkConditions",
        offline=True,
        latency=0,
        downloadThroughput=-1,
        uploadThroughput=-1,
    )
    tablet.wait_for("!document.getElementById('net').hidden", timeout=5)
    tablet.js("document.querySelector('[data-press=\"white\"]').click(); true")
    # The tablet counts on: Black's clock runs here while nothing reaches the server.
    running(tablet, "black")
    tablet.wait_for("document.getElementById('net').textContent.includes('sent again')")
    assert Move.objects.filter(game=game).count() == 0
    tablet.call(
        "Network.emulateNetworkConditions",
        offline=False,
        latency=0,
        downloadThroughput=-1,
        uploadThroughput=-1,
    )
    tablet.wait_for("document.getElementById('net').hidden", timeout=10)
    tablet.wait_for("document.getElementById('last-move').textContent.includes('32-28')")
    moves = list(Move.objects.filter(game=game))
    assert len(moves) == 1 and moves[0].notation == "32-28"
    assert Game.objects.get(pk=game.pk).clock.running == "black"


def test_presses_alone_then_a_refused_claim_and_a_resignation_on_the_tablet(
    tablet, live_server, transactional_db, settings, shots
):
    # An event that takes the moves from the notation sheets: a press only charges the clock.
    settings.CELERY_TASK_ALWAYS_EAGER = True  # the claim's decision, as the worker makes it
    game, arbiter = board_game()
    type(game.round.event).objects.filter(pk=game.round.event_id).update(
        tablet_moves_required=False
    )
    bind(tablet, live_server, game, arbiter)
    services.start_clocks(game, by=arbiter, reason="round starts")
    running(tablet, "white")
    tablet.js("document.querySelector('[data-press=\"white\"]').click(); true")
    running(tablet, "black")
    # the answer is back (no press "sending…"): the next press may go
    tablet.wait_for(
        "document.querySelector('.pc-face[data-side=\"black\"] .pc-hint').textContent"
        " === 'press here after your move'"
    )
    tablet.js("document.querySelector('[data-press=\"black\"]').click(); true")
    running(tablet, "white")
    stored_running(game, "white")
    game.refresh_from_db()
    assert game.clock.running == "white" and not Move.objects.filter(game=game).exists()
    # FMJD 6.1: White claims a third repetition that has not happened: refused, in words.
    tablet.js("document.getElementById('claim-side').value = 'white'; true")
    tablet.js("document.getElementById('claim-article').value = '6.1'; true")
    tablet.js("document.querySelector('[data-act=\"claim\"]').click(); true")
    confirm(tablet)
    tablet.wait_for("document.getElementById('message').textContent.includes('is refused')")
    assert game.claims.get().status == "refused"
    # FMJD 7.2.1: Black resigns on the tablet; the game ends 2-0 at once.
    tablet.js('document.querySelector(\'[data-act="resign"][data-side="black"]\').click(); true')
    confirm(tablet)
    tablet.wait_for("document.getElementById('banner').textContent.includes('2-0')")
    game.refresh_from_db()
    assert (game.result, game.termination) == ("2-0", "resigned")
    tablet.screenshot(shots / "tablet-resigned-768x1024.png")
