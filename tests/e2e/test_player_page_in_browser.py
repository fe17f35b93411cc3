"""Issue 12 in a real (headless) Chromium: a player logs in, lands on their own page, sees their
next pairing (and not a draft round's), confirms the result of their game; the arbiter sees
the round's results agreed by both and accepts them with one button.

Every page is measured at 390 px and 1,280 px (never wider than the window) and checked by
axe-core when it can be had, as in test_desk_in_browser.py.
"""

from __future__ import annotations

import pytest

from arbiter.events.models import AuditEntry, Entry
from arbiter.games import confirmation_selectors as read
from arbiter.games import services
from arbiter.games.services.confirmation import confirm_result

from ..accounts.builders import make_user
from ..games.builders import make_event, make_game, make_player
from .cdp import find_chromium
from .test_desk_in_browser import User, login

CHROMIUM = find_chromium()
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt install chromium)"),
]


def test_fmjd_10_2_a_player_confirms_on_their_page_and_the_arbiter_accepts_all(
    browser, live_server, client, transactional_db, shots, axe
):
    arbiter = make_user("arb")
    event = make_event(time_control="-", arbiter=arbiter, name="Emmen Open", slug="emmen")
    me = make_user("halima", password="a-long-pass-123")
    people = [make_player(me, surname="Okonkwo")]
    people += [make_player(make_user(), surname=n) for n in ("Vermeulen", "Sokolova", "Diallo")]
    for n, p in enumerate(people, start=1):
        Entry.objects.create(event=event, player=p, pairing_number=n)
    mine = make_game(event, white=people[0], black=people[1], board=1)
    other = make_game(event, white=people[2], black=people[3], board=2)
    make_game(
        event, white=people[2], black=people[0], board=5, round_number=2, round_status="draft"
    )
    for game, result in ((mine, "2-0"), (other, "1-1")):
        services.set_result(game, result, by=arbiter)
    for side in ("white", "black"):
        confirm_result(other.pk, by=getattr(other, side).user, result="1-1")
    confirm_result(mine.pk, by=people[1].user, result="2-0")

    # The player logs in with the form and lands on their own page.
    user = User(browser, live_server.url, shots, axe)
    browser.open(live_server.url + "/accounts/login/")
    user.fill({"#id_username": "halima", "#id_password": "a-long-pass-123"})
    browser.js("document.querySelector('main form button[type=submit]').click()")
    browser.wait_for("location.pathname === '/me/' && document.readyState === 'complete'")
    user.check()
    page = user.text()
    assert "Round 1 · board 1 · White against Vermeulen" in page
    assert "2-0, confirmed by black only" in page
    assert "Sokolova" not in page and "board 5" not in page  # round 2 is a draft
    assert "No game waiting for you" in page
    user.press("form.me-confirm button")
    browser.wait_for("document.body.innerText.includes('agreed by both')")
    assert "Confirm 2-0" not in user.text()

    # The arbiter accepts the agreed results of the round with one button.
    browser.call("Network.clearBrowserCookies")
    login(browser, live_server, client, arbiter)
    user.open(f"/rounds/{mine.round_id}/arbiter/")
    button = "document.getElementById('accept-all')"
    browser.wait_for(f"{button}.textContent.includes('Accept the 2 agreed results')")
    browser.js(f"{button}.click()")
    browser.wait_for("document.getElementById('confirm-message').textContent.includes('Accepted')")
    assert "Accepted boards 1, 2." in browser.js(
        "document.getElementById('confirm-message').textContent"
    )
    browser.wait_for(f"{button}.disabled && document.body.innerText.includes('accepted by arb')")
    approvals = AuditEntry.objects.filter(action=read.APPROVE)
    assert sorted(a.new["game_id"] for a in approvals) == sorted([mine.pk, other.pk])
    assert {a.user for a in approvals} == {arbiter}
