"""The public game page in a real (headless) Chromium at 390 px: nothing wider than the
screen, and the diagram steps through the moves with the buttons, the arrow keys and a tap
on a move."""

from __future__ import annotations

import pytest

from arbiter.events.models import Round
from arbiter.games.services import set_result
from tests.accounts.builders import make_user
from tests.games.builders import make_event, make_game, make_player
from tests.rules.test_notation_sheet import played_game

from ..games.pdn_builders import played
from .cdp import find_chromium

CHROMIUM = find_chromium()
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt install chromium)"),
]


def test_public_game_page_at_390_px_steps_through_the_moves(phone, live_server, transactional_db):
    arbiter = make_user()
    event = make_event(arbiter=arbiter)
    game = make_game(
        event, board=1, white=make_player(surname="Boomstra"), black=make_player(surname="Jansen")
    )
    Round.objects.filter(pk=game.round_id).update(status=Round.Status.PUBLISHED)
    played(game, played_game(30), [(600_000 - 1000 * i, 600_000 - 900 * i) for i in range(30)])
    set_result(game, "2-0", by=arbiter, termination="resigned")
    phone.open(f"{live_server.url}/events/{event.slug}/rounds/1/boards/1/")
    phone.wait_for("document.querySelector('#viewer-diagram svg') !== null")
    assert phone.js("document.documentElement.scrollWidth") <= 390
    current = "document.querySelector('[aria-current=step]')?.dataset.ply || '0'"
    assert phone.js(current) == "30"
    phone.js("document.querySelector('[data-step=first]').click()")
    assert phone.js(current) == "0"
    assert phone.js("document.querySelectorAll('#viewer-diagram circle').length") == 40
    phone.js("document.querySelector('[data-step=next]').click()")
    assert phone.js(current) == "1"
    phone.js(
        "document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}))"
    )
    assert phone.js(current) == "2"
    phone.js("document.querySelector('[data-ply=\"17\"]').click()")
    assert phone.js(current) == "17"
    assert "ply 17 of 30" in phone.js("document.getElementById('viewer-now').textContent")
    phone.js("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'End', bubbles: true}))")
    assert phone.js(current) == "30"


def test_import_progress_bar_moves_in_the_browser(phone, live_server, client, transactional_db):
    from arbiter.games.models import PdnImport
    from arbiter.games.services import pdn_import

    arbiter = make_user("importer")
    event = make_event(arbiter=arbiter)
    job = pdn_import.upload(event.pk, b'[White "A"]\n[Black "B"]\n\n1. 32-28 *\n', by=arbiter)
    PdnImport.objects.filter(pk=job.pk).update(status="reading", done=40, total=100)
    client.force_login(arbiter)
    phone.call(
        "Network.setCookie",
        name="sessionid",
        value=client.cookies["sessionid"].value,
        url=live_server.url,
    )
    phone.open(f"{live_server.url}/events/{event.slug}/manage/pdn/{job.pk}/")
    phone.wait_for("document.getElementById('import-progress') !== null")
    PdnImport.objects.filter(pk=job.pk).update(done=75)
    phone.wait_for("document.getElementById('import-progress').value === 75")
    assert "75 of 100 games read (75%)" in phone.js(
        "document.getElementById('import-count').textContent"
    )
    wide = phone.js(
        "Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect()"
        ".right > 391).map(e => e.tagName + '.' + e.className + '#' + e.id + ':' + "
        "Math.round(e.getBoundingClientRect().right) + ':' + getComputedStyle(e).flexWrap)"
        ".slice(0, 8).join(' ') + ' inner ' + window.innerWidth"
    )
    assert phone.js("document.documentElement.scrollWidth") <= 390, wide
    PdnImport.objects.filter(pk=job.pk).update(status="pending", done=0)
    pdn_import.read_import(job.pk)  # the task's work: the page sees it done and reloads
    phone.wait_for(
        "!!document.body && document.body.textContent.includes('games: 0 new')", timeout=20
    )
